import type { RpcCallFrame } from '../chain/rpc-types.js';
import type { Hex, InternalTransactionType, StoredInternalTransaction, StoredTransaction } from '../storage/index.js';

const CREATES = new Set(['CREATE', 'CREATE2']);

/**
 * The internal transactions of `tx` from its call trace, in call order: every frame below the
 * top call that moved value (`CALL`, `CALLCODE`), created a contract or self-destructed. Calls
 * without value (static, delegate, plain) move nothing and are left out, as Etherscan does. A
 * frame inside a failed one failed too: its effects were undone with its caller's.
 */
export function internalTransactionsOf(tx: StoredTransaction, top: RpcCallFrame): StoredInternalTransaction[] {
  const found: StoredInternalTransaction[] = [];
  const visit = (frame: RpcCallFrame, path: number[], callerError: string | undefined) => {
    const error = frame.error ?? callerError;
    const value = BigInt(frame.value ?? '0x0');
    if (CREATES.has(frame.type) || frame.type === 'SELFDESTRUCT' || ((frame.type === 'CALL' || frame.type === 'CALLCODE') && value > 0n)) {
      found.push({
        blockNumber: tx.blockNumber,
        transactionIndex: tx.transactionIndex,
        traceIndex: found.length,
        traceId: path.join('_'),
        transactionHash: tx.hash,
        timestamp: tx.timestamp,
        type: frame.type.toLowerCase() as InternalTransactionType,
        from: lower(frame.from),
        to: frame.to ? lower(frame.to) : null,
        value,
        gas: BigInt(frame.gas ?? '0x0'),
        gasUsed: BigInt(frame.gasUsed ?? '0x0'),
        error: error ?? null,
      });
    }
    frame.calls?.forEach((child, index) => visit(child, [...path, index], error));
  };
  top.calls?.forEach((child, index) => visit(child, [index], top.error));
  return found;
}

/**
 * The internal transactions of a block's successful transactions, from `traces` (the node's
 * `callTracer` frames, one per transaction in order). A failed transaction's are left out: all
 * were undone, and blocks whose only code ran in failed transactions are not traced at all (see
 * `mayCreateInside`), so keeping them would list some and not others.
 */
export function blockInternalTransactionsOf(transactions: readonly StoredTransaction[], traces: readonly RpcCallFrame[]): StoredInternalTransaction[] {
  return transactions.flatMap((tx, i) => (tx.status === 1 ? internalTransactionsOf(tx, traces[i]!) : []));
}

function lower(address: string): Hex {
  return address.toLowerCase() as Hex;
}
