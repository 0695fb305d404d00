import { asText, createExplorer, type Explorer, type Hex } from '@chainlens/core';
import { compileContracts, createTestChain, DEMO_SOURCES, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { indexedThrough, waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { DasContextJs } from '@crate-crypto/node-eth-kzg';
import { createWalletClient, defineKzg, encodeFunctionData, http, parseAbi, parseEther, parseGwei, stringToHex, toBlobs, type Abi } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  balanceChangesRecordSchema,
  decodedCallFrameRecordSchema,
  decodedInputRecordSchema,
  delegationRecordSchema,
  transactionEnvelopeRecordSchema,
} from '../src/records/transaction-insight-schemas.js';

/** A verified implementation behind an unverified proxy: its calls decode by the implementation's ABI. */
const PROXIED = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Counter {
    uint256 public count;
    function add(uint256 amount) external returns (uint256) { count += amount; return count; }
}

contract Proxy {
    address immutable implementation;
    constructor(address impl) { implementation = impl; }
    fallback(bytes calldata input) external payable returns (bytes memory output) {
        bool ok;
        (ok, output) = implementation.delegatecall(input);
        require(ok, "proxied call failed");
    }
}
`;

let chain: TestChain;
let demo: DemoDeployment;
let explorer: Explorer;
/** The proxy's `add(5)` call, and a transaction delegating a fresh account to the event emitter (EIP-7702). */
let proxiedAdd: Hex;
let delegating: Hex;
const delegator = privateKeyToAccount(generatePrivateKey());
/** A blob transaction (EIP-4844) carrying one blob, sent by an account of its own. */
let blobbed: Hex;
const blobSender = privateKeyToAccount(generatePrivateKey());

const lower = (address: string) => address.toLowerCase();

beforeAll(async () => {
  chain = await createTestChain();
  demo = await deployDemo({ rpcUrl: chain.rpcUrl });
  const compiled = await compileContracts({ 'Proxied.sol': PROXIED });
  const deploy = async (name: string, args: unknown[] = []) => {
    const hash = await chain.walletClient.deployContract({ abi: compiled[name]!.abi as Abi, bytecode: compiled[name]!.bytecode, args });
    return (await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).contractAddress!;
  };
  const counter = await deploy('Counter');
  const proxy = await deploy('Proxy', [counter]);
  proxiedAdd = await chain.walletClient.sendTransaction({ to: proxy, data: encodeFunctionData({ abi: compiled['Counter']!.abi, functionName: 'add', args: [5n] }) });
  await chain.publicClient.waitForTransactionReceipt({ hash: proxiedAdd, pollingInterval: 10 });
  // EIP-7702: the fresh account signs a delegation to the emitter and, in the same transaction, pings itself.
  await chain.walletClient.sendTransaction({ to: delegator.address, value: parseEther('1') }).then((hash) => chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 }));
  const wallet = createWalletClient({ account: delegator, chain: chain.chain, transport: http(chain.rpcUrl) });
  const authorization = await wallet.signAuthorization({ contractAddress: demo.contracts.emitter, executor: 'self' });
  delegating = await wallet.sendTransaction({ authorizationList: [authorization], to: delegator.address, data: encodeFunctionData({ abi: parseAbi(['function ping(string note) returns (uint256)']), functionName: 'ping', args: ['from a delegated account'] }) });
  await chain.publicClient.waitForTransactionReceipt({ hash: delegating, pollingInterval: 10 });
  // EIP-4844: node-eth-kzg (native, its trusted setup loaded in seconds where kzg-wasm takes about a minute here) gives viem the blob's KZG commitment and proof.
  const context = DasContextJs.create({ usePrecomp: false });
  const kzg = defineKzg({ blobToKzgCommitment: (blob) => context.blobToKzgCommitment(blob), computeBlobKzgProof: (blob, commitment) => context.computeBlobKzgProof(blob, commitment) });
  await chain.walletClient.sendTransaction({ to: blobSender.address, value: parseEther('1') }).then((hash) => chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 }));
  const blobWallet = createWalletClient({ account: blobSender, chain: chain.chain, transport: http(chain.rpcUrl, { timeout: 60_000 }) });
  blobbed = await blobWallet.sendTransaction({ blobs: toBlobs({ data: stringToHex('a blob for the explorer') }), kzg, maxFeePerBlobGas: parseGwei('30'), to: demo.accounts[9]! });
  const { blockNumber } = await chain.publicClient.waitForTransactionReceipt({ hash: blobbed, pollingInterval: 10 });
  explorer = await createExplorer({ rpcUrl: chain.rpcUrl, storage: memoryStorage(), logger: pino({ level: 'silent' }), indexer: { pollIntervalMs: 20 } });
  await explorer.start();
  await waitFor(() => indexedThrough(explorer, blockNumber), 'the chain indexed');
  const verify = (address: string, sources: Record<string, string>, file: string, contractName: string) =>
    explorer.services.verification.verify({ address, sourceCode: sources[file]!, contractName, compilerVersion: '0.8.37', optimizationUsed: true, runs: 200, evmVersion: 'cancun' });
  await verify(demo.contracts.emitter, DEMO_SOURCES, 'EventEmitter.sol', 'EventEmitter');
  await verify(counter, { 'Proxied.sol': PROXIED }, 'Proxied.sol', 'Counter');
}, 180_000);

afterAll(async () => {
  await explorer?.close();
  await chain?.close();
});

describe('decoded input', () => {
  it("decodes an unverified ERC-20's transfer by the common functions table", async () => {
    const input = decodedInputRecordSchema.parse(await explorer.services.decoding.input(demo.transactions.transfer));
    expect(input).toEqual({
      selector: '0xa9059cbb',
      contractName: null,
      functionName: 'transfer',
      signature: 'transfer(address,uint256)',
      source: 'common',
      parameters: [
        { name: 'to', type: 'address', value: lower(demo.accounts[1]!) },
        { name: 'value', type: 'uint256', value: parseEther('1000').toString() },
      ],
    });
  });

  it("decodes a verified contract's call by its ABI, and a proxy's by its implementation's", async () => {
    const ping = await explorer.services.decoding.input(demo.transactions.ping);
    expect(ping).toMatchObject({ contractName: 'EventEmitter', functionName: 'ping', source: 'verified', parameters: [{ name: 'note', type: 'string', value: 'hello from deployDemo' }] });
    const add = await explorer.services.decoding.input(proxiedAdd);
    expect(add).toMatchObject({ contractName: null, functionName: 'add', signature: 'add(uint256)', source: 'verified', parameters: [{ name: 'amount', value: '5' }] });
  });

  it('leaves a plain transfer and an unknown selector undecoded', async () => {
    await expect(explorer.services.decoding.input(demo.transactions.nativeTransfer)).resolves.toMatchObject({ selector: null, functionName: null, parameters: null });
    // Caller is not verified and callPing is in no table.
    await expect(explorer.services.decoding.input(demo.transactions.nestedPing)).resolves.toMatchObject({ selector: expect.stringMatching(/^0x[0-9a-f]{8}$/), functionName: null, source: null });
  });
});

describe('revert reasons', () => {
  it("decodes a custom error by the reverting contract's verified ABI, and keeps its data while unverified", async () => {
    const unverified = await explorer.services.transactions.info(demo.transactions.failedCustom);
    expect(unverified.revertReason).toMatch(/^0x[0-9a-f]{8}/);
    expect(unverified.revertError).toBeNull();
    await explorer.services.verification.verify({ address: demo.contracts.reverter, sourceCode: DEMO_SOURCES['Reverter.sol']!, contractName: 'Reverter', compilerVersion: '0.8.37', optimizationUsed: true, runs: 200, evmVersion: 'cancun' });
    const verified = await explorer.services.transactions.info(demo.transactions.failedCustom);
    expect(verified.revertReason).toBe('Nope(code: 42)');
    expect(verified.revertError).toEqual({ errorName: 'Nope', signature: 'Nope(uint256)', parameters: [{ name: 'code', type: 'uint256', value: '42' }] });
    // A reason string stays as it was.
    await expect(explorer.services.transactions.info(demo.transactions.failed)).resolves.toMatchObject({ revertReason: 'Reverter: always fails', revertError: null });
    const calls = await explorer.services.decoding.calls(demo.transactions.failedCustom);
    expect(calls).toMatchObject({ contractName: 'Reverter', call: { functionName: 'failCustom' }, result: null, revertReason: 'Nope(code: 42)', revertError: { errorName: 'Nope' } });
  });
});

describe('call tree', () => {
  it('decodes every call and result where an ABI is known', async () => {
    const tree = decodedCallFrameRecordSchema.parse(await explorer.services.decoding.calls(demo.transactions.nestedPing));
    expect(tree).toMatchObject({ type: 'CALL', to: lower(demo.contracts.caller), call: null, contractName: null });
    expect(tree.calls).toHaveLength(1);
    expect(tree.calls[0]).toMatchObject({
      type: 'CALL',
      from: lower(demo.contracts.caller),
      to: lower(demo.contracts.emitter),
      contractName: 'EventEmitter',
      call: { functionName: 'ping', source: 'verified', parameters: [{ name: 'note', value: 'nested hello' }] },
      result: [{ type: 'uint256', value: expect.stringMatching(/^\d+$/) }],
      revertReason: null,
    });
  });
});

describe('balance changes', () => {
  it("of an ERC-20 transfer: the tokens moved, the sender's fee and the miner's priority fee", async () => {
    const hash = demo.transactions.transfer;
    const changes = balanceChangesRecordSchema.parse(await explorer.services.balanceChanges.balanceChanges(hash));
    const [receipt, tx] = await Promise.all([chain.publicClient.getTransactionReceipt({ hash }), chain.publicClient.getTransaction({ hash })]);
    const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const amount = parseEther('1000').toString();
    expect(changes.tokens).toEqual([
      expect.objectContaining({ address: lower(demo.accounts[0]!), token: lower(demo.contracts.token), standard: 'ERC-20', tokenSymbol: 'DEMO', tokenId: null, change: `-${amount}` }),
      expect.objectContaining({ address: lower(demo.accounts[1]!), token: lower(demo.contracts.token), change: amount }),
    ]);
    const tip = receipt.gasUsed * (receipt.effectiveGasPrice - block.baseFeePerGas!);
    expect(changes.ether).toEqual([
      { address: lower(tx.from), label: null, change: (-(receipt.gasUsed * receipt.effectiveGasPrice)).toString() },
      ...(tip === 0n ? [] : [{ address: lower(block.miner), label: null, change: tip.toString() }]),
    ]);
  });

  it('of calls inside a transaction: value that passed through a contract nets out, the created contract keeps it', async () => {
    const changes = await explorer.services.balanceChanges.balanceChanges(demo.transactions.deployments.child);
    const byAddress = new Map(changes.ether!.map((row) => [row.address, row.change]));
    expect(byAddress.has(lower(demo.contracts.caller))).toBe(false);
    expect(byAddress.get(lower(demo.contracts.child))).toBe('1000');
    expect(changes.tokens).toEqual([]);
  });
});

describe('modern transactions', () => {
  it('an EIP-7702 transaction lists its authorizations, and the delegated account names its target', async () => {
    const envelope = transactionEnvelopeRecordSchema.parse(await explorer.services.envelopes.envelope(delegating));
    expect(envelope).toMatchObject({ type: 4, typeName: 'set code (EIP-7702)', blobVersionedHashes: null, blobCount: null });
    expect(envelope.authorizationList).toEqual([
      { chainId: String(chain.chain.id), address: lower(demo.contracts.emitter), addressLabel: null, nonce: expect.stringMatching(/^\d+$/), authority: lower(delegator.address), authorityLabel: null },
    ]);
    const delegation = delegationRecordSchema.parse(await explorer.services.delegations.delegation(lower(delegator.address) as Hex));
    expect(delegation).toMatchObject({ address: lower(delegator.address), delegatedTo: lower(demo.contracts.emitter) });
    await expect(explorer.services.delegations.delegation(lower(demo.accounts[0]!) as Hex)).resolves.toMatchObject({ delegatedTo: null });
    // The account ran the emitter's code: its call decodes by the emitter's verified ABI.
    await expect(explorer.services.decoding.input(delegating)).resolves.toMatchObject({ contractName: null, functionName: 'ping', source: 'verified' });
    await expect(explorer.services.decoding.calls(delegating)).resolves.toMatchObject({ to: lower(delegator.address), call: { functionName: 'ping', parameters: [{ value: 'from a delegated account' }] }, result: [{ type: 'uint256' }] });
    // The account ran the emitter's code, so its log is the emitter's event, decoded by the emitter's verified ABI.
    await expect(explorer.services.transactions.logs(delegating, true)).resolves.toMatchObject([
      { contractAddress: lower(delegator.address), eventName: 'Ping', contractName: null, parameters: { note: 'from a delegated account' } },
    ]);
  });

  it('a blob transaction gives its blob count, blob gas and versioned hashes, and its sender pays the blob fee', async () => {
    const [tx, receipt] = await Promise.all([chain.publicClient.getTransaction({ hash: blobbed }), chain.publicClient.getTransactionReceipt({ hash: blobbed })]);
    const envelope = transactionEnvelopeRecordSchema.parse(await explorer.services.envelopes.envelope(blobbed));
    expect(envelope).toEqual({
      hash: blobbed,
      type: 3,
      typeName: 'blob (EIP-4844)',
      authorizationList: null,
      blobVersionedHashes: tx.blobVersionedHashes!.map(lower),
      blobCount: 1,
      blobGasUsed: receipt.blobGasUsed!.toString(),
      blobGasPrice: receipt.blobGasPrice!.toString(),
      maxFeePerBlobGas: parseGwei('30').toString(),
    });
    expect(receipt.blobGasUsed).toBe(131_072n);
    const changes = await explorer.services.balanceChanges.balanceChanges(blobbed);
    const paid = receipt.gasUsed * receipt.effectiveGasPrice + receipt.blobGasUsed! * receipt.blobGasPrice!;
    expect(changes.ether![0]).toEqual({ address: lower(blobSender.address), label: null, change: (-paid).toString() });
  });

  it('an EIP-1559 transaction has its type and no blob or authorization fields', async () => {
    await expect(explorer.services.envelopes.envelope(demo.transactions.transfer)).resolves.toEqual({
      hash: demo.transactions.transfer,
      type: 2,
      typeName: 'dynamic fee (EIP-1559)',
      authorizationList: null,
      blobVersionedHashes: null,
      blobCount: null,
      blobGasUsed: null,
      blobGasPrice: null,
      maxFeePerBlobGas: null,
    });
  });
});

describe('over REST', () => {
  const get = async (url: string) => {
    const response = await explorer.kernel.handle({ method: 'GET', url, headers: {}, ip: '10.0.0.1' });
    return { status: response.status, body: JSON.parse(asText(response).body) as { message: string; result: unknown } };
  };

  it('serves each record, and answers a malformed hash or address with 400 and an unknown transaction with 404', async () => {
    const hash = demo.transactions.transfer;
    for (const path of ['input', 'calls', 'balance-changes', 'envelope']) {
      const answer = await get(`/api/v1/transaction/${hash}/${path}`);
      expect(answer.status, path).toBe(200);
    }
    await expect(get(`/api/v1/account/delegation?address=${delegator.address}`)).resolves.toMatchObject({ status: 200, body: { result: { delegatedTo: lower(demo.contracts.emitter) } } });
    await expect(get('/api/v1/transaction/0x12/input')).resolves.toMatchObject({ status: 400 });
    await expect(get(`/api/v1/transaction/0x${'ab'.repeat(32)}/balance-changes`)).resolves.toMatchObject({ status: 404 });
    await expect(get('/api/v1/account/delegation?address=0x12')).resolves.toMatchObject({ status: 400 });
  });
});

describe('over GraphQL and JSON-RPC', () => {
  const post = async (url: string, body: unknown) => {
    const response = await explorer.kernel.handle({ method: 'POST', url, headers: { 'content-type': 'application/json' }, ip: '10.0.0.1', rawBody: JSON.stringify(body) });
    return JSON.parse(asText(response).body);
  };
  const json = (value: unknown) => JSON.parse(JSON.stringify(value));
  const ENVELOPE = 'hash type typeName authorizationList { chainId address addressLabel nonce authority authorityLabel } blobVersionedHashes blobCount blobGasUsed blobGasPrice maxFeePerBlobGas';

  it("answers a delegated account's delegation and the EIP-7702 and blob envelopes as the services do", async () => {
    const account = lower(delegator.address) as Hex;
    const [delegation, delegatingEnvelope, blobbedEnvelope] = await Promise.all([
      explorer.services.delegations.delegation(account),
      explorer.services.envelopes.envelope(delegating),
      explorer.services.envelopes.envelope(blobbed),
    ]);
    expect([delegation.delegatedTo, delegatingEnvelope.authorizationList?.length, blobbedEnvelope.blobCount]).toEqual([lower(demo.contracts.emitter), 1, 1]);
    const graphql = await post('/graphql', {
      query: `query ($account: Address!, $delegating: Hash!, $blobbed: Hash!) {
        account(address: $account) { delegation { address delegatedTo delegatedToLabel blockNumber } }
        delegating: transaction(hash: $delegating) { envelope { ${ENVELOPE} } }
        blobbed: transaction(hash: $blobbed) { envelope { ${ENVELOPE} } } }`,
      variables: { account, delegating, blobbed },
    });
    expect(graphql).toEqual({ data: { account: { delegation: json(delegation) }, delegating: { envelope: json(delegatingEnvelope) }, blobbed: { envelope: json(blobbedEnvelope) } } });
    const calls: [string, unknown[]][] = [
      ['chain_getAccountDelegation', [delegator.address]],
      ['chain_getTransactionEnvelope', [delegating]],
      ['chain_getTransactionEnvelope', [blobbed]],
    ];
    const rpc = await post('/', calls.map(([method, params], id) => ({ jsonrpc: '2.0', id, method, params })));
    expect(rpc.map((reply: { result: unknown }) => reply.result)).toEqual(json([delegation, delegatingEnvelope, blobbedEnvelope]));
  });
});
