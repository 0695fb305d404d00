import { describe, expect, it } from 'vitest';
import type { RpcCallFrame } from '../chain/rpc-types.js';
import type { StoredTransaction } from '../storage/index.js';
import { makeChain } from '@chainlens/testing';
import { blockInternalTransactionsOf, internalTransactionsOf } from './internal-transactions.js';

const tx: StoredTransaction = makeChain({ blocks: 2, txPerBlock: 1 })[1]!.transactions[0]!;
const A = '0x00000000000000000000000000000000000000aa';
const B = '0x00000000000000000000000000000000000000bb';
const C = '0x00000000000000000000000000000000000000cc';

describe('internalTransactionsOf', () => {
  it('lists value-moving calls, creations and self-destructs below the top call, in call order with their trace ids', () => {
    const trace: RpcCallFrame = {
      type: 'CALL',
      from: tx.from,
      to: A,
      value: '0x5',
      calls: [
        { type: 'STATICCALL', from: A, to: B },
        { type: 'CALL', from: A, to: B, value: '0x0' },
        { type: 'CALL', from: A, to: B, value: '0x10', gas: '0x100', gasUsed: '0x20', calls: [{ type: 'DELEGATECALL', from: B, to: C }] },
        { type: 'CREATE2', from: A, to: C, value: '0x0', gas: '0x200', gasUsed: '0x30' },
        { type: 'SELFDESTRUCT', from: C, to: A, value: '0x7' },
      ],
    };
    const found = internalTransactionsOf(tx, trace);
    expect(found.map((t) => [t.type, t.traceIndex, t.traceId, t.from, t.to, t.value])).toEqual([
      ['call', 0, '2', A, B, 16n],
      ['create2', 1, '3', A, C, 0n],
      ['selfdestruct', 2, '4', C, A, 7n],
    ]);
    expect(found[0]).toEqual({
      blockNumber: tx.blockNumber,
      transactionIndex: tx.transactionIndex,
      traceIndex: 0,
      traceId: '2',
      transactionHash: tx.hash,
      timestamp: tx.timestamp,
      type: 'call',
      from: A,
      to: B,
      value: 16n,
      gas: 256n,
      gasUsed: 32n,
      error: null,
    });
  });

  it('marks a frame that failed, and everything inside a failed frame, with the failure', () => {
    const trace: RpcCallFrame = {
      type: 'CALL',
      from: tx.from,
      to: A,
      calls: [
        { type: 'CALL', from: A, to: B, value: '0x1', error: 'execution reverted', calls: [{ type: 'CALL', from: B, to: C, value: '0x2' }] },
        { type: 'CREATE', from: A, to: C, value: '0x3', error: 'out of gas' },
        { type: 'CALL', from: A, to: C, value: '0x4' },
      ],
    };
    expect(internalTransactionsOf(tx, trace).map((t) => [t.traceId, t.error])).toEqual([
      ['0', 'execution reverted'],
      ['0_0', 'execution reverted'],
      ['1', 'out of gas'],
      ['2', null],
    ]);
    const reverted = internalTransactionsOf(tx, { ...trace, error: 'execution reverted' });
    expect(reverted.every((t) => t.error !== null)).toBe(true);
  });

  it('of a block, keeps the successful transactions’ only', () => {
    const [ok, failed] = makeChain({ blocks: 12, txPerBlock: 3 }).flatMap((bundle) => bundle.transactions).reduce<[StoredTransaction[], StoredTransaction[]]>(
      ([good, bad], t) => (t.status === 1 ? [[...good, t], bad] : [good, [...bad, t]]),
      [[], []],
    );
    const trace = (from: string): RpcCallFrame => ({ type: 'CALL', from, to: A, calls: [{ type: 'CALL', from: A, to: B, value: '0x1' }] });
    const transactions = [failed[0]!, ok[0]!];
    expect(blockInternalTransactionsOf(transactions, transactions.map((t) => trace(t.from))).map((t) => t.transactionHash)).toEqual([ok[0]!.hash]);
  });
});
