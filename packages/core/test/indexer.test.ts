import { createExplorer, TransactionNotFoundError, type Explorer, type ReorgEvent, type Storage } from '@chainlens/core';
import { startAnvil, type AnvilInstance } from '@chainlens/devchain';
import { memoryStorage } from '@chainlens/storage-memory';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@chainlens/testing';
import { chainHash, rpc, sendTransfers } from './helpers.js';

const silent = pino({ level: 'silent' });
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function anvil(options: Parameters<typeof startAnvil>[0] = {}): Promise<AnvilInstance> {
  const instance = await startAnvil(options);
  cleanups.push(() => instance.stop());
  return instance;
}

async function explorer(rpcUrl: string, storage: Storage = memoryStorage()): Promise<Explorer> {
  const instance = await createExplorer({
    rpcUrl,
    storage,
    logger: silent,
    indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 200 },
    pending: { pollIntervalMs: 20 },
    http: { upstreamTimeoutMs: 2_000 },
  });
  cleanups.push(() => instance.close());
  return instance;
}

async function indexedTo(instance: Explorer, url: string): Promise<bigint> {
  const head = BigInt(await rpc<string>(url, 'eth_blockNumber'));
  await waitFor(async () => (await instance.storage.getCursor())?.number === head, `indexing to ${head}`, 20_000);
  return head;
}

/** Every stored block from 0 to `head` has the node's hash. */
async function expectStorageMatchesChain(instance: Explorer, url: string, head: bigint): Promise<void> {
  for (let n = 0n; n <= head; n++) {
    expect((await instance.storage.getBlockByNumber(n))?.hash, `block ${n}`).toBe(await chainHash(url, n));
  }
}

