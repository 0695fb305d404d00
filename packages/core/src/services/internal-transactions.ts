import type { z } from 'zod';
import type { internalTransactionRecordSchema } from '../records/etherscan-record-schemas.js';
import type { StoredInternalTransaction } from '../storage/index.js';

/** A value transfer, contract creation or self-destruct inside a transaction. */
export type InternalTransactionRecord = z.infer<typeof internalTransactionRecordSchema>;

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
