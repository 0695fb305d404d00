import { chainInternalTransactions, chainLogs, chainTokenTransfers, chainTransactions, fixtureAddress, fixtureHash, makeAddressPool, makeChain, withInternalTransactions, ZERO_ADDRESS } from '@chainlens/testing';
import type { Hex } from '@chainlens/core';
import { escapeLiteral } from 'pg';
import { beforeAll, describe, expect, it } from 'vitest';
import { byteaArray, toBytea } from '../src/codec.js';
import { hitCountersStatement, hitCountersValues } from '../src/counter-queries.js';
import { insightStatements, labelStatements, prefixPattern } from '../src/insight-queries.js';
import { logsStatement } from '../src/log-topic-queries.js';
import { metadataStatements } from '../src/metadata-queries.js';
import { internalTransactionStatements } from '../src/internal-transaction-queries.js';
import { addressLogsKey, afterPrefix, readStatements, searchKey, tokenTransfersKey, type Statement } from '../src/queries.js';
import { rollbackStatements } from '../src/rollback.js';
import { qualifiedTables } from '../src/tables.js';
import { verificationStatements } from '../src/verification-queries.js';
import { createStorage, testSchemas, withClient } from './database.js';

/** A plan node of EXPLAIN (FORMAT JSON), as far as these tests read it. */
interface PlanNode {
  'Node Type': string;
  /** With ANALYZE: rows the node returned, per loop. */
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Relation Name'?: string;
  'Index Name'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

function flatten(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(flatten)];
}

const schemas = testSchemas();

/** Creates `schema` with every table and index, and nothing in them. */
async function migrated(schema: string): Promise<void> {
  const storage = await createStorage(schema);
  try {
    await storage.init();
  } finally {
    await storage.close();
  }
}
const schema = schemas.next();
const t = qualifiedTables(schema);
// ~4,000 transactions among 300 addresses, ~2,500 logs, ~10,000 internal transactions: enough
// rows that the planner picks by cost, with every statistic fresh from ANALYZE.
const pool = makeAddressPool(300);
const chain = withInternalTransactions(makeChain({ blocks: 400, txPerBlock: 10, addresses: pool }), pool);
const tx = chainTransactions(chain)[2_345]!;
const log = chainLogs(chain)[1_234]!;
const read = readStatements(t);
const transfer = chainTokenTransfers(chain)[321]!;
const internal = chainInternalTransactions(chain)[4_321]!;
const internalRead = internalTransactionStatements(t);
const insights = insightStatements(t);
const labels = labelStatements(t);
const approval = chain.flatMap((bundle) => bundle.approvals)[40]!;
// 4,000 counters, half of them expired by NOW: the sweep of hitCounters has rows to delete.
const NOW = 1_700_000_000_000;
const counters = Array.from({ length: 4_000 }, (_, i) => ({ key: `rate:${i}`, amount: 1, expiresAt: NOW + (i % 2 ? 1 : -1) * 60_000 }));

/** Topic searches (Storage.listLogs) of rare topics at every position, and their values. */
const counted = new Map<string, number>();
for (const { topics } of chainLogs(chain)) topics.forEach((topic, position) => counted.set(`${position}${topic}`, (counted.get(`${position}${topic}`) ?? 0) + 1));
const rare = chainLogs(chain).find((candidate) => candidate.topics.length === 4 && candidate.topics.every((topic, position) => counted.get(`${position}${topic}`)! <= 10))!;
const RANGE = ['0', '9223372036854775807', 25, 0];
const topicSearch = (topics: (number | undefined)[], operators: Record<string, 'and' | 'or'> = {}, address?: boolean, gas?: boolean): [Statement, unknown[]] => {
  const given = topics.map((position) => (position === undefined ? undefined : rare.topics[position]));
  const statement = logsStatement(t, { topics: given, operators, page: 1, offset: 25, address: address ? rare.address : undefined }, gas);
  return [statement, [...RANGE, ...(address ? [toBytea(rare.address)] : []), ...given.flatMap((topic) => (topic === undefined ? [] : [toBytea(topic)]))]];
};
const topicSearches: [string, [Statement, unknown[]], string[]][] = [
  ['listLogs by topic0 alone', topicSearch([0]), ['logs_by_topic0']],
  ['listLogs by topic1 alone', topicSearch([undefined, 1]), ['logs_by_topic1']],
  ['listLogs by topic2 alone', topicSearch([undefined, undefined, 2]), ['logs_by_topic2']],
  ['listLogs by topic3 alone', topicSearch([undefined, undefined, undefined, 3]), ['logs_by_topic3']],
  ['listLogs by topic0 or topic2', topicSearch([0, undefined, 2], { '0_2': 'or' }), ['logs_by_topic0', 'logs_by_topic2']],
  ['listLogs by topic1 or topic3', topicSearch([undefined, 1, undefined, 3], { '1_3': 'or' }), ['logs_by_topic1', 'logs_by_topic3']],
];

