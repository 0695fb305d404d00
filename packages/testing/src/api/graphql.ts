import { AsyncLocalStorage } from 'node:async_hooks';
import { getIntrospectionQuery } from 'graphql';
import { serverAudits } from 'graphql-http';
import { pino } from 'pino';
import { parseEther, type Address, type Hash } from 'viem';
import { afterEach, expect, it } from 'vitest';
import { asText, createExplorer, type Explorer, type ExplorerConfig } from '@chainlens/core';
import { get, indexedToHead, signUp, waitFor, type ApiContext } from './context.js';
import { FAST_INDEXER } from '../explorer-settings.js';

/** A GraphQL answer: HTTP status, headers and the decoded body. */
export interface GraphqlAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** POSTs `body` (a request or a batch) to the suite's `/graphql`. */
export async function post(context: ApiContext, body: unknown, headers: Record<string, string> = {}): Promise<GraphqlAnswer> {
  const response = await fetch(`${context.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: JSON.parse(await response.text()) };
}

/** One query's data, failing the test on any error. */
export async function data(context: ApiContext, query: string, variables?: Record<string, unknown>, headers?: Record<string, string>): Promise<any> {
  const answer = await post(context, { query, variables }, headers);
  expect(answer.body.errors, JSON.stringify(answer.body.errors)).toBeUndefined();
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** An explorer that is never started, for what needs no chain data: limits, batches, rate limits. */
async function idleExplorer(context: ApiContext, config: Partial<ExplorerConfig>): Promise<Explorer> {
  return createExplorer({ rpcUrl: context.chain.rpcUrl, storage: await context.options.storage(), logger: pino({ level: 'silent' }), ...config });
}

/** Asks `explorer`'s kernel directly (the adapters are covered by the suite's own server). */
async function handle(explorer: Explorer, body: unknown, ip = '203.0.113.7'): Promise<GraphqlAnswer> {
  const response = await explorer.kernel.handle({
    method: 'POST',
    url: '/graphql',
    headers: { 'content-type': 'application/json' },
    ip,
    rawBody: JSON.stringify(body),
  });
  return { status: response.status, headers: new Headers(response.headers), body: JSON.parse(asText(response).body) };
}

const TRANSACTION_FIELDS = 'hash blockNumber timestamp from to value gas gasPrice gasUsed nonce input transactionIndex confirmations status';

/**
 * `POST /graphql` and `GET /graphql`: the spec's query shapes against REST's answers for the same
 * records, connections and cursors, batching of storage reads, every document limit, auth and
 * rate limits as on REST, and GraphQL-over-HTTP conformance (graphql-http's audits).
 */
export function graphqlTests(ctx: () => ApiContext): void {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  const own = async (config: Partial<ExplorerConfig>) => {
    const explorer = await idleExplorer(ctx(), config);
    closers.push(() => explorer.close());
    return explorer;
  };

  it('answers blockchain { latestBlock validators consensus networkStats } with the records REST answers', async () => {
    const head = await indexedToHead(ctx());
    const result = await data(
      ctx(),
      `{ blockchain {
          latestBlock { number hash stateRoot timestamp gasUsed gasLimit transactionCount }
          validators { address votingPower isActive uptime commission totalBlocks }
          consensus { algorithm blockTime epoch totalStaked currentBlock }
          networkStats { tps gasPrice totalTransactions activeNodes blockHeight }
        } }`,
    );
    // The suite's chain mines only when a test sends a transaction: the head stays where it was indexed.
    const block = (await get(ctx(), `/api/v1/block/getblock?blockno=${head}`)).body.result;
    expect(result.blockchain.latestBlock).toEqual({
      number: block.blockNumber,
      hash: block.hash,
      stateRoot: block.stateRoot,
      timestamp: block.timestamp,
      gasUsed: block.gasUsed,
      gasLimit: block.gasLimit,
      transactionCount: block.transactionCount,
    });
    const validators = (await get(ctx(), '/api/v1/blockchain/validators')).body.result.validators;
    expect(result.blockchain.validators.map((v: { address: string }) => v.address).sort()).toEqual(validators.map((v: { address: string }) => v.address).sort());
    const consensus = (await get(ctx(), '/api/v1/blockchain/consensus/info')).body.result;
    expect(result.blockchain.consensus.algorithm).toBe(consensus.consensusAlgorithm);
    expect(result.blockchain.consensus.totalStaked).toBe(consensus.totalStaked);
    const stats = (await get(ctx(), '/api/v1/blockchain/network/stats')).body.result;
    expect(result.blockchain.networkStats).toMatchObject({ totalTransactions: stats.totalTransactions, blockHeight: stats.blockHeight });
    expect(typeof result.blockchain.networkStats.gasPrice).toBe('string');
  });

  it('answers transaction(hash) as REST does, amounts as strings, with its block and logs', async () => {
    const hash = ctx().demo.transactions.transfer;
    const result = await data(ctx(), `query ($hash: Hash!) { transaction(hash: $hash) { ${TRANSACTION_FIELDS} block { number hash } logs { address topics data } } }`, { hash });
    const rest = (await get(ctx(), `/api/v1/transaction/${hash}`)).body.result;
    const logs = (await get(ctx(), `/api/v1/transaction/${hash}/logs`)).body.result;
    const tx = result.transaction;
    expect({ ...tx, confirmations: rest.confirmations }).toMatchObject({
      hash: rest.hash,
      blockNumber: rest.blockNumber,
      from: rest.from,
      to: rest.to,
      value: rest.value,
      gasPrice: rest.gasPrice,
      gasUsed: rest.gasUsed,
      status: rest.txreceipt_status,
      transactionIndex: rest.transactionIndex,
    });
    expect(tx.block).toEqual({ number: rest.blockNumber, hash: rest.blockHash });
    expect(tx.logs).toEqual(logs.map((log: { address: string; topics: string[]; data: string }) => ({ address: log.address, topics: log.topics, data: log.data })));
    expect(typeof tx.value).toBe('string');
  });

  it('navigates transaction → block → transactions back to the transaction', async () => {
    const hash = ctx().demo.transactions.nativeTransfer;
    const result = await data(ctx(), `{ transaction(hash: "${hash}") { block { number transactionCount transactions(first: 100) { edges { node { hash block { number } } } } } } }`);
    const block = result.transaction.block;
    const hashes = block.transactions.edges.map((edge: { node: { hash: string } }) => edge.node.hash);
    expect(hashes).toContain(hash);
    expect(hashes).toHaveLength(block.transactionCount);
    expect(block.transactions.edges.every((edge: { node: { block: { number: string } } }) => edge.node.block.number === block.number)).toBe(true);
  });

  it('answers account(address) { balance transactions } like account/balance and account/txlist, newest first', async () => {
    const address = ctx().demo.accounts[1]!.toLowerCase();
    const result = await data(ctx(), `{ account(address: "${address}") { address balance transactions(first: 3) { edges { node { hash value timestamp } cursor } pageInfo { hasNextPage endCursor } } } }`);
    const balance = (await get(ctx(), `/api/v1/account/balance?address=${address}`)).body.result;
    const txlist = (await get(ctx(), `/api/v1/account/txlist?address=${address}&sort=desc&page=1&offset=3`)).body.result;
    expect(result.account.balance).toBe(balance.balance);
    expect(result.account.transactions.edges.map((edge: { node: unknown }) => edge.node)).toEqual(
      txlist.map((tx: { hash: string; value: string; timestamp: string }) => ({ hash: tx.hash, value: tx.value, timestamp: tx.timestamp })),
    );
  });

  it('pages a connection with opaque cursors: after endCursor continues where the page ended, with no gap or repeat', async () => {
    const token = ctx().demo.contracts.token.toLowerCase();
    const page = (after: string | null) =>
      data(ctx(), 'query ($token: Address!, $after: String) { token(address: $token) { transfers(first: 3, after: $after) { edges { cursor node { transactionHash logIndex } } pageInfo { hasNextPage endCursor } } } }', { token, after });
    const first = (await page(null)).token.transfers;
    const second = (await page(first.pageInfo.endCursor)).token.transfers;
    const all = (await get(ctx(), `/api/v1/token/${token}/transfers?page=1&offset=6`)).body.result;
    const key = (t: { transactionHash?: string; hash?: string; logIndex: string }) => `${t.transactionHash ?? t.hash}:${t.logIndex}`;
    expect([...first.edges, ...second.edges].map((edge: { node: { transactionHash: string; logIndex: string } }) => key(edge.node))).toEqual(all.slice(0, 6).map(key));
    expect(first.pageInfo.hasNextPage).toBe(true);
    // Opaque: nothing of the position shows.
    expect(first.pageInfo.endCursor).not.toMatch(/^\d+$/);
    expect(first.edges.at(-1).cursor).toBe(first.pageInfo.endCursor);
  });

  it('refuses a made-up cursor and a first above 100 with errors naming the field path', async () => {
    const address = ctx().demo.accounts[0]!.toLowerCase();
    const badCursor = await post(ctx(), { query: `{ account(address: "${address}") { transactions(first: 2, after: "not-a-cursor!") { edges { cursor } } } }` });
    expect(badCursor.status).toBe(200);
    expect(badCursor.body.errors[0]).toMatchObject({ path: ['account', 'transactions'], extensions: { code: 'BAD_USER_INPUT' } });
    expect(badCursor.body.errors[0].message).toMatch(/cursor/);
    const tooMany = await post(ctx(), { query: `{ account(address: "${address}") { transactions(first: 101) { edges { cursor } } } }` });
    expect(tooMany.body.errors[0]).toMatchObject({ message: 'first must be between 1 and 100; got 101', path: ['account', 'transactions'] });
    expect((await data(ctx(), `{ account(address: "${address}") { transactions(first: 100) { edges { cursor } } } }`)).account.transactions.edges.length).toBeGreaterThan(0);
  });

  it('answers token(address) with holders { total top10 } and transfers(first: 20) as REST does, and navigates holders to accounts', async () => {
    const token = ctx().demo.contracts.token.toLowerCase();
    const result = await data(
      ctx(),
      `{ token(address: "${token}") { address name symbol decimals totalSupply priceUSD marketCap volume24h
          holders { total top10 { address balance percentage account { address balance } } }
          transfers(first: 20) { edges { node { from to value timestamp } } } } }`,
    );
    const rest = (await get(ctx(), `/api/v1/token/${token}`)).body.result;
    const holders = (await get(ctx(), `/api/v1/token/${token}/holders?page=1&offset=10`)).body.result;
    const transfers = (await get(ctx(), `/api/v1/token/${token}/transfers?page=1&offset=20`)).body.result;
    expect(result.token).toMatchObject({ address: rest.address, name: rest.name, symbol: rest.symbol, decimals: rest.decimals, totalSupply: rest.totalSupply, priceUSD: rest.priceUSD });
    expect(typeof result.token.totalSupply).toBe('string');
    expect(result.token.holders.total).toBe(holders.total);
    expect(result.token.holders.top10.map(({ address, balance, percentage }: any) => ({ address, balance, percentage }))).toEqual(
      holders.holders.map(({ address, balance, percentage }: any) => ({ address, balance, percentage })),
    );
    for (const holder of result.token.holders.top10) expect(holder.account.address).toBe(holder.address);
    expect(result.token.transfers.edges.map((edge: { node: unknown }) => edge.node)).toEqual(
      transfers.map(({ from, to, value, timestamp }: any) => ({ from, to, value, timestamp })),
    );
  });

  it('answers block by number and by hash, tokens and contract, and null for unknown records', async () => {
    const hash = ctx().demo.transactions.transfer;
    const { blockNumber, blockHash } = (await get(ctx(), `/api/v1/transaction/${hash}`)).body.result;
    const result = await data(
      ctx(),
      `{ a: block(number: "${blockNumber}") { hash } b: block(hash: "${blockHash}") { number } c: block(number: 999999999) { hash }
         t: transaction(hash: "0x${'ab'.repeat(32)}") { hash } k: token(address: "0x${'12'.repeat(20)}") { name }
         tokens(first: 2, sort: HOLDERS) { edges { node { address holders token { symbol } } } }
         contract(address: "${ctx().demo.contracts.token}") { address isToken creationTransaction { hash } token { symbol } } }`,
    );
    expect(result.a.hash).toBe(blockHash);
    expect(result.b.number).toBe(blockNumber);
    expect([result.c, result.t, result.k]).toEqual([null, null, null]);
    const list = (await get(ctx(), '/api/v1/token/list?sort=holders&limit=2')).body.result;
    expect(result.tokens.edges.map((edge: { node: { address: string; holders: number } }) => ({ address: edge.node.address, holders: edge.node.holders }))).toEqual(
      list.map((item: { address: string; holders: number }) => ({ address: item.address, holders: item.holders })),
    );
    expect(result.contract).toMatchObject({ isToken: true, creationTransaction: { hash: ctx().demo.transactions.deployments.token }, token: { symbol: 'DEMO' } });
  });

  it('block(number: "latest") is the newest indexed block, given inline or as a variable', async () => {
    await indexedToHead(ctx());
    const result = await data(ctx(), 'query ($n: BlockNumber) { blockchain { latestBlock { number hash } } a: block(number: "latest") { number hash } b: block(number: $n) { number hash } }', { n: 'latest' });
    expect(result.blockchain.latestBlock.hash).toMatch(/^0x/);
    expect([result.a, result.b]).toEqual([result.blockchain.latestBlock, result.blockchain.latestBlock]);
  });

  it('refuses malformed addresses, hashes and block numbers with messages that say what is expected', async () => {
    const literal = await post(ctx(), { query: '{ account(address: "0x123") { balance } }' });
    expect(literal.status).toBe(200);
    expect(literal.body.data).toBeUndefined();
    expect(literal.body.errors[0].message).toContain('Address must be a 0x-prefixed 20-byte hex address; got "0x123"');
    expect(literal.body.errors[0].locations).toEqual([{ line: 1, column: 20 }]);
    const variable = await post(ctx(), { query: 'query ($h: Hash!) { transaction(hash: $h) { hash } }', variables: { h: '0xzz' } });
    expect(variable.body.errors[0].message).toContain('Hash must be a 0x-prefixed 32-byte hex hash; got "0xzz"');
    const block = await post(ctx(), { query: '{ block(number: "-4") { hash } }' });
    expect(block.body.errors[0].message).toContain('BlockNumber must be a non-negative integer');
    const strict = await post(ctx(), { query: '{ account(address: "0x123") { balance } }' }, { accept: 'application/graphql-response+json' });
    expect(strict.status).toBe(400);
  });

  it('reads 50 transactions with their blocks in a bounded number of storage calls', async () => {
    const chain = ctx().chain;
    const start = (await chain.publicClient.getBlockNumber()) + 1n;
    const hashes: Hash[] = [];
    // Automine: each transaction lands in a block of its own.
    for (let i = 0; i < 50; i++) hashes.push(await chain.walletClients[6]!.sendTransaction({ to: chain.accounts[7]!.address as Address, value: parseEther('0.001') }));
    const last = (await chain.publicClient.waitForTransactionReceipt({ hash: hashes.at(-1)! })).blockNumber;
    // Only the calls made while answering the query count, not the indexer's beside it.
    const answering = new AsyncLocalStorage<boolean>();
    const calls = new Map<string, number>();
    const storage = new Proxy(await ctx().options.storage(), {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (answering.getStore()) calls.set(String(property), (calls.get(String(property)) ?? 0) + 1);
          return value.apply(target, args);
        };
      },
    });
    const explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage,
      logger: pino({ level: 'silent' }),
      startBlock: start,
      indexer: FAST_INDEXER,
      rateLimits: { enabled: false },
      graphql: { maxAliases: 50, maxCost: 10_000 },
    });
    closers.push(() => explorer.close());
    await explorer.start();
    await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= last, 'indexing the 50 transactions');
    const query = `{ ${hashes.map((hash, i) => `t${i}: transaction(hash: "${hash}") { hash value block { number hash timestamp } }`).join(' ')} }`;
    const response = await answering.run(true, () => explorer.kernel.handle({ method: 'POST', url: '/graphql', headers: {}, ip: '127.0.0.1', body: { query } }));
    const result = JSON.parse(asText(response).body);
    expect(result.errors).toBeUndefined();
    expect(new Set(hashes.map((_, i) => result.data[`t${i}`].block.number)).size).toBe(50);
    expect(calls.get('getTransactions')).toBe(1);
    expect(calls.get('getBlocksWithTransactionHashes')).toBe(1);
    expect((calls.get('getTransaction') ?? 0) + (calls.get('getBlockByNumber') ?? 0) + (calls.get('getBlockWithTransactionHashes') ?? 0)).toBe(0);
    // Labels: the few public labels are kept whole, read at most once (none per batch of addresses).
    expect(calls.get('getAddressLabels')).toBeUndefined();
    expect(calls.get('searchAddressLabels') ?? 0).toBeLessThanOrEqual(1);
    // Besides those, at most the indexed head (for confirmations) and the labels version they are kept under.
    expect([...calls.values()].reduce((sum, n) => sum + n, 0)).toBeLessThanOrEqual(6);
  });

  it('refuses documents over each default limit before any resolver runs, never with a 500', async () => {
    const nested = (depth: number) => `{ ${'transaction(hash: "0x' + 'ab'.repeat(32) + '") { block { transactions { edges { node { '.repeat(1)}${'block { transactions { edges { node { '.repeat(depth)}hash${' } } } }'.repeat(depth)} } } } } } }`;
    const cases: [string, string][] = [
      [nested(1), 'maxDepth'],
      [`{ ${Array.from({ length: 16 }, (_, i) => `a${i}: blockchain { consensus { epoch } }`).join(' ')} }`, 'maxAliases'],
      [`{ ${'__typename @include(if: true) '.repeat(11)}}`, 'maxDirectives'],
      [`{ ${'a '.repeat(2_100)}}`, 'maxTokens'],
      [`{ blockchain { consensus { epoch } } }${' '.repeat(10_001)}`, 'maxCharacters'],
      ['{ tokens(first: 100) { edges { node { token { transfers(first: 100) { edges { cursor } } } } } } }', 'maxCost'],
    ];
    for (const [query, limit] of cases) {
      const answer = await post(ctx(), { query });
      expect(answer.status, limit).toBe(200);
      expect(answer.body.data, limit).toBeUndefined();
      expect(answer.body.errors[0].extensions, limit).toMatchObject({ code: 'LIMIT_EXCEEDED', limit });
    }
    const syntax = await post(ctx(), { query: '{ blockchain { ' }, { accept: 'application/graphql-response+json' });
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0]).toMatchObject({ extensions: { code: 'GRAPHQL_PARSE_FAILED' }, locations: [{ line: 1, column: 16 }] });
  });

  it('weighs the fields that ask the node: 50 traced transactions of a block cost past the default limit, 10 do not, and 50 untraced ones are cheap', async () => {
    const ofBlock = (first: number, fields: string) => `{ block(number: "latest") { transactions(first: ${first}) { edges { node { ${fields} } } } } }`;
    const traced = await post(ctx(), { query: ofBlock(50, 'calls { from }') });
    expect(traced.body.data).toBeUndefined();
    expect(traced.body.errors[0]).toMatchObject({ message: 'Query costs 5452; the limit is 5000', extensions: { code: 'LIMIT_EXCEEDED', limit: 'maxCost' } });
    for (const query of [ofBlock(10, 'calls { from }'), ofBlock(50, 'hash')]) {
      const answer = await post(ctx(), { query });
      expect(answer.body.errors, query).toBeUndefined();
      expect(answer.body.data.block.transactions.edges, query).toBeInstanceOf(Array);
    }
  });

  it('counts introspection like any field: the standard introspection query passes, deeper or costlier introspection is refused', async () => {
    const standard = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    expect((await data(ctx(), standard)).__schema.queryType.name).toBe('Query');
    // 16 levels: `__type`, `fields`, `type`, 12 × `ofType` and `name`, one past the fixed budget.
    const deep = `{ __type(name: "Query") { fields { type { ${'ofType { '.repeat(12)}name${' }'.repeat(12)} } } } }`;
    const refused = await post(ctx(), { query: deep });
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors[0]).toMatchObject({ message: 'Introspection is nested 16 levels deep; the limit is 15', extensions: { code: 'LIMIT_EXCEEDED', limit: 'introspectionDepth' } });
    // Introspection beside data: each part against its own depth budget.
    expect((await data(ctx(), `{ __typename blockchain { latestBlock { number } } __schema { types { fields { type { ${'ofType { '.repeat(9)}name${' }'.repeat(9)} } } } } }`)).blockchain.latestBlock.number).toMatch(/^\d+$/);
    const costly = await own({ graphql: { maxCost: 10 } });
    const overCost = await handle(costly, { query: '{ __schema { types { name kind description fields { name description } } } }' });
    expect(overCost.body.errors[0]).toMatchObject({ message: 'Query costs 11; the limit is 10', extensions: { code: 'LIMIT_EXCEEDED', limit: 'maxCost' } });
    expect((await handle(costly, { query: '{ __schema { types { name kind fields { name } } } }' })).body.data.__schema.types.length).toBeGreaterThan(0);
  });

  it('applies configured limits, and can turn off introspection and field suggestions', async () => {
    const explorer = await own({ graphql: { maxDepth: 3, maxAliases: 1, maxDirectives: 0, maxTokens: 20, maxCharacters: 80, maxCost: 10, maxFirst: 5, defaultFirst: 2, introspection: false, fieldSuggestions: false } });
    const refused = async (query: string) => (await handle(explorer, { query })).body.errors[0];
    expect((await refused('{ blockchain { latestBlock { transactions { pageInfo { hasNextPage } } } } }')).extensions.limit).toBe('maxDepth');
    expect((await refused('{ a: blockchain { __typename } b: blockchain { __typename } }')).extensions.limit).toBe('maxAliases');
    expect((await refused('{ blockchain @skip(if: false) { __typename } }')).extensions.limit).toBe('maxDirectives');
    expect((await refused(`{ ${'a '.repeat(25)}}`)).extensions.limit).toBe('maxTokens');
    expect((await refused(`{ __typename ${' '.repeat(80)}}`)).extensions.limit).toBe('maxCharacters');
    expect((await refused('{ tokens(first: 5) { edges { cursor } } }')).extensions.limit).toBe('maxCost');
    expect((await refused('{ __schema { queryType { name } } }')).message).toMatch(/introspection/i);
    const typo = await refused('{ blockchin { __typename } }');
    expect(typo.message).toBe('Cannot query field "blockchin" on type "Query".');
    const suggesting = await own({});
    expect((await handle(suggesting, { query: '{ blockchin { __typename } }' })).body.errors[0].message).toContain('Did you mean "blockchain"');
    expect((await handle(suggesting, { query: '{ __schema { queryType { name } } }' })).body.data.__schema.queryType.name).toBe('Query');
  });

  it('counts each operation of a batch against the rate limit, and answers 429 as a GraphQL error with the same headers as REST', async () => {
    const explorer = await own({ rateLimits: { anonymous: { perMinute: 3, perDay: 100 } } });
    const operation = { query: '{ __typename }' };
    const batch = await handle(explorer, [operation, operation]);
    expect(batch.status).toBe(200);
    expect(batch.body).toEqual([{ data: { __typename: 'Query' } }, { data: { __typename: 'Query' } }]);
    expect(batch.headers.get('x-ratelimit-remaining')).toBe('1');
    const over = await handle(explorer, [operation, operation]);
    expect(over.status).toBe(429);
    expect(over.body).toEqual({ errors: [{ message: 'Max rate limit reached', extensions: { code: 'RATE_LIMITED' } }] });
    expect(over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(over.headers.get('x-ratelimit-limit')).toBe('3');
    const tooBig = await handle(explorer, Array.from({ length: 11 }, () => operation), '203.0.113.8');
    expect(tooBig.status).toBe(400);
    expect(tooBig.body.errors[0].extensions).toMatchObject({ code: 'LIMIT_EXCEEDED', limit: 'maxBatch' });
  });

  it('authenticates as REST does: refused credentials are a 401 GraphQL error, account summary needs them', async () => {
    const address = ctx().demo.accounts[0]!.toLowerCase();
    const query = `{ account(address: "${address}") { summary { transactionCount isContract } } }`;
    const bad = await post(ctx(), { query }, { authorization: 'Bearer not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.body).toEqual({ errors: [{ message: 'Unauthorized', extensions: { code: 'UNAUTHORIZED' } }] });
    const anonymous = await post(ctx(), { query });
    expect(anonymous.body.errors[0]).toMatchObject({ message: 'Unauthorized', path: ['account', 'summary'], extensions: { code: 'UNAUTHORIZED' } });
    const user = await signUp(ctx());
    const summary = (await data(ctx(), query, undefined, user.bearer)).account.summary;
    const rest = (await get(ctx(), `/api/v1/account/summary?address=${address}`)).body;
    expect(rest.status).toBe('0');
    expect(summary.isContract).toBe(false);
    expect(summary.transactionCount).toBeGreaterThan(0);
  });

  it('serves GET queries, refuses subscriptions over HTTP, and shows GraphiQL to a browser', async () => {
    const query = encodeURIComponent('query ($n: BlockNumber) { block(number: $n) { number } }');
    const answer = await fetch(`${ctx().url}/graphql?query=${query}&variables=${encodeURIComponent('{"n":"1"}')}`);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { block: { number: '1' } } });
    const subscription = await post(ctx(), { query: 'subscription { blocks { number } }' });
    expect(subscription.status).toBe(400);
    expect(subscription.body.errors[0].message).toContain('graphql-ws');
    const page = await fetch(`${ctx().url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('GraphiQL');
    // Its files come from this server, read from the npm packages (see docs-page.test.ts for a browser).
    for (const [file, type] of [['graphiql.min.js', 'javascript'], ['graphiql.min.css', 'css'], ['react.production.min.js', 'javascript'], ['react-dom.production.min.js', 'javascript'], ['init.js', 'javascript']]) {
      const asset = await fetch(`${ctx().url}/graphql/${file}`);
      expect([asset.status, asset.headers.get('content-type')], file).toEqual([200, `text/${type}; charset=utf-8`]);
      expect((await asset.text()).length, file).toBeGreaterThan(file === 'init.js' ? 100 : 10_000);
    }
  });

  it("passes every graphql-http GraphQL-over-HTTP server audit, MUST and SHOULD", async () => {
    const audits = serverAudits({ url: `${ctx().url}/graphql` });
    const failed: string[] = [];
    for (const audit of audits) {
      const result = await audit.fn();
      if (result.status !== 'ok') failed.push(`${audit.name}: ${result.reason}`);
    }
    expect(failed).toEqual([]);
  });
}
