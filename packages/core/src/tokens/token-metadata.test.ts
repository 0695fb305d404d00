import { compileContracts, createTestChain, type TestChain } from '@chainlens/devchain';
import { parseAbi, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChainClient } from '../chain/chain-client.js';
import { createEventHub } from '../events/hub.js';
import type { IndexerCursor } from '../storage/index.js';
import { TokenMetadataReader } from './token-metadata.js';

const SUPPLY = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Supply {
    uint256 public totalSupply;
    function mint(uint256 amount) external { totalSupply += amount; }
}
`;
const MINT = parseAbi(['function mint(uint256 amount)']);

let chain: TestChain;
let token: Hex;

beforeAll(async () => {
  chain = await createTestChain();
  const { abi, bytecode } = (await compileContracts({ 'Supply.sol': SUPPLY })).Supply!;
  const hash = await chain.walletClient.deployContract({ abi: abi as Abi, bytecode });
  token = (await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).contractAddress!;
});

afterAll(async () => {
  await chain?.close();
});

/** Mints `amount` in a block of its own; resolves that block as the indexer's cursor would name it. */
async function mint(amount: bigint): Promise<IndexerCursor> {
  const hash = await chain.walletClient.writeContract({ address: token, abi: MINT, functionName: 'mint', args: [amount] });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
  return { number: receipt.blockNumber, hash: receipt.blockHash };
}

describe('TokenMetadataReader.totalSupply', () => {
  it("reads the supply of the block it is asked for by hash: a block replaced at its height never gets the new branch's supply", async () => {
    const reader = new TokenMetadataReader(createChainClient({ rpcUrl: chain.rpcUrl, timeoutMs: 10_000 }), createEventHub());
    const snapshot = await chain.publicClient.request({ method: 'evm_snapshot' } as never);
    const replaced = await mint(1n);
    await chain.publicClient.request({ method: 'evm_revert', params: [snapshot] } as never);
    const current = await mint(500n);
    expect(current.number).toBe(replaced.number);
    // The node no longer has the replaced block: its supply is unknown (and not kept), never 500.
    expect(await reader.totalSupply(token, replaced)).toBeNull();
    expect(await reader.totalSupply(token, current)).toBe(500n);
    expect(await reader.totalSupply(token, null)).toBe(500n);
  });
});