/** A contract's logs, newest first (the events route's default). */
const logsByAddress = read.addressLogs[addressLogsKey('DESC', false)]!;

/**
 * Each statement with parameters that find something. (getToken is a primary key lookup on a
 * table of one row per token: the fixture's few dozen fit one page, which the planner rightly
 * reads whole.)
 */
const cases: [string, Statement, unknown[]][] = [
  ['getTransaction', read.transactionByHash, [toBytea(tx.hash)]],
  ['getTransactions', read.transactionsByHash, [[toBytea(tx.hash), toBytea(chainTransactions(chain)[7]!.hash)]]],
  ['getTransactionLogs', read.transactionLogs, [toBytea(log.transactionHash)]],
  ['listAddressTransactions asc', read.addressTransactionsAsc, [toBytea(tx.from), '0', '9223372036854775807', 25, 0]],
  ['listAddressTransactions desc', read.addressTransactionsDesc, [toBytea(tx.from), '100', '300', 10, 10]],
  ['listAddressTransactionHashes desc', read.addressTransactionHashesDesc, [toBytea(tx.from), '0', '9223372036854775807', 25, 25]],
  ['getAddressActivity', read.addressActivity, [toBytea(tx.from)]],
  ['listTransactionsBetween', read.transactionsBetweenDesc, [toBytea(tx.from), toBytea(tx.to!), 25, 0]],
  ['getBlockByNumber', read.blockByNumber, ['200']],
  ['getBlockByHash', read.blockByHash, [toBytea(chain[200]!.block.hash)]],
  ['getBlockTransactionHashes', read.blockTransactionHashes, ['200']],
  ['getBlockWithTransactionHashes', read.blockWithTransactionHashes, ['200']],
  ['listRecentBlocks', read.recentBlocks, [10]],
  ['listMinerBlocks', read.minerBlocks, [toBytea(chain[200]!.block.miner), 25, 25]],
  ['listAddressLogs', logsByAddress, [toBytea(log.address), '0', '9223372036854775807', 25, 0]],
  ['listAddressLogs by topic0, in a range', read.addressLogs[addressLogsKey('ASC', true)]!, [toBytea(log.address), '100', '300', 25, 0, toBytea(log.topics[0]!)]],
  ['getBlockBundle transactions', read.blockTransactions, ['200']],
  ['getBlockBundle logs', read.blockLogs, ['200']],
  ['getBlockBundle token transfers', read.blockTokenTransfers, ['200']],
  ['getBlockBundle internal transactions', internalRead.blockInternalTransactions, ['200']],
  ['listInternalTransactions of an address', internalRead.addressInternalTransactions.DESC, ['0', '9223372036854775807', 25, 0, toBytea(internal.to!)]],
  ['listInternalTransactions of an address, in a range', internalRead.addressInternalTransactions.ASC, ['100', '300', 25, 25, toBytea(internal.from)]],
  ['listInternalTransactions of every address', internalRead.internalTransactions.DESC, ['0', '9223372036854775807', 25, 0]],
  ['listInternalTransactions of every address, in a range', internalRead.internalTransactions.ASC, ['100', '300', 25, 50]],
  ['countAddressTokenTransfers', read.addressTokenTransferCount, [toBytea(transfer.from)]],
  ['listTokenHolders', read.tokenHolders, [toBytea(transfer.token), '1', 100, 0]],
  ['listTokenHolders count with minBalance', read.tokenHolderCount, [toBytea(transfer.token), '1000']],
  ['listAddressTokenBalances', read.addressTokenBalances, [toBytea(transfer.to), 50, 0]],
  ['listTokenTransfers desc', read.tokenTransfers[tokenTransfersKey('DESC', false, false)]!, [toBytea(transfer.token), '0', '9223372036854775807', 50, 0]],
  ['listTokenTransfers from', read.tokenTransfers[tokenTransfersKey('ASC', true, false)]!, [toBytea(transfer.token), '0', '9223372036854775807', 50, 0, toBytea(transfer.from)]],
  ['listTokenTransfers to, in a range', read.tokenTransfers[tokenTransfersKey('DESC', false, true)]!, [toBytea(transfer.token), '100', '300', 50, 0, toBytea(transfer.to)]],
  ['listTokenTransferRange', read.tokenTransferRange, [toBytea(transfer.token), 40, 89]],
  ['listTokenTransferRangeWithTransactions', read.tokenTransferRangeWithTransactions, [toBytea(transfer.token), 40, 89]],
  ['listAddressLogRange', read.addressLogRange, [toBytea(log.address), 10, 34]],
  ['listAddressLogRangeWithGas', read.addressLogRangeWithGas, [toBytea(log.address), 10, 34]],
  ['listAddressTokenTransfers', read.addressTokenTransfers.DESC, [toBytea(transfer.from), '0', '9223372036854775807', 50, 0, null, null]],
  ['listAddressTokenTransfers of one token and standard, in a range', read.addressTokenTransfers.ASC, [toBytea(transfer.to), '100', '300', 25, 25, toBytea(transfer.token), transfer.standard]],
  ['listApprovals', insights.approvals, [toBytea(approval.owner), 50, 0]],
  ['getBlockBundle approvals', insights.blockApprovals, ['200']],
  ['listAddressTransactionsAfter', insights.transactionsAfter, [toBytea(tx.from), '120', 3, '9223372036854775807', 100]],
  ['listAddressInternalTransactionsAfter', insights.internalTransactionsAfter, [toBytea(internal.to!), '120', 3, 1, '9223372036854775807', 100]],
  ['listAddressTokenTransfersAfter', insights.tokenTransfersAfter, [toBytea(transfer.from), '120', 3, 0, '300', 100]],
  ['listAddressLogsAfter', insights.logsAfter, [toBytea(log.address), '120', 3, '9223372036854775807', 100]],
  ['getAddressLabels', labels.labels, [[toBytea(tx.from)]]],
  ...topicSearches.map(([name, [statement, values]]): [string, Statement, unknown[]] => [name, statement, values]),
  ['listLogs by topic1 and topic2', ...topicSearch([undefined, 1, 2], { '1_2': 'and' })],
  ['listLogs by contract and topic3', ...topicSearch([undefined, undefined, undefined, 3], {}, true)],
  ['listLogsWithGas by topic2 alone', ...topicSearch([undefined, undefined, 2], {}, false, true)],
  ['listLogsWithGas by contract and topic0 or topic1', ...topicSearch([0, 1], { '0_1': 'or' }, true, true)],
  [
    'hitCounters',
    hitCountersStatement(t),
    hitCountersValues([...counters.slice(0, 3), { key: 'rate:9', amount: 0, expiresAt: NOW + 60_000 }], NOW),
  ],
];

