import { ContractNotFoundError, ContractNotVerifiedError, createExplorer, type Explorer, type Hex } from '@chainlens/core';
import { compileContracts, createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { indexedThrough, waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { parseAbi, type Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** One contract per proxy standard, all in front of `Impl`, and a factory that clones it (EIP-1167). */
const PROXIES = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Impl {
    function answer() external pure returns (uint256) { return 42; }
}

abstract contract Delegating {
    function _target() internal view virtual returns (address);
    fallback() external payable {
        address target = _target();
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}

contract Eip1967Proxy is Delegating {
    bytes32 constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    constructor(address impl) { assembly { sstore(SLOT, impl) } }
    function _target() internal view override returns (address impl) { assembly { impl := sload(SLOT) } }
}

contract Beacon {
    address public implementation;
    constructor(address impl) { implementation = impl; }
}

contract BeaconProxy is Delegating {
    bytes32 constant SLOT = 0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50;
    constructor(address beacon) { assembly { sstore(SLOT, beacon) } }
    function _target() internal view override returns (address) {
        address beacon;
        assembly { beacon := sload(SLOT) }
        return Beacon(beacon).implementation();
    }
}

contract Eip1822Proxy is Delegating {
    bytes32 constant SLOT = 0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7;
    constructor(address impl) { assembly { sstore(SLOT, impl) } }
    function _target() internal view override returns (address impl) { assembly { impl := sload(SLOT) } }
}

contract Eip897Proxy is Delegating {
    address public implementation;
    constructor(address impl) { implementation = impl; }
    function proxyType() external pure returns (uint256) { return 2; }
    function _target() internal view override returns (address) { return implementation; }
}

contract CloneFactory {
    event Cloned(address clone);
    function clone(address impl) external returns (address instance) {
        bytes memory code = abi.encodePacked(hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", impl, hex"5af43d82803e903d91602b57fd5bf3");
        assembly { instance := create(0, add(code, 0x20), mload(code)) }
        require(instance != address(0), "clone failed");
        emit Cloned(instance);
    }
}
`;

let chain: TestChain;
let demo: DemoDeployment;
let explorer: Explorer;
const deployed: Record<string, Hex> = {};
let clone: Hex;
let cloneTx: Hex;

async function deploy(name: string, compiled: Awaited<ReturnType<typeof compileContracts>>, args: unknown[] = []): Promise<Hex> {
  const { abi, bytecode } = compiled[name]!;
  const hash = await chain.walletClient.deployContract({ abi: abi as Abi, bytecode, args });
  const { contractAddress } = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return (deployed[name] = contractAddress!.toLowerCase() as Hex);
}

async function indexedToHead(instance: Explorer): Promise<void> {
  const head = await chain.publicClient.getBlockNumber();
  await waitFor(() => indexedThrough(instance, head), `indexing to ${head}`);
}

const silent = pino({ level: 'silent' });
const explorerOn = (traces: boolean) =>
  createExplorer({ rpcUrl: chain.rpcUrl, storage: memoryStorage(), logger: silent, indexer: { pollIntervalMs: 20, traces } });

beforeAll(async () => {
  chain = await createTestChain();
  demo = await deployDemo({ rpcUrl: chain.rpcUrl });
  const compiled = await compileContracts({ 'Proxies.sol': PROXIES });
  const impl = await deploy('Impl', compiled);
  await deploy('Eip1967Proxy', compiled, [impl]);
  const beacon = await deploy('Beacon', compiled, [impl]);
  await deploy('BeaconProxy', compiled, [beacon]);
  await deploy('Eip1822Proxy', compiled, [impl]);
  await deploy('Eip897Proxy', compiled, [impl]);
  const factory = await deploy('CloneFactory', compiled);
  const abi = parseAbi(['function clone(address impl) returns (address)']);
  const { result } = await chain.publicClient.simulateContract({ address: factory, abi, functionName: 'clone', args: [impl], account: chain.walletClient.account });
  cloneTx = await chain.walletClient.writeContract({ address: factory, abi, functionName: 'clone', args: [impl] });
  await chain.publicClient.waitForTransactionReceipt({ hash: cloneTx, pollingInterval: 10 });
  clone = result.toLowerCase() as Hex;
  explorer = await explorerOn(true);
  await explorer.start();
  await indexedToHead(explorer);
}, 120_000);

afterAll(async () => {
  await explorer?.close();
  await chain?.close();
});

const lower = (address: string) => address.toLowerCase() as Hex;

describe('contract discovery', () => {
  it('records a transaction’s own creation with its sender as creator', async () => {
    expect(await explorer.storage.getContractCreation(lower(demo.contracts.token))).toMatchObject({
      creator: lower(demo.accounts[0]!),
      transactionHash: demo.transactions.deployments.token,
      traceIndex: 0,
    });
  });

  it('records creations inside transactions from the node’s call traces, the creating contract as creator', async () => {
    expect(await explorer.storage.getContractCreation(lower(demo.contracts.child))).toMatchObject({
      creator: lower(demo.contracts.caller),
      transactionHash: demo.transactions.deployments.child,
      traceIndex: 1,
    });
    expect(await explorer.storage.getContractCreation(lower(demo.contracts.dexPair))).toMatchObject({
      creator: lower(demo.contracts.dexFactory),
      transactionHash: demo.transactions.pairCreated,
    });
    expect(await explorer.storage.getContractCreation(clone)).toMatchObject({ creator: deployed.CloneFactory, transactionHash: cloneTx });
  });

  it('without traces, finds only transactions’ own creations', async () => {
    const untraced = await explorerOn(false);
    try {
      await untraced.start();
      await indexedToHead(untraced);
      expect(await untraced.storage.getContractCreation(lower(demo.contracts.token))).not.toBeNull();
      expect(await untraced.storage.getContractCreation(lower(demo.contracts.child))).toBeNull();
    } finally {
      await untraced.close();
    }
  });
});

describe('GET /contract/:address (ContractService)', () => {
  it('answers creation, balance, transaction count and token-ness; source fields wait for verification', async () => {
    const token = lower(demo.contracts.token);
    const record = await explorer.services.contracts.contract(token);
    expect(record).toEqual({
      address: token,
      name: null,
      compiler: null,
      optimization: null,
      runs: null,
      verified: false,
      verifiedAt: null,
      license: null,
      label: null,
      creator: lower(demo.accounts[0]!),
      creatorLabel: null,
      creationTx: demo.transactions.deployments.token,
      creationBlock: (await chain.publicClient.getTransactionReceipt({ hash: demo.transactions.deployments.token })).blockNumber.toString(),
      balance: '0',
      txCount: (await explorer.storage.getAddressActivity(token)).transactionCount,
      isToken: true,
      isProxy: false,
      proxyType: null,
      implementation: null,
    });
    expect(record.txCount).toBeGreaterThan(3);
    expect(await explorer.services.contracts.contract(lower(demo.contracts.child))).toMatchObject({ creator: lower(demo.contracts.caller), isToken: false });
  });

  it('recognizes EIP-1967, beacon, EIP-1822, EIP-897 and EIP-1167 proxies with their implementation', async () => {
    const impl = deployed.Impl!;
    const expected: [Hex, string][] = [
      [deployed.Eip1967Proxy!, 'EIP-1967'],
      [deployed.BeaconProxy!, 'EIP-1967 beacon'],
      [deployed.Eip1822Proxy!, 'EIP-1822'],
      [deployed.Eip897Proxy!, 'EIP-897'],
      [clone, 'EIP-1167'],
    ];
    for (const [address, kind] of expected) {
      expect(await explorer.services.contracts.contract(address), kind).toMatchObject({ isProxy: true, proxyType: kind, implementation: impl });
    }
    expect(await explorer.services.contracts.contract(impl)).toMatchObject({ isProxy: false, implementation: null });
  });

  it('shows a proxy’s own source details and ABI, not those of its verified implementation', async () => {
    const impl = deployed.Impl!;
    const proxy = deployed.Eip1967Proxy!;
    const { abi } = (await compileContracts({ 'Proxies.sol': PROXIES }))['Impl']!;
    await explorer.storage.putVerifiedContract({
      address: impl,
      name: 'Impl',
      path: 'Proxies.sol',
      compilerVersion: '0.8.37+commit.f401782d',
      // No optimizer key: solc's defaults, optimizer off and 200 runs.
      compilerSettings: { evmVersion: 'cancun' },
      sources: { 'Proxies.sol': PROXIES },
      abi: [...abi],
      license: 'MIT',
      constructorArguments: '0x',
      runtimeMatch: 'full',
      creationMatch: 'full',
      verifiedAt: '2026-01-02T03:04:05.678Z',
    });
    const contracts = explorer.services.contracts;
    expect(await contracts.contract(impl)).toMatchObject({ name: 'Impl', compiler: 'v0.8.37+commit.f401782d', optimization: false, runs: 200, verified: true, verifiedAt: '2026-01-02T03:04:05.678Z', license: 'MIT' });
    expect(await contracts.abi(impl)).toEqual(abi);
    expect(await contracts.verified(impl)).toMatchObject({ address: impl, name: 'Impl' });
    expect(await contracts.contract(proxy)).toMatchObject({ isProxy: true, implementation: impl, verified: false, name: null, compiler: null });
    await expect(contracts.abi(proxy)).rejects.toBeInstanceOf(ContractNotVerifiedError);
    expect(await contracts.verified(proxy)).toBeNull();
  });

  it('has no contract at an address without code', async () => {
    await expect(explorer.services.contracts.contract(lower(demo.accounts[9]!))).rejects.toBeInstanceOf(ContractNotFoundError);
  });
});
