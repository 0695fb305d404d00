import { pino } from 'pino';
import type { Address } from 'viem';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createExplorer } from '@chainlens/core';
import { FAST_INDEXER } from '../explorer-settings.js';
import { chainTransfers } from './chain-transfers.js';
import { call, errorEnvelope, get, indexedThrough, indexedToHead, signUp, waitFor, type ApiContext, type SignedUpUser } from './context.js';

const EVERYTHING = 2n ** 62n;

const EXPORT_KINDS = ['transactions', 'internal-transactions', 'token-transfers', 'logs'] as const;

/** A second explorer's export settings: a cap the suite's chain exceeds, and a weight of its own. */
const SMALL_EXPORTS = { maxRows: 3, pageRows: 2, weight: 7 };

/** A CSV export as text, with its status and content type. */
async function csv(context: ApiContext, path: string, headers: Record<string, string>) {
  const response = await fetch(`${context.url}${path}`, { headers });
  return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
}

/** The records of a CSV body (no field of the ones tested spans lines). */
function records(text: string): string[][] {
  expect(text.endsWith('\r\n')).toBe(true);
  return text
    .slice(0, -2)
    .split('\r\n')
    .map((line) => line.split(','));
}

/**
 * Statistics over time, CSV exports, address labels (public and watch lists) and standing token
 * approvals, through whatever adapter and storage serve the suite.
 */