/** A parameter as SQL literal text, for EXECUTE. */
function literal(value: unknown): string {
  if (Array.isArray(value)) return escapeLiteral(`{${value.map((v) => `"${String(v).replace(/\\/g, '\\\\')}"`).join(',')}}`);
  return typeof value === 'number' ? String(value) : escapeLiteral(String(value));
}

/**
 * Plan nodes of `statement`: the custom plan for these values, or the generic plan a prepared
 * statement may switch to; with `analyze`, run, so each node tells the rows it actually returned.
 */
function plan(statement: Statement, values: unknown[], kind: 'custom' | 'generic', analyze = false): Promise<PlanNode[]> {
  const options = analyze ? '(ANALYZE, FORMAT JSON)' : '(FORMAT JSON)';
  return withClient(async (client) => {
    type Explained = { 'QUERY PLAN': [{ Plan: PlanNode }] };
    if (kind === 'custom') {
      const { rows } = await client.query<Explained>(`EXPLAIN ${options} ${statement.text}`, values);
      return flatten(rows[0]!['QUERY PLAN'][0].Plan);
    }
    await client.query('SET plan_cache_mode = force_generic_plan');
    await client.query(`PREPARE probe AS ${statement.text}`);
    const { rows } = await client.query<Explained>(`EXPLAIN ${options} EXECUTE probe(${values.map(literal).join(', ')})`);
    return flatten(rows[0]!['QUERY PLAN'][0].Plan);
  });
}

