import {
  createPublicClient,
  createWalletClient,
  http,
  type Chain,
  type PublicClient,
  type Transport,
  type WalletClient,
} from 'viem';
import type { HDAccount } from 'viem/accounts';
import { devAccounts } from './accounts.js';
import { startAnvil, type AnvilInstance, type AnvilOptions } from './anvil.js';
import { devChain } from './dev-chain.js';

/** A fresh anvil node with ready-made viem clients, from {@link createTestChain}. */
export interface TestChain {
  anvil: AnvilInstance;
  rpcUrl: string;
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
  /** Wallet client of dev account 0. */
  walletClient: WalletClient<Transport, Chain, HDAccount>;
  /** Wallet clients of all ten dev accounts, in anvil's order. */
  walletClients: WalletClient<Transport, Chain, HDAccount>[];
  /** The ten funded dev accounts (local, so signing happens in-process). */
  accounts: HDAccount[];
  /** Stops anvil. */
  close(): Promise<void>;
}

/**
 * Starts anvil (automine unless `options.blockTime` is set) and connects viem clients with a
 * short polling interval so `waitForTransactionReceipt` returns promptly, and no caching.
 * Pair with `afterAll`: `const chain = await createTestChain(); afterAll(() => chain.close());`.
 */
export async function createTestChain(options: AnvilOptions = {}): Promise<TestChain> {
  const anvil = await startAnvil(options);
  try {
    const chain = await devChain(anvil.rpcUrl);
    const transport = http(anvil.rpcUrl);
    const accounts = devAccounts();
    const walletClients = accounts.map((account) =>
      createWalletClient({ account, chain, transport, pollingInterval: 50 }),
    );
    return {
      anvil,
      rpcUrl: anvil.rpcUrl,
      chain,
      // cacheTime 0: tests compare block numbers across steps; viem would reuse stale ones.
      publicClient: createPublicClient({ chain, transport, pollingInterval: 50, cacheTime: 0 }),
      walletClient: walletClients[0]!,
      walletClients,
      accounts,
      close: () => anvil.stop(),
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
