import {
  type AddressActivity,
  type AddressLogsQuery,
  type AddressTokenBalancesQuery,
  type AddressTokenTransfersQuery,
  type BlockBundle,
  type ChainTotals,
  type Hex,
  type IndexerCursor,
  type StoredLog,
  type StoredLogWithGas,
  type StoredToken,
  type StoredTokenBalance,
  type StoredTokenHolder,
  type StoredTokenTransfer,
  type StoredTransaction,
  type StoredTransferWithTransaction,
  type TokenHoldersPage,
  type TokenHoldersQuery,
  type TokensQuery,
  type TokenTransfersQuery,
  type TransactionsBetweenQuery,
  ZERO_ADDRESS,
} from '@chainlens/core';

export { ZERO_ADDRESS };

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

/** A chain's transaction of each hash; throws for a hash the chain lacks (a reference must not guess). */
function transactionOf(chain: readonly BlockBundle[]): (hash: Hex) => StoredTransaction {
  const byHash = new Map(chainTransactions(chain).map((tx) => [tx.hash, tx]));
  return (hash) => {
    const tx = byHash.get(hash);
    if (!tx) throw new Error(`reference: no transaction ${hash} in the chain`);
    return tx;
  };
}

/**
 * `logs` of `chain` each with its transaction's block time and gas, as `JoinedPageReader.listLogsWithGas` answers them.
 *
 * @example
 * withGas(chain, referenceAddressLogs(chain, query))[0]!.gasUsed
 */
export function withGas(chain: readonly BlockBundle[], logs: readonly StoredLog[]): StoredLogWithGas[] {
  const transaction = transactionOf(chain);
  return logs.map((log) => {
    const { timestamp, effectiveGasPrice, gasUsed } = transaction(log.transactionHash);
    return { ...log, timestamp, effectiveGasPrice, gasUsed };
  });
}

/**
 * `transfers` of `chain` each with its transaction (less its logs bloom), as `JoinedPageReader`'s transfer pages answer them.
 *
 * @example
 * withTransactions(chain, referenceTokenTransfers(chain, query))[0]!.transaction.hash
 */
export function withTransactions(chain: readonly BlockBundle[], transfers: readonly StoredTokenTransfer[]): StoredTransferWithTransaction[] {
  const transaction = transactionOf(chain);
  return transfers.map((transfer) => {
    const { logsBloom: _, ...listed } = transaction(transfer.transactionHash);
    return { transfer, transaction: listed };
  });
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
  return chainTokenTransfers(chain).filter((t) => t.from === address || t.to === address).length;
}

