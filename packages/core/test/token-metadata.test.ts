import { createExplorer, type Explorer, type Hex } from '@chainlens/core';
import { compileContracts, createTestChain, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { parseAbi, type Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Tokens that bend the standards, as found on real chains: bytes32 name and symbol (early
 * tokens), views that revert, and a contract that answers every call with `true`.
 */
const ODD_TOKENS = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

abstract contract Emits {
    event Transfer(address indexed from, address indexed to, uint256 value);
    function mint() external { emit Transfer(address(0), msg.sender, 1000); }
}

contract Bytes32Token is Emits {
    bytes32 public name = "Maker";
    bytes32 public symbol = "MKR";
    uint256 public totalSupply = 1000;
}

contract RevertingToken is Emits {
    function name() external pure returns (string memory) { revert("no name"); }
    function symbol() external pure returns (string memory) { revert(); }
    function decimals() external pure returns (uint8) { revert(); }
}

contract AnswersEverything is Emits {
    fallback(bytes calldata) external returns (bytes memory) { return abi.encode(uint256(1)); }
}
`;

const MINT = parseAbi(['function mint()']);

let chain: TestChain;
let explorer: Explorer;
const tokens: Record<string, Hex> = {};
/** Every line the explorer logged, parsed. */
const logged: Record<string, unknown>[] = [];

beforeAll(async () => {
  chain = await createTestChain();
  const compiled = await compileContracts({ 'OddTokens.sol': ODD_TOKENS });
  for (const name of ['Bytes32Token', 'RevertingToken', 'AnswersEverything']) {
    const { abi, bytecode } = compiled[name]!;
    const hash = await chain.walletClient.deployContract({ abi: abi as Abi, bytecode });
    const { contractAddress } = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    tokens[name] = contractAddress!.toLowerCase() as Hex;
    const minted = await chain.walletClient.writeContract({ address: contractAddress!, abi: MINT, functionName: 'mint' });
    await chain.publicClient.waitForTransactionReceipt({ hash: minted, pollingInterval: 10 });
  }
  explorer = await createExplorer({
    rpcUrl: chain.rpcUrl,
    storage: memoryStorage(),
    logger: pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as Record<string, unknown>) }),
    indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 200 },
    tokens: { metadataIdleMs: 20 },
  });
  await explorer.start();
}, 120_000);

afterAll(async () => {
  await explorer?.close();
  await chain?.close();
});

const stored = async (name: string) => (await explorer.storage.getToken(tokens[name]!))?.metadata ?? null;

describe('token metadata of non-standard contracts', () => {
  it('reads bytes32 names and symbols, and no decimals where there are none', async () => {
    expect(await waitFor(() => stored('Bytes32Token'), 'metadata of Bytes32Token')).toEqual({ name: 'Maker', symbol: 'MKR', decimals: null, interfaces: [] });
  });

  it('keeps what reverting views do not say as null, and the token with its transfer', async () => {
    expect(await waitFor(() => stored('RevertingToken'), 'metadata of RevertingToken')).toEqual({ name: null, symbol: null, decimals: null, interfaces: [] });
    expect((await explorer.storage.getToken(tokens.RevertingToken!))?.transferCount).toBe(1);
  });

  it('believes no ERC-165 answer of a contract that says true to everything, 0xffffffff included, and no bytes that are not text', async () => {
    // Every answer is the word 1: text it is not, decimals it may be.
    expect(await waitFor(() => stored('AnswersEverything'), 'metadata of AnswersEverything')).toEqual({ name: null, symbol: null, decimals: 1, interfaces: [] });
  });

  it('logs each token whose contract leaves fields unanswered, naming the fields', async () => {
    const missing = { Bytes32Token: ['decimals'], RevertingToken: ['name', 'symbol', 'decimals'], AnswersEverything: ['name', 'symbol'] };
    for (const [name, fields] of Object.entries(missing)) {
      const line = await waitFor(() => logged.find((entry) => entry.token === tokens[name]), `the log line of ${name}`);
      expect(line, name).toMatchObject({ level: 30, module: 'token-metadata', msg: 'token metadata: the contract does not answer every field', missing: fields });
    }
  });
});
