import { formatBlock, formatTransaction, transactionAddresses } from '../services/format.js';
import type { AddressLabels, LabelLookup } from '../services/address-labels.js';
import type { TokenService } from '../services/token-service.js';
import type { BlockBundle, Hex } from '../storage/index.js';
import { streamKey } from './channel-definition.js';
import { outgoing, type Outgoing } from './outgoing.js';

/** A message and the stream it goes to. */
export interface Addressed {
  key: string;
  message: Outgoing;
}

/** `blocks` data (decisions.md's fields, without labels), picked from the block record REST answers. */
export function blockSummary(bundle: BlockBundle) {
  const record = formatBlock(bundle.block, [], new Map());
  return {
    blockNumber: record.blockNumber,
    blockHash: record.hash,
    timestamp: record.timestamp,
    transactionCount: record.transactionCount,
    gasUsed: record.gasUsed,
    miner: record.miner,
  };
}

/** The `blocks` message of a block. */
export function blockSummaryMessage(bundle: BlockBundle): Addressed {
  const { number, hash } = bundle.block;
  return { key: 'blocks', message: outgoing('blocks', undefined, number, JSON.stringify(blockSummary(bundle)), hash) };
}

/**
 * The `blocks`, `transactions` and `address_transactions` messages of a block, for the streams
 * `wanted` accepts only (nothing is shaped for a stream nobody listens to), its transactions
 * shaped with their parties' labels (one lookup, only when a transaction stream is wanted).
 */
export async function blockMessages(bundle: BlockBundle, head: bigint, wanted: (key: string) => boolean, labels: LabelLookup): Promise<Addressed[]> {
  const messages = wanted('blocks') ? [blockSummaryMessage(bundle)] : [];
  const transactionStream = (key: string) => key !== 'blocks' && wanted(key);
  if (!bundle.transactions.some((tx) => transactionStream('transactions') || wanted(streamKey('address_transactions', tx.from)) || (tx.to !== null && wanted(streamKey('address_transactions', tx.to))))) return messages;
  return [...messages, ...transactionMessages(bundle, head, transactionStream, await labels.labelsOf(bundle.transactions.flatMap(transactionAddresses)))];
}

/**
 * The `transactions` and `address_transactions` messages of a block for the streams `wanted`
 * accepts. `head` counts the transactions' confirmations. A transaction goes to its sender's and
 * its recipient's streams (once for a transfer to oneself).
 */
export function transactionMessages(bundle: BlockBundle, head: bigint, wanted: (key: string) => boolean, labels: AddressLabels): Addressed[] {
  const { number, hash } = bundle.block;
  const messages: Addressed[] = [];
  const all = wanted('transactions');
  for (const tx of bundle.transactions) {
    const parties = tx.to === null || tx.to === tx.from ? [tx.from] : [tx.from, tx.to];
    const keys = parties.map((party) => streamKey('address_transactions', party)).filter(wanted);
    if (!all && keys.length === 0) continue;
    const json = JSON.stringify(formatTransaction(tx, head, labels));
    if (all) messages.push({ key: 'transactions', message: outgoing('transactions', undefined, number, json, hash) });
    for (const key of keys) messages.push({ key, message: outgoing('address_transactions', key.slice('address_transactions:'.length), number, json, hash) });
  }
  return messages;
}

/**
 * The `token_transfers` messages of a block for the tokens `wanted` accepts, shaped by the token
 * service exactly as `GET /token/:address/transfers` answers them.
 */
export async function tokenTransferMessages(bundle: BlockBundle, tokens: TokenService, wanted: (key: string) => boolean): Promise<Addressed[]> {
  const counts = new Map<Hex, number>();
  for (const transfer of bundle.tokenTransfers) {
    if (wanted(streamKey('token_transfers', transfer.token))) counts.set(transfer.token, (counts.get(transfer.token) ?? 0) + 1);
  }
  const { number, hash } = bundle.block;
  const messages: Addressed[] = [];
  for (const [token, count] of counts) {
    const records = await tokens.transfers({ token, startBlock: number, endBlock: number, page: 1, offset: count, sort: 'asc' });
    const key = streamKey('token_transfers', token);
    for (const record of records) messages.push({ key, message: outgoing('token_transfers', token, number, JSON.stringify(record), hash) });
  }
  return messages;
}