describe('indexes', () => {
  beforeAll(async () => {
    const storage = await createStorage(schema);
    try {
      await storage.init();
      for (const bundle of chain) await storage.writeBlock(bundle);
      await storage.hitCounters(counters, NOW - 120_000);
      for (const [i, address] of pool.entries()) await storage.putAddressLabel({ address, label: `Label ${i}`, category: null, note: null, updatedAt: '2026-11-01T00:00:00.000Z' });
    } finally {
      await storage.close();
    }
    // Labels and approvals of many more addresses than the chain has: tables large enough that reading one whole costs more than an index.
    await withClient((client) =>
      client.query(`INSERT INTO ${t.addressLabels} (address, label, label_key, updated_at)
          SELECT decode(lpad(to_hex(i), 40, '0'), 'hex'), 'Other ' || i, 'other ' || i, '2026-11-01T00:00:00.000Z' FROM generate_series(1, 20000) i;
        INSERT INTO ${t.tokenApprovals} (block_number, log_index, transaction_index, transaction_hash, timestamp, token, owner, spender, kind, value)
          SELECT 100000 + i, 0, 0, '\\x00', 0, '\\x01', decode(lpad(to_hex(i % 5000), 40, '0'), 'hex'), '\\x02', 'allowance', i FROM generate_series(1, 20000) i;`),
    );
    await withClient((client) => client.query(`ANALYZE ${t.blocks}, ${t.transactions}, ${t.logs}, ${t.addressTransactions}, ${t.addressStats}, ${t.counters}, ${t.tokenTransfers}, ${t.tokens}, ${t.tokenHolders}, ${t.internalTransactions}, ${t.tokenApprovals}, ${t.addressLabels}`));
  });

  for (const kind of ['custom', 'generic'] as const) {
    describe(`${kind} plans`, () => {
      for (const [name, statement, values] of cases) {
        it(`${name} reads through an index, never a sequential scan`, async () => {
          const nodes = await plan(statement, values, kind);
          const seqScans = nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']);
          expect(seqScans).toEqual([]);
          expect(nodes.some((node) => node['Node Type'].startsWith('Index') || node['Node Type'] === 'Bitmap Index Scan')).toBe(true);
        });
      }
    });
  }

  for (const kind of ['custom', 'generic'] as const) {
    it(`topic searches read the topic indexes of their positions (${kind} plans)`, async () => {
      for (const [name, [statement, values], indexes] of topicSearches) {
        const used = (await plan(statement, values, kind)).map((node) => node['Index Name']);
        expect(used, name).toEqual(expect.arrayContaining(indexes));
      }
    });
  }

  it('a label search reads a range of address_labels_by_key (planned with its pattern, as it is sent unprepared)', async () => {
    const nodes = await plan(labels.searchLabels, [prefixPattern('label 1'), 10], 'custom');
    expect(nodes.map((node) => node['Index Name'])).toContain('address_labels_by_key');
  });

  it('the address, log, holder, token transfer and internal transaction listings use the indexes made for them', async () => {
    const indexesOf = async (statement: Statement, values: unknown[]) =>
      (await plan(statement, values, 'custom')).map((node) => node['Index Name']).filter(Boolean);
    // The page's edges are found on the primary key, its entries by their ordinals.
    expect(await indexesOf(read.addressTransactionsAsc, cases[3]![2])).toEqual(expect.arrayContaining(['address_transactions_pkey', 'address_transactions_by_seq']));
    const deepTransactions = await plan(read.addressTransactionHashesDesc, [...cases[5]![2].slice(0, 4), 500], 'generic');
    expect(deepTransactions.map((node) => node['Index Name'])).toContain('address_transactions_by_seq');
    const logValues = cases.find(([name]) => name === 'listAddressLogs')![2];
    // A contract's event page: its edges found on logs_by_address, its logs by their ordinals.
    expect(await indexesOf(logsByAddress, logValues)).toEqual(expect.arrayContaining(['logs_by_address', 'logs_by_address_seq']));
    // A deep one too, never walking the primary key for the contract's logs.
    const deepLogs = await plan(logsByAddress, [...logValues.slice(0, 4), 500], 'generic');
    expect(deepLogs.map((node) => node['Index Name'])).toEqual(expect.arrayContaining(['logs_by_address', 'logs_by_address_seq']));
    expect(deepLogs.filter((node) => node['Index Name'] === 'logs_pkey' && node.Filter !== undefined)).toEqual([]);
    expect(await indexesOf(read.transactionByHash, cases[0]![2])).toContain('transactions_pkey');
    const [, holders, holderValues] = cases.find(([name]) => name === 'listTokenHolders')!;
    expect(await indexesOf(holders, holderValues)).toContain('token_holders_by_balance');
    const [, transfers, transferValues] = cases.find(([name]) => name === 'listTokenTransfers desc')!;
    // The page's edges are found on token_transfers_by_token, its rows by their ordinals.
    expect(await indexesOf(transfers, transferValues)).toEqual(expect.arrayContaining(['token_transfers_by_token', 'token_transfers_by_token_seq']));
    // A range of ordinals is read on the ordinals' index alone.
    for (const [name, index] of [
      ['listTokenTransferRange', 'token_transfers_by_token_seq'],
      ['listTokenTransferRangeWithTransactions', 'token_transfers_by_token_seq'],
      ['listAddressLogRange', 'logs_by_address_seq'],
      ['listAddressLogRangeWithGas', 'logs_by_address_seq'],
    ]) {
      const [, range, rangeValues] = cases.find(([named]) => named === name)!;
      expect(await indexesOf(range, rangeValues), name).toContain(index);
    }
    const [, ofAddress, addressValues] = cases.find(([name]) => name === 'listAddressTokenTransfers')!;
    expect(await indexesOf(ofAddress, addressValues)).toEqual(expect.arrayContaining(['token_transfers_by_from', 'token_transfers_by_to']));
    const [, internalOfAddress, internalValues] = cases.find(([name]) => name === 'listInternalTransactions of an address')!;
    expect(await indexesOf(internalOfAddress, internalValues)).toEqual(expect.arrayContaining(['internal_transactions_by_from', 'internal_transactions_by_to']));
  });
});

