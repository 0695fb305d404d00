import { startAnvil, type AnvilInstance } from '@chainlens/devchain';
import { makeChain } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClient } from '../chain/chain-client.js';
import { UpstreamUnavailableError } from '../errors/index.js';
import { createEventHub } from '../events/index.js';
import { IndexedHead } from '../events/indexed-head.js';
import type { Hex } from '../storage/index.js';
import { ContractService } from './contract-service.js';
import { LabelService } from '../features/labels/label-service.js';
import { LabelsVersion } from '../features/labels/labels-version.js';

// Indexed from a start block after its contracts were created: storage holds their logs but no
// creation, and its head (block 11) is one the fresh node has not reached.
const chain = makeChain({ blocks: 12, txPerBlock: 4 }).map((bundle) => ({ ...bundle, contracts: [] }));
const emitter = chain.flatMap((bundle) => bundle.logs)[0]!.address;

let anvil: AnvilInstance;
let contracts: ContractService;

beforeAll(async () => {
  anvil = await startAnvil();
  const storage = memoryStorage();
  await storage.init();
  for (const bundle of chain) await storage.writeBlock(bundle);
  const labels = new LabelService(storage, new LabelsVersion(storage, 60_000), { maxPrivatePerUser: 10, cacheEntries: 100, now: Date.now });
  const hub = createEventHub();
  contracts = new ContractService(storage, new IndexedHead(storage, hub, 60_000), createChainClient({ rpcUrl: anvil.rpcUrl, timeoutMs: 5_000 }), labels);
}, 60_000);

afterAll(() => anvil?.stop());

describe('ContractService.events past the indexed logs', () => {
  it('answers an empty page of an address whose logs storage holds from the index, without the node', async () => {
    expect((await contracts.events({ address: emitter, page: 1, offset: 100, sort: 'asc' })).length).toBeGreaterThan(0);
    // The node cannot read code at block 11: before, this page asked it and failed with a 500.
    expect(await contracts.events({ address: emitter, page: 1_000, offset: 100, sort: 'desc' })).toEqual([]);
    expect(await contracts.events({ address: emitter, topic0: `0x${'ee'.repeat(32)}`, page: 1, offset: 100, sort: 'asc' })).toEqual([]);
  });

  it('answers upstream-unavailable (503), not an internal error, when only the node could tell and it refuses', async () => {
    const stranger: Hex = `0x${'5a'.repeat(20)}`;
    await expect(contracts.events({ address: stranger, page: 1, offset: 100, sort: 'asc' })).rejects.toBeInstanceOf(UpstreamUnavailableError);
  });
});
