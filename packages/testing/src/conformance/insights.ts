import { describe, expect } from 'vitest';
import { type BlockBundle, BUCKET_SECONDS, type Hex } from '@chainlens/core';
import { redecode } from '../dex-fixtures.js';
import { makeChain } from '../fixtures.js';
import { chainApprovals, referenceApprovals, referenceChartRollups } from '../insight-reference.js';
import { type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

/** A chain over about a day and a half, four blocks an hour (some hours without a transaction), with a day boundary inside. */
function chainOverDays(seed = 'chainlens', parent?: BlockBundle['block']): BlockBundle[] {
  return makeChain({ blocks: 150, blockTime: 900n, genesisTimestamp: 1_700_006_400n, txPerBlock: (n) => (n % 9n === 4n ? 0 : 3), seed, ...(parent && { parent }) });
}

/**
 * The chain with block `later`'s first approval rewritten to revoke block `earlier`'s first one
 * (same token, owner, spender and kind, value 0): the later block replaces the earlier approval.
 */
function chainWithRevocation(): { chain: BlockBundle[]; earlier: number; later: number } {
  const chain = makeChain({ blocks: 24, txPerBlock: 5 });
  const withApprovals = chain.flatMap((bundle, i) => (bundle.approvals.some((a) => a.kind === 'allowance' && a.value > 0n) ? [i] : []));
  const [earlier, later] = [withApprovals[0]!, withApprovals.at(-1)!];
  const standing = chain[earlier]!.approvals.find((a) => a.kind === 'allowance' && a.value > 0n)!;
  const target = chain[later]!.approvals.at(-1)!;
  const log = chain[later]!.logs.find((l) => l.logIndex === target.logIndex)!;
  log.address = standing.token;
  log.topics = [log.topics[0]!, `0x${'0'.repeat(24)}${standing.owner.slice(2)}`, `0x${'0'.repeat(24)}${standing.spender.slice(2)}`];
  log.topics[0] = chain[earlier]!.logs.find((l) => l.logIndex === standing.logIndex)!.topics[0]!;
  log.data = `0x${'0'.repeat(64)}`;
  redecode(chain[later]!);
  return { chain, earlier, later };
}

/** Chart rollups, kept by writes and taken back by rollbacks, and standing approvals. */
export function insightTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('chart rollups', () => {
    test('add up each hour and day of stored blocks: the chain’s figures and each token’s', async (storage) => {
      const chain = chainOverDays();
      await writeChain(storage, chain.slice(0, 60));
      await storage.writeBlocks(chain.slice(60));
      await expectStoredChain(storage, chain);
      const days = referenceChartRollups(chain, { resolution: 'day', from: 0n, to: 2n ** 62n });
      expect(days.length).toBeGreaterThan(1);
      expect(days.reduce((sum, day) => sum + day.newAddresses, 0)).toBe((await storage.getChainTotals()).totalAccounts);
      expect(days.reduce((sum, day) => sum + day.transactions, 0)).toBe((await storage.getChainTotals()).totalTransactions);
    });

    test('a range answers the buckets starting in it, ascending; an empty one none', async (storage) => {
      const chain = chainOverDays();
      await writeChain(storage, chain);
      const hours = await storage.listChartRollups({ resolution: 'hour', from: 0n, to: 2n ** 62n });
      const third = hours[2]!.bucket;
      expect((await storage.listChartRollups({ resolution: 'hour', from: third, to: third + BUCKET_SECONDS.hour - 1n })).map((r) => r.bucket)).toEqual([third]);
      expect(await storage.listChartRollups({ resolution: 'hour', from: third + 1n, to: third + 2n })).toEqual([]);
      expect(await storage.listChartRollups({ resolution: 'day', from: 5n, to: 4n })).toEqual([]);
    });

    test('rollbackTo takes back exactly what removed blocks added, inside a bucket and across buckets, and a fork adds its own', async (storage) => {
      const chain = chainOverDays();
      await writeChain(storage, chain);
      // Inside an hour (a block in its middle), then back over a day boundary, then to the first block.
      for (const cut of [121, 97, 50, 0]) {
        await storage.rollbackTo(chain[cut]!.block.number);
        await expectStoredChain(storage, chain.slice(0, cut + 1), chain.slice(cut + 1));
      }
      const fork = chainOverDays('fork', chain[0]!.block).slice(0, 80);
      await writeChain(storage, fork);
      await expectStoredChain(storage, [chain[0]!, ...fork], chain.slice(1));
    });

    test('rolling back below the first block clears every rollup', async (storage) => {
      const chain = chainOverDays().slice(0, 20);
      await writeChain(storage, chain);
      await storage.rollbackTo(chain[0]!.block.number - 1n);
      expect(await storage.listChartRollups({ resolution: 'hour', from: 0n, to: 2n ** 62n })).toEqual([]);
      await expectStoredChain(storage, [], chain);
    });
  });

  describe('approvals', () => {
    test('an owner’s standing approvals: the latest per token, spender and kind, zero revoking, newest first, paged', async (storage) => {
      const { chain } = chainWithRevocation();
      await writeChain(storage, chain);
      await expectStoredChain(storage, chain);
      const owners = [...new Set(chainApprovals(chain).map((approval) => approval.owner))];
      const busiest = owners.map((owner) => ({ owner, count: referenceApprovals(chain, { owner, page: 1, offset: 1_000 }).length })).sort((a, b) => b.count - a.count)[0]!;
      expect(busiest.count).toBeGreaterThan(1);
      for (const page of [1, 2, 3]) {
        const query = { owner: busiest.owner, page, offset: 1 };
        expect(await storage.listApprovals(query)).toEqual(referenceApprovals(chain, query));
      }
      expect(await storage.listApprovals({ owner: '0x000000000000000000000000000000000000dead' as Hex, page: 1, offset: 10 })).toEqual([]);
    });

    test('a revocation hides the approval it replaces, and a rollback of it lets the approval stand again', async (storage) => {
      const { chain, earlier, later } = chainWithRevocation();
      const standing = chain[earlier]!.approvals.find((a) => a.kind === 'allowance' && a.value > 0n)!;
      const listed = () => storage.listApprovals({ owner: standing.owner, page: 1, offset: 1_000 });
      await writeChain(storage, chain);
      expect(await listed()).not.toContainEqual(standing);
      await storage.rollbackTo(chain[later - 1]!.block.number);
      expect(await listed()).toContainEqual(standing);
      await expectStoredChain(storage, chain.slice(0, later), chain.slice(later));
    });

    test('writeBlock refuses approvals naming no log of their token, of another time or out of order, writing nothing', async (storage) => {
      const chain = makeChain({ blocks: 24, txPerBlock: 5 });
      const index = chain.findIndex((bundle) => bundle.approvals.length > 0);
      const bundle = chain[index]!;
      const approval = bundle.approvals[0]!;
      await writeChain(storage, chain.slice(0, index));
      const bad: BlockBundle[] = [
        { ...bundle, approvals: [{ ...approval, token: approval.owner }] },
        { ...bundle, approvals: [{ ...approval, logIndex: 999 }] },
        { ...bundle, approvals: [{ ...approval, timestamp: approval.timestamp + 1n }] },
        { ...bundle, approvals: [approval, approval] },
      ];
      for (const bundleOfBad of bad) await expect(storage.writeBlock(bundleOfBad)).rejects.toThrow(/writeBlock/);
      await expectStoredChain(storage, chain.slice(0, index));
    });
  });
}
