import { useEffect, useState } from 'preact/hooks';
import { v1 } from '../api.js';
import { useNow } from '../clock.js';
import { BlocksTable, TransactionsTable, type BlockRow } from '../components/tables.js';
import { PageTitle } from '../components/layout.js';
import { SeriesChart } from '../components/series-chart.js';
import { Failure } from '../components/states.js';
import { formatGwei, groupThousands } from '../format.js';
import { useChannel } from '../live.js';
import type { Block, BlockEvent, NetworkStats, Transaction } from '../records.js';
import { href } from '../router.js';

const LATEST = 10;
/** Network statistics are read again this often (they move slowly; blocks and transactions arrive live). */
const STATS_REFRESH_MS = 15_000;

/** Network figures, transactions per day, then the latest blocks and transactions, which the `blocks` and `transactions` channels keep current. */
export function HomePage() {
  const now = useNow();
  const [stats, setStats] = useState<NetworkStats | null>(null);
  const [blocks, setBlocks] = useState<BlockRow[] | null>(null);
  const [transactions, setTransactions] = useState<Transaction[] | null>(null);
  const [error, setError] = useState<unknown>(null);

  // Subscribed before the first read: whatever arrives meanwhile is merged in, nothing is missed.
  useChannel<BlockEvent>('blocks', ({ data, removed }) => {
    setBlocks((current) => {
      // The channel's messages carry no labels: a miner already listed keeps the one its block record gave.
      const row: BlockRow = { ...data, hash: data.blockHash, minerLabel: current?.find((b) => b.miner === data.miner)?.minerLabel };
      return mergeNewest(current ?? [], row, (b) => b.hash, (b) => BigInt(b.blockNumber), removed);
    });
  });
  useChannel<Transaction>('transactions', ({ data, removed }) => {
    setTransactions((current) => mergeNewest(current ?? [], data, (t) => t.hash, (t) => BigInt(t.blockNumber) * 100_000n + BigInt(t.transactionIndex), removed));
  });

  useEffect(() => {
    let shown = true;
    Promise.all([v1<Block[]>('block/list', { offset: LATEST }), v1<Transaction[]>('transaction/list', { offset: LATEST })]).then(
      ([firstBlocks, firstTransactions]) => {
        if (!shown) return;
        setBlocks((current) => firstBlocks.reduce((list, block) => mergeNewest(list, block, (b) => b.hash, (b) => BigInt(b.blockNumber)), current ?? []));
        setTransactions((current) =>
          firstTransactions.reduce((list, tx) => mergeNewest(list, tx, (t) => t.hash, (t) => BigInt(t.blockNumber) * 100_000n + BigInt(t.transactionIndex)), current ?? []),
        );
      },
      (failure: unknown) => shown && setError(failure),
    );
    const readStats = () =>
      v1<NetworkStats>('blockchain/network/stats').then(
        (figures) => {
          if (!shown) return;
          setStats(figures);
          // A failed read is shown until one succeeds again.
          setError(null);
        },
        (failure: unknown) => shown && setError(failure),
      );
    void readStats();
    const timer = setInterval(readStats, STATS_REFRESH_MS);
    return () => {
      shown = false;
      clearInterval(timer);
    };
  }, []);

  // The height follows the blocks channel between two reads of the statistics.
  const height = stats === null ? null : [BigInt(stats.blockHeight), ...(blocks ?? []).map((b) => BigInt(b.blockNumber))].reduce((a, b) => (b > a ? b : a));

  return (
    <>
      <PageTitle sub="A live view of the chain this ChainLens follows">Explorer</PageTitle>
      {error !== null && <Failure error={error} what="the latest chain data" />}
      <section aria-label="Network statistics" class="stats">
        <Stat label="Block height" value={height === null ? '…' : groupThousands(height.toString())} />
        <Stat label="Block time" value={stats ? `${stats.blockTime.toFixed(1)} s` : '…'} />
        <Stat label="Transactions per second" value={stats ? stats.tps.toFixed(2) : '…'} />
        <Stat label="Gas price" value={stats ? (stats.gasPrice === null ? 'unknown' : formatGwei(stats.gasPrice)) : '…'} />
        <Stat label="Transactions" value={stats ? groupThousands(stats.totalTransactions) : '…'} />
        <Stat label="Accounts" value={stats ? groupThousands(stats.totalAccounts) : '…'} />
        <Stat label="Contracts" value={stats ? groupThousands(stats.totalContracts) : '…'} />
      </section>
      <section aria-labelledby="transactions-per-day">
        <h2 id="transactions-per-day">
          Transactions per day <a class="more" href={href.charts()}>All charts</a>
        </h2>
        <SeriesChart series={{ name: 'transactions', unit: 'count' }} resolution="day" height={140} />
      </section>
      <div class="columns">
        <section aria-labelledby="latest-blocks">
          <h2 id="latest-blocks">
            Latest blocks <a class="more" href={href.blocks()}>All blocks</a>
          </h2>
          {blocks === null ? <p class="loading" role="status">Loading blocks…</p> : <BlocksTable blocks={blocks} now={now} caption="The newest indexed blocks, updated as they arrive" />}
        </section>
        <section aria-labelledby="latest-transactions">
          <h2 id="latest-transactions">
            Latest transactions <a class="more" href={href.transactions()}>All transactions</a>
          </h2>
          {transactions === null ? (
            <p class="loading" role="status">Loading transactions…</p>
          ) : (
            <TransactionsTable transactions={transactions} now={now} compact caption="The newest indexed transactions, updated as they arrive" />
          )}
        </section>
      </div>
    </>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div class="stat">
      <span class="label">{label}</span>
      <span class="value">{value}</span>
    </div>
  );
}

/**
 * `list` with `item` in its place (newest first by `order`), at most {@link LATEST} long; a
 * `removed` item (a reorg took it back) is taken out instead.
 */
function mergeNewest<T>(list: T[], item: T, key: (value: T) => string, order: (value: T) => bigint, removed = false): T[] {
  const others = list.filter((existing) => key(existing) !== key(item));
  if (removed) return others;
  return [...others, item].sort((a, b) => (order(a) === order(b) ? 0 : order(a) > order(b) ? -1 : 1)).slice(0, LATEST);
}
