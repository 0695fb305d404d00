import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { encodeAbiParameters, type Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContracts, createTestChain, type TestChain } from '@chainlens/devchain';
import { CompilerBusyError, ContractNotFoundError } from '../../errors/index.js';
import { createExplorer, type Explorer } from '../../explorer.js';
import type { Hex, StoredVerificationJob } from '../../storage/index.js';
import { waitFor } from '@chainlens/testing';
import { VERIFICATION_MESSAGES } from './verification-service.js';

const NOW = Date.parse('2025-06-01T12:00:00.000Z');

/** Two files: an import, immutables in both, constructor arguments. */
const VAULT = {
  'contracts/Vault.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Owned} from "./Owned.sol";

contract Vault is Owned {
    uint256 public immutable cap;

    constructor(address owner_, uint256 cap_) Owned(owner_) {
        cap = cap_;
    }

    function limit() external view returns (uint256) {
        return cap;
    }
}
`,
  'contracts/Owned.sol': `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.24;

abstract contract Owned {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }
}
`,
};

/** Vault, and a factory that creates one from its own code. */
const VAULT_FACTORY = {
  ...VAULT,
  'contracts/VaultFactory.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {Vault} from "./Vault.sol";

contract VaultFactory {
    function create(address owner_, uint256 cap_) external returns (Vault) {
        return new Vault(owner_, cap_);
    }
}
`,
};

const PROXY = {
  'Proxy.sol': `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Target {
    function answer() external pure returns (uint256) { return 42; }
}

contract Proxy {
    bytes32 constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    constructor(address implementation) { assembly { sstore(SLOT, implementation) } }
    fallback() external payable {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), sload(SLOT), 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}
`,
};

/** The settings `compileContracts` deploys with, as standard-JSON settings. */
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' };

const standardJson = (sources: Record<string, string>) =>
  JSON.stringify({ language: 'Solidity', sources: Object.fromEntries(Object.entries(sources).map(([path, content]) => [path, { content }])), settings: SETTINGS });

