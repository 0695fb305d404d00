import type { TransactionRecord } from '../../services/format.js';
import type { AccountTokenTransferRecord } from '../../services/token-service.js';
import type { Hex } from '../../storage/index.js';
import type { GraphqlContext } from '../context.js';

/**
 * A transaction is REST's Transaction record; `to` and `contractAddress` are null where REST has ''.
 * Its token transfers, decoded input and calls, balance changes and envelope are what REST's
 * `/transaction/:hash/*` answer, from the same services.
 */
export const transactionResolvers = {
  Transaction: {
    to: (tx: TransactionRecord) => tx.to || null,
    status: (tx: TransactionRecord) => tx.txreceipt_status,
    contractAddress: (tx: TransactionRecord) => tx.contractAddress || null,
    block: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.loaders.blocks.load(BigInt(tx.blockNumber)),
    logs: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.services.transactions.logs(tx.hash as Hex, false),
    tokenTransfers: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.services.tokens.transactionTransfers(tx.hash as Hex),
    decodedInput: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.services.decoding.input(tx.hash as Hex),
    calls: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.services.decoding.calls(tx.hash as Hex),
    balanceChanges: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.services.balanceChanges.balanceChanges(tx.hash as Hex),
    envelope: (tx: TransactionRecord, _: unknown, context: GraphqlContext) => context.services.envelopes.envelope(tx.hash as Hex),
  },
  AccountTokenTransfer: {
    transactionHash: (transfer: AccountTokenTransferRecord) => transfer.hash,
  },
};
