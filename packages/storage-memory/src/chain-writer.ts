import {
  approvalProblem,
  blockTracesProblem,
  bucketOf,
  contractCreationProblem,
  internalTransactionProblem,
  pairEventProblem,
  type BlockBundle,
  type BlockTraces,
  type ChainWriter,
  type Hex,
  type IndexerCursor,
  type StoredBlock,
  type StoredContractCreation,
  type StoredLog,
  type StoredTokenTransfer,
  type StoredTransaction,
} from '@chainlens/core';
import { involved } from './address-index.js';
import { inTraceOrder, insertInOrder } from './block-order.js';
import type { BlockRollup } from './chart-index.js';
import { ChainRole, type BlockEntry, type ChainState, type TransactionEntry } from './chain-state.js';
import type { WebhookOutboxHooks } from './webhook-store.js';

/** A validated, frozen bundle, ready to commit. */
interface PreparedBundle {
  readonly block: BlockEntry;
  readonly transactions: readonly TransactionEntry[];
}

/**
 * Block and trace writes and rollbacks on the chain state, with the cursors. Each runs
 * synchronously to completion, the webhook outbox's change included, so a reader never sees
 * part of a block.
 */
export class MemoryChainWriter extends ChainRole implements ChainWriter {
  readonly #outbox: WebhookOutboxHooks;

  /** `initialBlocks` are written at once, with the same checks as `writeBlock` (a bad one throws). */
  constructor(state: ChainState, outbox: WebhookOutboxHooks, initialBlocks: Iterable<BlockBundle>) {
    super(state);
    this.#outbox = outbox;
    for (const bundle of initialBlocks) this.#commit(this.#prepare(bundle));
  }

  async writeBlock(bundle: BlockBundle): Promise<void> {
    this.#commit(this.#prepare(bundle));
    this.#outbox.enqueue(bundle, Date.now());
  }

  async writeBlocks(bundles: BlockBundle[]): Promise<void> {
    // Each bundle is checked against the one before it (as #prepare checks the cursor): all pass or nothing is written.
    const prepared: PreparedBundle[] = [];
    const hashes = new Set<Hex>();
    for (const bundle of bundles) {
      const entry = this.#prepare(bundle, prepared.at(-1)?.block.block);
      for (const { tx } of entry.transactions) {
        if (hashes.has(tx.hash)) throw new Error(`writeBlock: transaction ${tx.hash} is already stored`);
        hashes.add(tx.hash);
      }
      prepared.push(entry);
    }
    for (const entry of prepared) this.#commit(entry);
    for (const bundle of bundles) this.#outbox.enqueue(bundle, Date.now());
  }

  async rollbackTo(blockNumber: bigint): Promise<void> {
    const top = this.state.blocks.at(-1)?.block.number;
    if (top === undefined || blockNumber >= top) return;
    this.#removeAbove(blockNumber);
    this.#outbox.rollback(blockNumber, Date.now());
    this.state.traceCursor = this.state.blocks.length === 0 ? null : this.state.traceCursor! < blockNumber ? this.state.traceCursor : blockNumber;
  }

  async getTraceCursor(): Promise<bigint | null> {
    return this.state.traceCursor;
  }

  async writeBlockTraces(traces: BlockTraces[]): Promise<void> {
    const prepared = traces.map((entry, i) => {
      const expected = this.state.traceCursor === null ? null : this.state.traceCursor + 1n + BigInt(i);
      const stored = expected === null ? undefined : this.state.blockAt(expected);
      if (!stored || entry.blockNumber !== expected) {
        throw new Error(`writeBlockTraces: block ${entry.blockNumber} is not the next written block to trace (the trace cursor is ${this.state.traceCursor}, the cursor ${this.state.blocks.at(-1)?.block.number ?? null})`);
      }
      const problem = blockTracesProblem(entry, stored);
      if (problem) throw new Error(`writeBlockTraces: ${problem}`);
      return {
        stored,
        contracts: entry.contracts.map((creation) => Object.freeze({ ...creation })),
        internalTransactions: entry.internalTransactions.map((internal) => Object.freeze({ ...internal })),
      };
    });
    for (const { stored, contracts, internalTransactions } of prepared) {
      for (const internal of internalTransactions) this.state.internalTransactions.add(internal);
      for (const creation of contracts) this.#addCreation(creation);
      stored.contracts = Object.freeze([...stored.contracts, ...contracts].sort(inTraceOrder));
      stored.internalTransactions = Object.freeze([...stored.internalTransactions, ...internalTransactions].sort(inTraceOrder));
      this.state.traceCursor = stored.block.number;
    }
    this.#outbox.enqueueTraces(traces, Date.now());
  }

