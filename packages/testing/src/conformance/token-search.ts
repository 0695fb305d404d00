import { describe, expect } from 'vitest';
import type { Hex, Storage, StoredTokenMetadata } from '@chainlens/core';
import { makeChain } from '../fixtures.js';
import { referenceTokens } from '../reference.js';
import { ALL, type StorageFactory, storageTest, writeChain } from './harness.js';

/** Metadata with this name and symbol (the rest fixed). */
function named(name: string | null, symbol: string | null): StoredTokenMetadata {
  return { name, symbol, decimals: 18, interfaces: [] };
}

/** searchTokens. */
export function tokenSearchTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('token search', () => {
    /**
     * The fixture chain's tokens, most held first (their order among equally good matches), the
     * first six named: `names[i]` is the i-th token's name and symbol. The seventh's contract
     * answered neither; the eighth's metadata was never read.
     */
    async function namedTokens(storage: Storage, names: [string, string][]): Promise<Hex[]> {
      const chain = makeChain({ blocks: 12, txPerBlock: 6 });
      await writeChain(storage, chain);
      const tokens = referenceTokens(chain, { limit: ALL }).map((token) => token.address);
      expect(tokens.length).toBeGreaterThanOrEqual(names.length + 2);
      for (const [i, [name, symbol]] of names.entries()) await storage.setTokenMetadata(tokens[i]!, named(name, symbol));
      await storage.setTokenMetadata(tokens[names.length]!, named(null, null));
      return tokens;
    }

    test('finds tokens by a prefix of their name or symbol, ignoring case: exact matches first, then the most held, at most limit', async (storage) => {
      const tokens = await namedTokens(storage, [
        ['Wrapped Ether', 'WETH'],
        ['Weth Classic', 'WC'],
        ['Ünïcode “Token” 🚀', 'ÜNI'],
        ['100% Real_Coin\\', 'R%C'],
        ['USD Coin', 'USDC'],
        ['US Dollar', 'USD'],
      ]);
      const search = async (prefix: string, limit = 10) => (await storage.searchTokens({ prefix, limit })).map((token) => token.address);
      const [weth, classic, unicode, wild, usdc, usd] = tokens;
      // A symbol equal to the prefix comes before a more held token's name that merely starts with it.
      expect(await search('usd')).toEqual([usd, usdc]);
      expect(await search('US')).toEqual([usdc, usd]);
      expect(await search('us', 1)).toEqual([usdc]);
      expect(await search('weth')).toEqual([weth, classic]);
      expect(await search('WeTh C')).toEqual([classic]);
      expect(await search('w')).toEqual([weth, classic]);
      expect(await search('üNI')).toEqual([unicode]);
      expect(await search('ünïcode “token” 🚀')).toEqual([unicode]);
      // Half of the rocket's surrogate pair is no prefix of it.
      expect(await search('ünïcode “token” \ud83d')).toEqual([]);
      // LIKE's wildcards and escape are plain characters.
      expect(await search('100% real_coin\\')).toEqual([wild]);
      expect(await search('r%')).toEqual([wild]);
      for (const literal of ['%', '_', '\\', '100_', '1%', 'r_c', 'us%']) expect(await search(literal), literal).toEqual([]);
      for (const nothing of ['', 'x', '\u0000', 'usd coins', 'ether']) expect(await search(nothing), JSON.stringify(nothing)).toEqual([]);
      expect(await search('usd', 0)).toEqual([]);
      // Records as getToken answers them, metadata included.
      expect(await storage.searchTokens({ prefix: 'WETH', limit: 1 })).toEqual([await storage.getToken(weth!)]);
    });

    test('answers what the metadata says now: a renamed token by its new name only, a token rolled away not at all', async (storage) => {
      const chain = makeChain({ blocks: 12, txPerBlock: 6 });
      await writeChain(storage, chain);
      const tokens = referenceTokens(chain, { limit: ALL });
      const newest = tokens.reduce((a, b) => (b.firstBlock > a.firstBlock ? b : a));
      const older = tokens.find((token) => token.firstBlock < newest.firstBlock)!;
      await storage.setTokenMetadata(newest.address, named('Fleeting', 'FLT'));
      await storage.setTokenMetadata(older.address, named('Old Name', 'OLD'));
      await storage.setTokenMetadata(older.address, named('New Name', 'NEW'));
      const search = async (prefix: string) => (await storage.searchTokens({ prefix, limit: 10 })).map((token) => token.address);
      expect(await search('old')).toEqual([]);
      expect(await search('new')).toEqual([older.address]);
      expect(await search('fl')).toEqual([newest.address]);

      await storage.rollbackTo(newest.firstBlock - 1n);
      expect(await search('fl')).toEqual([]);
      expect(await search('new')).toEqual([older.address]);
    });
  });
}