describe('VerificationService', () => {
  let chain: TestChain;
  let explorer: Explorer;

  beforeAll(async () => {
    chain = await createTestChain();
    explorer = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: memoryStorage(),
      logger: pino({ level: 'silent' }),
      indexer: { pollIntervalMs: 20 },
      clock: () => NOW,
      verification: { maxConcurrent: 1, maxQueued: 0 },
    });
    await explorer.start();
  });

  afterAll(async () => {
    await explorer?.close();
    await chain?.close();
  });

  /** Deploys `name` from `sources` and waits until its creation is indexed. */
  async function deploy(sources: Record<string, string>, name: string, args: unknown[]): Promise<{ address: Hex; abi: Abi }> {
    const { abi, bytecode } = (await compileContracts(sources))[name]!;
    const hash = await chain.walletClients[6]!.deployContract({ abi, bytecode, args });
    const address = (await chain.publicClient.waitForTransactionReceipt({ hash })).contractAddress!.toLowerCase() as Hex;
    await waitFor(() => explorer.storage.getContractCreation(address), `the creation of ${name}`);
    return { address, abi };
  }

  const vaultInput = (address: Hex, sources = VAULT) => ({
    address,
    codeFormat: 'solidity-standard-json-input' as const,
    sourceCode: standardJson(sources),
    contractName: 'contracts/Vault.sol:Vault',
    compilerVersion: '0.8.37',
  });

  /** Polls a job until it is no longer pending. */
  const settled = (guid: string) =>
    waitFor(async () => {
      const job = await explorer.services.verification.job(guid);
      return job?.status === 'pending' ? null : job;
    }, `job ${guid}`);

  it('submits a job that is pending, then verified, and stores the verified contract with what it read from the chain', async () => {
    const owner = chain.accounts[3]!.address;
    const { address, abi } = await deploy(VAULT, 'Vault', [owner, 1_000n]);
    // Kept answers that decode the contract's logs are outdated by this event.
    const heard: Hex[] = [];
    explorer.hub.on('verified', (event) => heard.push(event.address));
    const job = await explorer.services.verification.submit(vaultInput(address));
    expect(job).toEqual<StoredVerificationJob>({
      guid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: 'source',
      address,
      status: 'pending',
      message: 'Pending in queue',
      createdAt: new Date(NOW).toISOString(),
      updatedAt: new Date(NOW).toISOString(),
    });
    expect(await settled(job.guid)).toMatchObject({ status: 'verified', message: 'Pass - Verified' });
    expect(await explorer.storage.getVerifiedContract(address)).toEqual({
      address,
      name: 'Vault',
      path: 'contracts/Vault.sol',
      compilerVersion: expect.stringMatching(/^0\.8\.37\+commit\.[0-9a-f]{8}$/),
      compilerSettings: SETTINGS,
      sources: VAULT,
      abi,
      license: 'MIT',
      // Not submitted: read from the creation transaction.
      constructorArguments: encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [owner, 1_000n]).toLowerCase(),
      runtimeMatch: 'full',
      creationMatch: 'full',
      verifiedAt: new Date(NOW).toISOString(),
    });
    expect(heard).toEqual([address]);
  });

  it('fails the job with what differed when the source does not match', async () => {
    const { address } = await deploy(VAULT, 'Vault', [chain.accounts[3]!.address, 7n]);
    const changed = { ...VAULT, 'contracts/Vault.sol': VAULT['contracts/Vault.sol'].replace('return cap;', 'return cap + 1;') };
    const job = await explorer.services.verification.submit(vaultInput(address, changed));
    const failed = await settled(job.guid);
    expect(failed.status).toBe('failed');
    expect(failed.message).toMatch(/^Fail - Unable to verify\. the (compiled runtime code is \d+ bytes|runtime code differs from byte \d+)/);
    expect(await explorer.storage.getVerifiedContract(address)).toBeNull();
  });

  it('refuses a verification at once with 429 while every place and the queue are taken, and accepts one again after', async () => {
    const first = await deploy(VAULT, 'Vault', [chain.accounts[3]!.address, 1n]);
    const second = await deploy(VAULT, 'Vault', [chain.accounts[3]!.address, 2n]);
    const running = await explorer.services.verification.submit(vaultInput(first.address));
    const refusal = await explorer.services.verification.submit(vaultInput(second.address)).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CompilerBusyError);
    expect((refusal as CompilerBusyError).httpStatus).toBe(429);
    expect((refusal as CompilerBusyError).retryAfterSeconds).toBe(60);
    await settled(running.guid);
    const accepted = await explorer.services.verification.submit(vaultInput(second.address));
    expect(await settled(accepted.guid)).toMatchObject({ status: 'verified' });
  });

  it('verifies by the runtime code alone, keeping the submitted constructor arguments, where lib-sourcify cannot check the creation', async () => {
    const owner = chain.accounts[3]!.address;
    const submitted = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [owner, 5n]).toLowerCase() as Hex;
    // A contract that another contract created: lib-sourcify 1.x checks a transaction's own creation only.
    const factory = await deploy(VAULT_FACTORY, 'VaultFactory', []);
    const create = { address: factory.address, abi: factory.abi, functionName: 'create', args: [owner, 5n], account: chain.walletClients[6]!.account } as const;
    const child = ((await chain.publicClient.simulateContract(create)).result as string).toLowerCase() as Hex;
    await chain.publicClient.waitForTransactionReceipt({ hash: await chain.walletClients[6]!.writeContract(create) });
    await waitFor(() => explorer.storage.getContractCreation(child), 'the creation of the factory-made Vault');
    const made = await explorer.services.verification.verify({ ...vaultInput(child, VAULT_FACTORY), constructorArguments: submitted });
    expect(made.contract).toMatchObject({ runtimeMatch: 'full', creationMatch: null, constructorArguments: submitted });
    // A partial match (a comment changes only the metadata hash) with constructor arguments after the code.
    const { address } = await deploy(VAULT, 'Vault', [owner, 5n]);
    const commented = { ...VAULT, 'contracts/Vault.sol': `${VAULT['contracts/Vault.sol']}// audited\n` };
    const partial = await explorer.services.verification.verify({ ...vaultInput(address, commented), constructorArguments: submitted });
    expect(partial.contract).toMatchObject({ runtimeMatch: 'partial', creationMatch: null, constructorArguments: submitted, sources: commented });
  });

  it('matches partially code that holds another contract’s code and metadata too, by both its runtime and its creation', async () => {
    const { address } = await deploy(VAULT_FACTORY, 'VaultFactory', []);
    const commented = { ...VAULT_FACTORY, 'contracts/VaultFactory.sol': `${VAULT_FACTORY['contracts/VaultFactory.sol']}// audited\n` };
    const input = { ...vaultInput(address, commented), contractName: 'contracts/VaultFactory.sol:VaultFactory' };
    expect((await explorer.services.verification.verify(input)).contract).toMatchObject({ runtimeMatch: 'partial', creationMatch: 'partial', constructorArguments: '0x' });
  });

  it('answers Already Verified for a verified contract, without compiling again', async () => {
    const { address } = await deploy(VAULT, 'Vault', [chain.accounts[3]!.address, 3n]);
    const first = await explorer.services.verification.verify(vaultInput(address));
    // Source that would not match: answered without being compiled.
    const again = await explorer.services.verification.verify(vaultInput(address, { ...VAULT, 'contracts/Vault.sol': VAULT['contracts/Vault.sol'].replace('return cap;', 'return cap + 1;') }));
    expect(again.alreadyVerified).toBe(true);
    expect(again.contract).toEqual(first.contract);
    expect(again.job).toMatchObject({ status: 'verified', message: VERIFICATION_MESSAGES.alreadyVerified });
    expect(await explorer.services.verification.job(again.job.guid)).toEqual(again.job);
  });

  it('refuses an address without code before accepting anything', async () => {
    await expect(explorer.services.verification.submit(vaultInput(chain.accounts[9]!.address.toLowerCase() as Hex))).rejects.toBeInstanceOf(ContractNotFoundError);
  });

  it('links a proxy to its implementation with Etherscan’s texts, and fails what is no proxy or points elsewhere', async () => {
    const target = await deploy(PROXY, 'Target', []);
    const proxy = await deploy(PROXY, 'Proxy', [target.address]);
    const linked = await explorer.services.verification.verifyProxy(proxy.address);
    expect(linked).toMatchObject({
      kind: 'proxy',
      address: proxy.address,
      status: 'verified',
      message: `The proxy's (${proxy.address}) implementation contract is found at ${target.address} and is successfully updated.`,
    });
    expect(await explorer.services.verification.job(linked.guid)).toEqual(linked);
    expect(await explorer.services.verification.verifyProxy(target.address)).toMatchObject({
      status: 'failed',
      message: 'A corresponding implementation contract was unfortunately not detected for the proxy address.',
    });
    expect(await explorer.services.verification.verifyProxy(proxy.address, proxy.address)).toMatchObject({
      status: 'failed',
      message: `The proxy's implementation contract is at ${target.address}, not at the expected ${proxy.address}.`,
    });
  });
});
