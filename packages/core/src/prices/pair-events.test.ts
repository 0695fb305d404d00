import { describe, expect, it } from 'vitest';
import type { Hex, StoredLog } from '../storage/index.js';
import { pairCreatedLog, swapLog, syncLog } from '@chainlens/testing';
import { pairEventsOf } from './pair-events.js';

const FACTORY: Hex = '0x00000000000000000000000000000000000000fa';
const PAIR: Hex = '0x00000000000000000000000000000000000000ab';
const TOKEN0: Hex = '0x1111111111111111111111111111111111111111';
const TOKEN1: Hex = '0x2222222222222222222222222222222222222222';
const TRADER: Hex = '0x3333333333333333333333333333333333333333';
const MAX_UINT256 = 2n ** 256n - 1n;
const MAX_UINT112 = 2n ** 112n - 1n;
const TIMESTAMP = 1_700_000_000n;

function log(logIndex: number, rewrite: (log: StoredLog) => void): StoredLog {
  const blank: StoredLog = { address: PAIR, topics: [], data: '0x', blockNumber: 7n, blockHash: `0x${'bb'.repeat(32)}`, transactionHash: `0x${'cc'.repeat(32)}`, transactionIndex: 0, logIndex };
  rewrite(blank);
  return blank;
}

const at = { blockNumber: 7n };

describe('pairEventsOf', () => {
  it('decodes PairCreated, Sync and Swap as Uniswap V2 emits them, in log order', () => {
    const logs = [
      log(0, (l) => pairCreatedLog(l, FACTORY, TOKEN0, TOKEN1, PAIR, 9n)),
      log(1, (l) => syncLog(l, PAIR, MAX_UINT112, 1n)),
      log(2, (l) => swapLog(l, PAIR, [MAX_UINT256, 0n, 0n, 5n], TRADER, TRADER)),
    ];
    expect(pairEventsOf(logs, TIMESTAMP)).toEqual({
      pairs: [{ ...at, logIndex: 0, address: PAIR, factory: FACTORY, token0: TOKEN0, token1: TOKEN1 }],
      pairSyncs: [{ ...at, logIndex: 1, pair: PAIR, timestamp: TIMESTAMP, reserve0: MAX_UINT112, reserve1: 1n }],
      pairSwaps: [{ ...at, logIndex: 2, pair: PAIR, timestamp: TIMESTAMP, amount0In: MAX_UINT256, amount1In: 0n, amount0Out: 0n, amount1Out: 5n }],
    });
  });

  it('ignores look-alikes: wrong topic count, wrong data size, an address word with high bytes, a reserve beyond uint112', () => {
    const dirtyWord = (l: StoredLog) => `0x${'ff'.repeat(12)}${l.topics[1]!.slice(26)}` as Hex;
    const logs = [
      log(0, (l) => {
        pairCreatedLog(l, FACTORY, TOKEN0, TOKEN1, PAIR);
        l.topics = l.topics.slice(0, 2);
      }),
      log(1, (l) => {
        pairCreatedLog(l, FACTORY, TOKEN0, TOKEN1, PAIR);
        l.topics[1] = dirtyWord(l);
      }),
      log(2, (l) => {
        syncLog(l, PAIR, 1n, 2n);
        l.data = `${l.data}00`;
      }),
      log(3, (l) => {
        syncLog(l, PAIR, 1n, 2n);
        l.data = `0x${(MAX_UINT112 + 1n).toString(16).padStart(64, '0')}${l.data.slice(66)}`;
      }),
      log(4, (l) => {
        swapLog(l, PAIR, [1n, 2n, 3n, 4n], TRADER, TRADER);
        l.topics[1] = dirtyWord(l);
      }),
      log(5, (l) => {
        swapLog(l, PAIR, [1n, 2n, 3n, 4n], TRADER, TRADER);
        l.topics.push(l.topics[1]!);
      }),
    ];
    expect(pairEventsOf(logs, TIMESTAMP)).toEqual({ pairs: [], pairSyncs: [], pairSwaps: [] });
  });
});
