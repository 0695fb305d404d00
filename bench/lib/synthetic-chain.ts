import { createHash } from 'node:crypto';
import { approvalsOf, contractCreationsOf, pairEventsOf, tokenTransfersOf, ZERO_ADDRESS, type BlockBundle, type Hex, type StoredLog, type StoredTransaction } from '@chainlens/core';

/** Shape of a generated chain. */
export interface SyntheticChainOptions {
  blocks: number;
  txPerBlock: number;
  /** Distinct addresses that send and receive. */
  addresses: number;
  /** Every `heavyEvery`-th transaction is sent by the heavy address (`addressAt(0)`). */
  heavyEvery: number;
  /** Every `logEvery`-th transaction is an ERC-20 transfer with a `Transfer` log. */
  logEvery: number;
  /**
   * When set, the token's transfers are mints to this many holders in turn (addresses of their
   * own, after the chain's), so every holder ends with a positive balance: a token with many
   * holders. Otherwise each transfer goes from the sender to a chain address.
   */
  tokenHolders?: number;
  /** Tokens the ERC-20 transfers go through in turn (default 1): `tokenAt(options, 0 … tokens-1)`. */
  tokens?: number;
  /** Seconds between blocks (default 2). */
  blockTime?: number;
}

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const EMPTY_BLOOM = `0x${'00'.repeat(256)}` as Hex;
const GWEI = 1_000_000_000n;

/** A deterministic 32-byte hash of `parts` (the same chain on every run). */
const hash32 = (...parts: (string | number)[]): Hex => `0x${createHash('sha256').update(parts.join(':')).digest('hex')}`;

/** The `index`-th address of the chain. */
export const addressAt = (index: number): Hex => `0x${hash32('address', index).slice(26)}`;

/** The first token of a chain: the one contract its ERC-20 transfers go through unless it has several `tokens`. */
export const tokenOf = (options: Pick<SyntheticChainOptions, 'addresses'>): Hex => addressAt(options.addresses);

/** The `index`-th token of a chain (the first is {@link tokenOf}). */
export const tokenAt = (options: Pick<SyntheticChainOptions, 'addresses'>, index: number): Hex => (index === 0 ? tokenOf(options) : `0x${hash32('token', index).slice(26)}`);

/** The `index`-th holder of a chain with `tokenHolders`. */
export const tokenHolderAt = (options: Pick<SyntheticChainOptions, 'addresses'>, index: number): Hex => addressAt(options.addresses + 2 + index);

/** Hash of the transaction at (`block`, `index`). */
export const transactionHashAt = (block: number, index: number): Hex => hash32('tx', block, index);

/** Hash of block `number`. */
export const blockHashAt = (number: number): Hex => hash32('block', number);

/** A small xorshift PRNG in [0, 1): the same sequence for the same seed, fast enough for millions of draws. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/**
 * Yields blocks `0 … blocks-1` of a made-up but well-formed chain: parent hashes link, every
 * transaction has a receipt's fields, ERC-20 transfers carry a real `Transfer` log. Loaded through
 * `Storage.writeBlock`, it exercises the same write path as the indexer, without a node's speed
 * limit on how much data a benchmark can have. (`makeChain` of `@chainlens/testing` draws
 * senders from one hash byte, so it reaches 256 addresses at most, and builds the whole chain in
 * memory: fine for conformance tests, not for a million transactions over 10,000 addresses.)
 */
export function* syntheticChain(options: SyntheticChainOptions): Generator<BlockBundle> {
  const random = seededRandom(20261122);
  const pick = () => addressAt(1 + Math.floor(random() * (options.addresses - 1)));
  const tokens = Array.from({ length: options.tokens ?? 1 }, (_, index) => tokenAt(options, index));
  let serial = 0;
  let minted = 0;
  let moved = 0;
  for (let number = 0; number < options.blocks; number++) {
    const blockHash = blockHashAt(number);
    const timestamp = 1_700_000_000n + BigInt(number) * BigInt(options.blockTime ?? 2);
    const transactions: StoredTransaction[] = [];
    const logs: StoredLog[] = [];
    let cumulativeGasUsed = 0n;
    for (let index = 0; index < options.txPerBlock; index++, serial++) {
      const hash = transactionHashAt(number, index);
      const from = serial % options.heavyEvery === 0 ? addressAt(0) : pick();
      const recipient = pick();
      const isTransfer = serial % options.logEvery === 0;
      const token = tokens[isTransfer ? moved++ % tokens.length : 0]!;
      const gasUsed = isTransfer ? 51_000n : 21_000n;
      cumulativeGasUsed += gasUsed;
      const amount = BigInt(Math.floor(random() * 1e12)) * GWEI;
      transactions.push({
        hash,
        blockNumber: BigInt(number),
        blockHash,
        transactionIndex: index,
        timestamp,
        from,
        to: isTransfer ? token : recipient,
        value: isTransfer ? 0n : amount,
        gas: gasUsed + 10_000n,
        gasPrice: 3n * GWEI,
        maxFeePerGas: 3n * GWEI,
        maxPriorityFeePerGas: GWEI,
        nonce: BigInt(serial),
        input: isTransfer ? (`0xa9059cbb${recipient.slice(2).padStart(64, '0')}${amount.toString(16).padStart(64, '0')}` as Hex) : '0x',
        type: 2,
        status: 1,
        gasUsed,
        cumulativeGasUsed,
        effectiveGasPrice: 2n * GWEI,
        contractAddress: null,
        logsBloom: EMPTY_BLOOM,
      });
      if (isTransfer) {
        const holders = options.tokenHolders;
        const [sender, receiver] = holders ? [ZERO_ADDRESS, tokenHolderAt(options, minted++ % holders)] : [from, recipient];
        logs.push({
          address: token,
          topics: [TRANSFER_TOPIC, `0x${sender.slice(2).padStart(64, '0')}`, `0x${receiver.slice(2).padStart(64, '0')}`],
          data: `0x${amount.toString(16).padStart(64, '0')}`,
          blockNumber: BigInt(number),
          blockHash,
          transactionHash: hash,
          transactionIndex: index,
          logIndex: logs.length,
        });
      }
    }
    yield {
      block: {
        number: BigInt(number),
        hash: blockHash,
        parentHash: number === 0 ? (`0x${'00'.repeat(32)}` as Hex) : blockHashAt(number - 1),
        timestamp,
        miner: addressAt(options.addresses + 1),
        gasUsed: cumulativeGasUsed,
        gasLimit: 30_000_000n,
        baseFeePerGas: GWEI,
        difficulty: 0n,
        size: BigInt(600 + 120 * options.txPerBlock),
        stateRoot: hash32('state', number),
        transactionsRoot: hash32('transactions', number),
        receiptsRoot: hash32('receipts', number),
        extraData: '0x',
        transactionCount: transactions.length,
      },
      transactions,
      logs,
      tokenTransfers: tokenTransfersOf(logs, timestamp),
      ...pairEventsOf(logs, timestamp),
      approvals: approvalsOf(logs, timestamp),
      contracts: contractCreationsOf(transactions, null),
      internalTransactions: [],
    };
  }
}
