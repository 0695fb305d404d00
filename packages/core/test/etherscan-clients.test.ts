import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer, handleClientError, type Explorer, type Hex } from '@chainlens/core';
import { compileContracts, createTestChain, deployDemo, type CompiledContracts, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { indexedThrough, waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { Contract, EtherscanProvider, JsonRpcProvider, Wallet, type Networkish } from 'ethers';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { encodeAbiParameters, parseAbiParameters, parseEther, toFunctionSelector, toHex, type Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const execFileAsync = promisify(execFile);
// hardhat-verify's standalone Etherscan client (v2 exports it; it needs no Hardhat runtime).
const { Etherscan } = require('@nomicfoundation/hardhat-verify/etherscan') as typeof import('@nomicfoundation/hardhat-verify/etherscan');

/** A multi-file contract with an import and constructor arguments, verified by hardhat-verify. */
const SOURCES = {
  'contracts/Base.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

abstract contract Base {
    string public label;
    constructor(string memory label_) { label = label_; }
}
`,
  'contracts/Counter.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import "./Base.sol";

contract Counter is Base {
    uint256 public count;
    event Counted(address indexed by, uint256 count);
    constructor(string memory label_, uint256 start) Base(label_) { count = start; }
    function increment() external { count += 1; emit Counted(msg.sender, count); }
}
`,
};

/** An EIP-1967 proxy in one file, verified the way `forge verify-contract --flatten` sends it. */
const PROXY_SOURCE = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

contract CounterProxy {
    bytes32 private constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    constructor(address implementation) { assembly { sstore(SLOT, implementation) } }
    fallback() external payable {
        assembly {
            let impl := sload(SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), impl, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}
`;

/** The settings `compileContracts` compiles with, which a verification must repeat. */
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' };

/** An HTTP relay in front of anvil that records every JSON-RPC method it forwards. */
async function recordingRelay(target: string, methods: string[]): Promise<{ url: string; server: Server }> {
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const parsed = JSON.parse(body) as { method: string } | { method: string }[];
    for (const call of Array.isArray(parsed) ? parsed : [parsed]) methods.push(call.method);
    const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(await answer.text());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * ethers' Etherscan provider pointed at ChainLens. ethers accepts only Etherscan's own chains,
 * so it is built for mainnet; the URLs it sends carry anvil's real chain id.
 */
class ChainLensEtherscanProvider extends EtherscanProvider {
  constructor(
    private readonly baseUrl: string,
    private readonly chainId: bigint,
    apiKey: string,
  ) {
    super(1 as Networkish, apiKey);
  }

  override getUrl(module: string, params: Record<string, string>): string {
    return super.getUrl(module, params).replace(/^https:\/\/api\.etherscan\.io\/v2\/api\?chainid=1&/, `${this.baseUrl}/api?chainid=${this.chainId}&`);
  }

  override getPostUrl(): string {
    return `${this.baseUrl}/api?chainid=${this.chainId}`;
  }

  override getPostData(module: string, params: Record<string, unknown>): Record<string, unknown> {
    return { ...super.getPostData(module, params), chainid: this.chainId };
  }
}

let chain: TestChain;
let demo: DemoDeployment;
let explorer: Explorer;
let app: FastifyInstance;
let relay: Server;
let url: string;
let solcVersion: string;
let counters: CompiledContracts;
let proxyArtifacts: CompiledContract;
let writeKey: string;
let readKey: string;
const nodeMethods: string[] = [];

type CompiledContract = CompiledContracts[string];

async function deploy(compiled: CompiledContract, args: unknown[]): Promise<Hex> {
  const hash = await chain.walletClient.deployContract({ abi: compiled.abi as Abi, bytecode: compiled.bytecode, args });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return receipt.contractAddress!.toLowerCase() as Hex;
}

async function indexedToHead(): Promise<void> {
  const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
  await waitFor(() => indexedThrough(explorer, head), `indexing block ${head}`);
}

/** A registered user's API key with `scopes`, made over the REST API. */
async function apiKey(scopes: string[]): Promise<string> {
  const email = `etherscan-${Math.random().toString(36).slice(2)}@example.com`;
  const password = 'a long enough passphrase';
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) =>
    (await (await fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })).json()) as { result: any };
  await post('/api/v1/auth/register', { email, password, name: 'Etherscan client' });
  const token = (await post('/api/v1/auth/login', { email, password })).result.access_token as string;
  return (await post('/api/v1/auth/api-keys', { name: 'etherscan', scopes }, { authorization: `Bearer ${token}` })).result.key as string;
}

/** `{base_url}/api` with a form body, as forge and hardhat-verify post. */
async function postForm(fields: Record<string, string>, query = ''): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}/api${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: response.status, body: await response.json() };
}

async function getApi(params: Record<string, string>): Promise<any> {
  return (await fetch(`${url}/api?${new URLSearchParams(params)}`)).json();
}

beforeAll(async () => {
  chain = await createTestChain();
  demo = await deployDemo({ rpcUrl: chain.rpcUrl });
  counters = await compileContracts(SOURCES);
  proxyArtifacts = (await compileContracts({ 'CounterProxy.sol': PROXY_SOURCE })).CounterProxy!;
  const solc = (await import('solc')).default as { version(): string };
  solcVersion = `v${/^[^+]+\+commit\.[0-9a-f]{8}/.exec(solc.version())![0]}`;
  const recorded = await recordingRelay(chain.rpcUrl, nodeMethods);
  relay = recorded.server;
  explorer = await createExplorer({
    rpcUrl: recorded.url,
    storage: memoryStorage(),
    logger: pino({ level: 'silent' }),
    indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 500 },
    pending: { pollIntervalMs: 20 },
    // Clients poll verification status quickly here; the limits have tests of their own.
    rateLimits: { authenticated: { perMinute: 1_000_000, perDay: 100_000_000 } },
  });
  app = Fastify({ clientErrorHandler: handleClientError });
  await app.register(chainlens, { explorer });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  await explorer.start();
  [writeKey, readKey] = await Promise.all([apiKey(['read', 'write']), apiKey(['read'])]);
}, 120_000);

afterAll(async () => {
  await app?.close();
  await explorer?.close();
  relay?.close();
  await chain?.close();
});

describe('ethers v6 EtherscanProvider against ChainLens', () => {
  const provider = () => new ChainLensEtherscanProvider(url, 31337n, writeKey);
  const node = () => new JsonRpcProvider(chain.rpcUrl, 31337, { staticNetwork: true });
  /** An ethers object as JSON (its `toJSON`, nested ones included), without the provider it came from. */
  const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;

  it('reads the block number, balances, blocks, transactions and receipts exactly as anvil serves them', async () => {
    await indexedToHead();
    const [etherscan, anvil] = [provider(), node()];
    expect(await etherscan.getBlockNumber()).toBe(await anvil.getBlockNumber());
    for (const account of demo.accounts.slice(0, 4)) expect(await etherscan.getBalance(account)).toBe(await anvil.getBalance(account));
    const { transfer, failed, deployments } = demo.transactions;
    for (const hash of [transfer, failed, deployments.token]) {
      expect(plain(await etherscan.getTransaction(hash))).toEqual(plain(await anvil.getTransaction(hash)));
      expect(plain(await etherscan.getTransactionReceipt(hash))).toEqual(plain(await anvil.getTransactionReceipt(hash)));
    }
    const receipt = (await anvil.getTransactionReceipt(transfer))!;
    expect(plain(await etherscan.getBlock(receipt.blockNumber))).toEqual(plain(await anvil.getBlock(receipt.blockNumber)));
    expect(plain((await etherscan.getBlock(receipt.blockNumber, true))!.prefetchedTransactions)).toEqual(
      plain((await anvil.getBlock(receipt.blockNumber, true))!.prefetchedTransactions),
    );
    expect((await etherscan.getBlock('latest'))!.hash).toBe((await anvil.getBlock('latest'))!.hash);
  });

  it('reads code, storage, nonces and the gas price, calls and estimates', async () => {
    const [etherscan, anvil] = [provider(), node()];
    const token = demo.contracts.token;
    expect(await etherscan.getCode(token)).toBe(await anvil.getCode(token));
    expect(await etherscan.getStorage(token, 2)).toBe(await anvil.getStorage(token, 2));
    expect(await etherscan.getTransactionCount(demo.accounts[0]!)).toBe(await anvil.getTransactionCount(demo.accounts[0]!));
    expect((await etherscan.getFeeData()).gasPrice).toBe((await anvil.getFeeData()).gasPrice);
    const erc20 = ['function balanceOf(address) view returns (uint256)', 'function transfer(address,uint256) returns (bool)'];
    expect(await new Contract(token, erc20, etherscan).getFunction('balanceOf')(demo.accounts[1])).toBe(await new Contract(token, erc20, anvil).getFunction('balanceOf')(demo.accounts[1]));
    const transfer = { from: demo.accounts[1], to: token, data: new Contract(token, erc20).interface.encodeFunctionData('transfer', [demo.accounts[2], 1n]) };
    expect(await etherscan.estimateGas(transfer)).toBe(await anvil.estimateGas(transfer));
    const reverter = new Contract(demo.contracts.reverter, ['function fail() view'], etherscan);
    await expect(reverter.getFunction('fail').staticCall()).rejects.toMatchObject({ code: 'CALL_EXCEPTION', reason: 'Reverter: always fails' });
  });

  it('broadcasts a signed transaction that anvil then mines', async () => {
    const wallet = new Wallet(toHex(chain.accounts[6]!.getHdKey().privateKey!), node());
    const signed = await wallet.signTransaction(await wallet.populateTransaction({ to: demo.accounts[7], value: parseEther('0.01'), chainId: 31337n }));
    const sent = await provider().broadcastTransaction(signed);
    const mined = await chain.publicClient.waitForTransactionReceipt({ hash: sent.hash as Hex, pollingInterval: 10 });
    expect(mined.status).toBe('success');
    await expect(provider().broadcastTransaction(signed)).rejects.toMatchObject({ code: expect.stringMatching(/NONCE_EXPIRED|SERVER_ERROR/) });
  });
});

describe('hardhat-verify’s Etherscan client against ChainLens', () => {
  it('verifies a multi-file contract with constructor arguments deployed on anvil: verify → Pass - Verified → isVerified', async () => {
    const counter = await deploy(counters.Counter!, ['hardhat', 7n]);
    await indexedToHead();
    const etherscan = new Etherscan(writeKey, `${url}/api`, url, undefined);
    expect(await etherscan.isVerified(counter)).toBe(false);
    const input = { language: 'Solidity', sources: Object.fromEntries(Object.entries(SOURCES).map(([path, content]) => [path, { content }])), settings: SETTINGS };
    const args = encodeAbiParameters(parseAbiParameters('string, uint256'), ['hardhat', 7n]).slice(2);
    const submitted = await etherscan.verify(counter, JSON.stringify(input), 'contracts/Counter.sol:Counter', solcVersion, args);
    expect(submitted.isOk()).toBe(true);
    const status = await etherscan.getVerificationStatus(submitted.message);
    expect({ success: status.isSuccess(), message: status.message }).toEqual({ success: true, message: 'Pass - Verified' });
    expect(await etherscan.isVerified(counter)).toBe(true);
    await expect(etherscan.verify(counter, JSON.stringify(input), 'contracts/Counter.sol:Counter', solcVersion, args)).rejects.toThrow(/already verified/);

    const source = (await getApi({ module: 'contract', action: 'getsourcecode', address: counter })).result[0];
    expect(source).toMatchObject({
      ContractName: 'Counter',
      CompilerVersion: solcVersion,
      OptimizationUsed: '1',
      Runs: '200',
      ConstructorArguments: args,
      EVMVersion: 'cancun',
      LicenseType: 'MIT',
      Proxy: '0',
      Implementation: '',
    });
    expect(JSON.parse(source.SourceCode.slice(1, -1)).sources).toEqual(input.sources);
    expect(JSON.parse(source.ABI)).toEqual(counters.Counter!.abi);

    // ethers reads the verified ABI and calls through it.
    const viaAbi = await new ChainLensEtherscanProvider(url, 31337n, writeKey).getContract(counter);
    expect(await viaAbi!.getFunction('count')()).toBe(7n);
    expect(await viaAbi!.getFunction('label')()).toBe('hardhat');
    expect(await new ChainLensEtherscanProvider(url, 31337n, writeKey).getContract(demo.contracts.token)).toBeNull();
  }, 120_000);

  it('reports source that does not match the chain as a verification failure (isFailure), and nothing is verified', async () => {
    const counter = await deploy(counters.Counter!, ['mismatch', 3n]);
    await indexedToHead();
    const etherscan = new Etherscan(writeKey, `${url}/api`, url, undefined);
    const input = { language: 'Solidity', sources: Object.fromEntries(Object.entries(SOURCES).map(([path, content]) => [path, { content }])), settings: SETTINGS };
    const wrongArgs = encodeAbiParameters(parseAbiParameters('string, uint256'), ['mismatch', 4n]).slice(2);
    const submitted = await etherscan.verify(counter, JSON.stringify({ ...input, settings: { ...SETTINGS, optimizer: { enabled: false } } }), 'contracts/Counter.sol:Counter', solcVersion, wrongArgs);
    expect(submitted.isOk()).toBe(true);
    const status = await etherscan.getVerificationStatus(submitted.message);
    expect({ failure: status.isFailure(), success: status.isSuccess(), ok: status.isOk() }).toEqual({ failure: true, success: false, ok: false });
    expect(await etherscan.isVerified(counter)).toBe(false);
  }, 120_000);

  it('refuses verification without a key or with a read-only key, in Etherscan’s shape', async () => {
    const counter = await deploy(counters.Counter!, ['refused', 1n]);
    const fields = {
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: counter,
      sourceCode: SOURCES['contracts/Counter.sol'],
      codeformat: 'solidity-single-file',
      contractname: 'Counter',
      compilerversion: solcVersion,
    };
    expect(await postForm(fields)).toEqual({ status: 200, body: { status: '0', message: 'NOTOK', result: 'Missing/Invalid API Key' } });
    expect(await postForm({ ...fields, apikey: readKey })).toEqual({ status: 200, body: { status: '0', message: 'NOTOK', result: 'Forbidden: insufficient scope' } });
    const noCode = await postForm({ ...fields, contractaddress: demo.accounts[9]!, apikey: writeKey });
    expect(noCode.body).toEqual({ status: '0', message: 'NOTOK', result: `Unable to locate ContractCode at ${demo.accounts[9]!.toLowerCase()}` });
    expect(await getApi({ module: 'contract', action: 'checkverifystatus', guid: 'no-such-guid' })).toEqual({ status: '0', message: 'NOTOK', result: 'Unknown UID' });
  });
});

describe('a replay of forge verify-contract’s requests', () => {
  /** Polls `checkverifystatus` as forge does (a form POST) until the job leaves the queue. */
  async function forgeStatus(guid: string): Promise<{ status: string; message: string; result: string }> {
    return waitFor(async () => {
      const { body } = await postForm({ apikey: writeKey, module: 'contract', action: 'checkverifystatus', guid }, '?chainid=31337');
      return body.result === 'Pending in queue' ? null : body;
    }, `verification ${guid}`, 60_000);
  }

  it('standard-JSON input with both spellings of the constructor arguments, without 0x, chainid in the URL', async () => {
    const counter = await deploy(counters.Counter!, ['forge', 42n]);
    await indexedToHead();
    const args = encodeAbiParameters(parseAbiParameters('string, uint256'), ['forge', 42n]).slice(2);
    const input = { language: 'Solidity', sources: Object.fromEntries(Object.entries(SOURCES).map(([path, content]) => [path, { content }])), settings: SETTINGS };
    // The fields and names forge's foundry-block-explorers client posts (VerifyContract), in its order.
    const submitted = await postForm(
      {
        apikey: writeKey,
        module: 'contract',
        action: 'verifysourcecode',
        contractaddress: counter,
        sourceCode: JSON.stringify(input),
        codeformat: 'solidity-standard-json-input',
        contractname: 'contracts/Counter.sol:Counter',
        compilerversion: solcVersion,
        constructorArguements: args,
        constructorArguments: args,
      },
      '?chainid=31337',
    );
    expect(submitted.status).toBe(200);
    expect(submitted.body).toMatchObject({ status: '1', message: 'OK', result: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(await forgeStatus(submitted.body.result)).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' });
    // forge's "already verified?" check (getabi) now finds the ABI.
    expect(JSON.parse((await getApi({ module: 'contract', action: 'getabi', address: counter })).result)).toEqual(counters.Counter!.abi);
  }, 120_000);

  it('source that does not match the chain ends as exactly "Fail - Unable to verify" with the reason beside it, and nothing is verified', async () => {
    const submitted = await postForm({
      apikey: writeKey,
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: demo.contracts.emitter,
      sourceCode: PROXY_SOURCE,
      codeformat: 'solidity-single-file',
      contractname: 'CounterProxy',
      compilerversion: solcVersion,
      optimizationUsed: '1',
      runs: '200',
    });
    expect(submitted.body.status).toBe('1');
    expect(await forgeStatus(submitted.body.result)).toEqual({ status: '0', message: 'NOTOK', result: 'Fail - Unable to verify', reason: expect.stringMatching(/^\w/) });
    expect(await getApi({ module: 'contract', action: 'getabi', address: demo.contracts.emitter })).toEqual({ status: '0', message: 'NOTOK', result: 'Contract source code not verified' });
  }, 120_000);

  it('a flattened single file with optimizer fields and evmversion; the proxy then shows its implementation', async () => {
    const implementation = await deploy(counters.Counter!, ['behind a proxy', 1n]);
    const proxy = await deploy(proxyArtifacts, [implementation]);
    await indexedToHead();
    const args = encodeAbiParameters(parseAbiParameters('address'), [implementation]).slice(2);
    const submitted = await postForm({
      apikey: writeKey,
      module: 'contract',
      action: 'verifysourcecode',
      contractaddress: proxy,
      sourceCode: PROXY_SOURCE,
      codeformat: 'solidity-single-file',
      contractname: 'CounterProxy',
      compilerversion: solcVersion,
      optimizationUsed: '1',
      runs: '200',
      constructorArguements: args,
      evmversion: 'cancun',
    });
    expect(submitted.body.status).toBe('1');
    expect(await forgeStatus(submitted.body.result)).toEqual({ status: '1', message: 'OK', result: 'Pass - Verified' });

    const linked = await postForm({ apikey: writeKey, module: 'contract', action: 'verifyproxycontract', address: proxy });
    expect(linked.body.status).toBe('1');
    expect(await getApi({ module: 'contract', action: 'checkproxyverification', guid: linked.body.result })).toEqual({
      status: '1',
      message: 'OK',
      result: `The proxy's (${proxy}) implementation contract is found at ${implementation} and is successfully updated.`,
    });
    const source = (await getApi({ module: 'contract', action: 'getsourcecode', address: proxy })).result[0];
    expect(source).toMatchObject({ SourceCode: PROXY_SOURCE, ContractName: 'CounterProxy', EVMVersion: 'cancun', LicenseType: 'Apache-2.0', Proxy: '1', Implementation: implementation });
    expect(source.ConstructorArguments).toBe(args);

    const notProxy = await postForm({ apikey: writeKey, module: 'contract', action: 'verifyproxycontract', address: demo.contracts.token });
    expect(await getApi({ module: 'contract', action: 'checkproxyverification', guid: notProxy.body.result })).toEqual({
      status: '0',
      message: 'NOTOK',
      result: 'A corresponding implementation contract was unfortunately not detected for the proxy address.',
    });
  }, 120_000);
});

