import { describe, expect, it } from 'vitest';
import type { RpcCallFrame } from '../chain/rpc-types.js';
import type { Hex, StoredTransaction } from '../storage/index.js';
import { makeChain } from '@chainlens/testing';
import { contractCreationsOf } from './contract-creations.js';

const A: Hex = '0x00000000000000000000000000000000000000a1';
const B: Hex = '0x00000000000000000000000000000000000000b2';
const C: Hex = '0x00000000000000000000000000000000000000c3';
const D: Hex = '0x00000000000000000000000000000000000000d4';

/** Two transactions of a fixture block: a call (index 0) and, made a creation, index 1. */
function transactions(): StoredTransaction[] {
  const [first, second] = makeChain({ blocks: 1, txPerBlock: 2 })[0]!.transactions as [StoredTransaction, StoredTransaction];
  return [
    { ...first, status: 1, to: A, contractAddress: null },
    { ...second, status: 1, to: null, contractAddress: B },
  ];
}

const frame = (type: string, from: Hex, to: Hex, calls: RpcCallFrame[] = [], error?: string): RpcCallFrame => ({ type, from, to, calls, ...(error && { error }) });

describe('contractCreationsOf', () => {
  it('lists a creation transaction’s own contract, then CREATE and CREATE2 frames inside any transaction, in call order', () => {
    const txs = transactions();
    const traces = [
      frame('CALL', txs[0]!.from, A, [frame('CALL', A, D, [frame('CREATE2', D, C)]), frame('CREATE', A, D)]),
      frame('CREATE', txs[1]!.from, B, [frame('CREATE', B, A)]),
    ];
    expect(contractCreationsOf(txs, traces).map((c) => [c.transactionIndex, c.traceIndex, c.address, c.creator])).toEqual([
      [0, 1, C, D],
      [0, 2, D, A],
      [1, 0, B, txs[1]!.from],
      [1, 1, A, B],
    ]);
  });

  it('leaves out what a failed frame created, with everything under it, and everything of a failed transaction', () => {
    const txs = transactions();
    const traces = [frame('CALL', txs[0]!.from, A, [frame('CALL', A, D, [frame('CREATE', D, C)], 'execution reverted'), frame('CREATE', A, B, [], 'out of gas')])];
    expect(contractCreationsOf(txs, [...traces, null])).toEqual([expect.objectContaining({ address: B, traceIndex: 0 })]);
    expect(contractCreationsOf([{ ...txs[1]!, status: 0 }], [frame('CREATE', A, B, [frame('CREATE', B, C)])])).toEqual([]);
  });

  it('without traces, lists transactions’ own creations only', () => {
    expect(contractCreationsOf(transactions(), null).map((c) => c.address)).toEqual([B]);
  });
});