export function insightTests(ctx: () => ApiContext): void {
  let admin: SignedUpUser;
  const putLabel = (address: string, body: unknown, headers = admin.bearer) => call(ctx(), 'PUT', `/api/v2/labels/${address}`, body, headers);
  const deleteLabel = (address: string) => call(ctx(), 'DELETE', `/api/v2/labels/${address}`, undefined, admin.bearer);
  /** The first indexed block's timestamp: charts from there hold every point. */
  const since = async () => (await ctx().explorer.storage.getBlockByNumber(0n))!.timestamp;

  // Every test here may need an admin, and each may run alone (`-t`).
  beforeAll(async () => {
    admin = await signUp(ctx(), ['admin', 'user']);
  });

  let small: Promise<{ context: ApiContext; user: SignedUpUser; close(): Promise<void> }> | undefined;
  /**
   * An explorer of the suite's chain with {@link SMALL_EXPORTS} and a clock that stands still (one
   * rate-limit window throughout), indexed to the head and with a signed-in user: made once, when
   * a test first needs it.
   */
  const smallExports = () =>
    (small ??= (async () => {
      const explorer = await createExplorer({
        rpcUrl: ctx().chain.rpcUrl,
        storage: await ctx().options.storage(),
        logger: pino({ level: 'silent' }),
        indexer: FAST_INDEXER,
        clock: () => 1_800_000_030_000,
        exports: SMALL_EXPORTS,
        rateLimits: { authenticated: { perMinute: 1_000, perDay: 100_000 } },
      });
      const served = await ctx().options.serve(explorer);
      const close = async () => {
        await served.close();
        await explorer.close();
      };
      try {
        await explorer.start();
        const head = await ctx().chain.publicClient.getBlockNumber({ cacheTime: 0 });
        await waitFor(() => indexedThrough(explorer, head), `the small-export explorer indexing block ${head}`);
        const context: ApiContext = { ...ctx(), explorer, url: served.url, close };
        return { context, user: await signUp(context), close };
      } catch (error) {
        await close();
        throw error;
      }
    })());
  afterAll(async () => {
    await (await small)?.close();
  });

  it('GET /stats/charts lists every series; a day or hour chart answers the stored rollups as decimal strings', async () => {
    await indexedToHead(ctx());
    const series = (await get(ctx(), '/api/v1/stats/charts')).body.result as { name: string; token: string }[];
    expect(series.map((one) => one.name)).toEqual(['transactions', 'active-addresses', 'new-addresses', 'gas-used', 'average-gas-price', 'new-contracts', 'token-transfers', 'token-holders', 'token-price']);
    for (const resolution of ['day', 'hour'] as const) {
      const rollups = await ctx().explorer.storage.listChartRollups({ resolution, from: 0n, to: EVERYTHING });
      const chart = await get(ctx(), `/api/v1/stats/charts/transactions?resolution=${resolution}&from=${await since()}`);
      expect(chart.status).toBe(200);
      expect(chart.body.result.points).toEqual(rollups.map((rollup) => ({ timestamp: rollup.bucket.toString(), value: rollup.transactions.toString() })));
      const prices = (await get(ctx(), `/api/v1/stats/charts/average-gas-price?resolution=${resolution}&from=${await since()}`)).body.result.points;
      expect(prices.map((point: { value: string | null }) => point.value)).toEqual(rollups.map((r) => (r.transactions === 0 ? null : (r.gasPriceSum / BigInt(r.transactions)).toString())));
    }
    const total = (await ctx().explorer.storage.getChainTotals()).totalAccounts;
    const added = (await get(ctx(), `/api/v1/stats/charts/new-addresses?from=${await since()}`)).body.result.points as { value: string }[];
    expect(added.reduce((sum, point) => sum + Number(point.value), 0)).toBe(total);
  });

  it('active-addresses, gas-used, new-contracts and token-transfers by hour match the node’s blocks, receipts and logs', async () => {
    const head = await indexedToHead(ctx());
    const client = ctx().chain.publicClient;
    const numbers = Array.from({ length: Number(head) + 1 }, (_, i) => BigInt(i));
    const blocks = await Promise.all(numbers.map((blockNumber) => client.getBlock({ blockNumber, includeTransactions: true })));
    const receipts = new Map((await Promise.all(blocks.flatMap((block) => block.transactions.map((tx) => client.getTransactionReceipt({ hash: tx.hash }))))).map((receipt) => [receipt.transactionHash, receipt]));
    const logs = await client.getLogs({ fromBlock: 0n, toBlock: head });
    const hourOf = (timestamp: bigint) => (timestamp / 3600n) * 3600n;
    const timestamps = new Map(blocks.map((block) => [block.number, block.timestamp]));
    const expected = new Map<bigint, { active: Set<string>; gasUsed: bigint; newContracts: number; tokenTransfers: number }>();
    const bucket = (timestamp: bigint) => {
      const hour = hourOf(timestamp);
      let found = expected.get(hour);
      if (!found) expected.set(hour, (found = { active: new Set(), gasUsed: 0n, newContracts: 0, tokenTransfers: 0 }));
      return found;
    };
    for (const block of blocks) {
      const point = bucket(block.timestamp);
      point.gasUsed += block.gasUsed;
      for (const tx of block.transactions) {
        const { contractAddress } = receipts.get(tx.hash)!;
        for (const address of [tx.from, tx.to, contractAddress]) if (address) point.active.add(address.toLowerCase());
        if (contractAddress) point.newContracts += 1;
      }
    }
    for (const log of logs) bucket(timestamps.get(log.blockNumber)!).tokenTransfers += chainTransfers(log).length;
    const hours = [...expected.keys()].sort((a, b) => (a < b ? -1 : 1));
    const chart = async (name: string) => (await get(ctx(), `/api/v1/stats/charts/${name}?resolution=hour&from=${await since()}`)).body.result.points as { timestamp: string; value: string }[];
    const points = (value: (point: NonNullable<ReturnType<typeof expected.get>>) => unknown) => hours.map((hour) => ({ timestamp: hour.toString(), value: String(value(expected.get(hour)!)) }));
    expect(await chart('active-addresses')).toEqual(points((point) => point.active.size));
    expect(await chart('gas-used')).toEqual(points((point) => point.gasUsed));
    expect(await chart('new-contracts')).toEqual(points((point) => point.newContracts));
    expect(await chart('token-transfers')).toEqual(points((point) => point.tokenTransfers));
  });

  it('per-token series: the token’s transfers, its holders as they stood, and its price from the price source', async () => {
    const token = ctx().demo.contracts.token.toLowerCase();
    const record = (await get(ctx(), `/api/v1/token/${token}`)).body.result;
    const transfers = (await get(ctx(), `/api/v1/stats/charts/token-transfers?token=${token}&resolution=hour&from=${await since()}`)).body.result;
    expect(transfers.token).toBe(token);
    expect(transfers.points.reduce((sum: number, point: { value: string }) => sum + Number(point.value), 0)).toBe(record.transfers);
    const holders = (await get(ctx(), `/api/v1/stats/charts/token-holders?token=${token}&from=${await since()}`)).body.result.points;
    expect(holders.at(-1).value).toBe(String(record.holders));
    const prices = (await get(ctx(), `/api/v1/stats/charts/token-price?token=${token}&from=${await since()}`)).body.result.points as { value: string | null }[];
    expect(prices.length).toBeGreaterThan(0);
    for (const point of prices) expect(point.value === null || /^\d+(\.\d+)?$/.test(point.value)).toBe(true);
    expect(prices.at(-1)!.value).toBe(record.priceUSD);
  });

  it('an unknown chart is 404; a bad resolution, range or token is 400; an unknown token 404', async () => {
    const token = ctx().demo.contracts.token;
    expect((await get(ctx(), '/api/v1/stats/charts/tps')).body).toEqual(errorEnvelope('Error! Chart not found'));
    expect((await get(ctx(), '/api/v1/stats/charts/tps')).status).toBe(404);
    const bad = [
      '/api/v1/stats/charts/transactions?resolution=week',
      '/api/v1/stats/charts/transactions?from=20&to=10',
      '/api/v1/stats/charts/transactions?from=-1',
      '/api/v1/stats/charts/transactions?to=soon',
      '/api/v1/stats/charts/transactions?resolution=hour&from=0&to=100000000',
      `/api/v1/stats/charts/transactions?token=${token}`,
      '/api/v1/stats/charts/token-holders',
      '/api/v1/stats/charts/token-price?token=0x12',
    ];
    for (const path of bad) {
      const answer = await get(ctx(), path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.message, path).toMatch(/^Error! Invalid (request: |address format)/);
    }
    const unknown = await get(ctx(), `/api/v1/stats/charts/token-holders?token=${ctx().demo.accounts[9]}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorEnvelope('Error! Token contract not found'));
  });

  it('GraphQL answers the same charts and series', async () => {
    const query = `{ chartSeries { name token } chart(name: "transactions", resolution: HOUR, from: "${await since()}") { resolution points { timestamp value } } missing: chart(name: "tps") { name } }`;
    const answer = await call(ctx(), 'POST', '/graphql', { query });
    const rest = (await get(ctx(), `/api/v1/stats/charts/transactions?resolution=hour&from=${await since()}`)).body.result;
    expect(answer.body).toEqual({ data: { chartSeries: expect.arrayContaining([{ name: 'token-holders', token: 'required' }]), chart: { resolution: 'HOUR', points: rest.points }, missing: null } });
  });

  it('GraphQL answers a token’s chart as REST does, and bad chart input as GraphQL errors', async () => {
    const token = ctx().demo.contracts.token.toLowerCase();
    const rest = (await get(ctx(), `/api/v1/stats/charts/token-holders?token=${token}&resolution=hour&from=${await since()}`)).body.result;
    const query = `{ chart(name: "token-holders", token: "${token}", resolution: HOUR, from: "${await since()}") { name token from to points { timestamp value } } }`;
    const answer = await call(ctx(), 'POST', '/graphql', { query });
    expect(answer.body).toEqual({ data: { chart: { name: 'token-holders', token, from: rest.from, to: rest.to, points: rest.points } } });
    // A resolution outside the enum fails validation; a bad range or a missing token is the service's refusal.
    const bad = [
      ['{ chart(name: "transactions", resolution: WEEK) { name } }', /WEEK/, undefined],
      ['{ chart(name: "transactions", from: "20", to: "10") { name } }', /^Error! Invalid request/, 'INVALID_REQUEST'],
      ['{ chart(name: "token-holders") { name } }', /^Error! Invalid request/, 'INVALID_REQUEST'],
    ] as const;
    for (const [badQuery, message, code] of bad) {
      const refused = await call(ctx(), 'POST', '/graphql', { query: badQuery });
      expect(refused.status, badQuery).toBeLessThan(500);
      const body = refused.body as unknown as { errors: { message: string; extensions?: { code?: string } }[] };
      expect(body.errors, badQuery).toHaveLength(1);
      expect(body.errors[0]!.message, badQuery).toMatch(message);
      if (code) expect(body.errors[0]!.extensions?.code, badQuery).toBe(code);
      else expect(body.errors[0]!.extensions?.code, badQuery).not.toBe('INTERNAL');
    }
  });

  it('an admin’s label shows wherever records name the address, cached answers included, until it is removed', async () => {
    const sender = ctx().demo.accounts[0]!.toLowerCase();
    const tx = ctx().demo.transactions.transfer;
    const token = ctx().demo.contracts.token.toLowerCase();
    const paths = [`/api/v1/transaction/${tx}`, `/api/v1/account/txlist?address=${sender}`, `/api/v1/token/${token}/transfers?sort=asc`, `/api/v1/token/${token}/holders`];
    // Read before the label exists, so the cache holds answers without it.
    for (const path of paths) expect((await get(ctx(), path)).status).toBe(200);
    const set = await putLabel(sender, { label: 'Demo Deployer', category: 'team', note: 'Deployed the demo.\nSecond line' });
    expect(set.status).toBe(200);
    expect(set.body.result).toEqual({ address: sender, label: 'Demo Deployer', category: 'team', note: 'Deployed the demo.\nSecond line', updatedAt: expect.any(String) });
    expect((await get(ctx(), `/api/v1/labels/${sender.toUpperCase().replace('0X', '0x')}`)).body.result).toEqual(set.body.result);
    try {
      expect((await get(ctx(), paths[0]!)).body.result).toMatchObject({ from: sender, fromLabel: 'Demo Deployer', toLabel: null });
      const listed = (await get(ctx(), paths[1]!)).body.result as { from: string; fromLabel: string | null; to: string; toLabel: string | null }[];
      for (const row of listed) {
        expect(row.fromLabel).toBe(row.from === sender ? 'Demo Deployer' : null);
        expect(row.toLabel).toBe(row.to === sender ? 'Demo Deployer' : null);
      }
      const transfers = (await get(ctx(), paths[2]!)).body.result as { from: string; fromLabel: string | null }[];
      expect(transfers.filter((transfer) => transfer.from === sender).every((transfer) => transfer.fromLabel === 'Demo Deployer')).toBe(true);
      const holders = (await get(ctx(), paths[3]!)).body.result.holders as { address: string; label: string | null }[];
      expect(holders.find((holder) => holder.address === sender)?.label).toBe('Demo Deployer');
      const graphql = await call(ctx(), 'POST', '/graphql', { query: `{ transaction(hash: "${tx}") { fromLabel toLabel } }` });
      expect((graphql.body as unknown as { data: unknown }).data).toEqual({ transaction: { fromLabel: 'Demo Deployer', toLabel: null } });
    } finally {
      expect((await deleteLabel(sender)).status).toBe(200);
    }
    expect((await get(ctx(), paths[0]!)).body.result.fromLabel).toBeNull();
    expect((await get(ctx(), `/api/v1/labels/${sender}`)).body).toEqual(errorEnvelope('Error! Label not found'));
    expect((await deleteLabel(sender)).status).toBe(404);
  });

  it('a block shows its miner’s label, and the validator set its validators’', async () => {
    const block = (await get(ctx(), '/api/v1/block/getblock?blockno=1')).body.result;
    expect(block.minerLabel).toBeNull();
    const validatorLabels = async () => ((await get(ctx(), '/api/v1/blockchain/validators')).body.result.validators as { address: string; label: string | null }[]).filter((v) => v.address === block.miner);
    expect(await validatorLabels()).toEqual([expect.objectContaining({ label: null })]);
    await putLabel(block.miner, { label: 'Block producer' });
    try {
      expect((await get(ctx(), '/api/v1/block/getblock?blockno=1')).body.result).toEqual({ ...block, minerLabel: 'Block producer' });
      expect(await validatorLabels()).toEqual([expect.objectContaining({ label: 'Block producer' })]);
      const graphql = await call(ctx(), 'POST', '/graphql', { query: '{ blockchain { validators { address label } } }' });
      expect((graphql.body as unknown as { data: { blockchain: { validators: unknown[] } } }).data.blockchain.validators).toContainEqual({ address: block.miner, label: 'Block producer' });
    } finally {
      await deleteLabel(block.miner);
    }
  });

  it('a contract’s label shows on the logs it emitted and its events, an address’s on its balance and summary, and both in a call trace', async () => {
    const { caller, emitter } = ctx().demo.contracts;
    const [callerAddress, emitterAddress] = [caller.toLowerCase(), emitter.toLowerCase()];
    const hash = ctx().demo.transactions.nestedPing;
    const sender = ((await get(ctx(), `/api/v1/transaction/${hash}`)).body.result.from as string).toLowerCase();
    const user = (await signUp(ctx())).bearer;
    const answers = async () => ({
      logs: (await get(ctx(), `/api/v1/transaction/${hash}/logs`)).body.result as { address: string; addressLabel: string | null }[],
      decoded: (await get(ctx(), `/api/v1/transaction/${hash}/logs?decode=true`)).body.result as { contractLabel: string | null }[],
      receipt: (await get(ctx(), `/api/v1/transaction/${hash}/receipt`)).body.result,
      info: (await get(ctx(), `/api/v1/transaction/gettxinfo?txhash=${hash}`)).body.result,
      events: (await get(ctx(), `/api/v1/contract/${emitterAddress}/events`)).body.result as { addressLabel: string | null }[],
      balance: (await get(ctx(), `/api/v1/account/balance?address=${sender}`)).body.result,
      summary: (await call(ctx(), 'GET', `/api/v1/account/summary?address=${sender}`, undefined, user)).body.result,
      trace: (await call(ctx(), 'POST', `/api/v1/transaction/${hash}/trace`, undefined, user)).body.result,
      graphql: (await call(ctx(), 'POST', '/graphql', { query: `{ transaction(hash: "${hash}") { logs { address addressLabel } } account(address: "${sender}") { label } }` })).body as unknown as {
        data: { transaction: { logs: { address: string; addressLabel: string | null }[] }; account: { label: string | null } };
      },
    });
    const labelsIn = async (emitterLabel: string | null, callerLabel: string | null, senderLabel: string | null) => {
      const { logs, decoded, receipt, info, events, balance, summary, trace, graphql } = await answers();
      expect(logs.length).toBeGreaterThan(0);
      expect(logs.every((log) => log.address === emitterAddress && log.addressLabel === emitterLabel)).toBe(true);
      expect(decoded.map((log) => log.contractLabel)).toEqual(logs.map(() => emitterLabel));
      expect(receipt).toMatchObject({ fromLabel: senderLabel, toLabel: callerLabel, logs: logs });
      expect(info.logs).toEqual(logs);
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((event) => event.addressLabel === emitterLabel)).toBe(true);
      expect([balance.label, summary.label]).toEqual([senderLabel, senderLabel]);
      expect(trace).toMatchObject({ from: sender, fromLabel: senderLabel, to: callerAddress, toLabel: callerLabel });
      expect(trace.calls[0]).toMatchObject({ from: callerAddress, fromLabel: callerLabel, to: emitterAddress, toLabel: emitterLabel });
      expect(graphql.data).toEqual({ transaction: { logs: logs.map(({ address }) => ({ address, addressLabel: emitterLabel })) }, account: { label: senderLabel } });
    };
    // Read before the labels exist, so the caches (answers, traces) hold them without.
    await labelsIn(null, null, null);
    await putLabel(emitterAddress, { label: 'Ping emitter' });
    await putLabel(callerAddress, { label: 'Ping relay' });
    await putLabel(sender, { label: 'Demo Deployer' });
    try {
      await labelsIn('Ping emitter', 'Ping relay', 'Demo Deployer');
      // Etherscan's records keep Etherscan's fields.
      const etherscanLogs = await get(ctx(), `/api?module=logs&action=getLogs&address=${emitterAddress}&fromBlock=0`);
      expect(Object.keys(etherscanLogs.body.result[0])).not.toContain('addressLabel');
      expect((await get(ctx(), `/api?module=account&action=balance&address=${sender}`)).body.result).toMatch(/^\d+$/);
    } finally {
      for (const address of [emitterAddress, callerAddress, sender]) await deleteLabel(address);
    }
    await labelsIn(null, null, null);
  });

  it('search finds addresses and contracts by the start of their label, and every address match carries its label', async () => {
    const { emitter, quoteToken } = ctx().demo.contracts;
    const [account, contract, token] = [ctx().demo.accounts[9]!, emitter, quoteToken].map((address) => address.toLowerCase()) as [string, string, string];
    const search = async (q: string) => (await get(ctx(), `/api/v1/search?q=${encodeURIComponent(q)}`)).body.result as unknown[];
    // Read before the labels exist, so the cache holds answers without them.
    expect(await search(account)).toEqual([{ type: 'address', address: account, label: null }]);
    await putLabel(account, { label: 'Treasury cold wallet' });
    await putLabel(contract, { label: 'treasury Emitter' });
    await putLabel(token, { label: 'Demo Dollar reserve' });
    try {
      expect(await search(account)).toEqual([{ type: 'address', address: account, label: 'Treasury cold wallet' }]);
      expect(await search('TREASURY')).toEqual([
        { type: 'address', address: account, label: 'Treasury cold wallet' },
        { type: 'contract', address: contract, name: null, label: 'treasury Emitter' },
      ]);
      // Named by its token already: not listed twice.
      expect(await search('demo d')).toEqual([{ type: 'token', address: token, name: 'Demo Dollar', symbol: 'DUSD', standard: 'ERC-20' }]);
      const graphql = await call(ctx(), 'POST', '/graphql', { query: '{ search(q: "treasury c") { ... on AddressMatch { address label } } }' });
      expect((graphql.body as unknown as { data: unknown }).data).toEqual({ search: [{ address: account, label: 'Treasury cold wallet' }] });
    } finally {
      for (const address of [account, contract, token]) await deleteLabel(address);
    }
    expect(await search('treasury')).toEqual([]);
  });

  it('only admins set labels (others 401 or 403); bad labels are 400', async () => {
    const address = ctx().demo.accounts[4]!;
    const member = await signUp(ctx());
    expect((await putLabel(address, { label: 'Mine' }, {})).status).toBe(401);
    expect((await putLabel(address, { label: 'Mine' }, member.bearer)).body).toEqual(errorEnvelope('Forbidden: insufficient scope'));
    expect((await call(ctx(), 'DELETE', `/api/v2/labels/${address}`, undefined, member.bearer)).status).toBe(403);
    for (const body of [{}, { label: '' }, { label: 'x'.repeat(101) }, { label: 'ok', colour: 'red' }, { label: 'nul\u0000' }, { label: 'ok', category: 'c'.repeat(33) }]) {
      const answer = await putLabel(address, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    expect((await putLabel('0x1234', { label: 'x' })).body).toEqual(errorEnvelope('Error! Invalid address format'));
    expect((await get(ctx(), `/api/v1/labels/${address}`)).status).toBe(404);
  });

  it('a signed-in user keeps a watch list of their own labels; anonymous callers get 401', async () => {
    const user = await signUp(ctx());
    const other = await signUp(ctx());
    const [first, second] = [ctx().demo.accounts[5]!.toLowerCase(), ctx().demo.contracts.token.toLowerCase()];
    expect((await call(ctx(), 'PUT', `/api/v1/account/watchlist/${first}`, { label: 'cold wallet' }, user.bearer)).body.result).toMatchObject({ address: first, label: 'cold wallet', note: null, publicLabel: null });
    await putLabel(second, { label: 'Demo Token' });
    try {
      const put = await call(ctx(), 'PUT', `/api/v1/account/watchlist/${second}`, { label: 'my token', note: 'watch it' }, user.bearer);
      expect(put.body.result).toMatchObject({ address: second, label: 'my token', note: 'watch it', publicLabel: 'Demo Token' });
      expect((await get(ctx(), `/api/v1/contract/${second}`)).body.result).toMatchObject({ label: 'Demo Token', creatorLabel: null });
      const list = (await call(ctx(), 'GET', '/api/v1/account/watchlist', undefined, user.bearer)).body.result as { address: string }[];
      expect(list.map((entry) => entry.address).sort()).toEqual([first, second].sort());
    } finally {
      await deleteLabel(second);
    }
    expect((await call(ctx(), 'GET', '/api/v1/account/watchlist', undefined, other.bearer)).body.result).toEqual([]);
    expect((await call(ctx(), 'DELETE', `/api/v1/account/watchlist/${first}`, undefined, user.bearer)).status).toBe(200);
    expect((await call(ctx(), 'DELETE', `/api/v1/account/watchlist/${first}`, undefined, user.bearer)).status).toBe(404);
    expect((await call(ctx(), 'GET', '/api/v1/account/watchlist', undefined, user.bearer)).body.result).toHaveLength(1);
    expect((await get(ctx(), '/api/v1/account/watchlist')).status).toBe(401);
    expect((await call(ctx(), 'PUT', `/api/v1/account/watchlist/${first}`, { label: '' }, user.bearer)).status).toBe(400);
  });

  it('exports an address’s transactions as CSV: a header, every row in chain order, labels, for signed-in callers only', async () => {
    const address = ctx().demo.accounts[0]!.toLowerCase();
    const path = `/api/v1/export/transactions.csv?address=${address}`;
    const anonymous = await fetch(`${ctx().url}${path}`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual(errorEnvelope('Unauthorized'));
    await putLabel(address, { label: '=HYPERLINK("http://evil.example","click")', category: '+sum' });
    try {
      const answer = await csv(ctx(), path, admin.bearer);
      expect(answer.status).toBe(200);
      expect(answer.type).toBe('text/csv; charset=utf-8');
      const txlist = (await get(ctx(), `/api/v1/account/txlist?address=${address}&offset=1000`)).body.result as { hash: string }[];
      const [header, ...rows] = answer.text.split('\r\n').slice(0, -1);
      expect(header).toBe('Transaction Hash,Blockno,UnixTimestamp,DateTime (UTC),From,From Label,To,To Label,ContractAddress,Value (Wei),TxnFee (Wei),Gas Price (Wei),Gas Used,Nonce,Status,Method');
      expect(rows.map((row) => row.split(',')[0])).toEqual(txlist.map((tx) => tx.hash));
      // The label would run as a formula: it is quoted and starts with an apostrophe.
      expect(rows[0]).toContain(`${address},"'=HYPERLINK(""http://evil.example"",""click"")"`);
    } finally {
      await deleteLabel(address);
    }
  });

  it('exports token transfers, internal transactions and logs the same way; bad parameters are 400', async () => {
    const holder = ctx().demo.accounts[1]!.toLowerCase();
    const transfers = await csv(ctx(), `/api/v1/export/token-transfers.csv?address=${holder}`, admin.bearer);
    const [header, ...rows] = records(transfers.text);
    expect(header![0]).toBe('Transaction Hash');
    expect(rows.length).toBeGreaterThan(2);
    expect(rows.every((row) => row[11] === holder || row[13] === holder)).toBe(true);
    const emitter = ctx().demo.contracts.emitter.toLowerCase();
    const logs = records((await csv(ctx(), `/api/v1/export/logs.csv?address=${emitter}&startblock=0`, admin.bearer)).text);
    expect(logs.slice(1).every((row) => row[3] === emitter)).toBe(true);
    expect(logs.length).toBeGreaterThan(1);
    const internal = await csv(ctx(), `/api/v1/export/internal-transactions.csv?address=${holder}&startblock=0&endblock=1`, admin.bearer);
    expect(internal.status).toBe(200);
    expect(records(internal.text)).toHaveLength(1);
    for (const query of ['address=0x12', 'address=' + holder + '&startblock=x', 'address=' + holder + '&endblock=-1', '']) {
      const answer = await call(ctx(), 'GET', `/api/v1/export/transactions.csv?${query}`, undefined, admin.bearer);
      expect(answer.status, query).toBe(400);
    }
    expect((await call(ctx(), 'GET', `/api/v1/export/balances.csv?address=${holder}`, undefined, admin.bearer)).status).toBe(404);
  });

  it('every export kind answers anonymous callers 401', async () => {
    const holder = ctx().demo.accounts[1]!.toLowerCase();
    for (const kind of EXPORT_KINDS) {
      const answer = await get(ctx(), `/api/v1/export/${kind}.csv?address=${holder}`);
      expect({ status: answer.status, body: answer.body }, kind).toEqual({ status: 401, body: errorEnvelope('Unauthorized') });
    }
  });

  it('one export spends exports.weight requests of the caller’s allowance', async () => {
    const { context, user } = await smallExports();
    const path = `/api/v1/export/transactions.csv?address=${ctx().demo.accounts[0]!.toLowerCase()}`;
    const remaining = async () => {
      const response = await fetch(`${context.url}${path}`, { headers: user.bearer });
      expect(response.status).toBe(200);
      await response.text();
      return Number(response.headers.get('x-ratelimit-remaining'));
    };
    const first = await remaining();
    // Signing up is anonymous: the account's allowance is whole before its first export.
    expect(first).toBe(1_000 - SMALL_EXPORTS.weight);
    expect(await remaining()).toBe(first - SMALL_EXPORTS.weight);
  });

  it('an export over HTTP stops at exports.maxRows rows, oldest first, across storage pages', async () => {
    const { context, user } = await smallExports();
    const address = ctx().demo.accounts[0]!.toLowerCase();
    const txlist = (await get(ctx(), `/api/v1/account/txlist?address=${address}&offset=1000`)).body.result as { hash: string }[];
    expect(txlist.length).toBeGreaterThan(SMALL_EXPORTS.maxRows);
    const [, ...rows] = records((await csv(context, `/api/v1/export/transactions.csv?address=${address}`, user.bearer)).text);
    expect(rows.map((row) => row[0])).toEqual(txlist.slice(0, SMALL_EXPORTS.maxRows).map((tx) => tx.hash));
  });

  it('lists an owner’s standing approvals; a zero approval revokes, an ApprovalForAll stands until revoked', async () => {
    const owner = ctx().demo.accounts[0]!.toLowerCase();
    const spender = ctx().demo.accounts[1]!.toLowerCase();
    const { token, nft } = ctx().demo.contracts;
    const listed = async () => (await get(ctx(), `/api/v1/account/approvals?address=${owner}`)).body.result as Record<string, unknown>[];
    expect(await listed()).toContainEqual({
      token: token.toLowerCase(),
      tokenName: 'Demo Token',
      tokenSymbol: 'DEMO',
      tokenDecimal: '18',
      kind: 'allowance',
      spender,
      spenderLabel: null,
      value: '100000000000000000000',
      // The spender has since taken 50 by transferFrom, which lowered the allowance without an event.
      remaining: '50000000000000000000',
      blockNumber: expect.any(String),
      timestamp: expect.any(String),
      transactionHash: ctx().demo.transactions.approve,
    });
    const wallet = ctx().chain.walletClient;
    const send = async (hash: Promise<`0x${string}`>) => {
      await ctx().chain.publicClient.waitForTransactionReceipt({ hash: await hash });
      await indexedToHead(ctx());
    };
    const operator = ctx().demo.accounts[6]! as Address;
    await send(wallet.writeContract({ address: nft as Address, abi: ctx().demo.abis.nft, functionName: 'setApprovalForAll', args: [operator, true] }));
    expect(await listed()).toContainEqual(expect.objectContaining({ token: nft.toLowerCase(), kind: 'operator', spender: operator.toLowerCase(), value: '1', remaining: null }));
    await send(wallet.writeContract({ address: token as Address, abi: ctx().demo.abis.token, functionName: 'approve', args: [spender as Address, 0n] }));
    await send(wallet.writeContract({ address: nft as Address, abi: ctx().demo.abis.nft, functionName: 'setApprovalForAll', args: [operator, false] }));
    const after = await listed();
    expect(after.filter((approval) => approval.spender === spender && approval.token === token.toLowerCase())).toEqual([]);
    expect(after.filter((approval) => approval.spender === operator.toLowerCase())).toEqual([]);
    expect((await get(ctx(), '/api/v1/account/approvals?address=nobody')).status).toBe(400);
    expect((await get(ctx(), `/api/v1/account/approvals?address=${owner}&offset=0`)).status).toBe(400);
  });
}