/** Every sender and recipient of the chain's token transfers, zero address included. */
export function tokenTransferParties(chain: readonly BlockBundle[]): Hex[] {
  return [...new Set(chainTokenTransfers(chain).flatMap((t) => [t.from, t.to]))];
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

/** Every token transfer of a chain, in chain order. */
export function chainTokenTransfers(chain: readonly BlockBundle[]): StoredTokenTransfer[] {
  return chain.flatMap((bundle) => bundle.tokenTransfers);
}

/** Every holder that ever had a transfer of `token`, with its balance now (zero included). */
function holderStates(chain: readonly BlockBundle[], token: Hex): StoredTokenHolder[] {
  const holders = new Map<Hex, StoredTokenHolder>();
  for (const transfer of chainTokenTransfers(chain)) {
    if (transfer.token !== token) continue;
    for (const [party, change] of [[transfer.from, -transfer.value], [transfer.to, transfer.value]] as const) {
      if (party === ZERO_ADDRESS) continue;
      const state = holders.get(party) ?? { holder: party, balance: 0n, firstSeen: transfer.timestamp, lastActivity: transfer.timestamp };
      state.balance += change;
      state.lastActivity = transfer.timestamp;
      holders.set(party, state);
    }
  }
  return [...holders.values()];
}

/**
 * What `getToken` must return after writing exactly `chain`.
 *
 * @example
 * expect(await storage.getToken(token)).toEqual(referenceToken(chain, token));
 */
export function referenceToken(chain: readonly BlockBundle[], token: Hex): StoredToken | null {
  const transfers = chainTokenTransfers(chain).filter((t) => t.token === token);
  const first = transfers[0];
  if (!first) return null;
  return {
    address: token,
    standard: first.standard,
    firstBlock: first.blockNumber,
    transferCount: transfers.length,
    holderCount: holderStates(chain, token).filter((h) => h.balance > 0n).length,
    metadata: null,
  };
}

/**
 * What `listTokenHolders` must return: positive balances of at least `minBalance`, largest
 * first (ties by address), paged.
 *
 * @example
 * expect(await storage.listTokenHolders(query)).toEqual(referenceTokenHolders(chain, query));
 */
export function referenceTokenHolders(chain: readonly BlockBundle[], query: TokenHoldersQuery): TokenHoldersPage {
  const floor = query.minBalance !== undefined && query.minBalance > 1n ? query.minBalance : 1n;
  const matching = holderStates(chain, query.token)
    .filter((h) => h.balance >= floor)
    .sort((a, b) => (a.balance === b.balance ? (a.holder < b.holder ? -1 : 1) : a.balance > b.balance ? -1 : 1));
  const start = (query.page - 1) * query.offset;
  return { total: matching.length, holders: matching.slice(start, start + query.offset) };
}

/**
 * What `listAddressTokenBalances` must return.
 *
 * @example
 * expect(await storage.listAddressTokenBalances(query)).toEqual(referenceAddressTokenBalances(chain, query));
 */
export function referenceAddressTokenBalances(chain: readonly BlockBundle[], query: AddressTokenBalancesQuery): StoredTokenBalance[] {
  const tokens = [...new Set(chainTokenTransfers(chain).map((t) => t.token))].sort();
  const held = tokens.flatMap((token) => {
    const state = holderStates(chain, token).find((h) => h.holder === query.holder && h.balance > 0n);
    return state ? [{ token, balance: state.balance, firstSeen: state.firstSeen, lastActivity: state.lastActivity }] : [];
  });
  const start = (query.page - 1) * query.offset;
  return held.slice(start, start + query.offset);
}

/**
 * What `listTokenTransfers` must return.
 *
 * @example
 * expect(await storage.listTokenTransfers(query)).toEqual(referenceTokenTransfers(chain, query));
 */
export function referenceTokenTransfers(chain: readonly BlockBundle[], query: TokenTransfersQuery): StoredTokenTransfer[] {
  const matching = chainTokenTransfers(chain).filter(
    (t) =>
      t.token === query.token &&
      (query.from === undefined || t.from === query.from) &&
      (query.to === undefined || t.to === query.to) &&
      (query.startBlock === undefined || t.blockNumber >= query.startBlock) &&
      (query.endBlock === undefined || t.blockNumber <= query.endBlock),
  );
  if (query.sort === 'desc') matching.reverse();
  const start = (query.page - 1) * query.offset;
  return matching.slice(start, start + query.offset);
}

/**
 * What `listAddressTokenTransfers` must return.
 *
 * @example
 * expect(await storage.listAddressTokenTransfers(query)).toEqual(referenceAddressTokenTransfers(chain, query));
 */
export function referenceAddressTokenTransfers(chain: readonly BlockBundle[], query: AddressTokenTransfersQuery): StoredTokenTransfer[] {
  const matching = chainTokenTransfers(chain).filter(
    (t) =>
      (t.from === query.address || t.to === query.address) &&
      (query.token === undefined || t.token === query.token) &&
      (query.standard === undefined || t.standard === query.standard) &&
      (query.startBlock === undefined || t.blockNumber >= query.startBlock) &&
      (query.endBlock === undefined || t.blockNumber <= query.endBlock),
  );
  if (query.sort === 'desc') matching.reverse();
  const start = (query.page - 1) * query.offset;
  return matching.slice(start, start + query.offset);
}

/**
 * What `listTransactionsBetween` must return.
 *
 * @example
 * expect(await storage.listTransactionsBetween(query)).toEqual(referenceTransactionsBetween(chain, query));
 */
export function referenceTransactionsBetween(chain: readonly BlockBundle[], query: TransactionsBetweenQuery): StoredTransaction[] {
  const matching = chainTransactions(chain).filter((tx) => {
    const involved = involvedAddresses(tx);
    return involved.includes(query.address) && involved.includes(query.counterparty);
  });
  if (query.sort === 'desc') matching.reverse();
  const start = (query.page - 1) * query.offset;
  return matching.slice(start, start + query.offset);
}

/**
 * What `listAddressLogs` must return.
 *
 * @example
 * expect(await storage.listAddressLogs(query)).toEqual(referenceAddressLogs(chain, query));
 */
export function referenceAddressLogs(chain: readonly BlockBundle[], query: AddressLogsQuery): StoredLog[] {
  const matching = chainLogs(chain).filter(
    (log) =>
      log.address === query.address &&
      (query.topic0 === undefined || log.topics[0] === query.topic0) &&
      (query.startBlock === undefined || log.blockNumber >= query.startBlock) &&
      (query.endBlock === undefined || log.blockNumber <= query.endBlock),
  );
  if (query.sort === 'desc') matching.reverse();
  const start = (query.page - 1) * query.offset;
  return matching.slice(start, start + query.offset);
}

/**
 * What `listTokens` must return.
 *
 * @example
 * expect(await storage.listTokens({ limit: 10 })).toEqual(referenceTokens(chain, { limit: 10 }));
 */
export function referenceTokens(chain: readonly BlockBundle[], query: TokensQuery): StoredToken[] {
  const addresses = [...new Set(chainTokenTransfers(chain).map((t) => t.token))]
    .filter((a) => (query.include === undefined || query.include.includes(a)) && !(query.exclude ?? []).includes(a));
  const tokens = addresses.map((a) => referenceToken(chain, a)!);
  tokens.sort((a, b) => b.holderCount - a.holderCount || b.transferCount - a.transferCount || (a.address < b.address ? -1 : 1));
  const start = query.offset ?? 0;
  return tokens.slice(start, start + query.limit);
}

/**
 * What `countTokenHoldersAt` must return: holders of `token` with a positive balance once block
 * `blockNumber` was written.
 */
export function referenceTokenHoldersAt(chain: readonly BlockBundle[], token: Hex, blockNumber: bigint): number {
  return holderStates(chain.filter((bundle) => bundle.block.number <= blockNumber), token).filter((h) => h.balance > 0n).length;
}
