import type {
  AddressActivity,
  BlockBundle,
  ChainTotals,
  Hex,
  IndexerCursor,
  StoredLog,
  StoredTransaction,
} from '../storage/records.js';

/**
 * Reference answers computed straight from bundles, the way the Storage contract defines them.
 * Suites and benchmarks compare a backend's answers with these, so a test states what the
 * contract means rather than what one backend happens to return.
 */

/**
 * The distinct addresses a transaction touches in the contract's sense: sender, recipient and
 * created contract (a self-send gives one address).
 *
 * @example
 * involvedAddresses({ ...tx, from: a, to: a, contractAddress: null }) // [a]
 */
export function involvedAddresses(tx: Pick<StoredTransaction, 'from' | 'to' | 'contractAddress'>): Hex[] {
  const addresses = new Set<Hex>([tx.from]);
  if (tx.to !== null) addresses.add(tx.to);
  if (tx.contractAddress !== null) addresses.add(tx.contractAddress);
  return [...addresses];
}

/**
 * Every transaction of a chain, in chain order (block number, then transaction index).
 *
 * @example
 * chainTransactions(makeChain({ blocks: 2, txPerBlock: 3 })).length // 6
 */
export function chainTransactions(chain: readonly BlockBundle[]): StoredTransaction[] {
  return chain.flatMap((bundle) => bundle.transactions);
}

/**
 * Every log of a chain, in chain order.
 *
 * @example
 * const withLogs = chainLogs(chain).map((log) => log.transactionHash);
 */
export function chainLogs(chain: readonly BlockBundle[]): StoredLog[] {
  return chain.flatMap((bundle) => bundle.logs);
}

/**
 * The distinct accounts of a chain (senders, recipients, created contracts), in order of first
 * appearance.
 *
 * @example
 * chainAccounts(chain).length === referenceTotals(chain).totalAccounts // true
 */
export function chainAccounts(chain: readonly BlockBundle[]): Hex[] {
  const accounts = new Set<Hex>();
  for (const tx of chainTransactions(chain)) for (const address of involvedAddresses(tx)) accounts.add(address);
  return [...accounts];
}

/**
 * What `listAddressTransactions` must return for `address` over the whole chain, ascending,
 * unpaged.
 *
 * @example
 * expect(await storage.listAddressTransactions({ address, page: 1, offset: 10_000, sort: 'asc' }))
 *   .toEqual(referenceAddressTransactions(chain, address));
 */
export function referenceAddressTransactions(chain: readonly BlockBundle[], address: Hex): StoredTransaction[] {
  return chainTransactions(chain).filter((tx) => involvedAddresses(tx).includes(address));
}

/**
 * What `getAddressActivity` must return for `address`: first and last activity are the
 * timestamps of the blocks holding its first and last transaction.
 *
 * @example
 * expect(await storage.getAddressActivity(address)).toEqual(referenceAddressActivity(chain, address));
 */
export function referenceAddressActivity(chain: readonly BlockBundle[], address: Hex): AddressActivity {
  const blocks = chain.filter((bundle) =>
    bundle.transactions.some((tx) => involvedAddresses(tx).includes(address)),
  );
  return {
    transactionCount: referenceAddressTransactions(chain, address).length,
    firstSeen: blocks[0]?.block.timestamp ?? null,
    lastSeen: blocks.at(-1)?.block.timestamp ?? null,
  };
}

/**
 * What `countAddressTokenTransfers` must return for `address` over the whole chain: transfers
 * with it as sender or recipient, a transfer to itself once.
 *
 * @example
 * expect(await storage.countAddressTokenTransfers(address)).toBe(referenceTokenTransferCount(chain, address));
 */
export function referenceTokenTransferCount(chain: readonly BlockBundle[], address: Hex): number {
  return chain.flatMap((bundle) => bundle.tokenTransfers).filter((t) => t.from === address || t.to === address).length;
}

/** Every sender and recipient of the chain's token transfers, zero address included. */
export function tokenTransferParties(chain: readonly BlockBundle[]): Hex[] {
  return [...new Set(chain.flatMap((bundle) => bundle.tokenTransfers.flatMap((t) => [t.from, t.to])))];
}

/**
 * What `getChainTotals` must return after writing exactly `chain`.
 *
 * @example
 * expect(await storage.getChainTotals()).toEqual(referenceTotals(chain.slice(0, 3)));
 */
export function referenceTotals(chain: readonly BlockBundle[]): ChainTotals {
  const transactions = chainTransactions(chain);
  return {
    totalTransactions: transactions.length,
    totalAccounts: chainAccounts(chain).length,
    totalContracts: transactions.filter((tx) => tx.contractAddress !== null).length,
  };
}

/**
 * What `getCursor` must return after writing exactly `chain`: its last block, or `null`.
 *
 * @example
 * expect(await storage.getCursor()).toEqual(referenceCursor(chain));
 */
export function referenceCursor(chain: readonly BlockBundle[]): IndexerCursor | null {
  const last = chain.at(-1)?.block;
  return last ? { number: last.number, hash: last.hash } : null;
}
