import { describe, expect } from 'vitest';
import type { AddressTokenTransfersQuery, BlockBundle, Storage, StoredToken, StoredTokenTransfer, StoredTransferWithTransaction, TransferPageWithTokens } from '@chainlens/core';
import { fixtureAddress, makeChain } from '../fixtures.js';
import {
  chainTokenTransfers,
  referenceAddressTokenTransfers,
  referenceAddressTokenBalances,
  referenceTokenHolders,
  referenceTokenHoldersAt,
  referenceTokens,
  referenceTokenTransfers,
  tokenTransferParties,
  withTransactions,
  ZERO_ADDRESS,
} from '../reference.js';
import { type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

const MAX_UINT256 = 2n ** 256n - 1n;

/** A chain whose block `index` carries `transfers` (built by `make` from its first log) instead of its own. */
function chainWithTransfers(index: number, make: (bundle: BlockBundle) => StoredTokenTransfer[]): BlockBundle[] {
  const chain = makeChain({ blocks: 4, txPerBlock: 4 });
  const bundle = chain.find((b, i) => i >= index && b.logs.length > 0)!;
  bundle.tokenTransfers = make(bundle);
  return chain;
}

/** `transfers` as `listAddressTokenTransfersWithTokens` answers them: with the token of each, once, as `getToken` reads it, in address order. */
async function withTokens(storage: Storage, transfers: StoredTransferWithTransaction[]): Promise<TransferPageWithTokens> {
  const addresses = [...new Set(transfers.map(({ transfer }) => transfer.token))].sort();
  return { transfers, tokens: (await Promise.all(addresses.map((token) => storage.getToken(token)))) as StoredToken[] };
}

/** The page `storage` answers for `query`, its tokens in address order (they come in none). */
async function pageWithTokens(storage: Storage, query: AddressTokenTransfersQuery): Promise<TransferPageWithTokens> {
  const page = await storage.listAddressTokenTransfersWithTokens(query);
  return { ...page, tokens: page.tokens.toSorted((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0)) };
}

/** An ERC-1155 transfer carried by the bundle's first log. */
function erc1155(bundle: BlockBundle, batchIndex: number, changes: Partial<StoredTokenTransfer> = {}): StoredTokenTransfer {
  const log = bundle.logs[0]!;
  return {
    blockNumber: bundle.block.number,
    logIndex: log.logIndex,
    batchIndex,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    timestamp: bundle.block.timestamp,
    token: log.address,
    standard: 'ERC-1155',
    operator: fixtureAddress('operator'),
    from: fixtureAddress('sender'),
    to: fixtureAddress('recipient'),
    value: MAX_UINT256,
    tokenId: MAX_UINT256 - BigInt(batchIndex),
    ...changes,
  };
}

/**
 * A chain whose bundles with logs carry, in turn, the ERC-20 transfers `moves` lists (one per
 * bundle, of one token, on the bundle's first log) instead of their own.
 */
function chainWithMoves(moves: readonly [from: string, to: string, value: bigint][]): { chain: BlockBundle[]; token: ReturnType<typeof fixtureAddress> } {
  const chain = makeChain({ blocks: moves.length * 3, txPerBlock: 3 });
  const token = fixtureAddress('moved-token');
  const withLogs = chain.filter((bundle) => bundle.logs.length > 0);
  if (withLogs.length < moves.length) throw new Error('fixture chain has too few blocks with logs');
  for (const bundle of chain) bundle.tokenTransfers = [];
  moves.forEach(([from, to, value], i) => {
    const bundle = withLogs[i]!;
    const party = (name: string) => (name === 'zero' ? ZERO_ADDRESS : fixtureAddress(name));
    bundle.tokenTransfers = [erc1155(bundle, 0, { token, standard: 'ERC-20', operator: null, tokenId: null, from: party(from), to: party(to), value })];
  });
  return { chain, token };
}

/** Token transfers: written with their block, read back exactly, counted per address, rolled back. */
export function tokenTransferTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('token transfers', () => {
    test('the fixture chain’s ERC-20 and ERC-721 transfers are stored and counted per address', async (storage) => {
      const chain = makeChain({ blocks: 12, txPerBlock: 5 });
      const standards = new Set(chain.flatMap((b) => b.tokenTransfers.map((t) => t.standard)));
      expect(standards).toEqual(new Set(['ERC-20', 'ERC-721']));
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
    });

    test('batch entries, operators, uint256 values and token ids round-trip exactly', async (storage) => {
      const chain = chainWithTransfers(1, (bundle) => [0, 1, 2].map((i) => erc1155(bundle, i)));
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
      expect(await storage.countAddressTokenTransfers(fixtureAddress('sender'))).toBe(3);
      expect(await storage.countAddressTokenTransfers(fixtureAddress('operator'))).toBe(0);
    });

    test('a transfer to oneself counts once', async (storage) => {
      const self = fixtureAddress('self');
      const chain = chainWithTransfers(0, (bundle) => [erc1155(bundle, 0, { from: self, to: self }), erc1155(bundle, 1, { to: self })]);
      await writeChain(storage, chain);
      expect(await storage.countAddressTokenTransfers(self)).toBe(2);
      expect(await storage.countAddressTokenTransfers(fixtureAddress('nobody'))).toBe(0);
    });

    test('rollbackTo takes back the transfers and counts of removed blocks, and a fork brings its own', async (storage) => {
      const chain = makeChain({ blocks: 10, txPerBlock: 5 });
      /** Each token's transfer tip as `getTokenTransferTip` should read it after writing `bundles`. */
      const expectTips = async (bundles: BlockBundle[]) => {
        const transfers = bundles.flatMap((bundle) => bundle.tokenTransfers);
        for (const token of new Set(chain.flatMap((bundle) => bundle.tokenTransfers.map((transfer) => transfer.token)))) {
          const own = transfers.filter((transfer) => transfer.token === token);
          expect(await storage.getTokenTransferTip(token), token).toEqual(own.length === 0 ? null : { length: own.length, blockNumber: own.at(-1)!.blockNumber });
        }
      };
      await writeChain(storage, chain);
      await expectTips(chain);
      await storage.rollbackTo(chain[4]!.block.number);
      await expectStoredChain(storage, chain.slice(0, 5), chain.slice(5));
      await expectTips(chain.slice(0, 5));
      const fork = makeChain({ blocks: 3, txPerBlock: 5, parent: chain[4]!.block, seed: 'fork' });
      await writeChain(storage, fork);
      const stored = [...chain.slice(0, 5), ...fork];
      await expectStoredChain(storage, stored, chain.slice(5));
      await expectTips(stored);
      // The pages with their transactions: the kept and the fork's transfers each with its own
      // transaction, never one of the removed blocks', at every page in both orders.
      const transfers = chainTokenTransfers(stored);
      for (const sort of ['asc', 'desc'] as const) {
        for (const token of new Set(transfers.map((transfer) => transfer.token))) {
          for (let page = 1; page <= Math.ceil(transfers.filter((transfer) => transfer.token === token).length / 2) + 1; page++) {
            const query = { token, page, offset: 2, sort };
            expect(await storage.listTokenTransfersWithTransactions(query), `${token} ${sort} ${page}`).toEqual(withTransactions(stored, referenceTokenTransfers(stored, query)));
          }
        }
        for (const address of tokenTransferParties(stored)) {
          const query = { address, page: 2, offset: 2, sort };
          expect(await pageWithTokens(storage, query), `${address} ${sort}`).toEqual(await withTokens(storage, withTransactions(stored, referenceAddressTokenTransfers(stored, query))));
        }
      }
      // A range of a token's ordinals holds its transfers at those places in chain order, the
      // kept and the fork's alike, alone or with their transactions.
      const keptTransfers = chainTokenTransfers(chain.slice(0, 5));
      for (const token of new Set(transfers.map((transfer) => transfer.token))) {
        const inOrder = referenceTokenTransfers(stored, { token, page: 1, offset: 10_000, sort: 'asc' });
        const [count, kept] = [inOrder.length, keptTransfers.filter((transfer) => transfer.token === token).length];
        for (const [first, last] of [[1, 1], [1, count], [kept, kept + 1], [count - 1, count + 2], [count + 1, count + 3], [0, 1], [3, 2]] as const) {
          const expected = inOrder.filter((_, i) => i + 1 >= first && i + 1 <= last);
          expect(await storage.listTokenTransferRange(token, { first, last }), `${token} ${first}..${last}`).toEqual(expected);
          expect(await storage.listTokenTransferRangeWithTransactions(token, { first, last }), `${token} ${first}..${last} with transactions`).toEqual(withTransactions(stored, expected));
        }
      }
      expect(await storage.listTokenTransferRange(fixtureAddress('nobody'), { first: 1, last: 5 })).toEqual([]);
    });

    test('writeBlock refuses a transfer naming no log of the block or out of order, writing nothing', async (storage) => {
      const base = makeChain({ blocks: 4, txPerBlock: 4 });
      const index = base.findIndex((b, i) => i > 0 && b.logs.length > 0);
      const bundle = base[index]!;
      await writeChain(storage, base.slice(0, index));
      const noLog = { ...bundle, tokenTransfers: [erc1155(bundle, 0, { logIndex: 999 })] };
      const outOfOrder = { ...bundle, tokenTransfers: [erc1155(bundle, 1), erc1155(bundle, 0)] };
      const wrongBlock = { ...bundle, tokenTransfers: [erc1155(bundle, 0, { blockNumber: bundle.block.number + 7n })] };
      for (const bad of [noLog, outOfOrder, wrongBlock]) await expect(storage.writeBlock(bad)).rejects.toThrow(/writeBlock/);
      await expectStoredChain(storage, base.slice(0, index));
      await writeChain(storage, base.slice(index));
      await expectStoredChain(storage, base);
    });

    test('holders: mints and burns move balances, an emptied holder stops counting, the zero address never holds', async (storage) => {
      const { chain, token } = chainWithMoves([
        ['zero', 'alice', 100n],
        ['alice', 'bob', 30n],
        ['zero', 'carol', 5n],
        ['bob', 'zero', 30n],
        ['alice', 'alice', 10n],
      ]);
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
      expect(await storage.getToken(token)).toMatchObject({ standard: 'ERC-20', transferCount: 5, holderCount: 2 });
      const page = await storage.listTokenHolders({ token, page: 1, offset: 10 });
      expect(page.total).toBe(2);
      expect(page.holders.map((h) => [h.holder, h.balance])).toEqual([
        [fixtureAddress('alice'), 70n],
        [fixtureAddress('carol'), 5n],
      ]);
      expect(await storage.countAddressTokenTransfers(fixtureAddress('bob'))).toBe(2);
    });

    test('holders page by balance, then address, with minBalance and a total of every match', async (storage) => {
      const names = ['h0', 'h1', 'h2', 'h3', 'h4', 'h5'];
      const { chain, token } = chainWithMoves(names.map((name, i) => ['zero', name, BigInt(1 + (i % 3)) * 10n ** 30n] as [string, string, bigint]));
      await writeChain(storage, chain);
      for (const query of [
        { token, page: 1, offset: 4 },
        { token, page: 2, offset: 4 },
        { token, page: 3, offset: 4 },
        { token, page: 1, offset: 10, minBalance: 2n * 10n ** 30n },
        { token, page: 1, offset: 10, minBalance: 10n ** 40n },
        { token, page: 1, offset: 10, minBalance: 0n },
        { token: fixtureAddress('no-token'), page: 1, offset: 10 },
      ]) {
        expect(await storage.listTokenHolders(query), JSON.stringify(query, (_, v) => (typeof v === 'bigint' ? v.toString() : v))).toEqual(referenceTokenHolders(chain, query));
      }
      expect((await storage.listTokenHolders({ token, page: 1, offset: 2 })).total).toBe(6);
      expect(await storage.getToken(fixtureAddress('no-token'))).toBeNull();
    });

    test('listAddressTokenBalances lists the tokens an address holds, by token address, paged, and rolls back with them', async (storage) => {
      const chain = makeChain({ blocks: 12, txPerBlock: 5 });
      await writeChain(storage, chain);
      const parties = [...new Set(chain.flatMap((b) => b.tokenTransfers.flatMap((t) => [t.from, t.to])))];
      let someHoldTwo = false;
      for (const holder of [...parties, fixtureAddress('nobody')]) {
        for (const query of [{ holder, page: 1, offset: 10 }, { holder, page: 2, offset: 1 }]) {
          const expected = referenceAddressTokenBalances(chain, query);
          someHoldTwo ||= query.page === 1 && expected.length > 1;
          expect(await storage.listAddressTokenBalances(query), holder).toEqual(expected);
        }
      }
      expect(someHoldTwo).toBe(true);
      const kept = chain.slice(0, 6);
      await storage.rollbackTo(kept.at(-1)!.block.number);
      for (const holder of parties) expect(await storage.listAddressTokenBalances({ holder, page: 1, offset: 10 })).toEqual(referenceAddressTokenBalances(kept, { holder, page: 1, offset: 10 }));
    });

    test('listTokenTransfers filters by sender, recipient and block range, sorts and pages', async (storage) => {
      const { chain, token } = chainWithMoves([
        ['zero', 'alice', 9n],
        ['alice', 'bob', 1n],
        ['alice', 'carol', 2n],
        ['bob', 'carol', 1n],
        ['alice', 'bob', 3n],
        ['carol', 'alice', 1n],
      ]);
      await writeChain(storage, chain);
      const blocks = chain.filter((b) => b.tokenTransfers.length > 0).map((b) => b.block.number);
      const queries = [
        { sort: 'asc' },
        { sort: 'desc' },
        { sort: 'desc', page: 2, offset: 2 },
        { sort: 'asc', from: fixtureAddress('alice') },
        { sort: 'desc', to: fixtureAddress('bob') },
        { sort: 'asc', from: fixtureAddress('alice'), to: fixtureAddress('bob'), page: 2, offset: 1 },
        { sort: 'asc', startBlock: blocks[1], endBlock: blocks[3] },
        { sort: 'desc', startBlock: blocks[2], from: fixtureAddress('alice') },
        { sort: 'asc', endBlock: blocks[0]! - 1n },
      ] as const;
      for (const partial of queries) {
        const query = { token, page: 1, offset: 100, ...partial };
        const described = JSON.stringify(partial, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
        expect(await storage.listTokenTransfers(query), described).toEqual(referenceTokenTransfers(chain, query));
        expect(await storage.listTokenTransfersWithTransactions(query), described).toEqual(withTransactions(chain, referenceTokenTransfers(chain, query)));
      }
      expect(await storage.listTokenTransfers({ token: fixtureAddress('no-token'), page: 1, offset: 10, sort: 'asc' })).toEqual([]);
    });

    test('listAddressTokenTransfers lists what an address sent or received, once for a transfer to itself, filtered, sorted and paged', async (storage) => {
      const { chain, token } = chainWithMoves([
        ['zero', 'alice', 9n],
        ['alice', 'bob', 1n],
        ['alice', 'alice', 2n],
        ['bob', 'carol', 1n],
        ['carol', 'alice', 3n],
        ['alice', 'bob', 1n],
      ]);
      const other = fixtureAddress('other-token');
      const nft = chain.filter((b) => b.logs.length > 0 && b.tokenTransfers.length === 0)[0]!;
      nft.tokenTransfers = [erc1155(nft, 0, { token: other, standard: 'ERC-721', operator: null, from: fixtureAddress('bob'), to: fixtureAddress('alice'), value: 1n, tokenId: 7n })];
      await writeChain(storage, chain);
      const alice = fixtureAddress('alice');
      const blocks = chain.filter((b) => b.tokenTransfers.length > 0).map((b) => b.block.number);
      const queries = [
        { address: alice, sort: 'asc' },
        { address: alice, sort: 'desc' },
        { address: alice, sort: 'desc', page: 2, offset: 2 },
        { address: alice, sort: 'asc', token },
        { address: alice, sort: 'asc', token: other },
        { address: alice, sort: 'asc', standard: 'ERC-721' },
        { address: alice, sort: 'desc', standard: 'ERC-20', page: 2, offset: 1 },
        { address: alice, sort: 'asc', startBlock: blocks[1], endBlock: blocks[3] },
        { address: fixtureAddress('bob'), sort: 'asc', endBlock: blocks[0]! - 1n },
        { address: fixtureAddress('nobody'), sort: 'asc' },
      ] as const;
      for (const partial of queries) {
        const query = { page: 1, offset: 100, ...partial };
        const expected = referenceAddressTokenTransfers(chain, query);
        const described = JSON.stringify(partial, (_, v) => (typeof v === 'bigint' ? v.toString() : v));
        expect(await storage.listAddressTokenTransfers(query), described).toEqual(expected);
        expect(await pageWithTokens(storage, query), described).toEqual(await withTokens(storage, withTransactions(chain, expected)));
      }
      const all = await storage.listAddressTokenTransfers({ address: alice, page: 1, offset: 100, sort: 'asc' });
      expect(all.filter((t) => t.from === alice && t.to === alice)).toHaveLength(1);
      expect(all.map((t) => t.standard)).toContain('ERC-721');
    });

    test('rollbackTo restores balances, holder counts and activity, and forgets tokens first seen above N', async (storage) => {
      const { chain, token } = chainWithMoves([
        ['zero', 'alice', 50n],
        ['alice', 'bob', 50n],
        ['zero', 'carol', 1n],
      ]);
      const lateToken = fixtureAddress('late-token');
      const last = chain.filter((b) => b.logs.length > 0).at(-1)!;
      expect(last.tokenTransfers).toEqual([]);
      last.tokenTransfers = [erc1155(last, 0, { token: lateToken })];
      await writeChain(storage, chain);
      const cut = chain.findIndex((b) => b.tokenTransfers.some((t) => t.token === token && t.to === fixtureAddress('bob')));
      await storage.rollbackTo(chain[cut - 1]!.block.number);
      await expectStoredChain(storage, chain.slice(0, cut), chain.slice(cut));
      expect(await storage.getToken(token)).toMatchObject({ transferCount: 1, holderCount: 1 });
      expect(await storage.getToken(lateToken)).toBeNull();
      await writeChain(storage, chain.slice(cut));
      await expectStoredChain(storage, chain);
    });

    test('listTokens orders by holders, then transfers, then address; include, exclude and paging narrow it', async (storage) => {
      const chain = makeChain({ blocks: 30, txPerBlock: 5 });
      await writeChain(storage, chain);
      const tokens = [...new Set(chainTokenTransfers(chain).map((t) => t.token))];
      expect(tokens.length).toBeGreaterThan(4);
      for (const query of [
        { limit: 100 },
        { limit: 2 },
        { limit: 2, offset: 2 },
        { limit: 100, include: [tokens[0]!, tokens[3]!, fixtureAddress('no-token')] },
        { limit: 100, exclude: [tokens[1]!] },
        { limit: 100, include: [tokens[0]!, tokens[1]!], exclude: [tokens[1]!] },
        { limit: 100, include: [] },
      ]) {
        expect(await storage.listTokens(query), JSON.stringify(query)).toEqual(referenceTokens(chain, query));
      }
    });

    test('countTokenHoldersAt counts the holders as of any block', async (storage) => {
      const { chain, token } = chainWithMoves([
        ['zero', 'alice', 10n],
        ['alice', 'bob', 10n],
        ['zero', 'carol', 1n],
        ['zero', 'alice', 3n],
        ['carol', 'zero', 1n],
        ['bob', 'bob', 4n],
      ]);
      await writeChain(storage, chain);
      const first = chain[0]!.block.number;
      for (const at of [first - 1n, ...chain.map((b) => b.block.number), chain.at(-1)!.block.number + 100n]) {
        expect(await storage.countTokenHoldersAt(token, at), `at ${at}`).toBe(referenceTokenHoldersAt(chain, token, at));
      }
      expect(await storage.countTokenHoldersAt(fixtureAddress('no-token'), 5n)).toBe(0);
    });

    test('token metadata: set once read, listed until then, dropped with a token rolled away', async (storage) => {
      const { chain, token } = chainWithMoves([
        ['zero', 'alice', 1n],
        ['alice', 'bob', 1n],
      ]);
      const later = fixtureAddress('later-token');
      const last = chain.filter((b) => b.logs.length > 0).at(-1)!;
      expect(last.tokenTransfers).toEqual([]);
      last.tokenTransfers = [erc1155(last, 0, { token: later })];
      await writeChain(storage, chain);
      expect(await storage.listTokensWithoutMetadata(10)).toEqual([token, later]);
      expect(await storage.listTokensWithoutMetadata(1)).toEqual([token]);
      expect((await storage.getToken(token))!.metadata).toBeNull();

      const metadata = { name: 'Ünïcode “Token” 🚀', symbol: 'UNI', decimals: 18, interfaces: ['ERC-165', 'ERC-721', 'ERC-721Metadata'] };
      await storage.setTokenMetadata(token, metadata);
      await storage.setTokenMetadata(later, { name: null, symbol: null, decimals: null, interfaces: [] });
      await storage.setTokenMetadata(fixtureAddress('no-token'), metadata);
      expect(await storage.listTokensWithoutMetadata(10)).toEqual([]);
      expect((await storage.getToken(token))!.metadata).toEqual(metadata);
      expect((await storage.getToken(later))!.metadata).toEqual({ name: null, symbol: null, decimals: null, interfaces: [] });
      expect((await storage.listTokens({ limit: 10, include: [token] }))[0]!.metadata).toEqual(metadata);
      expect(await storage.getToken(fixtureAddress('no-token'))).toBeNull();

      await storage.rollbackTo(last.block.number - 1n);
      expect(await storage.getToken(later)).toBeNull();
      await writeChain(storage, [last]);
      expect((await storage.getToken(later))!.metadata).toBeNull();
      expect(await storage.listTokensWithoutMetadata(10)).toEqual([later]);
      expect((await storage.getToken(token))!.metadata).toEqual(metadata);
    });
  });
}
