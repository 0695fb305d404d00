import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { createExplorer } from '../explorer.js';
import { waitFor } from '@chainlens/testing';

/** Enough empty blocks that catching up with one block in flight spans several progress intervals. */
const BLOCKS = 1_000;

describe('indexer progress logs', () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await createTestChain();
    // In rounds: one large anvil_mine can outlast the client's timeout on a busy machine.
    for (let mined = 0; mined < BLOCKS; mined += 250) await chain.publicClient.request({ method: 'anvil_mine', params: ['0xfa'] } as never);
  });
  afterAll(() => chain.close());

  it('logs catch-up progress with lag, blocks per second and ETA at the configured interval while behind', async () => {
    const lines: Record<string, unknown>[] = [];
    const explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: memoryStorage(),
      logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) }),
      indexer: { progressIntervalMs: 100, concurrency: 1, traces: false },
    });
    try {
      const started = Date.now();
      await explorer.start();
      await waitFor(async () => (await explorer.storage.getCursor())?.number === BigInt(BLOCKS), 'the chain to be indexed', 60_000);
      const progress = lines.filter((line) => line.msg === 'indexer catching up');
      expect(progress.length).toBeGreaterThan(0);
      for (const line of progress) {
        expect(line).toMatchObject({ module: 'indexer', head: String(BLOCKS), blocksPerSecond: expect.any(Number), etaSeconds: expect.any(Number) });
        expect(line.lag).toBe(BLOCKS - Number(line.block));
        expect(line.blocksPerSecond as number).toBeGreaterThan(0);
      }
      // Steady: a line at most every interval, however fast blocks arrive.
      expect(progress.length).toBeLessThanOrEqual(Math.floor((Date.now() - started) / 100));
    } finally {
      await explorer.close();
    }
  });
});
