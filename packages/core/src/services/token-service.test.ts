import { memoryStorage } from '@chainlens/storage-memory';
import { chainTokenTransfers, makeChain } from '@chainlens/testing';
import { describe, expect, it } from 'vitest';
import { createEventHub } from '../events/index.js';
import { IndexedHead } from '../events/indexed-head.js';
import { LabelService } from '../features/labels/label-service.js';
import { LabelsVersion } from '../features/labels/labels-version.js';
import type { Hex, Storage, StoredMetadataProfile } from '../storage/index.js';
import type { TokenMetadataReader } from '../tokens/token-metadata.js';
import type { TokenPrices } from './token-prices.js';
import { TokenService } from './token-service.js';

const chain = makeChain({ blocks: 8, txPerBlock: 4 });
const transfers = chainTokenTransfers(chain);
/** Each party's tokens, in chain order. */
const tokensOf = (address: Hex) => [...new Set(transfers.filter((t) => t.from === address || t.to === address).map((t) => t.token))];
/** The party of the most tokens' transfers: its page names several tokens. */
const party = [...new Set(transfers.flatMap((transfer) => [transfer.from, transfer.to]))].reduce((best, address) => (tokensOf(address).length > tokensOf(best).length ? address : best));
const tokens = [...new Set(transfers.map((transfer) => transfer.token))];
/** A token of the party's whose contract answers no name or symbol, so its profile names it. */
const nameless = tokensOf(party)[0]!;
/** Another of the party's tokens, whose contract names itself. */
const named = tokensOf(party)[1]!;

const profile = (address: Hex): StoredMetadataProfile => ({
  address,
  type: 'token',
  name: `Profiled ${address.slice(2, 6)}`,
  symbol: 'PRF',
  logo: null,
  description: null,
  website: null,
  whitepaper: null,
  social: { twitter: null, telegram: null, discord: null, github: null },
  verified: false,
  verifiedBy: null,
  verifiedAt: null,
  riskScore: null,
  trustLevel: null,
  auditReports: [],
  tags: [],
  updatedAt: '2026-11-01T00:00:00.000Z',
});

/** Memory storage holding `chain`, its tokens' metadata and a profile of each, counting the token and profile reads, and the service over it. */
async function service(): Promise<{ service: TokenService; reads: Map<string, number> }> {
  const storage: Storage = memoryStorage();
  await storage.init();
  for (const bundle of chain) await storage.writeBlock(bundle);
  for (const [i, token] of tokens.entries()) {
    const named = token !== nameless;
    await storage.setTokenMetadata(token, { name: named ? `Token ${i}` : null, symbol: named ? `T${i}` : null, decimals: 18, interfaces: [] });
    await storage.putMetadataProfile(profile(token));
  }
  const reads = new Map<string, number>();
  for (const method of ['getToken', 'listTokens', 'getMetadataProfile', 'getMetadataProfiles', 'listAddressTokenTransfersWithTokens', 'listTokenTransfersWithTransactions'] as const) {
    const read = (storage[method] as (...args: unknown[]) => unknown).bind(storage);
    (storage as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
      reads.set(method, (reads.get(method) ?? 0) + 1);
      return read(...args);
    };
  }
  const labels = new LabelService(storage, new LabelsVersion(storage, 60_000), { maxPrivatePerUser: 10, cacheEntries: 100, now: Date.now });
  // Every token's metadata is stored: neither the node nor prices are asked.
  const tokenService = new TokenService(storage, new IndexedHead(storage, createEventHub(), 60_000), {} as TokenMetadataReader, {} as TokenPrices, labels);
  return { service: tokenService, reads };
}

describe('TokenService transfer pages', () => {
  it('an address’s page comes with its tokens in one read; profiles are read only for a token that lacks a name or symbol', async () => {
    const { service: tokenService, reads } = await service();
    const page = await tokenService.accountTransfers({ address: party, page: 1, offset: 100, sort: 'asc' });
    const listed = new Set(page.map((record) => record.token));
    expect(listed.size).toBeGreaterThan(1);
    expect(listed).toContain(nameless);
    for (const record of page) {
      const i = tokens.indexOf(record.token as Hex);
      expect([record.tokenName, record.tokenSymbol], record.token).toEqual(record.token === nameless ? [profile(nameless).name, 'PRF'] : [`Token ${i}`, `T${i}`]);
    }
    // The page and its tokens in one read; the nameless token's profile alone.
    expect(Object.fromEntries(reads)).toEqual({ listAddressTokenTransfersWithTokens: 1, getMetadataProfiles: 1 });
    reads.clear();
    const ofNamed = await tokenService.accountTransfers({ address: party, token: named, page: 1, offset: 100, sort: 'asc' });
    expect(ofNamed.length).toBeGreaterThan(0);
    expect(Object.fromEntries(reads)).toEqual({ listAddressTokenTransfersWithTokens: 1 });
  });

  it('a token’s pages read its metadata profile only when its metadata lacks a name or symbol', async () => {
    const { service: tokenService, reads } = await service();
    for (const [token, profiles] of [
      [named, 0],
      [nameless, 1],
    ] as const) {
      reads.clear();
      const [record] = await tokenService.transfers({ token, page: 1, offset: 10, sort: 'desc' });
      const [entry] = await tokenService.accountTransfers({ token, page: 1, offset: 10, sort: 'desc' });
      const name = token === nameless ? profile(nameless).name : `Token ${tokens.indexOf(named)}`;
      expect(record!.tokenName, token).toEqual(name);
      expect(entry!.tokenName, token).toEqual(name);
      expect((reads.get('getMetadataProfile') ?? 0) + (reads.get('getMetadataProfiles') ?? 0), token).toBe(2 * profiles);
    }
  });
});
