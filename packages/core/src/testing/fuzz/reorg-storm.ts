import fc from 'fast-check';
import { pino } from 'pino';
import { encodeFunctionData, erc20Abi, parseAbiItem, toEventSelector, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '../../devchain/index.js';
import { rpcCall } from '../../devchain/rpc.js';
import type { ReorgEvent } from '../../events/index.js';
import { createExplorer, type Explorer } from '../../explorer.js';
import { asText } from '../../http/index.js';
import type { Storage } from '../../storage/index.js';
import { waitFor, type ServedApi } from '../api/context.js';
import { connect, type ClientSocketClass, type TestClient } from '../sockets/client.js';
import { reorgReproTests } from './reorg-repros.js';
import type { ReorgSuiteOptions } from './reorg-run.js';
import { fuzzSeed } from './seed.js';

export type { ReorgSuiteOptions } from './reorg-run.js';

/** One reorg of the plan: blocks added before it, blocks it replaces, blocks of the branch that wins. */
interface ReorgStep {
  before: number;
  depth: number;
  replacement: number;
}

/** A reorg as the node made it: the block it went back to and the hashes it dropped. */
interface MadeReorg {
  ancestor: bigint;
  removed: Hex[];
}

/** The reorgs made, and the transactions of the blocks they dropped (the node forgets them). */
interface PlanOutcome {
  made: MadeReorg[];
  orphanedTransactions: Hex[];
}

/** Where reorg notifications are observed: the hub, and a WebSocket subscriber of `blocks`. */
interface ReorgWitness {
  name: string;
  seen(): readonly ReorgEvent[];
}

const TRANSFER = toEventSelector(parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'));

/**
 * Seeded reorgs of depth 1 to 10 (anvil `evm_snapshot`/`evm_revert`), each replacing blocks that
 * hold native and token transfers, against a storage backend: afterwards everything the API
 * serves (blocks, transactions, logs, token transfers and holders' balances, account lists)
 * equals the node's canonical chain, and every reorg was announced.
 */
export function reorgSuite(options: ReorgSuiteOptions): void {
  const count = options.reorgs ?? 50;
  describe(`reorg storm (${options.name})`, () => {
    reorgReproTests(options);
    const seed = fuzzSeed();
    it(`serves only the canonical chain after ${count} seeded reorgs of depth 1 to 10 (seed ${seed}), and announces each`, async () => {
      const plan = fc.sample(fc.record({ before: fc.integer({ min: 0, max: 3 }), depth: fc.integer({ min: 1, max: 10 }), replacement: fc.integer({ min: 1, max: 12 }) }), { seed, numRuns: count });
      const chain = await createTestChain();
      let explorer: Explorer | undefined;
      let served: ServedApi | undefined;
      let subscriber: TestClient | undefined;
      try {
        const demo = await deployDemo({ rpcUrl: chain.rpcUrl });
        explorer = await createExplorer({
          rpcUrl: chain.rpcUrl,
          storage: await options.storage(),
          logger: pino({ level: 'silent' }),
          indexer: { pollIntervalMs: 10, retryBaseMs: 20, maxBackoffMs: 200 },
          rateLimits: { enabled: false },
        });
        const hubEvents: ReorgEvent[] = [];
        explorer.hub.on('reorg', (event) => hubEvents.push(event));
        served = await options.serve(explorer);
        subscriber = await connect(options.WebSocket, `${served.url.replace(/^http/, 'ws')}/ws`);
        await subscriber.subscribe('blocks');
        const notices = () => subscriber!.messages.filter((message) => message.event === 'reorg').map(({ data }) => asReorgEvent(data));
        const witnesses: ReorgWitness[] = [
          { name: 'hub', seen: () => hubEvents },
          { name: 'websocket', seen: notices },
        ];
        await explorer.start();
        const { made, orphanedTransactions } = await runPlan(chain, demo, explorer, plan);
        await expectCanonical(chain, demo, explorer, orphanedTransactions);
        await waitFor(() => notices().length >= made.length || null, `${made.length} reorg notices over WebSocket`);
        for (const witness of witnesses) {
          expect(witness.seen().map(asMade), witness.name).toEqual(made);
        }
      } finally {
        subscriber?.close();
        await served?.close();
        await explorer?.close();
        await chain.close();
      }
    }, 240_000);
  });
}

/** A WebSocket reorg notice's data as the hub's event (its block number travels as a string). */
function asReorgEvent(data: { commonAncestor: { blockNumber: string; blockHash: Hex }; removedBlockHashes: Hex[] }): ReorgEvent {
  return { commonAncestor: { blockNumber: BigInt(data.commonAncestor.blockNumber), blockHash: data.commonAncestor.blockHash }, removedBlockHashes: data.removedBlockHashes };
}

function asMade(event: ReorgEvent): MadeReorg {
  return { ancestor: event.commonAncestor.blockNumber, removed: event.removedBlockHashes };
}

/** Makes the planned reorgs, each once the explorer has indexed the branch it replaces. */
async function runPlan(chain: TestChain, demo: DemoDeployment, explorer: Explorer, plan: ReorgStep[]): Promise<PlanOutcome> {
  const rpc = <T>(method: string, params: unknown[] = []) => rpcCall<T>(chain.rpcUrl, method, params);
  await rpc('evm_setAutomine', [false]);
  let sequence = 0;
  const mine = async (blocks: number) => {
    for (let block = 0; block < blocks; block++) {
      // Values that never repeat: a replaced block never comes back with the same hash.
      sequence++;
      const to = demo.accounts[1 + (sequence % 9)]!;
      await rpc('eth_sendTransaction', [{ from: demo.accounts[1 + ((sequence + 3) % 9)], to, value: `0x${(1_000 + sequence).toString(16)}` }]);
      if (sequence % 2 === 0) {
        const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to as Hex, BigInt(sequence)] });
        await rpc('eth_sendTransaction', [{ from: demo.accounts[0], to: demo.contracts.token, data }]);
      }
      await rpc('evm_mine');
    }
  };
  const headOf = async () => rpc<{ number: Hex; hash: Hex }>('eth_getBlockByNumber', ['latest', false]);
  const indexed = async () => {
    const head = await headOf();
    await waitFor(async () => (await explorer.storage.getCursor())?.hash === head.hash, `indexing block ${BigInt(head.number)}`);
  };
  const made: MadeReorg[] = [];
  const orphanedTransactions: Hex[] = [];
  for (const step of plan) {
    await mine(step.before);
    const ancestor = BigInt((await headOf()).number);
    const snapshot = await rpc<Hex>('evm_snapshot');
    await mine(step.depth);
    await indexed();
    const dropped = await Promise.all(Array.from({ length: step.depth }, (_, i) => rpc<NodeBlock>('eth_getBlockByNumber', [`0x${(ancestor + BigInt(i) + 1n).toString(16)}`, true])));
    await rpc('evm_revert', [snapshot]);
    await mine(step.replacement);
    await indexed();
    made.push({ ancestor, removed: dropped.map((block) => block.hash).reverse() });
    orphanedTransactions.push(...dropped.flatMap((block) => block.transactions.map((tx) => tx.hash)));
  }
  return { made, orphanedTransactions };
}