  /** Takes every block above `blockNumber` back, newest first. */
  #removeAbove(blockNumber: bigint): void {
    for (let top = this.state.blocks.at(-1); top && top.block.number > blockNumber; top = this.state.blocks.at(-1)) {
      this.state.blocks.pop();
      this.state.blocksByHash.delete(top.block.hash);
      const mined = this.state.blocksByMiner.get(top.block.miner)!;
      mined.pop();
      if (mined.length === 0) this.state.blocksByMiner.delete(top.block.miner);
      for (let i = top.internalTransactions.length - 1; i >= 0; i--) this.state.internalTransactions.removeLast(top.internalTransactions[i]!);
      for (let i = top.approvals.length - 1; i >= 0; i--) this.state.approvals.removeLast(top.approvals[i]!);
      for (let i = top.tokenTransfers.length - 1; i >= 0; i--) this.state.tokens.removeLast(top.tokenTransfers[i]!);
      for (const [token, transfers] of transfersPerToken(top.tokenTransfers)) this.state.charts.removeLastToken(token, transfers, this.state.tokens.holderCount(token));
      this.state.charts.removeLast(top.rollup!);
      for (let i = top.pairSwaps.length - 1; i >= 0; i--) this.state.dex.removeLastSwap(top.pairSwaps[i]!);
      for (let i = top.pairSyncs.length - 1; i >= 0; i--) this.state.dex.removeLastSync(top.pairSyncs[i]!);
      for (let i = top.pairs.length - 1; i >= 0; i--) this.state.dex.removeLastPair(top.pairs[i]!);
      for (let i = top.contracts.length - 1; i >= 0; i--) {
        const creations = this.state.contracts.get(top.contracts[i]!.address)!;
        creations.pop();
        if (creations.length === 0) this.state.contracts.delete(top.contracts[i]!.address);
      }
      for (let i = top.transactions.length - 1; i >= 0; i--) {
        const tx = top.transactions[i]!;
        const logs = this.state.transactions.get(tx.hash)!.logs;
        for (let j = logs.length - 1; j >= 0; j--) this.state.logs.removeLast(logs[j]!);
        this.state.transactions.delete(tx.hash);
        this.state.addresses.removeLast(tx);
        this.state.totalTransactions -= 1;
        if (tx.contractAddress !== null) this.state.totalContracts -= 1;
      }
    }
  }

  async getCursor(): Promise<IndexerCursor | null> {
    const top = this.state.blocks.at(-1)?.block;
    return top ? { number: top.number, hash: top.hash } : null;
  }

  /**
   * Checks the whole bundle against the cursor (or `parent`, a block checked before it in the
   * same write) and itself, and copies it; mutates nothing.
   */
  #prepare({ block, transactions, logs, tokenTransfers, pairs, pairSyncs, pairSwaps, approvals, contracts, internalTransactions }: BlockBundle, parent?: StoredBlock): PreparedBundle {
    const cursor = parent ?? this.state.blocks.at(-1)?.block;
    if (cursor && (block.number !== cursor.number + 1n || block.parentHash !== cursor.hash)) {
      throw new Error(
        `writeBlock: block ${block.number} (${block.hash}, parent ${block.parentHash}) is not the child of the cursor ${cursor.number} (${cursor.hash})`,
      );
    }
    if (this.state.blocksByHash.has(block.hash)) throw new Error(`writeBlock: block ${block.hash} is already stored`);

    const logsByTransaction = new Map<Hex, StoredLog[]>();
    const frozenTransactions: StoredTransaction[] = [];
    let lastIndex = -1;
    for (const tx of transactions) {
      if (tx.blockNumber !== block.number || tx.blockHash !== block.hash) {
        throw new Error(`writeBlock: transaction ${tx.hash} belongs to block ${tx.blockNumber} (${tx.blockHash})`);
      }
      if (tx.transactionIndex <= lastIndex) throw new Error(`writeBlock: transaction ${tx.hash} is out of index order`);
      if (this.state.transactions.has(tx.hash) || logsByTransaction.has(tx.hash)) {
        throw new Error(`writeBlock: transaction ${tx.hash} is already stored`);
      }
      lastIndex = tx.transactionIndex;
      logsByTransaction.set(tx.hash, []);
      frozenTransactions.push(Object.freeze({ ...tx }));
    }

    const logsByIndex = new Map<number, StoredLog>();
    let lastLogIndex = -1;
    for (const log of logs) {
      const list = logsByTransaction.get(log.transactionHash);
      if (!list) throw new Error(`writeBlock: log ${log.logIndex} belongs to no transaction of block ${block.hash}`);
      if (log.blockNumber !== block.number || log.blockHash !== block.hash) {
        throw new Error(`writeBlock: log ${log.logIndex} belongs to block ${log.blockNumber} (${log.blockHash})`);
      }
      if (log.logIndex <= lastLogIndex) throw new Error(`writeBlock: log ${log.logIndex} is out of logIndex order`);
      lastLogIndex = log.logIndex;
      logsByIndex.set(log.logIndex, log);
      list.push(Object.freeze({ ...log, topics: Object.freeze([...log.topics]) as Hex[] }));
    }

    let last: StoredTokenTransfer | undefined;
    for (const transfer of tokenTransfers) {
      const log = logsByIndex.get(transfer.logIndex);
      if (!log || transfer.blockNumber !== block.number || transfer.transactionHash !== log.transactionHash || transfer.transactionIndex !== log.transactionIndex) {
        throw new Error(`writeBlock: token transfer ${transfer.logIndex}/${transfer.batchIndex} names no log of block ${block.hash}`);
      }
      if (last && (transfer.logIndex < last.logIndex || (transfer.logIndex === last.logIndex && transfer.batchIndex <= last.batchIndex))) {
        throw new Error(`writeBlock: token transfer ${transfer.logIndex}/${transfer.batchIndex} is out of order`);
      }
      last = transfer;
    }
    const bundle = { block, transactions, logs, tokenTransfers, pairs, pairSyncs, pairSwaps, approvals, contracts, internalTransactions };
    const problem = pairEventProblem(bundle, logsByIndex) ?? approvalProblem(bundle, logsByIndex) ?? contractCreationProblem(bundle) ?? internalTransactionProblem(bundle);
    if (problem) throw new Error(`writeBlock: ${problem} (block ${block.hash})`);

    return {
      block: {
        block: Object.freeze({ ...block }),
        transactions: Object.freeze(frozenTransactions),
        tokenTransfers: Object.freeze(tokenTransfers.map((transfer) => Object.freeze({ ...transfer }))),
        pairs: Object.freeze(pairs.map((pair) => Object.freeze({ ...pair }))),
        pairSyncs: Object.freeze(pairSyncs.map((sync) => Object.freeze({ ...sync }))),
        pairSwaps: Object.freeze(pairSwaps.map((swap) => Object.freeze({ ...swap }))),
        approvals: Object.freeze(approvals.map((approval) => Object.freeze({ ...approval }))),
        rollup: null,
        contracts: Object.freeze(contracts.map((creation) => Object.freeze({ ...creation }))),
        internalTransactions: Object.freeze(internalTransactions.map((internal) => Object.freeze({ ...internal }))),
      },
      transactions: frozenTransactions.map((tx) => ({ tx, logs: Object.freeze(logsByTransaction.get(tx.hash)!) })),
    };
  }

  /** Applies a prepared bundle; cannot fail. */
  #commit({ block, transactions }: PreparedBundle): void {
    // Read before the block's transactions join the address index: who was active before it.
    block.rollup = this.#rollupOf(block);
    this.state.charts.add(block.rollup);
    this.state.blocks.push(block);
    this.state.blocksByHash.set(block.block.hash, block);
    const mined = this.state.blocksByMiner.get(block.block.miner);
    if (mined) mined.push(block.block);
    else this.state.blocksByMiner.set(block.block.miner, [block.block]);
    for (const transfer of block.tokenTransfers) this.state.tokens.add(transfer);
    for (const pair of block.pairs) this.state.dex.addPair(pair);
    for (const sync of block.pairSyncs) this.state.dex.addSync(sync);
    for (const swap of block.pairSwaps) this.state.dex.addSwap(swap);
    for (const approval of block.approvals) this.state.approvals.add(approval);
    for (const [token, transfers] of transfersPerToken(block.tokenTransfers)) this.state.charts.addToken(token, block.block.timestamp, transfers, this.state.tokens.holderCount(token));
    for (const internal of block.internalTransactions) this.state.internalTransactions.add(internal);
    for (const creation of block.contracts) this.#addCreation(creation);
    if (this.state.blocks.length === 1) this.state.traceCursor = block.block.number - 1n;
    for (const entry of transactions) {
      this.state.transactions.set(entry.tx.hash, entry);
      for (const log of entry.logs) this.state.logs.add(log);
      this.state.addresses.add(entry.tx);
      this.state.totalTransactions += 1;
      if (entry.tx.contractAddress !== null) this.state.totalContracts += 1;
    }
  }

  /**
   * What a block adds to the rollups of its hour and day: its figures, and of its addresses those
   * new to the chain and those not active earlier in the hour, and in the day (each address's
   * latest transaction so far tells). Constant work per address.
   */
  #rollupOf({ block, transactions, tokenTransfers }: BlockEntry): BlockRollup {
    const hour = bucketOf(block.timestamp, 'hour');
    const day = bucketOf(block.timestamp, 'day');
    const rollup: BlockRollup = { timestamp: block.timestamp, transactions: transactions.length, gasUsed: block.gasUsed, gasPriceSum: 0n, newContracts: 0, tokenTransfers: tokenTransfers.length, newAddresses: 0, hourActive: 0, dayActive: 0 };
    const seen = new Set<Hex>();
    for (const tx of transactions) {
      rollup.gasPriceSum += tx.effectiveGasPrice;
      if (tx.contractAddress !== null) rollup.newContracts += 1;
      for (const address of involved(tx)) {
        if (seen.has(address)) continue;
        seen.add(address);
        const last = this.state.addresses.span(address)?.last.timestamp;
        if (last === undefined) rollup.newAddresses += 1;
        if (last === undefined || last < hour) rollup.hourActive += 1;
        if (last === undefined || last < day) rollup.dayActive += 1;
      }
    }
    return rollup;
  }

  /** Adds a creation to its address's creations, which stay in chain order (traces arrive after later blocks). */
  #addCreation(creation: StoredContractCreation): void {
    const creations = this.state.contracts.get(creation.address);
    if (creations) insertInOrder(creations, creation, inTraceOrder);
    else this.state.contracts.set(creation.address, [creation]);
  }
}

/** How many of `transfers` each token has, in order of first appearance. */
function transfersPerToken(transfers: readonly StoredTokenTransfer[]): Map<Hex, number> {
  const counts = new Map<Hex, number>();
  for (const transfer of transfers) counts.set(transfer.token, (counts.get(transfer.token) ?? 0) + 1);
  return counts;
}
