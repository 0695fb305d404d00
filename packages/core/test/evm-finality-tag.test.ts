import { createExplorer, type Explorer } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';

let chain: TestChain;
let explorer: Explorer;

async function mine(blocks: number): Promise<bigint> {
  await chain.publicClient.request({ method: 'anvil_mine' as never, params: [`0x${blocks.toString(16)}`] as never });
  const head = await chain.publicClient.getBlockNumber();
  await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= head, `indexing to ${head}`);
  return head;
}

beforeAll(async () => {
  chain = await createTestChain();
  explorer = await createExplorer({
    rpcUrl: chain.rpcUrl,
    storage: memoryStorage(),
    logger: pino({ level: 'silent' }),
    indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 200, traces: false },
    consensus: { type: 'evm', validatorWindowBlocks: 10 },
  });
  await explorer.start();
});

afterAll(async () => {
  await explorer?.close();
  await chain?.close();
});

it("tells no required depth while the node's finalized tag is at genesis on a young chain, then the tag's depth", async () => {
  // anvil finalizes 64 blocks below its head: on a younger chain its finalized block is genesis.
  const head = await mine(10);
  expect((await chain.publicClient.getBlock({ blockTag: 'finalized' })).number).toBe(0n);
  expect(await explorer.services.consensus.finality('latest')).toEqual({
    blockNumber: head.toString(), isFinalized: false, confirmations: 1, requiredConfirmations: null, finalizedAt: null, finalityProof: null,
  });
  expect((await explorer.services.consensus.finality(0n)).isFinalized).toBe(true);

  const later = await mine(100);
  // The tag is read at most once a second: wait for a read after the mining.
  const finality = await waitFor(async () => {
    const record = await explorer.services.consensus.finality(head);
    return record.isFinalized ? record : null;
  }, 'the finalized tag to pass the block');
  const finalized = (await chain.publicClient.getBlock({ blockTag: 'finalized' })).number;
  expect(finalized).toBeGreaterThan(0n);
  expect(finality.requiredConfirmations).toBe(Number(later - finalized + 1n));
  expect((await explorer.services.consensus.finality('latest')).requiredConfirmations).toBe(Number(later - finalized + 1n));
});