/** What the kernel answers for a GET, decoded (the API as served, without an adapter in between). */
async function apiGet<T = any>(explorer: Explorer, url: string): Promise<{ status: number; result: T }> {
  const response = await explorer.kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' });
  return { status: response.status, result: (JSON.parse(asText(response).body) as { result: T }).result };
}

interface NodeBlock {
  hash: Hex;
  transactions: { hash: Hex; from: Hex; to: Hex | null }[];
}

/** Everything the API serves about blocks, transactions, logs, transfers and balances is the node's canonical chain. */
async function expectCanonical(chain: TestChain, demo: DemoDeployment, explorer: Explorer, orphanedTransactions: Hex[]): Promise<void> {
  const rpc = <T>(method: string, params: unknown[] = []) => rpcCall<T>(chain.rpcUrl, method, params);
  const head = BigInt(await rpc<Hex>('eth_blockNumber'));
  const blocks: NodeBlock[] = [];
  for (let n = 0n; n <= head; n++) blocks.push(await rpc<NodeBlock>('eth_getBlockByNumber', [`0x${n.toString(16)}`, true]));

  for (const [n, block] of blocks.entries()) {
    const served = await apiGet(explorer, `/api/v1/block/getblock?blockno=${n}`);
    expect({ hash: served.result.hash, transactions: served.result.transactions }, `block ${n}`).toEqual({ hash: block.hash, transactions: block.transactions.map((tx) => tx.hash) });
  }
  const canonical = blocks.flatMap((block) => block.transactions);
  for (const tx of canonical.slice(-200)) {
    const [served, logs, receipt] = await Promise.all([
      apiGet(explorer, `/api/v1/transaction/${tx.hash}`),
      apiGet<unknown[]>(explorer, `/api/v1/transaction/${tx.hash}/logs`),
      rpc<{ blockHash: Hex; logs: unknown[] }>('eth_getTransactionReceipt', [tx.hash]),
    ]);
    expect(served.result.blockHash, tx.hash).toBe(receipt.blockHash);
    expect(logs.result, tx.hash).toHaveLength(receipt.logs.length);
  }
  // Transactions of replaced blocks that the winning branch does not hold are gone.
  const canonicalHashes = new Set(canonical.map((tx) => tx.hash));
  const orphaned = orphanedTransactions.filter((hash) => !canonicalHashes.has(hash));
  // Each replaced block carried transactions of its own, which no winning branch repeats.
  expect(orphaned).toEqual(orphanedTransactions);
  expect(orphaned.length).toBeGreaterThan(0);
  for (const hash of orphaned) {
    expect((await apiGet(explorer, `/api/v1/transaction/${hash}`)).status, hash).toBe(404);
    expect((await apiGet(explorer, `/api/v1/transaction/${hash}/logs`)).status, hash).toBe(404);
  }
  expect((await explorer.storage.getChainTotals()).totalTransactions).toBe(canonical.length);

  // Token transfers and holders' balances: exactly the canonical Transfer events and balanceOf.
  const token = demo.contracts.token.toLowerCase();
  const logs = await rpc<{ transactionHash: Hex; logIndex: Hex; topics: Hex[] }[]>('eth_getLogs', [{ address: token, topics: [TRANSFER], fromBlock: '0x0', toBlock: `0x${head.toString(16)}` }]);
  const servedTransfers: { hash: string; logIndex: string }[] = [];
  for (let page = 1; ; page++) {
    const { result } = await apiGet<{ hash: string; logIndex: string }[]>(explorer, `/api/v1/token/${token}/transfers?offset=100&page=${page}&sort=asc`);
    servedTransfers.push(...result);
    if (result.length < 100) break;
  }
  expect(servedTransfers.map((transfer) => `${transfer.hash}:${BigInt(transfer.logIndex)}`).sort()).toEqual(logs.map((log) => `${log.transactionHash}:${BigInt(log.logIndex)}`).sort());
  const holders = (await apiGet<{ holders: { address: string; balance: string }[] }>(explorer, `/api/v1/token/${token}/holders?offset=100`)).result.holders;
  const parties = new Set(logs.flatMap((log) => log.topics.slice(1, 3).map((topic) => `0x${topic.slice(26)}`)));
  parties.delete(`0x${'0'.repeat(40)}`);
  const balances = await Promise.all(
    [...parties].map(async (address) => ({ address, balance: BigInt(await rpc<Hex>('eth_call', [{ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [address as Hex] }) }, `0x${head.toString(16)}`])).toString() })),
  );
  const expectedHolders = balances.filter((holder) => holder.balance !== '0').sort((a, b) => a.address.localeCompare(b.address));
  expect(holders.map((holder) => ({ address: holder.address.toLowerCase(), balance: holder.balance })).sort((a, b) => a.address.localeCompare(b.address))).toEqual(expectedHolders);

  // Each account's transaction list: exactly its canonical transactions.
  for (const account of demo.accounts) {
    const { result } = await apiGet<{ hash: Hex }[]>(explorer, `/api/v1/account/txlist?address=${account}&offset=1000`);
    const own = canonical.filter((tx) => tx.from.toLowerCase() === account.toLowerCase() || tx.to?.toLowerCase() === account.toLowerCase());
    expect(result.map((tx) => tx.hash).sort(), account).toEqual(own.map((tx) => tx.hash).sort());
  }
}
