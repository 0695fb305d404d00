import { toEventSelector } from 'viem';
import { addressOfWord } from '../abi/address-word.js';
import type { Hex, StoredLog, StoredPair, StoredPairSwap, StoredPairSync } from '../storage/index.js';

const PAIR_CREATED = toEventSelector('PairCreated(address,address,address,uint256)');
const SYNC = toEventSelector('Sync(uint112,uint112)');
const SWAP = toEventSelector('Swap(address,uint256,uint256,uint256,uint256,address)');

const UINT112_LIMIT = 1n << 112n;

/** What a block's logs say about Uniswap-V2-style pairs. */
export interface PairEvents {
  pairs: StoredPair[];
  pairSyncs: StoredPairSync[];
  pairSwaps: StoredPairSwap[];
}

/**
 * The Uniswap-V2 `PairCreated`, `Sync` and `Swap` events of a block's logs, in `logIndex` order.
 * Any contract may emit them: which factories count is the price source's choice, made when
 * reading. A log with a matching selector but another shape (wrong topic count or data size, an
 * address word with high bytes set, a reserve beyond uint112) is some other event and yields
 * nothing.
 */
export function pairEventsOf(logs: readonly StoredLog[], timestamp: bigint): PairEvents {
  const events: PairEvents = { pairs: [], pairSyncs: [], pairSwaps: [] };
  for (const log of logs) {
    const selector = log.topics[0];
    if (selector === PAIR_CREATED) pushIfSome(events.pairs, pairCreated(log));
    else if (selector === SYNC) pushIfSome(events.pairSyncs, sync(log, timestamp));
    else if (selector === SWAP) pushIfSome(events.pairSwaps, swap(log, timestamp));
  }
  return events;
}

function pushIfSome<T>(list: T[], item: T | null): void {
  if (item !== null) list.push(item);
}

function pairCreated(log: StoredLog): StoredPair | null {
  if (log.topics.length !== 3) return null;
  const words = dataWords(log, 2);
  const token0 = addressOfWord(log.topics[1]);
  const token1 = addressOfWord(log.topics[2]);
  const pair = words && addressOfWord(words[0]);
  if (!token0 || !token1 || !pair) return null;
  return { address: pair, factory: log.address, token0, token1, blockNumber: log.blockNumber, logIndex: log.logIndex };
}

function sync(log: StoredLog, timestamp: bigint): StoredPairSync | null {
  if (log.topics.length !== 1) return null;
  const words = dataWords(log, 2);
  if (!words) return null;
  const [reserve0, reserve1] = words.map(BigInt) as [bigint, bigint];
  if (reserve0 >= UINT112_LIMIT || reserve1 >= UINT112_LIMIT) return null;
  return { pair: log.address, blockNumber: log.blockNumber, logIndex: log.logIndex, timestamp, reserve0, reserve1 };
}

function swap(log: StoredLog, timestamp: bigint): StoredPairSwap | null {
  if (log.topics.length !== 3 || !addressOfWord(log.topics[1]) || !addressOfWord(log.topics[2])) return null;
  const words = dataWords(log, 4);
  if (!words) return null;
  const [amount0In, amount1In, amount0Out, amount1Out] = words.map(BigInt) as [bigint, bigint, bigint, bigint];
  return { pair: log.address, blockNumber: log.blockNumber, logIndex: log.logIndex, timestamp, amount0In, amount1In, amount0Out, amount1Out };
}

/** The log's data as exactly `count` 32-byte words, or `null` when it has another size. */
function dataWords(log: StoredLog, count: number): Hex[] | null {
  if (log.data.length !== 2 + 64 * count) return null;
  return Array.from({ length: count }, (_, i) => `0x${log.data.slice(2 + 64 * i, 66 + 64 * i)}` as Hex);
}
