import { keccak256, toHex } from 'viem';
import {
  approvalsOf,
  type BlockBundle,
  contractCreationsOf,
  type Hex,
  pairEventsOf,
  type StoredBlock,
  type StoredLog,
  type StoredTransaction,
  tokenTransfersOf,
} from '@chainlens/core';

/**
 * Deterministic chain fixtures: the same options always build the same bundles, byte for byte,
 * and every call returns fresh objects (mutating one result never affects another call).
 * Hashes and addresses are derived with keccak256 from a seed, so they are canonical lowercase
 * hex and two seeds give two different forks.
 */

/** The 32-byte zero hash: the `parentHash` of a chain built from block 0. */
export const ZERO_HASH: Hex = `0x${'0'.repeat(64)}`;

/** An all-zero 256-byte logs bloom. */
export const EMPTY_BLOOM: Hex = `0x${'0'.repeat(512)}`;

const TRANSFER_TOPIC = fixtureHash('Transfer(address,address,uint256)');
const APPROVAL_TOPIC = fixtureHash('Approval(address,address,uint256)');
const APPROVAL_FOR_ALL_TOPIC = fixtureHash('ApprovalForAll(address,address,bool)');
const GWEI = 1_000_000_000n;

/**
 * A deterministic 32-byte hash for a label.
 *
 * @example
 * fixtureHash('anything') // always the same lowercase 0x… string of 64 hex digits
 */
export function fixtureHash(label: string): Hex {
  return keccak256(toHex(label));
}

/**
 * A deterministic 20-byte address for a label or an index.
 *
 * @example
 * fixtureAddress(0) === makeAddressPool(1)[0] // true
 */
export function fixtureAddress(label: string | number): Hex {
  return `0x${fixtureHash(`address:${label}`).slice(26)}`;
}

/**
 * `count` distinct deterministic addresses: `fixtureAddress(0)` … `fixtureAddress(count - 1)`.
 *
 * @example
 * const [alice, bob] = makeAddressPool(2);
 */
export function makeAddressPool(count: number): Hex[] {
  return Array.from({ length: count }, (_, i) => fixtureAddress(i));
}

/**
 * A cheap stand-in hash derived from `hash`: its hex digits rotated by `n` (1–8) steps. Distinct
 * enough for topics and roots, and saves a keccak per value on large benchmark chains.
 */
function rotateHash(hash: Hex, n: number): Hex {
  const digits = hash.slice(2);
  const shift = (n * 7) % 64;
  return `0x${digits.slice(shift)}${digits.slice(0, shift)}`;
}

/** An address as an indexed event parameter: left-padded to 32 bytes. */
function addressWord(address: Hex): Hex {
  return `0x${'0'.repeat(24)}${address.slice(2)}`;
}

/** Options of {@link makeChain}. */
export interface MakeChainOptions {
  /** How many blocks to build. */
  blocks: number;
  /**
   * Transactions per block, or a function of the block number (return 0 for an empty block).
   * Default 3.
   */
  txPerBlock?: number | ((blockNumber: bigint) => number);
  /** The senders and recipients to draw from: a pool size or explicit addresses. Default 8. */
  addresses?: number | readonly Hex[];
  /** Number of the first block when there is no `parent`. Default 0n. */
  startNumber?: bigint;
  /**
   * Continue a chain: the first block becomes this block's child (number, parentHash and
   * timestamp follow from it). Takes precedence over `startNumber`.
   */
  parent?: Pick<StoredBlock, 'number' | 'hash' | 'timestamp'>;
  /**
   * Seed of every hash. Two seeds give two forks: same numbers, different block and
   * transaction hashes, different contract addresses. Default `'chainlens'`.
   */
  seed?: string;
  /** Timestamp of block 0 when there is no `parent`; block `n` is at `genesisTimestamp + n * blockTime`. Default 1_700_000_000n. */
  genesisTimestamp?: bigint;
  /** Seconds between blocks. Default 12n. */
  blockTime?: bigint;
  /** First block with a base fee; earlier blocks have `baseFeePerGas: null` and only legacy transactions. Default 0n. */
  londonBlock?: bigint;
}

