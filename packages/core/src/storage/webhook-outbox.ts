import type { BlockBundle, Hex } from './records.js';
import type { BlockTraces } from './trace-records.js';
import type { WebhookEvent, WebhookSubject } from './webhook-records.js';

/** The active webhooks a bundle may concern, as a backend finds them while it writes the bundle. */
export interface WebhookMatches {
  /** Webhooks with the `block` event. */
  blockHooks: readonly string[];
  /** Per watched address, the webhooks with `address_activity` watching it. */
  addressHooks: ReadonlyMap<Hex, readonly string[]>;
  /** Per watched token, the webhooks with `token_transfer` watching it. */
  tokenHooks: ReadonlyMap<Hex, readonly string[]>;
}

/** One delivery to enqueue with the block, before the backend gives it an id, sequence and times. */
export interface WebhookOutboxEntry {
  webhookId: string;
  event: WebhookEvent;
  blockNumber: bigint;
  blockHash: Hex;
  subject: WebhookSubject;
}

/** The addresses and token contracts a bundle touches: what a backend looks up watchers of. */
export function webhookBundleKeys(bundle: BlockBundle): { addresses: Hex[]; tokens: Hex[] } {
  const addresses = new Set<Hex>();
  const add = (address: Hex | null) => {
    if (address !== null) addresses.add(address);
  };
  for (const tx of bundle.transactions) {
    add(tx.from);
    add(tx.to);
    add(tx.contractAddress);
  }
  for (const internal of bundle.internalTransactions) {
    if (!movesValue(internal)) continue;
    add(internal.from);
    add(internal.to);
  }
  for (const transfer of bundle.tokenTransfers) {
    add(transfer.from);
    add(transfer.to);
  }
  return { addresses: [...addresses], tokens: [...new Set(bundle.tokenTransfers.map((transfer) => transfer.token))] };
}

/**
 * The deliveries a written bundle brings, in the order they are sent: the block, then per
 * transaction (by index) the transaction, its internal transfers and its token transfers, each
 * once per webhook and event. `address_activity` is any transaction, internal transfer (a call
 * that moved value and took effect) or token transfer with a watched address as a party;
 * `token_transfer` any transfer of a watched token.
 */
export function webhookOutbox(bundle: BlockBundle, matches: WebhookMatches): WebhookOutboxEntry[] {
  const { number: blockNumber, hash: blockHash } = bundle.block;
  const entries: WebhookOutboxEntry[] = matches.blockHooks.map((webhookId) => ({ webhookId, event: 'block', blockNumber, blockHash, subject: { kind: 'block' } }));
  const watchers = (...parties: (Hex | null)[]) => [...new Set(parties.flatMap((party) => (party === null ? [] : (matches.addressHooks.get(party) ?? []))))];
  const push = (hooks: readonly string[], event: WebhookEvent, subject: WebhookSubject) => {
    for (const webhookId of hooks) entries.push({ webhookId, event, blockNumber, blockHash, subject });
  };
  if (matches.addressHooks.size === 0 && matches.tokenHooks.size === 0) return entries;
  for (const tx of bundle.transactions) {
    push(watchers(tx.from, tx.to, tx.contractAddress), 'address_activity', { kind: 'transaction', transactionHash: tx.hash });
    for (const internal of bundle.internalTransactions) {
      if (internal.transactionIndex !== tx.transactionIndex || !movesValue(internal)) continue;
      push(watchers(internal.from, internal.to), 'address_activity', { kind: 'internal_transaction', transactionHash: tx.hash, traceIndex: internal.traceIndex });
    }
    for (const transfer of bundle.tokenTransfers) {
      if (transfer.transactionIndex !== tx.transactionIndex) continue;
      const subject: WebhookSubject = { kind: 'token_transfer', transactionHash: tx.hash, logIndex: transfer.logIndex, batchIndex: transfer.batchIndex };
      push(watchers(transfer.from, transfer.to), 'address_activity', subject);
      push(matches.tokenHooks.get(transfer.token) ?? [], 'token_transfer', subject);
    }
  }
  return entries;
}

/** The addresses the internal transfers of traced blocks touch: what a backend looks up watchers of. */
export function webhookTraceKeys(traces: readonly BlockTraces[]): Hex[] {
  const addresses = new Set<Hex>();
  for (const entry of traces) {
    for (const internal of entry.internalTransactions) {
      if (!movesValue(internal)) continue;
      addresses.add(internal.from);
      if (internal.to !== null) addresses.add(internal.to);
    }
  }
  return [...addresses];
}

/**
 * The `address_activity` deliveries the traces of a block bring when the trace pipeline writes
 * them after the block: its internal transfers (by transaction index, then trace index) with a
 * watched party, each once per webhook, as {@link webhookOutbox} would have given them inline.
 */
export function webhookTraceOutbox(traces: BlockTraces, addressHooks: WebhookMatches['addressHooks']): WebhookOutboxEntry[] {
  const { blockNumber, blockHash } = traces;
  const entries: WebhookOutboxEntry[] = [];
  if (addressHooks.size === 0) return entries;
  for (const internal of traces.internalTransactions) {
    if (!movesValue(internal)) continue;
    const hooks = new Set([...(addressHooks.get(internal.from) ?? []), ...(internal.to === null ? [] : (addressHooks.get(internal.to) ?? []))]);
    for (const webhookId of hooks) {
      entries.push({ webhookId, event: 'address_activity', blockNumber, blockHash, subject: { kind: 'internal_transaction', transactionHash: internal.transactionHash, traceIndex: internal.traceIndex } });
    }
  }
  return entries;
}

/** An internal call that moved value and took effect. */
function movesValue(internal: BlockBundle['internalTransactions'][number]): boolean {
  return internal.value > 0n && internal.error === null;
}