describe('cast (npm @foundry-rs/cast) against ChainLens', () => {
  /** Runs cast in `cwd`, the JSON-RPC endpoint being ChainLens's own; resolves its standard output. */
  async function cast(cwd: string, args: string[]): Promise<string> {
    const bin = join(dirname(require.resolve('@foundry-rs/cast/package.json')), 'bin.mjs');
    const { stdout } = await execFileAsync(process.execPath, [bin, ...args], { cwd, env: { ...process.env, ETH_RPC_URL: url } });
    return stdout.trim();
  }

  it('cast source, interface and creation-code read a verified contract through a foundry.toml [etherscan] entry with our URL, key and chain id', async () => {
    const counter = await deploy(counters.Counter!, ['cast', 9n]);
    await indexedToHead();
    const etherscan = new Etherscan(writeKey, `${url}/api`, url, undefined);
    const input = { language: 'Solidity', sources: Object.fromEntries(Object.entries(SOURCES).map(([path, content]) => [path, { content }])), settings: SETTINGS };
    const args = encodeAbiParameters(parseAbiParameters('string, uint256'), ['cast', 9n]);
    const submitted = await etherscan.verify(counter, JSON.stringify(input), 'contracts/Counter.sol:Counter', solcVersion, args.slice(2));
    expect((await etherscan.getVerificationStatus(submitted.message)).isSuccess()).toBe(true);

    const project = await mkdtemp(join(tmpdir(), 'chainlens-cast-'));
    try {
      await writeFile(join(project, 'foundry.toml'), `[etherscan]\nlocal = { key = "${readKey}", chain = 31337, url = "${url}/api" }\n`);
      // cast source takes the explorer's URLs as flags only (it asks for a browser URL the foundry.toml entry has no field for).
      const source = await cast(project, ['source', counter, '--chain', '31337', '--explorer-api-url', `${url}/api`, '--explorer-url', url, '--etherscan-api-key', readKey]);
      for (const content of Object.values(SOURCES)) expect(source).toContain(content.trim());

      const iface = await cast(project, ['interface', counter, '--chain', '31337']);
      for (const name of ['function count() external view returns (uint256)', 'function increment() external', 'event Counted(address indexed by, uint256 count)']) expect(iface).toContain(name);

      const deployment = await chain.publicClient.getTransaction({ hash: (await getApi({ module: 'contract', action: 'getcontractcreation', contractaddresses: counter })).result[0].txHash });
      expect(await cast(project, ['creation-code', counter, '--chain', '31337'])).toBe(deployment.input);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('module=proxy', () => {
  const proxyCall = async (action: string, params: Record<string, string> = {}) => getApi({ module: 'proxy', action, ...params });
  const rpc = async (method: string, params: unknown[] = []) => {
    const response = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    return ((await response.json()) as { result: unknown }).result;
  };

  it('answers every eth_ action as the node does, in a JSON-RPC body', async () => {
    await indexedToHead();
    const { transfer } = demo.transactions;
    const tx = (await rpc('eth_getTransactionByHash', [transfer])) as { blockNumber: string; transactionIndex: string };
    const token = demo.contracts.token.toLowerCase();
    const cases: [string, Record<string, string>, string, unknown[]][] = [
      ['eth_blockNumber', {}, 'eth_blockNumber', []],
      ['eth_getBlockByNumber', { tag: tx.blockNumber, boolean: 'true' }, 'eth_getBlockByNumber', [tx.blockNumber, true]],
      ['eth_getBlockByNumber', { tag: tx.blockNumber, boolean: 'false' }, 'eth_getBlockByNumber', [tx.blockNumber, false]],
      ['eth_getBlockTransactionCountByNumber', { tag: tx.blockNumber }, 'eth_getBlockTransactionCountByNumber', [tx.blockNumber]],
      ['eth_getTransactionByHash', { txhash: transfer }, 'eth_getTransactionByHash', [transfer]],
      ['eth_getTransactionByBlockNumberAndIndex', { tag: tx.blockNumber, index: tx.transactionIndex }, 'eth_getTransactionByBlockNumberAndIndex', [tx.blockNumber, tx.transactionIndex]],
      ['eth_getTransactionCount', { address: demo.accounts[0]!, tag: 'latest' }, 'eth_getTransactionCount', [demo.accounts[0], 'latest']],
      ['eth_getTransactionReceipt', { txhash: transfer }, 'eth_getTransactionReceipt', [transfer]],
      ['eth_call', { to: token, data: `0x70a08231${'0'.repeat(24)}${demo.accounts[1]!.slice(2)}`, tag: 'latest' }, 'eth_call', [{ to: token, data: `0x70a08231${'0'.repeat(24)}${demo.accounts[1]!.slice(2)}` }, 'latest']],
      ['eth_getCode', { address: token, tag: 'latest' }, 'eth_getCode', [token, 'latest']],
      ['eth_getStorageAt', { address: token, position: '0x2', tag: 'latest' }, 'eth_getStorageAt', [token, '0x2', 'latest']],
      ['eth_gasPrice', {}, 'eth_gasPrice', []],
      ['eth_estimateGas', { to: demo.accounts[3]!, value: '0xff', gasPrice: '0x51f4d5c00' }, 'eth_estimateGas', [{ to: demo.accounts[3], value: '0xff', gasPrice: '0x51f4d5c00' }]],
    ];
    for (const [action, params, method, rpcParams] of cases) {
      expect(await proxyCall(action, params), action).toEqual({ jsonrpc: '2.0', id: 1, result: await rpc(method, rpcParams) });
    }
    const raw = await chain.walletClients[8]!.signTransaction(await chain.walletClients[8]!.prepareTransactionRequest({ to: demo.accounts[4]!, value: 1n }));
    const sent = await postForm({ module: 'proxy', action: 'eth_sendRawTransaction', hex: raw });
    expect(sent.body).toEqual({ jsonrpc: '2.0', id: 1, result: expect.stringMatching(/^0x[0-9a-f]{64}$/) });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash: sent.body.result, pollingInterval: 10 })).status).toBe('success');
  });

  it('passes the node’s errors on as JSON-RPC errors (a revert keeps its data)', async () => {
    const failing = await proxyCall('eth_call', { to: demo.contracts.reverter, data: toFunctionSelector('fail()'), tag: 'latest' });
    expect(failing).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: 3, message: expect.stringMatching(/revert/), data: expect.stringMatching(/^0x08c379a0/) } });
    expect(await proxyCall('eth_getTransactionByHash', { txhash: '0x12' })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Error! Invalid transaction hash format' },
    });
  });

  it('refuses every other method without the node ever hearing of it', async () => {
    await proxyCall('eth_blockNumber');
    const before = nodeMethods.length;
    for (const action of ['eth_accounts', 'eth_sign', 'eth_sendTransaction', 'debug_traceTransaction', 'anvil_setBalance', 'evm_mine', 'personal_sign', 'admin_peers', 'eth_getLogs']) {
      expect(await proxyCall(action, { address: demo.accounts[0]! }), action).toEqual({
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32601, message: `the method ${action} does not exist/is not available` },
      });
    }
    // Nothing else here asks the node for these (the indexers read blocks, receipts and block traces).
    const refused = new Set(['eth_accounts', 'eth_sign', 'eth_sendTransaction', 'debug_traceTransaction', 'anvil_setBalance', 'evm_mine', 'personal_sign', 'admin_peers', 'eth_getLogs']);
    expect(nodeMethods.slice(before).filter((method) => refused.has(method))).toEqual([]);
    const malformed = await postForm({ module: 'proxy', action: 'eth_sendRawTransaction', hex: '0x1234' });
    expect(malformed.body).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602 } });
    expect(nodeMethods.slice(before)).not.toContain('eth_sendRawTransaction');
  });
});
