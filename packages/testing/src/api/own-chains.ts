import { pino } from 'pino';
import type { Abi, Address } from 'viem';
import { afterEach } from 'vitest';
import { createExplorer, type ExplorerConfig } from '@chainlens/core';
import { compileContracts, createTestChain, type TestChain } from '@chainlens/devchain';
import { FAST_INDEXER } from '../explorer-settings.js';
import { indexedToHead, type ApiContext } from './context.js';

/** Chains and explorers a test makes for itself, beside the suite's shared ones. */
export interface OwnChains {
  /** A fresh anvil of the test's own, for crowds the shared demo chain must not see; stopped after the test. */
  ownChain(): Promise<TestChain>;
  /**
   * An explorer of the test's own with `config` (no price source unless given) on `chain`, the
   * suite's by default, with the suite's storage and adapter, indexed to the head; closed after
   * the test. The context keeps the suite's demo, which only describes the suite's chain.
   */
  ownExplorer(config: Partial<ExplorerConfig>, chain?: TestChain): Promise<ApiContext>;
}

/** {@link OwnChains} for the tests of the calling `describe`: what each test made is closed after it. */
export function ownChains(ctx: () => ApiContext): OwnChains {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return {
    async ownChain() {
      const chain = await createTestChain();
      closers.push(() => chain.close());
      return chain;
    },
    async ownExplorer(config, chain = ctx().chain) {
      const explorer = await createExplorer({
        rpcUrl: chain.rpcUrl,
        storage: await ctx().options.storage(),
        logger: pino({ level: 'silent' }),
        indexer: FAST_INDEXER,
        rateLimits: { enabled: false },
        ...config,
      });
      const served = await ctx().options.serve(explorer);
      const close = async () => {
        await served.close();
        await explorer.close();
      };
      closers.push(close);
      await explorer.start();
      const own: ApiContext = { ...ctx(), chain, explorer, url: served.url, close };
      await indexedToHead(own);
      return own;
    },
  };
}

/** Deploys `name` from `sources` on `chain` from dev account 0; resolves its address. */
export async function deployContract(chain: TestChain, sources: Record<string, string>, name: string, args: unknown[] = []): Promise<Address> {
  const { abi, bytecode } = (await compileContracts(sources))[name]!;
  const hash = await chain.walletClient.deployContract({ abi: abi as Abi, bytecode, args });
  return (await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).contractAddress!;
}
