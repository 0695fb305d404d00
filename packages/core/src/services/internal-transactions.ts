import type { StoredInternalTransaction } from '../storage/index.js';

/**
 * A value transfer, contract creation or self-destruct inside a transaction (Etherscan's
 * "internal transaction"). Quantities are decimal strings.
 */
export interface InternalTransactionRecord {
  blockNumber: string;
  timestamp: string;
  /** The transaction it happened in. */
  hash: string;
  from: string;
  /** The callee or beneficiary; `''` for a creation. */
  to: string;
  value: string;
  /** The created contract; `''` for a call and for a creation that failed. */
  contractAddress: string;
  /** `''`, as Etherscan answers: call data is not kept. */
  input: string;
  /** `call`, `callcode`, `create`, `create2` or `selfdestruct`. */
  type: string;
  gas: string;
  gasUsed: string;
  /** Position in the call tree: child indexes from the top call down, joined by `_` (`0_1`). */
  traceId: string;
  isError: '0' | '1';
  /** Why the frame failed (`execution reverted`, `out of gas`, …); `''` when it did not. */
  errCode: string;
}

/**
 * The record of a stored internal transaction.
 *
 * @example
 * const records = (await storage.listInternalTransactions({ address, page: 1, offset: 25, sort: 'desc' })).map(formatInternalTransaction);
 */
export function formatInternalTransaction(internal: StoredInternalTransaction): InternalTransactionRecord {
  const creates = internal.type === 'create' || internal.type === 'create2';
  return {
    blockNumber: internal.blockNumber.toString(),
    timestamp: internal.timestamp.toString(),
    hash: internal.transactionHash,
    from: internal.from,
    to: creates ? '' : (internal.to ?? ''),
    value: internal.value.toString(),
    contractAddress: creates && internal.error === null ? (internal.to ?? '') : '',
    input: '',
    type: internal.type,
    gas: internal.gas.toString(),
    gasUsed: internal.gasUsed.toString(),
    traceId: internal.traceId,
    isError: internal.error === null ? '0' : '1',
    errCode: internal.error ?? '',
  };
}
