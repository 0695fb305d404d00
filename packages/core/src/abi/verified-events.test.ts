import { encodeAbiParameters, encodeEventTopics, parseAbi, type Abi } from 'viem';
import { describe, expect, it } from 'vitest';
import type { Hex, StoredLog, StoredVerifiedContract } from '../storage/index.js';
import { decodeLog } from './decode-log.js';
import { verifiedEventResolver } from './verified-events.js';

const WETH = '0x00000000000000000000000000000000000000aa';
const TOKEN = '0x00000000000000000000000000000000000000bb';
const ALICE = '0x00000000000000000000000000000000000000a1';
const BOB = '0x00000000000000000000000000000000000000b0';

/** WETH9 names Transfer's parameters its own way; the standard ABI says from, to, value. */
const WETH_ABI = parseAbi([
  'event Transfer(address indexed src, address indexed dst, uint256 wad)',
  'event Deposit(address indexed dst, uint256 wad)',
  'function deposit() payable',
]);

function verified(address: Hex, name: string, abi: readonly unknown[]): StoredVerifiedContract {
  return {
    address,
    name,
    path: `${name}.sol`,
    compilerVersion: '0.8.37+commit.f401782d',
    compilerSettings: {},
    sources: { [`${name}.sol`]: '' },
    abi: [...abi],
    license: null,
    constructorArguments: '0x',
    runtimeMatch: 'full',
    creationMatch: null,
    verifiedAt: '2026-01-01T00:00:00.000Z',
  };
}

/** A log of `eventName` from `abi`, emitted by `address`. */
function logOf(address: Hex, abi: Abi, eventName: string, args: Record<string, unknown>, data: Hex): StoredLog {
  return {
    address,
    topics: encodeEventTopics({ abi, eventName, args } as Parameters<typeof encodeEventTopics>[0]) as Hex[],
    data,
    blockNumber: 1n,
    blockHash: `0x${'11'.repeat(32)}`,
    transactionHash: `0x${'22'.repeat(32)}`,
    transactionIndex: 0,
    logIndex: 3,
  };
}

const amount = (value: bigint) => encodeAbiParameters([{ type: 'uint256' }], [value]);
const transferOf = (address: Hex) => logOf(address, WETH_ABI, 'Transfer', { src: ALICE, dst: BOB }, amount(5n));

describe('verifiedEventResolver', () => {
  const resolve = verifiedEventResolver([verified(WETH, 'WETH9', WETH_ABI)]);

  it('decodes with the emitter’s verified ABI before the standard ones, and names the contract', () => {
    expect(decodeLog(transferOf(WETH), resolve)).toEqual({
      eventName: 'Transfer',
      eventSignature: 'Transfer(address,address,uint256)',
      parameters: { src: ALICE, dst: BOB, wad: '5' },
      contractAddress: WETH,
      contractName: 'WETH9',
      logIndex: '3',
    });
    expect(decodeLog(logOf(WETH, WETH_ABI, 'Deposit', { dst: ALICE }, amount(7n)), resolve)).toMatchObject({
      eventName: 'Deposit',
      parameters: { dst: ALICE, wad: '7' },
      contractName: 'WETH9',
    });
  });

  it('decodes an unverified emitter’s logs with the standard ABIs', () => {
    expect(decodeLog(transferOf(TOKEN), resolve)).toMatchObject({
      eventName: 'Transfer',
      parameters: { from: ALICE, to: BOB, value: '5' },
      contractAddress: TOKEN,
      contractName: null,
    });
  });

  it('falls back to the standard ABIs for an event the verified ABI lacks, keeping the contract’s name', () => {
    const approvals = parseAbi(['event Approval(address indexed owner, address indexed spender, uint256 value)']);
    expect(decodeLog(logOf(WETH, approvals, 'Approval', { owner: ALICE, spender: BOB }, amount(9n)), resolve)).toMatchObject({
      eventName: 'Approval',
      parameters: { owner: ALICE, spender: BOB, value: '9' },
      contractName: 'WETH9',
    });
  });

  it('matches an event by its selector and topic count', () => {
    // ERC-721's Transfer: WETH's selector, one more topic.
    const nft = parseAbi(['event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)']);
    expect(decodeLog(logOf(WETH, nft, 'Transfer', { from: ALICE, to: BOB, tokenId: 1n }, '0x'), resolve)).toMatchObject({
      parameters: { from: ALICE, to: BOB, tokenId: '1' },
    });
  });

  it('skips ABI entries that are no selector events', () => {
    const odd = verifiedEventResolver([verified(WETH, 'Odd', [null, 'event', { type: 'event' }, { type: 'function', name: 'Transfer', inputs: [] }])]);
    expect(decodeLog(transferOf(WETH), odd)).toMatchObject({ parameters: { from: ALICE, to: BOB, value: '5' }, contractName: 'Odd' });
  });
});