/**
 * Builds a valid chain of {@link BlockBundle}s, ready for `Storage.writeBlock` in array order.
 *
 * Every block is its predecessor's child, timestamps strictly increase, and the transactions
 * follow a fixed pattern over their position `k` in the chain so small chains cover every case:
 * - `k % 5 === 2`: a successful contract creation (`to: null`, `contractAddress` set, one log);
 * - otherwise `k % 7 === 4`: a failed transaction (`status: 0`, no logs);
 * - otherwise a transfer to a pool address, or a call to an earlier created contract with one
 *   to three logs;
 * - every third transaction is legacy (type 0, null EIP-1559 fields), the rest type 2
 *   (before `londonBlock`: all legacy).
 * Log topic counts cycle through 1–4. A call's first log is a `Transfer` from the sender to the
 * recipient named in its input: with three topics an ERC-20 one, with four an ERC-721 one, with
 * fewer not a transfer at all; `tokenTransfers` holds what they decode to. A call's second log with
 * three topics is an `Approval` (or, every third, an `ApprovalForAll`) of the sender for one of
 * the first three pool addresses, a quarter of them revoking; `approvals` holds what they decode to. Values are large
 * bigints (up to 2^64). No transaction is
 * sent by an address to itself; build such cases by editing the returned (fresh) bundles.
 *
 * @example
 * const chain = makeChain({ blocks: 10, txPerBlock: 4 });
 * for (const bundle of chain) await storage.writeBlock(bundle);
 *
 * // a fork replacing blocks 6…9, branching off block 5
 * const fork = makeChain({ blocks: 4, parent: chain[5]!.block, seed: 'fork' });
 */