describe('indexer', () => {
  it('indexes every block and transaction to the head, then follows new blocks', async () => {
    const node = await anvil();
    const first = await sendTransfers(node.rpcUrl, 5);
    const app = await explorer(node.rpcUrl);
    await app.start();
    await indexedTo(app, node.rpcUrl);
    const later = await sendTransfers(node.rpcUrl, 3, 2, 3);
    const head = await indexedTo(app, node.rpcUrl);
    await expectStorageMatchesChain(app, node.rpcUrl, head);
    for (const hash of [...first, ...later]) expect(await app.storage.getTransaction(hash)).not.toBeNull();
    expect((await app.storage.getChainTotals()).totalTransactions).toBe(8);
  });

  it('rolls back to the common ancestor on a reorg and re-ingests the new branch', async () => {
    const node = await anvil();
    await sendTransfers(node.rpcUrl, 3);
    const snapshot = await rpc<string>(node.rpcUrl, 'evm_snapshot');
    const orphaned = await sendTransfers(node.rpcUrl, 4, 0, 1);
    const app = await explorer(node.rpcUrl);
    const reorgs: ReorgEvent[] = [];
    app.hub.on('reorg', (event) => reorgs.push(event));
    await app.start();
    const oldHead = await indexedTo(app, node.rpcUrl);
    const removedHashes = await Promise.all([4n, 5n, 6n, 7n].map((n) => chainHash(node.rpcUrl, n)));
    // Served once before the reorg, so kept by the services' record cache.
    for (const hash of orphaned) expect((await app.services.transactions.get(hash)).hash).toBe(hash);
    expect((await app.services.blocks.getBlock(4n)).hash).toBe(removedHashes[0]);

    await rpc(node.rpcUrl, 'evm_revert', [snapshot]);
    await rpc(node.rpcUrl, 'evm_increaseTime', [7]);
    const replacement = await sendTransfers(node.rpcUrl, 6, 4, 5);
    const head = await indexedTo(app, node.rpcUrl);
    await waitFor(async () => (await app.storage.getBlockByNumber(oldHead))?.hash === (await chainHash(node.rpcUrl, oldHead)), 'the new branch at the old head');

    await expectStorageMatchesChain(app, node.rpcUrl, head);
    for (const hash of orphaned) expect(await app.storage.getTransaction(hash)).toBeNull();
    for (const hash of orphaned) await expect(app.services.transactions.get(hash)).rejects.toThrow(TransactionNotFoundError);
    expect((await app.services.blocks.getBlock(4n)).hash).toBe(await chainHash(node.rpcUrl, 4n));
    for (const hash of replacement) expect(await app.storage.getTransaction(hash)).not.toBeNull();
    expect(reorgs).toHaveLength(1);
    expect(reorgs[0]!.commonAncestor.blockNumber).toBe(3n);
    expect([...reorgs[0]!.removedBlockHashes].sort()).toEqual([...removedHashes].sort());
    expect((await app.storage.getChainTotals()).totalTransactions).toBe(9);
  });

  it('resumes from the stored cursor after a restart without rewriting a block', async () => {
    const node = await anvil();
    await sendTransfers(node.rpcUrl, 4);
    const storage = memoryStorage();
    const firstRun = await createExplorer({ rpcUrl: node.rpcUrl, storage, logger: silent, indexer: { pollIntervalMs: 20 } });
    await firstRun.start();
    const firstHead = await indexedTo(firstRun, node.rpcUrl);
    await firstRun.indexer.stop();

    await sendTransfers(node.rpcUrl, 3);
    const written: bigint[] = [];
    const writeBlocks = storage.writeBlocks.bind(storage);
    storage.writeBlocks = async (bundles) => {
      written.push(...bundles.map((bundle) => bundle.block.number));
      return writeBlocks(bundles);
    };
    const secondRun = await explorer(node.rpcUrl, storage);
    await secondRun.start();
    const head = await indexedTo(secondRun, node.rpcUrl);
    expect(written).toEqual([firstHead + 1n, firstHead + 2n, firstHead + 3n]);
    await expectStorageMatchesChain(secondRun, node.rpcUrl, head);
  });

  it('survives an upstream outage: degraded health, reads still served, then catches up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chainlens-outage-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const node = await anvil({ statePath: join(dir, 'state.json') });
    const [hash] = await sendTransfers(node.rpcUrl, 3);
    const app = await explorer(node.rpcUrl);
    await app.start();
    await indexedTo(app, node.rpcUrl);
    expect((await app.services.health.check()).status).toBe('ok');

    await node.stop();
    await waitFor(async () => (await app.services.health.check()).status === 'degraded', 'degraded health', 10_000);
    await waitFor(() => app.indexer.status.upstream === 'down', 'indexer to notice the outage', 10_000);
    expect((await app.services.transactions.get(hash!)).hash).toBe(hash);

    await node.restart();
    await sendTransfers(node.rpcUrl, 2);
    const head = await indexedTo(app, node.rpcUrl);
    await waitFor(async () => (await app.services.health.check()).status === 'ok', 'healthy again', 10_000);
    await expectStorageMatchesChain(app, node.rpcUrl, head);
  });

  it('reacts to new heads pushed over the node WebSocket without waiting for the next poll', async () => {
    const node = await anvil();
    await sendTransfers(node.rpcUrl, 1);
    const app = await createExplorer({
      rpcUrl: node.rpcUrl,
      wsRpcUrl: node.rpcUrl.replace('http://', 'ws://'),
      storage: memoryStorage(),
      logger: silent,
      indexer: { pollIntervalMs: 600_000 },
      pending: { pollIntervalMs: 600_000 },
    });
    cleanups.push(() => app.close());
    await app.start();
    await indexedTo(app, node.rpcUrl);
    // The subscription is set up asynchronously: keep producing blocks until one is pushed.
    await waitFor(
      async () => {
        const [hash] = await sendTransfers(node.rpcUrl, 1, 3, 4);
        await new Promise((resolve) => setTimeout(resolve, 200));
        return (await app.storage.getTransaction(hash!)) !== null;
      },
      'a pushed block to be indexed',
      10_000,
    );
  });

  it('clears storage that holds another chain at once and indexes the chain of the node', async () => {
    const storage = memoryStorage();
    const oldNode = await anvil();
    await sendTransfers(oldNode.rpcUrl, 5);
    // anvil's genesis is the same on every run: start at block 1 so the two chains share no block.
    const first = await createExplorer({ rpcUrl: oldNode.rpcUrl, storage, logger: silent, startBlock: 1, indexer: { pollIntervalMs: 20 } });
    await first.start();
    await indexedTo(first, oldNode.rpcUrl);
    await first.indexer.stop();

    const newNode = await anvil();
    await rpc(newNode.rpcUrl, 'evm_increaseTime', [1000]);
    await sendTransfers(newNode.rpcUrl, 2);
    const rollbacks: bigint[] = [];
    const rollbackTo = storage.rollbackTo.bind(storage);
    storage.rollbackTo = async (n) => {
      rollbacks.push(n);
      return rollbackTo(n);
    };
    const second = await createExplorer({ rpcUrl: newNode.rpcUrl, storage, logger: silent, startBlock: 1, indexer: { pollIntervalMs: 20 } });
    cleanups.push(() => second.close());
    const reorgs: ReorgEvent[] = [];
    second.hub.on('reorg', (event) => reorgs.push(event));
    await second.start();
    const head = await indexedTo(second, newNode.rpcUrl);
    expect(rollbacks).toEqual([0n]);
    expect(reorgs).toEqual([]);
    for (let n = 1n; n <= head; n++) expect((await storage.getBlockByNumber(n))?.hash).toBe(await chainHash(newNode.rpcUrl, n));
  });
});