/** The statements behind bench/query's routes (issue 38), each at a deep page where the route pages. */
describe('the statements of the list routes and lookups', () => {
  const PAGE = 10;
  const MAX = '9223372036854775807';
  const routeSchema = schemas.next();
  const r = readStatements(qualifiedTables(routeSchema));
  // One token emitting every log and moving every transfer of the chain: a token with pages to go deep into.
  const routeChain = makeChain({ blocks: 600, txPerBlock: 10, addresses: makeAddressPool(20) }).map((bundle) => ({
    ...bundle,
    logs: bundle.logs.map((emitted) => ({ ...emitted, address: fixtureAddress('paged-token') })),
    approvals: bundle.approvals.map((approval) => ({ ...approval, token: fixtureAddress('paged-token') })),
    tokenTransfers: bundle.tokenTransfers.map((moved) => ({ ...moved, token: fixtureAddress('paged-token') })),
  }));
  /** The item with the most entries by `key`, and its count. */
  const busiest = <T>(items: readonly T[], key: (item: T) => Hex): [Hex, number] => {
    const counts = new Map<Hex, number>();
    for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
    return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best));
  };
  const [address, transactions] = busiest(chainTransactions(routeChain), (candidate) => candidate.from);
  const [token, transfers] = busiest(chainTokenTransfers(routeChain), (candidate) => candidate.token);
  const [emitter, logs] = busiest(chainLogs(routeChain), (candidate) => candidate.address);
  const holder = chainTokenTransfers(routeChain)[50]!.to;
  const someTransaction = chainTransactions(routeChain)[1_234]!;
  // A recipient's incoming transfers across every token: what getLogs by topic2 alone lists.
  const recipientTopic = chainLogs(routeChain).find((candidate) => candidate.topics.length > 2)!.topics[2]!;
  const recipientSearch = logsStatement(qualifiedTables(routeSchema), { topics: [undefined, undefined, recipientTopic], operators: {}, page: 1, offset: PAGE }, true);

  beforeAll(async () => {
    const storage = await createStorage(routeSchema);
    try {
      await storage.init();
      await storage.writeBlocks(routeChain);
    } finally {
      await storage.close();
    }
    const rt = qualifiedTables(routeSchema);
    // And 5,000 more holders of the token: a holder table the planner reads by its indexes.
    await withClient((client) =>
      client.query(
        `INSERT INTO ${rt.tokenHolders} (token, holder, balance, first_seen, last_block, last_activity)
        SELECT $1, decode(lpad(to_hex(i), 40, '0'), 'hex'), i, 1700000000, 1, 1700000000 FROM generate_series(1, 5000) i`,
        [toBytea(token)],
      ),
    );
    // And 5,000 more tokens: a token table the planner reads by its key, as a chain's is.
    await withClient((client) =>
      client.query(
        `INSERT INTO ${rt.tokens} (address, standard, first_block, transfer_count, holder_count)
        SELECT decode(lpad(to_hex(i), 40, '0'), 'hex'), 'ERC-20', 1, 1, 1 FROM generate_series(1, 5000) i`,
      ),
    );
    await withClient((client) => client.query(`ANALYZE ${rt.blocks}, ${rt.transactions}, ${rt.logs}, ${rt.addressTransactions}, ${rt.tokenTransfers}, ${rt.tokens}, ${rt.tokenHolders}`));
  });

  /** A page three pages in, or the last full page of a shorter list. */
  const deep = (count: number) => Math.max(0, Math.min(3, Math.floor(count / PAGE) - 1)) * PAGE;
  /**
   * Per statement, the most rows a sort may hold: a page, or for a UNION of a sender and a recipient
   * side, each cut at a page, the two sides (Postgres 18 sorts them to drop the repeated transfer
   * to oneself where 15 hashes them).
   */
  const routeCases: [string, Statement, unknown[], sortBound?: number][] = [
    ['transaction/:hash (getTransaction)', r.transactionByHash, [toBytea(someTransaction.hash)]],
    ['getblock (getBlockWithTransactionHashes)', r.blockWithTransactionHashes, ['200']],
    ['txlist asc (listAddressTransactions)', r.addressTransactionsAsc, [toBytea(address), '0', MAX, PAGE, deep(transactions)]],
    ['txlist desc (listAddressTransactions)', r.addressTransactionsDesc, [toBytea(address), '0', MAX, PAGE, deep(transactions)]],
    ['holders (listTokenHolders)', r.tokenHolders, [toBytea(token), '1', PAGE, 0]],
    ['token transfers desc (listTokenTransfers)', r.tokenTransfers[tokenTransfersKey('DESC', false, false)]!, [toBytea(token), '0', MAX, PAGE, deep(transfers)]],
    ['tokentx of a token asc (listTokenTransfers)', r.tokenTransfers[tokenTransfersKey('ASC', false, false)]!, [toBytea(token), '0', MAX, PAGE, deep(transfers)]],
    ['contract events desc (listAddressLogs)', r.addressLogs[addressLogsKey('DESC', false)]!, [toBytea(emitter), '0', MAX, PAGE, deep(logs)]],
    ['getLogs by address (listAddressLogs asc)', r.addressLogs[addressLogsKey('ASC', false)]!, [toBytea(emitter), '0', MAX, PAGE, deep(logs)]],
    ['tokentx of an address, first page (listAddressTokenTransfers)', r.addressTokenTransfers.DESC, [toBytea(holder), '0', MAX, PAGE, 0, null, null], 2 * PAGE],
    ['a page’s transactions by hash (getTransactions)', r.transactionsByHash, [chainTransactions(routeChain).slice(100, 100 + PAGE).map((candidate) => toBytea(candidate.hash))]],
    // The pages Etherscan's getLogs and tokentx read, each joined with its transactions.
    ['getLogs by address (listLogsWithGas)', r.addressLogs[addressLogsKey('ASC', false, true)]!, [toBytea(emitter), '0', MAX, PAGE, deep(logs)]],
    ['tokentx of a token asc (listTokenTransfersWithTransactions)', r.tokenTransfers[tokenTransfersKey('ASC', false, false, true)]!, [toBytea(token), '0', MAX, PAGE, deep(transfers)]],
    ['tokentx of a token desc (listTokenTransfersWithTransactions)', r.tokenTransfers[tokenTransfersKey('DESC', false, false, true)]!, [toBytea(token), '0', MAX, PAGE, deep(transfers)]],
    [
      'tokentx of a token from a sender (listTokenTransfersWithTransactions)',
      r.tokenTransfers[tokenTransfersKey('DESC', true, false, true)]!,
      [toBytea(token), '0', MAX, PAGE, 0, toBytea(chainTokenTransfers(routeChain)[50]!.from)],
    ],
    ['tokentx of an address, first page (listAddressTokenTransfersWithTokens)', r.addressTokenTransfersWithTokens.DESC, [toBytea(holder), '0', MAX, PAGE, 0, null, null], 2 * PAGE],
    ['tokentx of an address asc, second page (listAddressTokenTransfersWithTokens)', r.addressTokenTransfersWithTokens.ASC, [toBytea(holder), '0', MAX, PAGE, PAGE, null, null], 4 * PAGE],
    // Etherscan's tokentx names the standard (ERC-20 for tokentx), as the bench's holder route asks.
    ['tokentx of an address, ERC-20 only (listAddressTokenTransfersWithTokens)', r.addressTokenTransfersWithTokens.DESC, [toBytea(holder), '0', MAX, PAGE, 0, null, 'ERC-20'], 2 * PAGE],
    ['getLogs by topic2 alone (listLogsWithGas)', recipientSearch, ['0', MAX, PAGE, 0, toBytea(recipientTopic)]],
  ];

  it('the fixture has pages to go deep into', () => {
    expect([transactions, transfers, logs].every((count) => count >= 4 * PAGE)).toBe(true);
  });

  for (const kind of ['custom', 'generic'] as const) {
    for (const [name, statement, values, sortBound = PAGE] of routeCases) {
      it(`${name}: no sequential scan, no sort of more than a page (${kind} plan, run)`, async () => {
        const nodes = await plan(statement, values, kind, true);
        expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name'])).toEqual([]);
        const sorted = nodes.filter((node) => node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort');
        expect(sorted.map((node) => node['Actual Rows']! * node['Actual Loops']!).filter((rows) => rows > sortBound)).toEqual([]);
      });
    }
  }

  it('a deep page of an address’s transactions, a token’s transfers or a contract’s logs reads about a page of index entries, as the first page does', async () => {
    // The list's own index entries: the page's rows then join their transactions, a lookup per
    // row or fewer (rows of one transaction share a memoized one).
    const entriesRead = async (statement: Statement, values: unknown[]) =>
      (await plan(statement, values, 'generic', true))
        .filter((node) => node['Node Type'].startsWith('Index') && !node['Index Name']!.startsWith('transactions_'))
        .reduce((sum, node) => sum + node['Actual Rows']! * node['Actual Loops']!, 0);
    const paged = routeCases.filter(
      ([name]) => name.startsWith('txlist') || name.includes('(listTokenTransfers)') || name.includes('(listAddressLogs') || (name.includes('(listLogsWithGas)') && !name.includes('topic2 alone')) || (name.includes('(listTokenTransfersWithTransactions)') && !name.includes('sender')),
    );
    expect(paged).toHaveLength(9);
    for (const [, statement, values] of paged) {
      const first = await entriesRead(statement, [...values.slice(0, 4), 0]);
      expect(first).toBeLessThanOrEqual(2 * PAGE + 4);
      expect(await entriesRead(statement, values)).toBeLessThanOrEqual(first);
    }
  });
});

