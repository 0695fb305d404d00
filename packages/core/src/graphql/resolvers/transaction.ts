import type { TransactionRecord } from '../../services/format.js';
import type { Hex } from '../../storage/index.js';
import type { GraphqlContext } from '../context.js';

/** A transaction is REST's Transaction record; `to` and `contractAddress` are null where REST has ''. */
export const transactionResolvers = {
  Transaction: {
    to: (tx: TransactionRecord) => tx.to || null,
    status: (tx: TransactionRecord) => tx.txreceipt_status,
    contractAddress: (tx: TransactionRecord) => tx.contractAddress || null,
    block: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.loaders.blocks.load(BigInt(tx.blockNumber)),
    logs: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.services.transactions.logs(tx.hash as Hex, false),
  },
};
