import { formatGwei, toEventSelector, type Address, type Hash } from 'viem';
import { pino } from 'pino';
import { afterAll, expect, it } from 'vitest';
import { createExplorer } from '@chainlens/core';
import { chainTransfers } from './chain-transfers.js';
import { call, get, indexedToHead, signUp, tokenTransferAtHead, type ApiContext } from './context.js';

/** How a request carries its parameters: the query string, a form body or a JSON body. */
type Carrier = 'query' | 'form' | 'json';

interface EtherscanReply {
  status: number;
  headers: Headers;
  body: any;
}

/** Calls `{base_url}/api` with `params` carried as `carrier` says. */
export async function etherscan(context: ApiContext, params: Record<string, string>, carrier: Carrier = 'query', headers: Record<string, string> = {}): Promise<EtherscanReply> {
  const search = new URLSearchParams(params).toString();
  const response =
    carrier === 'query'
      ? await fetch(`${context.url}/api?${search}`, { headers })
      : await fetch(`${context.url}/api`, {
          method: 'POST',
          headers: { 'content-type': carrier === 'form' ? 'application/x-www-form-urlencoded' : 'application/json', ...headers },
          body: carrier === 'form' ? search : JSON.stringify(params),
        });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const notOk = (result: string) => ({ status: '0', message: 'NOTOK', result });
/** A quantity as Etherscan's getLogs writes it: hex, zero as `0x`. */
export const etherscanHex = (quantity: bigint | number | string) => (BigInt(quantity) === 0n ? '0x' : `0x${BigInt(quantity).toString(16)}`);
const lower = (address: string) => address.toLowerCase() as Address;

const TXLIST_FIELDS = [
  'blockNumber', 'timeStamp', 'hash', 'nonce', 'blockHash', 'transactionIndex', 'from', 'to', 'value', 'gas', 'gasPrice', 'isError',
  'txreceipt_status', 'input', 'contractAddress', 'cumulativeGasUsed', 'gasUsed', 'confirmations', 'methodId', 'functionName',
];

/** Values no parameter should choke on: SQL-like, unicode, control characters, huge, wrongly typed. */
const HOSTILE: unknown[] = ["' OR '1'='1", '0x\'||pg_sleep(5)||\'', '\u0000', '💥 𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '\ud800', 'é'.repeat(5_000), '', '-1', '1e308', '99999999999999999999999', '0x', '__proto__', { $gt: '' }, ['a'], -1, 1e308, true, null];

/** Actions and the parameters each reads, to fill with {@link HOSTILE} values one at a time. */
const ACTION_PARAMS: [module: string, action: string, params: string[]][] = [
  ['account', 'balance', ['address', 'tag']],
  ['account', 'balancemulti', ['address', 'tag']],
  ['account', 'txlist', ['address', 'startblock', 'endblock', 'page', 'offset', 'sort']],
  ['account', 'txlistinternal', ['txhash', 'address']],
  ['account', 'tokentx', ['address', 'contractaddress', 'page', 'offset']],
  ['transaction', 'getstatus', ['txhash']],
  ['block', 'getblocknumberbytime', ['timestamp', 'closest']],
  ['logs', 'getLogs', ['address', 'fromBlock', 'toBlock', 'topic0', 'topic1', 'topic0_1_opr', 'page', 'offset']],
  ['contract', 'getabi', ['address']],
  ['contract', 'getsourcecode', ['address']],
  ['contract', 'checkverifystatus', ['guid']],
  ['proxy', 'eth_getBlockByNumber', ['tag', 'boolean', 'id']],
  ['proxy', 'eth_call', ['to', 'data', 'value', 'gas', 'tag']],
  ['proxy', 'eth_getStorageAt', ['address', 'position', 'tag']],
  ['proxy', 'eth_sendRawTransaction', ['hex']],
  ['stats', 'ethprice', ['module', 'action', 'chainid']],
  ['account', 'addresstokennftinventory', ['address', 'contractaddress']],
  ['contract', 'getcontractcreation', ['contractaddresses']],
  ['block', 'getblockreward', ['blockno']],
  ['gastracker', 'gasestimate', ['gasprice']],
];

/** The Etherscan-compatible API at `{base_url}/api`: modules, texts, HTTP 200 semantics, keys and limits. */
export function etherscanTests(ctx: () => ApiContext): void {
  it('account/balance equals the node balance at the indexed head, by query string, form body or JSON body, HTTP 200', async () => {
    const head = await indexedToHead(ctx());
    const address = ctx().demo.accounts[1]!;
    const balance = (await ctx().chain.publicClient.getBalance({ address, blockNumber: head })).toString();
    for (const carrier of ['query', 'form', 'json'] as const) {
      const reply = await etherscan(ctx(), { module: 'account', action: 'balance', address, tag: 'latest' }, carrier);
      expect(reply.status, carrier).toBe(200);
      expect(reply.body, carrier).toEqual({ status: '1', message: 'OK', result: balance });
    }
    const first = await ctx().chain.publicClient.getBalance({ address, blockNumber: 1n });
    expect((await etherscan(ctx(), { module: 'account', action: 'balance', address, tag: '0x1' })).body.result).toBe(first.toString());
    expect((await etherscan(ctx(), { module: 'account', action: 'balance', address, tag: String(head + 1000n) })).body).toEqual(notOk('Error! Block not found'));
  });

  it('account/balancemulti answers every address; a malformed one is Etherscan’s error with HTTP 200', async () => {
    const head = await indexedToHead(ctx());
    const accounts = ctx().demo.accounts.slice(0, 3);
    const reply = await etherscan(ctx(), { module: 'account', action: 'balancemulti', address: accounts.join(',') });
    const expected = await Promise.all(
      accounts.map(async (account) => ({ account: lower(account), balance: (await ctx().chain.publicClient.getBalance({ address: account, blockNumber: head })).toString() })),
    );
    expect(reply.body).toEqual({ status: '1', message: 'OK', result: expected });
    const bad = await etherscan(ctx(), { module: 'account', action: 'balancemulti', address: `${accounts[0]},0x1234` });
    expect(bad).toMatchObject({ status: 200, body: notOk('Error! Invalid address format') });
    const many = Array.from({ length: 21 }, () => accounts[0]).join(',');
    expect((await etherscan(ctx(), { module: 'account', action: 'balancemulti', address: many })).body).toEqual(notOk('Error! Too many addresses: at most 20'));
  });

  it('account/txlist maps /account/txlist to Etherscan’s fields, with block range, paging and sort', async () => {
    await indexedToHead(ctx());
    const address = lower(ctx().demo.accounts[1]!);
    const ours = (await get(ctx(), `/api/v1/account/txlist?address=${address}&offset=1000`)).body.result as { hash: string; blockNumber: string; timestamp: string; input: string }[];
    const reply = await etherscan(ctx(), { module: 'account', action: 'txlist', address, startblock: '0', endblock: '99999999', sort: 'asc' });
    expect(reply.body.status).toBe('1');
    const listed = reply.body.result as Record<string, string>[];
    expect(listed.map((tx) => tx.hash)).toEqual(ours.map((tx) => tx.hash));
    expect(Object.keys(listed[0]!)).toEqual(TXLIST_FIELDS);
    const receipt = await ctx().chain.publicClient.getTransactionReceipt({ hash: listed[0]!.hash as Hash });
    expect(listed[0]).toMatchObject({
      blockNumber: String(receipt.blockNumber),
      timeStamp: ours[0]!.timestamp,
      cumulativeGasUsed: String(receipt.cumulativeGasUsed),
      gasUsed: String(receipt.gasUsed),
      methodId: ours[0]!.input.length >= 10 ? ours[0]!.input.slice(0, 10) : '0x',
    });
    const desc = await etherscan(ctx(), { module: 'account', action: 'txlist', address, sort: 'desc', page: '2', offset: '2' });
    expect(desc.body.result.map((tx: { hash: string }) => tx.hash)).toEqual([...ours].reverse().slice(2, 4).map((tx) => tx.hash));
    const block = listed[1]!.blockNumber!;
    const ranged = await etherscan(ctx(), { module: 'account', action: 'txlist', address, startblock: block, endblock: block });
    expect(ranged.body.result.map((tx: { hash: string }) => tx.hash)).toEqual(ours.filter((tx) => tx.blockNumber === block).map((tx) => tx.hash));
  });

  it('startblock and fromBlock latest start at the indexed head, not at genesis', async () => {
    const head = await tokenTransferAtHead(ctx());
    const account = ctx().chain.accounts[0]!.address;
    const token = ctx().demo.contracts.token;
    const requests = [
      (at: string) => ({ module: 'account', action: 'txlist', address: account, startblock: at }),
      (at: string) => ({ module: 'account', action: 'tokentx', address: account, startblock: at }),
      (at: string) => ({ module: 'logs', action: 'getLogs', address: token, fromBlock: at }),
    ];
    for (const request of requests) {
      const [latest, numbered] = await Promise.all(['latest', String(head)].map((at) => etherscan(ctx(), request(at))));
      expect(latest!.body, request('latest').action).toEqual(numbered!.body);
      expect(latest!.body.result, request('latest').action).toHaveLength(1);
    }
  });

  it('an empty list is status 0 with "No transactions found" and [], as clients expect', async () => {
    const nobody = `0x${'ab'.repeat(20)}`;
    for (const action of ['txlist', 'tokentx', 'tokennfttx', 'token1155tx']) {
      expect((await etherscan(ctx(), { module: 'account', action, address: nobody })).body, action).toEqual({ status: '0', message: 'No transactions found', result: [] });
    }
  });

  it('page × offset above 10000 is Etherscan’s result-window error; exactly 10000 is served', async () => {
    const address = ctx().demo.accounts[1]!;
    const window = 'Result window is too large, PageNo x Offset size must be less than or equal to 10000';
    for (const [page, offset] of [['2', '5001'], ['11', '1000'], ['1', '10001']]) {
      for (const action of ['txlist', 'tokentx']) {
        const reply = await etherscan(ctx(), { module: 'account', action, address, page: page!, offset: offset! });
        expect(reply, `${action} ${page}×${offset}`).toMatchObject({ status: 200, body: notOk(window) });
      }
    }
    expect((await etherscan(ctx(), { module: 'account', action: 'txlist', address, page: '10', offset: '1000' })).body.status).toBe('0');
    expect((await etherscan(ctx(), { module: 'account', action: 'txlist', address, page: '1', offset: '10000' })).body.status).toBe('1');
    const logs = await etherscan(ctx(), { module: 'logs', action: 'getLogs', address: ctx().demo.contracts.token, page: '11', offset: '1000' });
    expect(logs.body).toEqual(notOk(window));
  });

  it('account/txlistinternal by txhash lists the value-moving calls and creations of the node’s call trace', async () => {
    const hash = ctx().demo.transactions.deployments.child;
    const reply = await etherscan(ctx(), { module: 'account', action: 'txlistinternal', txhash: hash });
    const tx = await ctx().chain.publicClient.getTransaction({ hash });
    const block = await ctx().chain.publicClient.getBlock({ blockNumber: tx.blockNumber! });
    expect(reply.body.status).toBe('1');
    expect(reply.body.result).toEqual([
      expect.objectContaining({
        blockNumber: String(tx.blockNumber),
        timeStamp: String(block.timestamp),
        from: lower(ctx().demo.contracts.caller),
        to: '',
        value: '1000',
        contractAddress: lower(ctx().demo.contracts.child),
        type: 'create',
        isError: '0',
        errCode: '',
      }),
    ]);
    const plain = await etherscan(ctx(), { module: 'account', action: 'txlistinternal', txhash: ctx().demo.transactions.nativeTransfer });
    expect(plain.body).toEqual({ status: '0', message: 'No transactions found', result: [] });
  });

  it('account/txlistinternal by address and by block range lists the indexed ones, as the node’s traces of the block’s successful transactions give them', async () => {
    const head = await indexedToHead(ctx());
    const hash = ctx().demo.transactions.deployments.child;
    const { blockNumber } = await ctx().chain.publicClient.getTransactionReceipt({ hash });
    const block = await ctx().chain.publicClient.getBlock({ blockNumber });
    // The block's internal transactions as the node traces them now, by txhash, for its successful transactions.
    const expected: Record<string, string>[] = [];
    for (const txHash of block.transactions) {
      if ((await ctx().chain.publicClient.getTransactionReceipt({ hash: txHash })).status !== 'success') continue;
      const traced = (await etherscan(ctx(), { module: 'account', action: 'txlistinternal', txhash: txHash })).body.result as Record<string, string>[];
      expected.push(...traced.map((entry) => ({ ...entry, hash: txHash })));
    }
    expect(expected.length).toBeGreaterThan(0);
    const range = { module: 'account', action: 'txlistinternal', startblock: String(blockNumber), endblock: String(blockNumber) };
    const byRange = (await etherscan(ctx(), range)).body;
    const ranged = byRange.result as Record<string, string>[];
    expect(ranged.every((entry) => /^\d+(_\d+)*$/.test(entry.traceId!))).toBe(true);
    expect(ranged.map(({ traceId, ...entry }) => entry)).toEqual(expected);

    const creation = { hash, from: lower(ctx().demo.contracts.caller), to: '', value: '1000', contractAddress: lower(ctx().demo.contracts.child), type: 'create', traceId: '0', input: '', isError: '0', errCode: '' };
    for (const address of [ctx().demo.contracts.caller, ctx().demo.contracts.child]) {
      const byAddress = await etherscan(ctx(), { module: 'account', action: 'txlistinternal', address, startblock: '0', endblock: String(head) });
      expect(byAddress.body.result, address).toContainEqual(expect.objectContaining(creation));
      expect(Object.keys(byAddress.body.result[0])).toEqual(['blockNumber', 'timeStamp', 'hash', 'from', 'to', 'value', 'contractAddress', 'input', 'type', 'gas', 'gasUsed', 'traceId', 'isError', 'errCode']);
    }
    const all = (await etherscan(ctx(), { module: 'account', action: 'txlistinternal', startblock: '0', endblock: String(head) })).body.result as Record<string, string>[];
    const pageOf = async (page: number, sort: string) =>
      (await etherscan(ctx(), { module: 'account', action: 'txlistinternal', startblock: '0', endblock: String(head), page: String(page), offset: '2', sort })).body.result;
    expect(await pageOf(2, 'asc')).toEqual(all.slice(2, 4));
    expect(await pageOf(1, 'desc')).toEqual(all.slice(-2).reverse());
    expect((await etherscan(ctx(), { ...range, startblock: String(head + 1n), endblock: String(head + 10n) })).body).toEqual({ status: '0', message: 'No transactions found', result: [] });
    expect((await etherscan(ctx(), { module: 'account', action: 'txlistinternal', startblock: '0' })).body).toEqual(notOk('Error! Missing txhash, address, or startblock and endblock'));
    expect((await etherscan(ctx(), { module: 'account', action: 'txlistinternal', address: ctx().demo.contracts.caller, page: '3', offset: '5000' })).body).toEqual(
      notOk('Result window is too large, PageNo x Offset size must be less than or equal to 10000'),
    );
  });

  it('account/tokentx, tokennfttx and token1155tx list an address’s transfers as viem decodes them from the node’s logs', async () => {
    const head = await indexedToHead(ctx());
    const logs = await ctx().chain.publicClient.getLogs({ fromBlock: 0n, toBlock: head });
    const { demo } = ctx();
    const address = lower(demo.accounts[1]!);
    const transferEvent = toEventSelector('Transfer(address,address,uint256)');
    // The standard of a log's transfers, told apart as the indexer does: by the event and its shape.
    const standardOf = (topics: readonly string[]) => (topics[0] !== transferEvent ? 'token1155tx' : topics.length === 3 ? 'tokentx' : 'tokennfttx');
    for (const action of ['tokentx', 'tokennfttx', 'token1155tx']) {
      const expected = logs
        .filter((log) => standardOf(log.topics) === action)
        .flatMap((log) => chainTransfers(log).map((transfer) => ({ ...transfer, hash: log.transactionHash })))
        .filter((t) => t.from === address || t.to === address);
      expect(expected.length, action).toBeGreaterThan(0);
      const reply = await etherscan(ctx(), { module: 'account', action, address, sort: 'asc' });
      expect(reply.body.status, action).toBe('1');
      const listed = reply.body.result as Record<string, string>[];
      expect(listed.map((t) => [t.hash, t.contractAddress, t.from, t.to]), action).toEqual(expected.map((t) => [t.hash, t.token, t.from, t.to]));
      if (action !== 'tokentx') expect(listed.map((t) => t.tokenID), action).toEqual(expected.map((t) => String(t.id)));
    }
    const erc20 = (await etherscan(ctx(), { module: 'account', action: 'tokentx', address, contractaddress: demo.contracts.token })).body.result;
    expect(new Set(erc20.map((t: { contractAddress: string }) => t.contractAddress))).toEqual(new Set([lower(demo.contracts.token)]));
    expect(erc20[0]).toMatchObject({ tokenName: 'Demo Token', tokenSymbol: 'DEMO', tokenDecimal: '18' });
    expect(Object.keys(erc20[0])).toEqual([
      'blockNumber', 'timeStamp', 'hash', 'nonce', 'blockHash', 'from', 'contractAddress', 'to', 'value', 'tokenName', 'tokenSymbol', 'tokenDecimal',
      'transactionIndex', 'gas', 'gasPrice', 'gasUsed', 'cumulativeGasUsed', 'input', 'methodId', 'functionName', 'confirmations',
    ]);
    const single = (await etherscan(ctx(), { module: 'account', action: 'token1155tx', contractaddress: demo.contracts.multiToken, sort: 'asc' })).body.result;
    const transferSingle = single.find((t: { hash: string }) => t.hash === demo.transactions.multiTransfer);
    expect(transferSingle).toMatchObject({ tokenID: '2', tokenValue: '5', from: address, to: lower(demo.accounts[2]!) });
    expect((await etherscan(ctx(), { module: 'account', action: 'tokentx' })).body).toEqual(notOk('Error! Invalid address format'));
    expect((await etherscan(ctx(), { module: 'account', action: 'tokentx', address, contractaddress: '0x12' })).body).toEqual(notOk('Error! Invalid contract address format'));
  });

  it('transaction/getstatus and gettxreceiptstatus tell a failure and its reason from a success', async () => {
    const { failed, transfer } = ctx().demo.transactions;
    expect((await etherscan(ctx(), { module: 'transaction', action: 'getstatus', txhash: failed })).body).toEqual({
      status: '1',
      message: 'OK',
      result: { isError: '1', errDescription: 'Reverter: always fails' },
    });
    expect((await etherscan(ctx(), { module: 'transaction', action: 'getstatus', txhash: transfer })).body.result).toEqual({ isError: '0', errDescription: '' });
    expect((await etherscan(ctx(), { module: 'transaction', action: 'gettxreceiptstatus', txhash: failed })).body.result).toEqual({ status: '0' });
    expect((await etherscan(ctx(), { module: 'transaction', action: 'gettxreceiptstatus', txhash: transfer })).body.result).toEqual({ status: '1' });
    expect((await etherscan(ctx(), { module: 'transaction', action: 'getstatus', txhash: '0x12' })).body).toEqual(notOk('Error! Invalid transaction hash format'));
    expect((await etherscan(ctx(), { module: 'transaction', action: 'gettxreceiptstatus', txhash: `0x${'12'.repeat(32)}` })).body).toEqual(notOk('Error! Transaction not found'));
  });

  it('block/getblocknumberbytime finds the newest block at or before a time, or the oldest at or after it', async () => {
    const head = await indexedToHead(ctx());
    const time = async (number: bigint) => (await ctx().chain.publicClient.getBlock({ blockNumber: number })).timestamp;
    const ask = async (timestamp: bigint, closest: string) =>
      (await etherscan(ctx(), { module: 'block', action: 'getblocknumberbytime', timestamp: String(timestamp), closest })).body;
    for (const number of [1n, head / 2n, head]) {
      const timestamp = await time(number);
      for (const probe of [timestamp - 1n, timestamp, timestamp + 1n]) {
        const before = await ask(probe, 'before');
        if (before.status === '0') {
          expect(await time(0n)).toBeGreaterThan(probe);
        } else {
          expect(await time(BigInt(before.result))).toBeLessThanOrEqual(probe);
          if (BigInt(before.result) < head) expect(await time(BigInt(before.result) + 1n)).toBeGreaterThan(probe);
        }
        const after = await ask(probe, 'after');
        if (after.status === '0') {
          expect(await time(head)).toBeLessThan(probe);
          continue;
        }
        expect(await time(BigInt(after.result))).toBeGreaterThanOrEqual(probe);
        if (BigInt(after.result) > 0n) expect(await time(BigInt(after.result) - 1n)).toBeLessThan(probe);
      }
    }
    expect(await ask(10n ** 12n, 'after')).toEqual(notOk('Error! No closest block found'));
    expect(await ask(0n, 'before')).toEqual(notOk('Error! No closest block found'));
    expect(await ask(1n, 'sideways')).toEqual(notOk("Error! Invalid request: closest: must be 'before' or 'after'"));
  });

  it('logs/getLogs answers the node’s logs with Etherscan’s hex fields, filtered by topics with and/or', async () => {
    const head = await indexedToHead(ctx());
    const token = ctx().demo.contracts.token;
    const node = await ctx().chain.publicClient.getLogs({ address: token, fromBlock: 0n, toBlock: head });
    const reply = await etherscan(ctx(), { module: 'logs', action: 'getLogs', address: token, fromBlock: '0', toBlock: 'latest' });
    expect(reply.body.status).toBe('1');
    const first = node[0]!;
    const receipt = await ctx().chain.publicClient.getTransactionReceipt({ hash: first.transactionHash });
    const block = await ctx().chain.publicClient.getBlock({ blockNumber: first.blockNumber });
    expect(reply.body.result[0]).toEqual({
      address: lower(token),
      topics: first.topics,
      data: first.data,
      blockNumber: etherscanHex(first.blockNumber),
      blockHash: first.blockHash,
      timeStamp: etherscanHex(block.timestamp),
      gasPrice: etherscanHex(receipt.effectiveGasPrice),
      gasUsed: etherscanHex(receipt.gasUsed),
      logIndex: etherscanHex(first.logIndex),
      transactionHash: first.transactionHash,
      transactionIndex: etherscanHex(first.transactionIndex),
    });
    expect(reply.body.result.map((log: { transactionHash: string; logIndex: string }) => [log.transactionHash, Number(BigInt(log.logIndex === '0x' ? 0 : log.logIndex))])).toEqual(
      node.map((log) => [log.transactionHash, log.logIndex]),
    );

    const transfer = toEventSelector('Transfer(address,address,uint256)');
    const approval = toEventSelector('Approval(address,address,uint256)');
    const fromAccount0 = `0x${'0'.repeat(24)}${ctx().demo.accounts[0]!.slice(2).toLowerCase()}`;
    const matching = (filter: (log: (typeof node)[number]) => boolean) => node.filter(filter).map((log) => log.transactionHash + log.logIndex);
    const found = async (params: Record<string, string>) =>
      ((await etherscan(ctx(), { module: 'logs', action: 'getLogs', address: token, ...params })).body.result as { transactionHash: string; logIndex: string }[]).map(
        (log) => log.transactionHash + Number(BigInt(log.logIndex === '0x' ? 0 : log.logIndex)),
      );
    expect(await found({ topic0: transfer })).toEqual(matching((log) => log.topics[0] === transfer));
    const transfersFrom0 = matching((log) => log.topics[0] === transfer && log.topics[1] === fromAccount0);
    expect(transfersFrom0.length).toBeGreaterThan(0);
    expect(await found({ topic0: transfer, topic1: fromAccount0, topic0_1_opr: 'and' })).toEqual(transfersFrom0);
    expect(await found({ topic0: approval, topic1: fromAccount0, topic0_1_opr: 'or' })).toEqual(matching((log) => log.topics[0] === approval || log.topics[1] === fromAccount0));
    expect(await found({ topic1: fromAccount0 })).toEqual(matching((log) => log.topics[1] === fromAccount0));
    expect(await found({ topic0: transfer, page: '2', offset: '1' })).toEqual(matching((log) => log.topics[0] === transfer).slice(1, 2));

    expect((await etherscan(ctx(), { module: 'logs', action: 'getLogs', address: token, fromBlock: String(head + 1000n) })).body).toEqual({ status: '0', message: 'No records found', result: [] });
    expect((await etherscan(ctx(), { module: 'logs', action: 'getLogs', address: token, topic0: '0x1234' })).body).toEqual(notOk('Error! Invalid topic format'));
  });

  it('gastracker/gasoracle reads the node’s fee history: next base fee plus its recent tips, in Gwei', async () => {
    const reply = await etherscan(ctx(), { module: 'gastracker', action: 'gasoracle' });
    expect(reply.body.status).toBe('1');
    const oracle = reply.body.result as Record<string, string>;
    expect(Object.keys(oracle)).toEqual(['LastBlock', 'SafeGasPrice', 'ProposeGasPrice', 'FastGasPrice', 'suggestBaseFee', 'gasUsedRatio']);
    const history = await ctx().chain.publicClient.getFeeHistory({ blockCount: 5, blockNumber: BigInt(oracle.LastBlock!), rewardPercentiles: [25, 50, 75] });
    expect(oracle.suggestBaseFee).toBe(formatGwei(history.baseFeePerGas.at(-1)!));
    expect(oracle.gasUsedRatio).toBe(history.gasUsedRatio.join(','));
    const [safe, propose, fast] = [oracle.SafeGasPrice, oracle.ProposeGasPrice, oracle.FastGasPrice].map(Number);
    expect(safe).toBeGreaterThanOrEqual(Number(oracle.suggestBaseFee));
    expect(safe).toBeLessThanOrEqual(propose!);
    expect(propose).toBeLessThanOrEqual(fast!);
  });

  it('stats/ethprice says honestly that there is no price for the native coin when no token is named as its wrapped form', async () => {
    expect(await etherscan(ctx(), { module: 'stats', action: 'ethprice' })).toMatchObject({
      status: 200,
      body: notOk('Error! No price source for the native coin: no token is named as its wrapped form (prices.nativeToken)'),
    });
  });

  it('contract/getabi and getsourcecode of an unverified contract answer Etherscan’s not-verified shapes', async () => {
    const token = ctx().demo.contracts.token;
    expect((await etherscan(ctx(), { module: 'contract', action: 'getabi', address: token })).body).toEqual(notOk('Contract source code not verified'));
    expect((await etherscan(ctx(), { module: 'contract', action: 'getsourcecode', address: token })).body).toEqual({
      status: '1',
      message: 'OK',
      result: [
        {
          SourceCode: '',
          ABI: 'Contract source code not verified',
          ContractName: '',
          CompilerVersion: '',
          OptimizationUsed: '',
          Runs: '',
          ConstructorArguments: '',
          EVMVersion: 'Default',
          Library: '',
          LicenseType: 'Unknown',
          Proxy: '0',
          Implementation: '',
          SwarmSource: '',
        },
      ],
    });
  });

  it('unknown modules and actions, malformed input and a wrong chainid get Etherscan’s texts with HTTP 200', async () => {
    const address = ctx().demo.accounts[1]!;
    const cases: [Record<string, string>, unknown][] = [
      [{ module: 'nope', action: 'balance', address }, notOk('Error! Missing Or invalid Module name')],
      [{ action: 'balance', address }, notOk('Error! Missing Or invalid Module name')],
      [{ module: 'constructor', action: 'balance' }, notOk('Error! Missing Or invalid Module name')],
      [{ module: 'account', action: 'nope', address }, notOk('Error! Missing Or invalid Action name')],
      [{ module: 'account', action: 'toString', address }, notOk('Error! Missing Or invalid Action name')],
      [{ module: 'account', action: 'balance', address: '0x12' }, notOk('Error! Invalid address format')],
      [{ module: 'account', action: 'balance' }, notOk('Error! Invalid address format')],
      [{ module: 'account', action: 'txlist', address, startblock: 'x' }, notOk('Error! Invalid block number')],
      [{ module: 'account', action: 'balance', address, chainid: '1' }, notOk('Missing or unsupported chainid parameter (required for v2 api), please see chainlist for the list of supported chainids')],
    ];
    for (const [params, expected] of cases) {
      const reply = await etherscan(ctx(), params);
      expect(reply, JSON.stringify(params)).toMatchObject({ status: 200, body: expected });
    }
    expect((await etherscan(ctx(), { module: 'account', action: 'balance', address, chainid: '31337' })).body.status).toBe('1');
    const malformed = await fetch(`${ctx().url}/api`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"module":' });
    expect({ status: malformed.status, body: await malformed.json() }).toEqual({ status: 200, body: notOk('Error! Invalid request: body: malformed JSON') });
  });

  it('hostile values in any parameter, by query string, form or JSON body, get an Etherscan or JSON-RPC answer with HTTP 200, never a failure', async () => {
    const valid: Record<string, string> = {
      address: ctx().demo.contracts.token,
      txhash: ctx().demo.transactions.transfer,
      tag: 'latest',
      timestamp: '1',
      to: ctx().demo.contracts.token,
      data: '0x',
      position: '0x0',
      hex: '0x02',
      guid: 'x',
      contractaddress: ctx().demo.contracts.nft,
      contractaddresses: ctx().demo.contracts.token,
      blockno: '1',
      gasprice: '1000000000',
    };
    const failures: string[] = [];
    for (const [module, action, names] of ACTION_PARAMS) {
      const base = { module, action, ...Object.fromEntries(names.filter((name) => valid[name]).map((name) => [name, valid[name]!])) };
      for (const name of names) {
        for (const value of HOSTILE) {
          // A URL as long as the longest value is refused by HTTP itself (431): that one travels in bodies.
          const carriers = typeof value !== 'string' ? (['json'] as const) : value.length > 1_000 ? (['form', 'json'] as const) : (['query', 'form', 'json'] as const);
          for (const carrier of carriers) {
            const params = { ...base, [name]: value } as Record<string, string>;
            const what = `${module}/${action} ${carrier} ${name}=${JSON.stringify(value).slice(0, 30)}`;
            const reply = await etherscan(ctx(), params, carrier).catch((error: unknown) => ({ status: -1, headers: new Headers(), body: String(error) }));
            const body = reply.body as { status?: unknown; message?: unknown; jsonrpc?: unknown };
            const shaped = (body.status === '0' || body.status === '1') && typeof body.message === 'string';
            const rpcShaped = body.jsonrpc === '2.0' && ('result' in body || 'error' in body);
            if (reply.status !== 200 || !(shaped || rpcShaped) || /\n\s+at |\.ts:\d+|Internal server error/.test(JSON.stringify(body))) {
              failures.push(`${what}: ${reply.status} ${JSON.stringify(body).slice(0, 160)}`);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('apikey authenticates like X-API-Key (in the query or the body); an invalid key is Etherscan’s error with HTTP 200', async () => {
    const user = await signUp(ctx());
    const key = (await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name: 'etherscan' }, user.bearer)).body.result.key as string;
    const address = ctx().demo.accounts[1]!;
    const anonymous = await etherscan(ctx(), { module: 'account', action: 'balance', address });
    const keyed = await etherscan(ctx(), { module: 'account', action: 'balance', address, apikey: key });
    const posted = await etherscan(ctx(), { module: 'account', action: 'balance', address, apikey: key }, 'form');
    const header = await call(ctx(), 'GET', '/api/v1/health', undefined, { 'x-api-key': key });
    // The three requests count against the key's own allowance, one after the other.
    const remaining = (reply: { headers: Headers }) => Number(reply.headers.get('x-ratelimit-remaining'));
    expect([remaining(keyed), remaining(posted)]).toEqual([remaining(header) + 2, remaining(header) + 1]);
    expect(remaining(anonymous)).not.toBe(remaining(keyed));
    expect(keyed.body).toEqual(anonymous.body);
    for (const carrier of ['query', 'form', 'json'] as const) {
      const refused = await etherscan(ctx(), { module: 'account', action: 'balance', address, apikey: 'clk_not-a-key' }, carrier);
      expect(refused, carrier).toMatchObject({ status: 200, body: notOk('Invalid API Key') });
    }
  });
}

/** Etherscan's rate-limit answer, through an explorer with its own small limits. */
export function etherscanRateLimitTests(ctx: () => ApiContext): void {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  it('over the limit, /api answers HTTP 200 {status: 0, message: NOTOK, result: Max rate limit reached} with Retry-After', async () => {
    const explorer = await createExplorer({
      rpcUrl: ctx().chain.rpcUrl,
      storage: await ctx().options.storage(),
      logger: pino({ level: 'silent' }),
      clock: () => 1_800_000_030_000,
      rateLimits: { anonymous: { perMinute: 2, perDay: 100 } },
    });
    const served = await ctx().options.serve(explorer);
    closers.push(async () => {
      await served.close();
      await explorer.close();
    });
    const limited = { ...ctx(), url: served.url };
    const params = { module: 'stats', action: 'ethprice' };
    for (let i = 0; i < 2; i++) expect((await etherscan(limited, params)).body.result).toMatch(/^Error! No price source/);
    for (const carrier of ['query', 'form'] as const) {
      const refused = await etherscan(limited, params, carrier);
      expect({ status: refused.status, body: refused.body, retryAfter: refused.headers.get('retry-after') }, carrier).toEqual({
        status: 200,
        body: notOk('Max rate limit reached'),
        retryAfter: '30',
      });
    }
  });
}