describe('a token whose transfers are nearly all mints', () => {
  const mintSchema = schemas.next();
  const m = qualifiedTables(mintSchema);
  const token = fixtureAddress('minted');
  const holders = Array.from({ length: 5_000 }, (_, i) => fixtureAddress(`holder ${i}`));

  beforeAll(async () => {
    await migrated(mintSchema);
    // ANALYZE samples one sender, the zero address, as a real airdrop's table does.
    await withClient(async (client) => {
      await client.query(
        `INSERT INTO ${m.tokenTransfers} (block_number, log_index, batch_index, transaction_hash, transaction_index, timestamp, token, standard, from_address, to_address, value, token_seq)
        SELECT i / 100, i % 100, 0, $1, i % 100, 1700000000 + i / 100, $2, 'ERC-20', $3, h, 1, i
        FROM unnest($4::bytea[]) WITH ORDINALITY AS u(h, i)`,
        [toBytea(fixtureHash('mint')), toBytea(token), toBytea(ZERO_ADDRESS), byteaArray(holders)],
      );
      await client.query(
        `INSERT INTO ${m.tokenHolders} (token, holder, balance, first_seen, last_block, last_activity)
        SELECT $1, h, i, 1700000000, 1, 1700000000 FROM unnest($2::bytea[]) WITH ORDINALITY AS u(h, i)`,
        [toBytea(token), byteaArray(holders)],
      );
      await client.query(`ANALYZE ${m.tokenTransfers}, ${m.tokenHolders}`);
    });
  });

  it('a deep page of its holders skips them on token_holders_by_balance alone, fetching only the page’s rows', async () => {
    for (const kind of ['custom', 'generic'] as const) {
      const nodes = await plan(readStatements(m).tokenHolders, [toBytea(token), '1', 100, 4_000], kind);
      expect(nodes.find((node) => node['Index Name'] === 'token_holders_by_balance')?.['Node Type'], kind).toBe('Index Only Scan');
    }
  });

  it('a rollback finds each holder’s newest transfer through the sender and recipient indexes, not by walking every transfer', async () => {
    const some = holders.slice(-3);
    const { settleChainState } = rollbackStatements(m);
    const values = ['40', byteaArray([]), 0, 0, byteaArray(some.map(() => token)), byteaArray(some), byteaArray([token])];
    for (const kind of ['custom', 'generic'] as const) {
      const nodes = await plan(settleChainState, values, kind);
      const transferScans = nodes.filter((node) => node['Relation Name'] === 'token_transfers');
      expect(transferScans.map((node) => node['Index Name']), kind).toEqual(expect.arrayContaining(['token_transfers_by_from', 'token_transfers_by_to']));
      expect(transferScans.map((node) => node['Index Name']), kind).not.toContain('token_transfers_pkey');
    }
  });
});

