import { createExplorer, type ConsensusInfoRecord, type Explorer, type FinalityStatusRecord, type ValidatorRecord } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { http, HttpResponse, passthrough } from 'msw';
import { setupServer } from 'msw/node';
import { pino } from 'pino';
import type { Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REQUIRED_CONFIRMATIONS = 3;
const WINDOW = 6;
const PRODUCERS: Address[] = ['0x00000000000000000000000000000000000000a1', '0x00000000000000000000000000000000000000b2'];

let chain: TestChain;
let explorer: Explorer;

/**
 * anvil as a node without a `finalized` tag (as pre-merge and many L2 nodes are): that one
 * request is refused the way geth refuses it; every other request reaches anvil unchanged.
 */
const withoutFinalizedTag = () =>
  setupServer(
    http.post(/^http:\/\/127\.0\.0\.1:\d+\/?$/, async ({ request }) => {
      const body = (await request.clone().json()) as { id?: number; method?: string; params?: unknown[] };
      if (body.method === 'eth_getBlockByNumber' && body.params?.[0] === 'finalized') {
        return HttpResponse.json({ jsonrpc: '2.0', id: body.id, error: { code: -32000, message: 'finalized block not found' } });
      }
      return passthrough();
    }),
  );
const server = withoutFinalizedTag();

async function mine(blocks: number, coinbase?: Address): Promise<bigint> {
  if (coinbase) await chain.publicClient.request({ method: 'anvil_setCoinbase' as never, params: [coinbase] as never });
  await chain.publicClient.request({ method: 'anvil_mine' as never, params: [`0x${blocks.toString(16)}`] as never });
  return indexedToHead();
}

async function indexedToHead(): Promise<bigint> {
  const head = await chain.publicClient.getBlockNumber();
  await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= head, `indexing to ${head}`);
  return head;
}

beforeAll(async () => {
  chain = await createTestChain();
  server.listen({ onUnhandledRequest: 'bypass' });
  explorer = await createExplorer({
    rpcUrl: chain.rpcUrl,
    storage: memoryStorage(),
    logger: pino({ level: 'silent' }),
    indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 200, traces: false },
    pending: { pollIntervalMs: 20 },
    requiredConfirmations: REQUIRED_CONFIRMATIONS,
    consensus: { type: 'evm', validatorWindowBlocks: WINDOW },
  });
  await explorer.start();
  await indexedToHead();
});

afterAll(async () => {
  await explorer?.close();
  server.close();
  await chain?.close();
});

describe('evm consensus source against anvil', () => {
  it('finalizes a block by depth once it has requiredConfirmations, where the node has no finalized tag', async () => {
    const block = await mine(1);
    const young = await explorer.services.consensus.finality(block);
    expect(young).toEqual({ blockNumber: block.toString(), isFinalized: false, confirmations: 1, requiredConfirmations: REQUIRED_CONFIRMATIONS, finalizedAt: null, finalityProof: null });
    await mine(REQUIRED_CONFIRMATIONS - 2);
    expect((await explorer.services.consensus.finality(block)).isFinalized).toBe(false);
    await mine(1);
    const finalizing = await chain.publicClient.getBlock({ blockNumber: block + BigInt(REQUIRED_CONFIRMATIONS) - 1n });
    expect(await explorer.services.consensus.finality(block)).toEqual({
      blockNumber: block.toString(), isFinalized: true, confirmations: REQUIRED_CONFIRMATIONS, requiredConfirmations: REQUIRED_CONFIRMATIONS,
      finalizedAt: finalizing.timestamp.toString(), finalityProof: null,
    });
  });

  it('takes the validators from the miners of the newest indexed headers', async () => {
    await mine(2, PRODUCERS[0]);
    const head = await mine(3, PRODUCERS[1]);
    const miners = await Promise.all(Array.from({ length: WINDOW }, (_, i) => chain.publicClient.getBlock({ blockNumber: head - BigInt(i) }).then((b) => b.miner.toLowerCase())));
    const set = await explorer.services.consensus.validatorSet();
    expect(set.validators.map((v) => [v.address, v.totalBlocks])).toEqual([...new Set(miners)].map((m) => [m, miners.filter((x) => x === m).length]));
    expect(set.validators.map((v) => v.address).slice(0, 2)).toEqual([PRODUCERS[1], PRODUCERS[0]]);
    expect(set).toMatchObject({ totalValidators: set.validators.length, activeValidators: set.validators.length, epoch: null });
    for (const validator of set.validators) {
      expect(validator).toMatchObject({ votingPower: null, proposerPriority: null, uptime: null, missedBlocks: null, commission: null, stakingAmount: null, delegators: null });
    }
  });

  it('serves state roots through the source, equal to the node', async () => {
    const head = await indexedToHead();
    const block = await chain.publicClient.getBlock({ blockNumber: head });
    expect(await explorer.services.consensus.stateRoot('latest')).toEqual({
      blockNumber: head.toString(), stateRoot: block.stateRoot, timestamp: block.timestamp.toString(), blockHash: block.hash, parentHash: block.parentHash,
    });
  });

  it('publishes finality, validator and consensus changes on the hub while someone listens', async () => {
    const finality: FinalityStatusRecord[] = [];
    const validators: ValidatorRecord[] = [];
    const consensus: ConsensusInfoRecord[] = [];
    const onFinality = (record: FinalityStatusRecord) => finality.push(record);
    const onValidators = (record: ValidatorRecord) => validators.push(record);
    const onConsensus = (record: ConsensusInfoRecord) => consensus.push(record);
    explorer.hub.on('finality', onFinality);
    explorer.hub.on('validators', onValidators);
    explorer.hub.on('consensus', onConsensus);
    try {
      const first = await mine(1, PRODUCERS[0]);
      await waitFor(() => finality.some((f) => f.blockNumber === String(first - 2n)) && consensus.some((c) => c.currentBlock === Number(first)), 'events of the first block');
      const head = await mine(3, PRODUCERS[0]);
      await waitFor(() => finality.some((f) => f.blockNumber === String(head - 2n)) && consensus.some((c) => c.currentBlock === Number(head)), 'events of the newest block');
      // Every block that became final, once each and in order, as the service shapes it.
      const numbers = finality.map((f) => BigInt(f.blockNumber));
      expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => numbers[0]! + BigInt(i)));
      expect(numbers.at(-1)).toBe(head - 2n);
      expect(finality.every((f) => f.isFinalized)).toBe(true);
      expect(finality.at(-1)).toEqual(await explorer.services.consensus.finality(head - 2n));
      expect(consensus.at(-1)).toEqual(await explorer.services.consensus.consensusInfo());
      await waitFor(() => validators.some((v) => v.address === PRODUCERS[0] && v.totalBlocks === 4), 'the producer of the newest blocks');
      expect((await explorer.services.consensus.validatorSet()).validators).toContainEqual(validators.filter((v) => v.address === PRODUCERS[0]).at(-1));
    } finally {
      explorer.hub.off('finality', onFinality);
      explorer.hub.off('validators', onValidators);
      explorer.hub.off('consensus', onConsensus);
    }
  });
});
