import { ChartNotFoundError, InvalidRequestError, TokenNotFoundError } from '../errors/index.js';
import type { IndexedHead } from '../events/indexed-head.js';
import { formatUsd } from '../prices/usd.js';
import { type BlockReader, BUCKET_SECONDS, bucketOf, type ChartReader, type ChartResolution, type Hex, type StoredChartRollup, type StoredTokenRollup, type TokenReader } from '../storage/index.js';
import type { TokenPrices } from './token-prices.js';
import type { z } from 'zod';
import type { chartRecordSchema, chartSeriesRecordSchema } from '../records/record-schemas.js';

/** A chart series `GET /stats/charts` lists. */
export type ChartSeriesRecord = z.infer<typeof chartSeriesRecordSchema>;

/** One point: a bucket's start (Unix seconds) and its value (a decimal string; `null` where there is none). */
export type ChartPointRecord = ChartRecord['points'][number];

/** A series over a range: a point for each bucket in which at least one block was indexed, oldest first. */
export type ChartRecord = z.infer<typeof chartRecordSchema>;

/** What a chart request asks (validated by the route); absent bounds default to the last year of days or week of hours up to the newest indexed block. */
export interface ChartQuery {
  resolution: ChartResolution;
  from?: bigint;
  to?: bigint;
  token?: Hex;
}

/** Most points one chart answers. */
export const MAX_CHART_POINTS = 10_000;

/** Points a chart answers without a `from`: a year of days, a week of hours. */
const DEFAULT_POINTS: Readonly<Record<ChartResolution, bigint>> = { day: 365n, hour: 168n };

type Values = (rollups: readonly StoredChartRollup[], token: TokenSeries | null, resolution: ChartResolution) => Promise<(string | null)[]> | (string | null)[];

/** A token's rollups lined up with the chain's buckets. */
interface TokenSeries {
  token: Hex;
  /** Per chain bucket: the token's rollup there, `null` where it did not move. */
  rollups: (StoredTokenRollup | null)[];
  /** Its last rollup before the range. */
  before: StoredTokenRollup | null;
}

const count = (pick: (rollup: StoredChartRollup) => number | bigint): Values => (rollups) => rollups.map((rollup) => pick(rollup).toString());

/**
 * The series, in the order `GET /stats/charts` lists them. Every one is read from stored
 * rollups (one row per point), never by scanning blocks; prices from the price source.
 */
const SERIES: readonly (Omit<ChartSeriesRecord, 'resolutions'> & { values: Values })[] = [
  { name: 'transactions', description: 'Transactions indexed in the bucket', unit: 'count', token: 'none', values: count((r) => r.transactions) },
  { name: 'active-addresses', description: 'Distinct addresses sending, receiving or created by a transaction in the bucket', unit: 'count', token: 'none', values: count((r) => r.activeAddresses) },
  { name: 'new-addresses', description: 'Addresses whose first transaction is in the bucket', unit: 'count', token: 'none', values: count((r) => r.newAddresses) },
  { name: 'gas-used', description: 'Gas used by the bucket’s blocks', unit: 'gas', token: 'none', values: count((r) => r.gasUsed) },
  {
    name: 'average-gas-price',
    description: 'Average effective gas price of the bucket’s transactions (Wei); null for a bucket without transactions',
    unit: 'wei',
    token: 'none',
    values: (rollups) => rollups.map((r) => (r.transactions === 0 ? null : (r.gasPriceSum / BigInt(r.transactions)).toString())),
  },
  { name: 'new-contracts', description: 'Contracts created by the bucket’s transactions', unit: 'count', token: 'none', values: count((r) => r.newContracts) },
  {
    name: 'token-transfers',
    description: 'Token transfers in the bucket (mints and burns included): of every token, or of `token`',
    unit: 'count',
    token: 'optional',
    values: (rollups, token) => (token ? token.rollups.map((r) => String(r?.transfers ?? 0)) : rollups.map((r) => r.tokenTransfers.toString())),
  },
  {
    name: 'token-holders',
    description: 'Holders of `token` at the end of the bucket',
    unit: 'count',
    token: 'required',
    values: (_, token) => {
      let holders = token!.before?.holders ?? 0;
      return token!.rollups.map((rollup) => String((holders = rollup?.holders ?? holders)));
    },
  },
];

