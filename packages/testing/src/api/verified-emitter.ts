import type { Abi, Hash } from 'viem';
import { compileContracts, DEMO_SOURCES } from '@chainlens/devchain';
import type { Hex, StoredVerifiedContract } from '@chainlens/core';
import { indexedToHead, type ApiContext } from './context.js';

/** The demo's `EventEmitter` as the compiler built it: the real ABI and creation code. */
async function emitterArtifact() {
  return (await compileContracts(DEMO_SOURCES))['EventEmitter']!;
}

/**
 * Deploys a fresh `EventEmitter` on the suite's chain from dev account 0 and waits until it is
 * indexed. Its address is the test's own: verifying it changes no other test's answers.
 */
export async function deployEmitter(context: ApiContext): Promise<Hex> {
  const { abi, bytecode } = await emitterArtifact();
  const hash = await context.chain.walletClient.deployContract({ abi, bytecode });
  const { contractAddress } = await context.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  await indexedToHead(context);
  return contractAddress!.toLowerCase() as Hex;
}

/** Calls `functionName` from dev account 0, checks that it succeeded, and waits until it is indexed. */
export async function callContract(context: ApiContext, address: Hex, abi: Abi, functionName: string, args: unknown[]): Promise<Hash> {
  const hash = await context.chain.walletClient.writeContract({ address, abi, functionName, args });
  const { status } = await context.chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  if (status !== 'success') throw new Error(`${functionName} reverted`);
  await indexedToHead(context);
  return hash;
}

/**
 * Stores `address` as a verified `EventEmitter`, with the compiler's ABI and the devchain's
 * settings, as source verification would (telling the explorer, whose kept answers that decode
 * the contract's logs start afresh); resolves the stored record.
 */
export async function storeVerifiedEmitter(context: Pick<ApiContext, 'explorer'>, address: Hex): Promise<StoredVerifiedContract> {
  const { abi } = await emitterArtifact();
  const record: StoredVerifiedContract = {
    address,
    name: 'EventEmitter',
    path: 'EventEmitter.sol',
    compilerVersion: '0.8.37+commit.f401782d',
    compilerSettings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' },
    sources: { 'EventEmitter.sol': DEMO_SOURCES['EventEmitter.sol']! },
    abi: [...abi],
    license: 'MIT',
    constructorArguments: '0x',
    runtimeMatch: 'full',
    creationMatch: 'full',
    verifiedAt: new Date().toISOString(),
  };
  await context.explorer.storage.putVerifiedContract(record);
  context.explorer.hub.emit('verified', { address });
  return record;
}