describe('token search', () => {
  const searchSchema = schemas.next();
  const k = qualifiedTables(searchSchema);
  const search = readStatements(k).searchTokens;

  beforeAll(async () => {
    await migrated(searchSchema);
    // 20,000 tokens named as the metadata indexer names them: `Token i` (`TKi`), keys lowercased.
    await withClient(async (client) => {
      await client.query(
        `INSERT INTO ${k.tokens} (address, standard, first_block, transfer_count, holder_count, metadata_read, name, symbol, decimals, name_key, symbol_key)
        SELECT decode(lpad(to_hex(i), 40, '0'), 'hex'), 'ERC-20', i, i % 97, i % 89, true, 'Token ' || i, 'TK' || i, 18,
          convert_to('token ' || i, 'UTF8'), convert_to('tk' || i, 'UTF8')
        FROM generate_series(1, 20000) AS i`,
      );
      // And a metadata profile and a verified contract for every other token: operator tables large enough that reading one whole costs more than its key.
      await client.query(
        `INSERT INTO ${k.metadataProfiles} (address, profile) SELECT decode(lpad(to_hex(i), 40, '0'), 'hex'), '{"website": "https://example.org"}' FROM generate_series(1, 20000, 2) AS i`,
      );
      await client.query(
        `INSERT INTO ${k.verifiedContracts} (address, name, path, compiler_version, compiler_settings, sources, abi, constructor_arguments, runtime_match, verified_at)
        SELECT decode(lpad(to_hex(i), 40, '0'), 'hex'), 'Token', 'Token.sol', '0.8.28', '{}', '{}', '[]', '\\x', 'full', now() FROM generate_series(1, 20000, 2) AS i`,
      );
      await client.query(`ANALYZE ${k.tokens}, ${k.metadataProfiles}, ${k.verifiedContracts}`);
    });
  });

  /** Token `i` of the table, as a bytea literal. */
  const tokenKey = (i: number) => `\\x${i.toString(16).padStart(40, '0')}`;

  // What the token transfer, tokentx, holders and events routes read beside their page: the
  // token (or a page's tokens), their metadata profiles, the contract's verification.
  const lookups: [string, Statement, unknown[]][] = [
    ['getToken', readStatements(k).token, [tokenKey(1234)]],
    ['listTokens of a page’s tokens (include)', readStatements(k).includedTokens, [3, 0, [tokenKey(11), tokenKey(1234), tokenKey(19_999)], []]],
    ['getMetadataProfiles', metadataStatements(k).profiles, [[tokenKey(11), tokenKey(1234)]]],
    ['getVerifiedContracts', verificationStatements(k).contracts, [[tokenKey(11)]]],
  ];
  for (const [name, statement, values] of lookups) {
    it(`${name} reads by primary key, never a sequential scan (custom and generic plans)`, async () => {
      for (const kind of ['custom', 'generic'] as const) {
        const nodes = await plan(statement, values, kind);
        expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']), kind).toEqual([]);
        expect(nodes.some((node) => node['Index Name']?.endsWith('_pkey')), kind).toBe(true);
      }
    });
  }

  it('finds names and symbols by prefix through their indexes, never a sequential scan, in custom and generic plans', async () => {
    // Prefixes as people type them, each naming a few tokens (one naming half of them is rightly read whole).
    for (const prefix of ['Token 123', 'tk1999', 'TOKEN 2000']) {
      const key = searchKey(prefix);
      for (const kind of ['custom', 'generic'] as const) {
        const nodes = await plan(search, [key, afterPrefix(key), 10], kind);
        const what = `${prefix}, ${kind}`;
        expect(nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']), what).toEqual([]);
        expect(nodes.map((node) => node['Index Name']), what).toEqual(expect.arrayContaining(['tokens_by_name_key', 'tokens_by_symbol_key']));
      }
    }
  });
});