export function makeChain(options: MakeChainOptions): BlockBundle[] {
  const seed = options.seed ?? 'chainlens';
  const pool = typeof options.addresses === 'object' ? [...options.addresses] : makeAddressPool(options.addresses ?? 8);
  if (pool.length < 2) throw new Error('makeChain needs at least two addresses');
  const txCount = options.txPerBlock ?? 3;
  const blockTime = options.blockTime ?? 12n;
  const genesisTimestamp = options.genesisTimestamp ?? 1_700_000_000n;
  const londonBlock = options.londonBlock ?? 0n;

  let number = options.parent ? options.parent.number + 1n : (options.startNumber ?? 0n);
  let parentHash: Hex = options.parent
    ? options.parent.hash
    : number === 0n
      ? ZERO_HASH
      : fixtureHash(`${seed}:parent-of:${number}`);
  let timestamp = options.parent
    ? options.parent.timestamp + blockTime
    : genesisTimestamp + number * blockTime;

  const nonces = new Map<Hex, bigint>();
  const contracts: Hex[] = [];
  const chain: BlockBundle[] = [];
  let k = 0;
  let logCounter = 0;

  for (let b = 0; b < options.blocks; b++) {
    const hash = fixtureHash(`${seed}:block:${number}:${parentHash}`);
    const count = typeof txCount === 'function' ? txCount(number) : txCount;
    const baseFeePerGas = number >= londonBlock ? GWEI + (number % 100n) * 10_000_000n : null;
    const transactions: StoredTransaction[] = [];
    const logs: StoredLog[] = [];
    let cumulativeGasUsed = 0n;

    for (let i = 0; i < count; i++, k++) {
      const txHash = fixtureHash(`${hash}:tx:${i}`);
      const byte = (j: number) => parseInt(txHash.slice(2 + 2 * j, 4 + 2 * j), 16);
      const fromIndex = byte(0) % pool.length;
      const from = pool[fromIndex]!;
      const nonce = nonces.get(from) ?? 0n;
      nonces.set(from, nonce + 1n);

      const creation = k % 5 === 2;
      const failed = !creation && k % 7 === 4;
      const callsContract = !creation && contracts.length > 0 && byte(1) % 2 === 0;
      const contractAddress = creation ? fixtureAddress(`${seed}:contract:${txHash}`) : null;
      const to = creation
        ? null
        : callsContract
          ? contracts[byte(2) % contracts.length]!
          : pool[(fromIndex + 1 + (byte(2) % (pool.length - 1))) % pool.length]!;

      const legacy = baseFeePerGas === null || k % 3 === 0;
      const tip = BigInt(1 + (byte(3) % 3)) * GWEI;
      const gasPrice = legacy ? (baseFeePerGas ?? GWEI) + tip : baseFeePerGas * 2n + tip;
      const effectiveGasPrice = legacy ? gasPrice : baseFeePerGas + tip;
      const gas = creation ? 1_500_000n : callsContract ? 120_000n : 21_000n;
      const gasUsed = failed ? gas : creation ? 1_234_567n : callsContract ? 51_000n + BigInt(byte(4)) : 21_000n;
      cumulativeGasUsed += gasUsed;

      transactions.push({
        hash: txHash,
        blockNumber: number,
        blockHash: hash,
        transactionIndex: i,
        timestamp,
        from,
        to,
        value: callsContract || creation ? 0n : BigInt(`0x${txHash.slice(10, 26)}`),
        gas,
        gasPrice,
        maxFeePerGas: legacy ? null : gasPrice,
        maxPriorityFeePerGas: legacy ? null : tip,
        nonce,
        input: creation
          ? `0x6080604052${txHash.slice(2, 42)}`
          : callsContract
            ? `0xa9059cbb${'0'.repeat(24)}${pool[byte(5) % pool.length]!.slice(2)}${txHash.slice(2)}`
            : '0x',
        type: legacy ? 0 : 2,
        status: failed ? 0 : 1,
        gasUsed,
        cumulativeGasUsed,
        effectiveGasPrice,
        contractAddress,
        logsBloom: EMPTY_BLOOM,
      });

      if (failed) continue;
      const logCount = creation ? 1 : callsContract ? 1 + (byte(6) % 3) : 0;
      for (let l = 0; l < logCount; l++, logCounter++) {
        const topicCount = 1 + (logCounter % 4);
        const topics: Hex[] = [l === 0 ? TRANSFER_TOPIC : rotateHash(txHash, l)];
        for (let t = 1; t < topicCount; t++) topics.push(rotateHash(txHash, 3 + l + t));
        const transfer = l === 0 && callsContract && topicCount >= 3;
        if (transfer) {
          topics[1] = addressWord(from);
          topics[2] = addressWord(pool[byte(5) % pool.length]!);
        }
        const approval = l === 1 && topicCount === 3;
        let data: Hex = l % 2 === 0 && !(transfer && topicCount === 4) ? `0x${txHash.slice(2)}` : '0x';
        if (approval) {
          const forAll = byte(7) % 3 === 0;
          topics[0] = forAll ? APPROVAL_FOR_ALL_TOPIC : APPROVAL_TOPIC;
          topics[1] = addressWord(from);
          topics[2] = addressWord(pool[byte(8) % 3]!);
          const value = forAll ? BigInt(byte(9) % 2) : byte(9) % 4 === 0 ? 0n : BigInt(`0x${txHash.slice(30, 46)}`);
          data = `0x${value.toString(16).padStart(64, '0')}`;
        }
        logs.push({
          address: (contractAddress ?? to)!,
          topics,
          data,
          blockNumber: number,
          blockHash: hash,
          transactionHash: txHash,
          transactionIndex: i,
          logIndex: logs.length,
        });
      }
      if (contractAddress) contracts.push(contractAddress);
    }

    const block: StoredBlock = {
      number,
      hash,
      parentHash,
      timestamp,
      miner: fixtureAddress(`miner:${number % 3n}`),
      gasUsed: cumulativeGasUsed,
      gasLimit: 30_000_000n,
      baseFeePerGas,
      difficulty: baseFeePerGas === null ? 131_072n : 0n,
      size: 540n + 120n * BigInt(count),
      stateRoot: rotateHash(hash, 1),
      transactionsRoot: rotateHash(hash, 2),
      receiptsRoot: rotateHash(hash, 3),
      extraData: number % 2n === 0n ? '0x' : toHex(`chainlens:${seed}`),
      transactionCount: count,
    };
    chain.push({ block, transactions, logs, tokenTransfers: tokenTransfersOf(logs, timestamp), ...pairEventsOf(logs, timestamp), approvals: approvalsOf(logs, timestamp), contracts: contractCreationsOf(transactions, null), internalTransactions: [] });

    parentHash = hash;
    number += 1n;
    timestamp += blockTime;
  }
  return chain;
}