/** Chart series from rollups kept as blocks are indexed (see `ChartReader.listChartRollups`). */
export class ChartService {
  readonly #series: ReadonlyMap<string, ChartSeriesRecord & { values: Values }>;

  constructor(
    private readonly storage: ChartReader & BlockReader & TokenReader,
    private readonly head: IndexedHead,
    private readonly prices: TokenPrices,
  ) {
    const price: ChartSeriesRecord & { values: Values } = {
      name: 'token-price',
      description: 'USD price of one whole `token` at the end of the bucket, from the price source; null where it has none',
      unit: 'usd',
      token: 'required',
      resolutions: ['day', 'hour'],
      values: async (rollups, token, resolution) => {
        const ends = rollups.map((rollup) => rollup.bucket + BUCKET_SECONDS[resolution] - 1n);
        return (await this.prices.history(token!.token, ends)).map((usd) => (usd === null ? null : formatUsd(usd)));
      },
    };
    this.#series = new Map([...SERIES.map((series) => ({ ...series, resolutions: price.resolutions })), price].map((series) => [series.name, series]));
  }

  /** Every series, as `GET /stats/charts` lists them. */
  list(): ChartSeriesRecord[] {
    return [...this.#series.values()].map(({ values: _values, ...series }) => series);
  }

  /**
   * The series `name` over the query's range: {@link ChartNotFoundError} for an unknown name,
   * `INVALID_REQUEST` for a range running backwards or holding more than
   * {@link MAX_CHART_POINTS} buckets and for a token where the series takes none (or none where
   * it needs one), {@link TokenNotFoundError} for a token never transferred.
   */
  async chart(name: string, query: ChartQuery): Promise<ChartRecord> {
    const series = this.#series.get(name);
    if (!series) throw new ChartNotFoundError();
    if (series.token === 'required' && query.token === undefined) throw new InvalidRequestError('token', 'this chart is of one token: give its address');
    if (series.token === 'none' && query.token !== undefined) throw new InvalidRequestError('token', 'this chart is of the whole chain: it takes no token');
    const { resolution } = query;
    const width = BUCKET_SECONDS[resolution];
    const to = query.to ?? (await this.#chainTime()) ?? 0n;
    const from = bucketOf(query.from ?? to - (DEFAULT_POINTS[resolution] - 1n) * width, resolution);
    if ((query.from ?? from) > to) throw new InvalidRequestError('from', 'must not be after to');
    if ((bucketOf(to, resolution) - from) / width + 1n > BigInt(MAX_CHART_POINTS)) {
      throw new InvalidRequestError('to', `the range holds more than ${MAX_CHART_POINTS} ${resolution}s`);
    }
    const range = { resolution, from, to };
    const token = query.token;
    const [rollups, tokenPage] = await Promise.all([
      this.storage.listChartRollups(range),
      token === undefined ? null : this.#tokenRollups(token, range),
    ]);
    let tokenSeries: TokenSeries | null = null;
    if (token !== undefined && tokenPage) {
      const byBucket = new Map(tokenPage.rollups.map((rollup) => [rollup.bucket, rollup]));
      tokenSeries = { token, before: tokenPage.before, rollups: rollups.map((rollup) => byBucket.get(rollup.bucket) ?? null) };
    }
    const values = await series.values(rollups, tokenSeries, resolution);
    return {
      name,
      resolution,
      token: token ?? null,
      from: from.toString(),
      to: to.toString(),
      points: rollups.map((rollup, i) => ({ timestamp: rollup.bucket.toString(), value: values[i]! })),
    };
  }

  async #tokenRollups(token: Hex, range: { resolution: ChartResolution; from: bigint; to: bigint }) {
    const [stored, page] = await Promise.all([this.storage.getToken(token), this.storage.listTokenRollups({ token, ...range })]);
    if (!stored) throw new TokenNotFoundError();
    return page;
  }

  /** The newest indexed block's timestamp, `null` before anything is indexed. */
  async #chainTime(): Promise<bigint | null> {
    const cursor = await this.head.current();
    return cursor && ((await this.storage.getBlockByNumber(cursor.number))?.timestamp ?? null);
  }
}
