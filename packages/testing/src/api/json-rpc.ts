import { pino } from 'pino';
import { createPublicClient, createWalletClient, encodeFunctionData, http } from 'viem';
import { afterAll, expect, it } from 'vitest';
import { createExplorer, type Explorer, type ExplorerConfig } from '@chainlens/core';
import { get, indexedToHead, type ApiContext } from './context.js';
import { startNodeRelay, type NodeFault, type NodeRelay } from './node-relay.js';

/** A decoded answer of `POST {base_url}/`; `body` is `undefined` for an empty one. */
export interface RpcAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** Posts `body` (a value, or raw text sent as it is) to the JSON-RPC endpoint at `url`. */
export async function rpc(url: string, body: unknown, headers: Record<string, string> = {}): Promise<RpcAnswer> {
  const response = await fetch(`${url}/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : JSON.parse(text) };
}

export const call = (method: string, params: unknown[] = [], id: number | string = 1) => ({ jsonrpc: '2.0', method, params, id });
const notification = (method: string, params: unknown[] = []) => ({ jsonrpc: '2.0', method, params });
export const rpcError = (id: unknown, code: number, message?: string) => ({ jsonrpc: '2.0', id, error: message === undefined ? expect.objectContaining({ code }) : { code, message } });

/**
 * Methods a node answers and ChainLens must never forward: the node's administration, debugging,
 * wallets and dev-chain controls, stateful filters, names that are no methods at all.
 */
const DENIED = [
  'debug_traceTransaction',
  'debug_traceBlockByNumber',
  'debug_getRawBlock',
  'admin_nodeInfo',
  'admin_peers',
  'admin_addPeer',
  'personal_listAccounts',
  'personal_sendTransaction',
  'personal_unlockAccount',
  'anvil_setBalance',
  'anvil_mine',
  'anvil_impersonateAccount',
  'anvil_reorg',
  'evm_mine',
  'evm_snapshot',
  'evm_revert',
  'evm_setAutomine',
  'txpool_content',
  'txpool_status',
  'miner_start',
  'hardhat_reset',
  'trace_transaction',
  'eth_sendTransaction',
  'eth_sign',
  'eth_signTransaction',
  'eth_accounts',
  'eth_coinbase',
  'eth_newFilter',
  'eth_newBlockFilter',
  'eth_getFilterChanges',
  'eth_subscribe',
  'rpc.discover',
  'rpc_modules',
  '',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
];

/** `POST {base_url}/`: JSON-RPC 2.0 as its specification's examples read, the `chain_*` methods and the node proxy. */
export function jsonRpcTests(ctx: () => ApiContext): void {
  const closers: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** An explorer of its own over `rpcUrl`, served through the adapter under test; not started, so it calls the node only when asked. */
  async function served(rpcUrl: string, config: Partial<ExplorerConfig> = {}): Promise<{ url: string; explorer: Explorer }> {
    const explorer = await createExplorer({ rpcUrl, storage: await ctx().options.storage(), logger: pino({ level: 'silent' }), ...config });
    const api = await ctx().options.serve(explorer);
    closers.push(async () => {
      await api.close();
      await explorer.close();
    });
    return { url: api.url, explorer };
  }

  async function relayed(config: Partial<ExplorerConfig> = {}): Promise<{ url: string; relay: NodeRelay }> {
    const relay = await startNodeRelay(ctx().chain.rpcUrl);
    closers.push(() => relay.close());
    // These explorers answer hundreds of calls from one address; the limits have a test of their own.
    return { relay, url: (await served(relay.url, { rateLimits: { enabled: false }, ...config })).url };
  }

  it('answers the JSON-RPC 2.0 specification examples: parse errors, invalid requests, unknown methods, batches', async () => {
    const { url } = ctx();
    const head = await ctx().chain.publicClient.getBlockNumber();
    const cases: [name: string, body: unknown, expected: unknown][] = [
      ['a call', call('eth_blockNumber', [], 1), { jsonrpc: '2.0', id: 1, result: `0x${head.toString(16)}` }],
      ['a call with a string id', call('net_version', [], 'abc'), { jsonrpc: '2.0', id: 'abc', result: '31337' }],
      ['a non-existent method', { jsonrpc: '2.0', method: 'foobar', id: '1' }, rpcError('1', -32601, 'Method not found: foobar')],
      ['invalid JSON', '{"jsonrpc": "2.0", "method": "foobar, "params": "bar", "baz]', rpcError(null, -32700, 'Parse error')],
      ['an invalid request object', { jsonrpc: '2.0', method: 1, params: 'bar' }, rpcError(null, -32600, 'Invalid Request: method must be a string')],
      [
        'a batch of invalid JSON',
        '[{"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},{"jsonrpc": "2.0", "method"]',
        rpcError(null, -32700, 'Parse error'),
      ],
      ['an empty array', [], rpcError(null, -32600, 'Invalid Request: empty batch')],
      ['an invalid batch of one', [1], [rpcError(null, -32600, 'Invalid Request: not a request object')]],
      ['an invalid batch', [1, 2, 3], [1, 2, 3].map(() => rpcError(null, -32600, 'Invalid Request: not a request object'))],
      ['a wrong version', { jsonrpc: '1.0', method: 'eth_blockNumber', id: 7 }, rpcError(7, -32600, 'Invalid Request: jsonrpc must be "2.0"')],
      ['an object id', { jsonrpc: '2.0', method: 'eth_blockNumber', id: { a: 1 } }, rpcError(null, -32600, 'Invalid Request: id must be a string, a number or null')],
      ['scalar params', { jsonrpc: '2.0', method: 'eth_blockNumber', params: 'x', id: 2 }, rpcError(2, -32600, 'Invalid Request: params must be an array or an object')],
      ['params by name', { jsonrpc: '2.0', method: 'eth_getBalance', params: { address: ctx().demo.accounts[0] }, id: 3 }, rpcError(3, -32602, 'Invalid params: params must be an array (by position)')],
      ['a null id (a call, not a notification)', { jsonrpc: '2.0', method: 'eth_chainId', id: null }, { jsonrpc: '2.0', id: null, result: '0x7a69' }],
      ['an empty body', '', rpcError(null, -32700, 'Parse error')],
      [
        'a mixed batch, in order, without the notification',
        [
          call('eth_chainId', [], 1),
          notification('eth_blockNumber'),
          { foo: 'boo' },
          { jsonrpc: '2.0', method: 'foo.get', params: { name: 'myself' }, id: '5' },
          call('web3_clientVersion', [], 9),
        ],
        [
          { jsonrpc: '2.0', id: 1, result: '0x7a69' },
          rpcError(null, -32600, 'Invalid Request: jsonrpc must be "2.0"'),
          rpcError('5', -32601, 'Method not found: foo.get'),
          { jsonrpc: '2.0', id: 9, result: expect.stringMatching(/anvil/i) },
        ],
      ],
    ];
    for (const [name, body, expected] of cases) {
      const answer = await rpc(url, body);
      expect({ status: answer.status, body: answer.body }, name).toEqual({ status: 200, body: expected });
    }
  });

  it('sends nothing at all (HTTP 204, empty body) for a notification and for a batch of notifications only', async () => {
    for (const body of [notification('eth_blockNumber'), [notification('eth_blockNumber'), notification('net_version')], [notification('debug_traceTransaction')]]) {
      const answer = await rpc(ctx().url, body);
      expect({ status: answer.status, text: answer.text }, JSON.stringify(body)).toEqual({ status: 204, text: '' });
    }
  });

  it('refuses a batch over rpc.maxBatch as a whole, and serves one at the limit', async () => {
    const { url } = ctx();
    const over = await rpc(url, Array.from({ length: 101 }, (_, i) => call('eth_chainId', [], i)));
    expect(over.body).toEqual(rpcError(null, -32600, 'Invalid Request: a batch holds at most 100 requests, this one 101'));
    const full = await rpc(url, Array.from({ length: 100 }, (_, i) => call('eth_chainId', [], i)));
    expect(full.body).toEqual(Array.from({ length: 100 }, (_, i) => ({ jsonrpc: '2.0', id: i, result: '0x7a69' })));
    const { url: small } = await served(ctx().chain.rpcUrl, { rpc: { maxBatch: 2 } });
    expect((await rpc(small, [call('eth_chainId'), call('eth_chainId'), call('eth_chainId')])).body).toEqual(
      rpcError(null, -32600, 'Invalid Request: a batch holds at most 2 requests, this one 3'),
    );
  });

  it('refuses every method off the allowlist, alone, as a notification and inside batches, with zero upstream calls', async () => {
    const { url, relay } = await relayed();
    for (const method of DENIED) {
      expect((await rpc(url, call(method, [], 1))).body, method).toEqual(rpcError(1, -32601, `Method not found: ${method}`));
      expect((await rpc(url, notification(method))).status, method).toBe(204);
    }
    const batch = await rpc(url, DENIED.map((method, i) => call(method, [], i)));
    expect(batch.body).toEqual(DENIED.map((method, i) => rpcError(i, -32601, `Method not found: ${method}`)));
    expect(relay.methods).toEqual([]);
    // The relay does count what it is sent: the allowed read among them goes through it, alone.
    const mixed = await rpc(url, [call('anvil_setBalance', [ctx().demo.accounts[9], '0x1'], 1), call('eth_blockNumber', [], 2), call('evm_mine', [], 3)]);
    expect(mixed.body).toEqual([
      rpcError(1, -32601, 'Method not found: anvil_setBalance'),
      { jsonrpc: '2.0', id: 2, result: expect.stringMatching(/^0x[0-9a-f]+$/) },
      rpcError(3, -32601, 'Method not found: evm_mine'),
    ]);
    expect(relay.methods).toEqual(['eth_blockNumber']);
  });

  it('a node that times out, answers 500 or 429, or sends truncated JSON gives -32603 saying so within the timeout, and serving goes on', async () => {
    const { url, relay } = await relayed({ http: { upstreamTimeoutMs: 400 } });
    const expected: Record<NodeFault, string> = {
      timeout: 'Error! Upstream node unavailable: the node did not answer within the upstream timeout',
      'http-500': 'Error! Upstream node unavailable: the node answered HTTP 500',
      'http-429': 'Error! Upstream node unavailable: the node answered HTTP 429 (rate limited)',
      'truncated-json': 'Error! Upstream node unavailable: the node answered malformed JSON',
    };
    for (const [fault, message] of Object.entries(expected) as [NodeFault, string][]) {
      relay.fault = fault;
      const started = Date.now();
      const single = await rpc(url, call('eth_getBalance', [ctx().demo.accounts[0], 'latest'], 4));
      expect(Date.now() - started, fault).toBeLessThan(400 + 1_500);
      expect({ status: single.status, body: single.body }, fault).toEqual({ status: 200, body: rpcError(4, -32603, message) });
      const batch = await rpc(url, [call('eth_blockNumber', [], 1), call('eth_gasPrice', [], 2)]);
      expect(batch.body, fault).toEqual([rpcError(1, -32603, message), rpcError(2, -32603, message)]);
    }
    relay.fault = null;
    const recovered = await rpc(url, call('eth_getBalance', [ctx().demo.accounts[0], 'latest'], 5));
    expect(recovered.body).toEqual({ jsonrpc: '2.0', id: 5, result: `0x${(await ctx().chain.publicClient.getBalance({ address: ctx().demo.accounts[0]! })).toString(16)}` });
    expect((await get({ ...ctx(), url }, '/api/v1/health')).status).toBe(200);
  });

  it('passes the node’s own errors through as they are (a reverted eth_call keeps code 3 and its data)', async () => {
    const { contracts, abis } = ctx().demo;
    const data = encodeFunctionData({ abi: abis.reverter, functionName: 'fail' });
    const direct = await fetch(ctx().chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call('eth_call', [{ to: contracts.reverter, data }, 'latest'])) });
    const answer = await rpc(ctx().url, call('eth_call', [{ to: contracts.reverter, data }, 'latest']));
    expect(answer.body).toEqual(await direct.json());
    expect(answer.body.error).toMatchObject({ code: 3, data: expect.stringMatching(/^0x08c379a0/) });
  });

  it('viem pointed at ChainLens reads block numbers, balances, blocks, receipts and logs that equal anvil’s, batched or not', async () => {
    await indexedToHead(ctx());
    const anvil = ctx().chain.publicClient;
    const { nestedPing } = ctx().demo.transactions;
    for (const batch of [false, true]) {
      const chainlens = createPublicClient({ chain: ctx().chain.chain, transport: http(`${ctx().url}/`, { batch }), cacheTime: 0 });
      const account = ctx().demo.accounts[1]!;
      const receipt = await anvil.getTransactionReceipt({ hash: nestedPing });
      const [number, chainId, balance, block, fullBlock, ourReceipt, logs, code] = await Promise.all([
        chainlens.getBlockNumber(),
        chainlens.getChainId(),
        chainlens.getBalance({ address: account }),
        chainlens.getBlock({ blockNumber: receipt.blockNumber }),
        chainlens.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true }),
        chainlens.getTransactionReceipt({ hash: nestedPing }),
        chainlens.getLogs({ fromBlock: ctx().demo.fromBlock, toBlock: ctx().demo.toBlock }),
        chainlens.getCode({ address: ctx().demo.contracts.caller }),
      ]);
      expect(number, `batch ${batch}`).toBe(await anvil.getBlockNumber());
      expect(chainId).toBe(await anvil.getChainId());
      expect(balance).toBe(await anvil.getBalance({ address: account }));
      expect(block).toEqual(await anvil.getBlock({ blockNumber: receipt.blockNumber }));
      expect(fullBlock).toEqual(await anvil.getBlock({ blockNumber: receipt.blockNumber, includeTransactions: true }));
      expect(ourReceipt).toEqual(receipt);
      expect(logs).toEqual(await anvil.getLogs({ fromBlock: ctx().demo.fromBlock, toBlock: ctx().demo.toBlock }));
      expect(logs.length).toBeGreaterThan(10);
      expect(code).toBe(await anvil.getCode({ address: ctx().demo.contracts.caller }));
    }
  });

  it('viem sends a signed transaction through ChainLens (eth_sendRawTransaction) and the node mines it', async () => {
    const [sender, recipient] = [ctx().chain.accounts[9]!, ctx().demo.accounts[8]!];
    const wallet = createWalletClient({ account: sender, chain: ctx().chain.chain, transport: http(`${ctx().url}/`) });
    const before = await ctx().chain.publicClient.getBalance({ address: recipient });
    const hash = await wallet.sendTransaction({ to: recipient, value: 12_345n });
    const receipt = await ctx().chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    expect(receipt.status).toBe('success');
    expect(await ctx().chain.publicClient.getBalance({ address: recipient })).toBe(before + 12_345n);
    const unsigned = await rpc(ctx().url, call('eth_sendRawTransaction', ['0x1234'], 6));
    expect(unsigned.body).toEqual(rpcError(6, -32602, 'Error! Invalid request: signedTransaction: not a valid serialized transaction'));
  });

  it('chain_getStateRoot, chain_getValidatorSet and chain_getFinality answer the spec’s records, as REST and the services do', async () => {
    await indexedToHead(ctx());
    const { url, explorer } = ctx();
    const block = await ctx().chain.publicClient.getBlock({ blockNumber: 1n });
    const stateRoot = await rpc(url, call('chain_getStateRoot', ['0x1']));
    expect(stateRoot.body.result).toEqual({
      blockNumber: '1',
      stateRoot: block.stateRoot,
      timestamp: block.timestamp.toString(),
      blockHash: block.hash,
      parentHash: block.parentHash,
    });
    expect(stateRoot.body.result).toEqual((await get(ctx(), '/api/v1/blockchain/state-root/1')).body.result);
    expect((await rpc(url, call('chain_getStateRoot', ['1']))).body.result).toEqual(stateRoot.body.result);
    expect((await rpc(url, call('chain_getStateRoot', ['latest']))).body.result).toEqual((await get(ctx(), '/api/v1/blockchain/state-root/latest')).body.result);

    const validators = await rpc(url, call('chain_getValidatorSet'));
    expect(validators.body.result).toEqual(JSON.parse(JSON.stringify(await explorer.services.consensus.validatorSet())));
    expect(Object.keys(validators.body.result).sort()).toEqual(['activeValidators', 'epoch', 'totalValidators', 'validators']);
    expect(validators.body.result.validators.map((v: { address: string }) => v.address)).toContain(block.miner.toLowerCase());

    const finality = await rpc(url, call('chain_getFinality', ['0x1']));
    expect(finality.body.result).toEqual(JSON.parse(JSON.stringify(await explorer.services.consensus.finality(1n))));
    expect(finality.body.result).toMatchObject({ blockNumber: '1', isFinalized: expect.any(Boolean), confirmations: expect.any(Number) });
    expect(Object.keys(finality.body.result).sort()).toEqual(['blockNumber', 'confirmations', 'finalityProof', 'finalizedAt', 'isFinalized', 'requiredConfirmations']);
    const latest = await rpc(url, call('chain_getFinality', ['latest']));
    expect(latest.body.result).toMatchObject({ blockNumber: (await explorer.storage.getCursor())!.number.toString(), confirmations: 1 });
  });

  it('chain_* methods answer -32602 for parameters they cannot take and -32001 for blocks not indexed', async () => {
    const { url } = ctx();
    const invalid: [string, unknown[]][] = [
      ['chain_getStateRoot', []],
      ['chain_getStateRoot', ['banana']],
      ['chain_getStateRoot', ['0x1', 'extra']],
      ['chain_getStateRoot', [-1]],
      ['chain_getValidatorSet', [1]],
      ['chain_getFinality', []],
      ['chain_getFinality', ['pending']],
      ['chain_getFinality', ['0x']],
      ['chain_getFinality', [1.5]],
    ];
    for (const [method, params] of invalid) {
      const answer = await rpc(url, call(method, params, 8));
      expect(answer.body, `${method} ${JSON.stringify(params)}`).toEqual(rpcError(8, -32602));
      expect(answer.body.error.message).toMatch(/^Invalid params: /);
    }
    expect((await rpc(url, call('chain_getStateRoot', ['0xffffff']))).body).toEqual(rpcError(1, -32001, 'Error! Block not found'));
    expect((await rpc(url, call('chain_getFinality', ['0xffffff']))).body).toEqual(rpcError(1, -32001, 'Error! Block not found'));
  });

  it('counts each batch entry against the caller’s rate limit and refuses a batch over it with HTTP 429 and -32005', async () => {
    const { url } = await served(ctx().chain.rpcUrl, { rateLimits: { anonymous: { perMinute: 10, perDay: 1_000 } }, clock: () => 1_800_000_030_000 });
    const first = await rpc(url, [1, 2, 3].map((id) => call('eth_chainId', [], id)));
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('7');
    const single = await rpc(url, call('eth_chainId'));
    expect(single.headers.get('x-ratelimit-remaining')).toBe('6');
    const over = await rpc(url, Array.from({ length: 7 }, (_, id) => call('eth_chainId', [], id)));
    expect({ status: over.status, body: over.body, retryAfter: over.headers.get('retry-after') }).toEqual({
      status: 429,
      body: rpcError(null, -32005, 'Max rate limit reached'),
      retryAfter: '30',
    });
  });

  it('refuses bad credentials with HTTP 401 and a JSON-RPC error, as REST does', async () => {
    for (const [headers, message] of [
      [{ 'x-api-key': 'clk_not-a-key' }, 'Invalid API key'],
      [{ authorization: 'Bearer not.a.token' }, 'Unauthorized'],
    ] as const) {
      const answer = await rpc(ctx().url, call('eth_chainId'), headers);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 401, body: rpcError(null, -32000, message) });
    }
  });
}
