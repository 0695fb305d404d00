import { announceBlock, type BlockBundle, type Explorer } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { makeChain, waitFor } from '@chainlens/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresCoordinator } from '../src/index.js';
import { clusterInstance, createStorage, testDatabaseUrl, testSchemas, withClient } from './database.js';

const schemas = testSchemas();

describe('scale-out: several instances on one Postgres schema', () => {
  let chain: TestChain;
  const instances: Explorer[] = [];
  beforeAll(async () => {
    chain = await createTestChain();
  });
  afterAll(async () => {
    for (const instance of instances) await instance.close();
    await chain?.close();
  });

  async function instance(schema: string): Promise<Explorer> {
    const explorer = await clusterInstance(chain.rpcUrl, schema, { indexer: { pollIntervalMs: 50 }, cluster: { leaseRetryMs: 200 } });
    instances.push(explorer);
    return explorer;
  }

  /** Resolves once mined: anvil answers a send before it mines, and the test reads the head next. */
  const transfer = async (value: bigint) => {
    const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1]!.address, value });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    return hash;
  };
  const head = () => chain.publicClient.getBlockNumber({ cacheTime: 0 });

  it('exactly one indexes, every instance hears its blocks, and another takes over within 10 s when it dies', async () => {
    const schema = schemas.next();
    const [a, b, c] = [await instance(schema), await instance(schema), await instance(schema)];
    await Promise.all([a.start(), b.start(), c.start()]);
    const leader = await waitFor(() => [a, b, c].find((e) => e.indexer.status.running), 'a leader');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect([a, b, c].filter((e) => e.indexer.status.running)).toEqual([leader]);

    const heard = new Map<Explorer, bigint[]>([a, b, c].map((e) => [e, []]));
    for (const e of [a, b, c]) e.hub.on('block', (bundle) => heard.get(e)!.push(bundle.block.number));
    const hashes = [await transfer(1n), await transfer(2n), await transfer(3n)];
    const target = await head();
    await waitFor(() => [a, b, c].every((e) => heard.get(e)!.includes(target)), 'every instance to hear the new blocks');
    for (const e of [a, b, c]) expect(heard.get(e)!.slice(-3)).toEqual([target - 2n, target - 1n, target]);
    const follower = [a, b, c].find((e) => e !== leader)!;
    const replayed: string[] = [];
    follower.hub.on('block', (bundle) => replayed.push(...bundle.transactions.map((tx) => tx.hash)));
    const next = await transfer(4n);
    await waitFor(() => replayed.includes(next), 'the follower to rebuild the bundle from storage');
    for (const hash of hashes) expect(await follower.storage.getTransaction(hash)).not.toBeNull();

    // The leader dies: its lock session ends with it.
    await leader.close();
    const died = Date.now();
    const successor = await waitFor(() => [a, b, c].find((e) => e !== leader && e.indexer.status.running), 'a successor', 10_000);
    expect(Date.now() - died).toBeLessThan(10_000);
    const after = await transfer(5n);
    await waitFor(async () => (await successor.storage.getTransaction(after)) !== null, 'the successor to index');
    expect([a, b, c].filter((e) => e.indexer.status.running)).toEqual([successor]);
  });

  it('a leader whose lock connection is killed stops indexing and the lease moves on', async () => {
    const schema = schemas.next();
    const [a, b] = [await instance(schema), await instance(schema)];
    await Promise.all([a.start(), b.start()]);
    const leader = await waitFor(() => [a, b].find((e) => e.indexer.status.running), 'a leader');
    const other = leader === a ? b : a;
    await withClient((client) =>
      client.query(`SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND objid = (hashtextextended($1, 0) & 4294967295)::bigint::oid`, [`chainlens:indexer:${schema}`]),
    );
    await waitFor(() => other.indexer.status.running, 'the other instance to take the lease', 10_000);
    await waitFor(() => !leader.indexer.status.running, 'the old leader to stop indexing', 10_000);
    const after = await transfer(6n);
    await waitFor(async () => (await other.storage.getTransaction(after)) !== null, 'indexing to go on');
  });

  it('a block that a writer outside any explorer stores and announces, holding the lease, reaches a serving instance as its own', async () => {
    const schema = schemas.next();
    const serving = await instance(schema);
    const storage = await createStorage(schema);
    const coordinator = postgresCoordinator({ connectionString: await testDatabaseUrl(), schema });
    try {
      await storage.init();
      expect(await coordinator.acquireLease()).toBe(true);
      await serving.start();
      const heard: BlockBundle[] = [];
      serving.hub.on('block', (bundle) => heard.push(bundle));
      const [bundle] = makeChain({ blocks: 1, txPerBlock: 3 });
      await storage.writeBlock(bundle!);
      await announceBlock(coordinator, bundle!.block.number);
      await waitFor(() => heard.length === 1, 'the serving instance to hear the block');
      expect(heard).toEqual([bundle]);
      // The lease stays with the writer: the serving instance does not start indexing meanwhile.
      expect(serving.indexer.status.running).toBe(false);
    } finally {
      await coordinator.close();
      await storage.close();
    }
  });
});
