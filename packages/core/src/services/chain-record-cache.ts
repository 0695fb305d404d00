import { LRUCache } from 'lru-cache';
import type { EventHub } from '../events/index.js';
import type { BlockReader, Hex, StoredBlock, StoredTransaction, TransactionReader } from '../storage/index.js';

/**
 * Indexed records that only a reorg can change (a transaction by hash, a block by number), kept
 * between requests. The response cache starts afresh with every block; this one survives blocks,
 * so an answer recomputed after a block (confirmations move) reads nothing from storage. A reorg
 * clears it, on every instance that hears the event; a read that started before a reorg is
 * answered but not kept, since it may predate the rollback. Absent records are never kept: they
 * may be indexed next. Memory is bounded by `maxBytes`, as the callers estimate their records.
 */
export class ChainRecordCache {
  readonly #records: LRUCache<string, object, number> | null;
  /** Per list (an address's transactions), the share of its last page's records that were kept. */
  readonly #keptShares = new LRUCache<string, number>({ max: 10_000 });
  /** Bumped by every reorg, so a read that started before one is not kept. */
  #generation = 0;

  /** `maxBytes` 0 keeps nothing. */
  constructor(hub: EventHub, maxBytes: number) {
    this.#records = maxBytes > 0 ? new LRUCache({ maxSize: maxBytes }) : null;
    hub.on('reorg', () => {
      this.#generation++;
      this.#records?.clear();
    });
  }

  /** The record kept under `key`, else `read`'s (kept unless `null`, counted as `bytes` of it). */
  async get<T extends object>(key: string, read: () => Promise<T | null>, bytes: (record: T) => number): Promise<T | null> {
    const records = this.#records;
    if (records === null) return read();
    const kept = records.get(key);
    if (kept !== undefined) return kept as T;
    const generation = this.#generation;
    const record = await read();
    if (record !== null) this.#keep(records, generation, key, record, bytes(record));
    return record;
  }

  /** Keeps `record` unless a reorg came after its read began (at `generation`): it may predate the rollback. */
  #keep(records: LRUCache<string, object, number>, generation: number, key: string, record: object, bytes: number): void {
    if (generation === this.#generation) records.set(key, record, { size: key.length + bytes });
  }

  /** The stored transaction `hash`, or `null`. */
  transaction(storage: TransactionReader, hash: Hex): Promise<StoredTransaction | null> {
    return this.get(`tx:${hash}`, () => storage.getTransaction(hash), transactionBytes);
  }

  /**
   * The stored transactions `hashes`, in order, `null` for unknown ones: the kept ones as they
   * are, the others in one storage read (and kept).
   */
  async transactions(storage: TransactionReader, hashes: readonly Hex[]): Promise<(StoredTransaction | null)[]> {
    const records = this.#records;
    if (records === null) return storage.getTransactions([...hashes]);
    const found = hashes.map((hash) => (records.get(`tx:${hash}`) as StoredTransaction | undefined) ?? null);
    const missing = hashes.filter((_, i) => found[i] === null);
    if (missing.length === 0) return found;
    const generation = this.#generation;
    const read = new Map<Hex, StoredTransaction>();
    for (const tx of await storage.getTransactions(missing)) if (tx !== null) read.set(tx.hash, tx);
    for (const tx of read.values()) this.#keep(records, generation, `tx:${tx.hash}`, tx, transactionBytes(tx));
    return hashes.map((hash, i) => found[i] ?? read.get(hash) ?? null);
  }

  /**
   * A page of transactions, read the cheaper way for the list `key` it belongs to: where most of
   * the list's last page was kept, its `hashes` and then the kept records (the others in one
   * read); otherwise its `rows` whole, in one pass, keeping them. Reading hashes first pays only
   * when the records are kept (they need no parsing); for a list seldom read it is a second pass
   * over the same rows. A page whose records vanished between the two reads (a rollback) is read
   * whole.
   */
  async transactionPage(storage: TransactionReader, key: string, hashes: () => Promise<Hex[]>, rows: () => Promise<StoredTransaction[]>): Promise<StoredTransaction[]> {
    const records = this.#records;
    if (records === null) return rows();
    if ((this.#keptShares.get(key) ?? 0) >= 0.5) {
      const listed = await hashes();
      const kept = listed.filter((hash) => records.has(`tx:${hash}`)).length;
      const found = await this.transactions(storage, listed);
      if (listed.length > 0) this.#keptShares.set(key, kept / listed.length);
      if (!found.includes(null)) return found as StoredTransaction[];
      return rows();
    }
    const generation = this.#generation;
    const page = await rows();
    const kept = page.filter((tx) => records.has(`tx:${tx.hash}`)).length;
    for (const tx of page) this.#keep(records, generation, `tx:${tx.hash}`, tx, transactionBytes(tx));
    if (page.length > 0) this.#keptShares.set(key, kept / page.length);
    return page;
  }

  /** Block `number` with its transaction hashes, or `null`. */
  blockWithTransactionHashes(storage: BlockReader, number: bigint): Promise<BlockWithTransactionHashes | null> {
    return this.get(`block:${number}`, () => storage.getBlockWithTransactionHashes(number), ({ block, transactionHashes }) => RECORD_BYTES + block.extraData.length + transactionHashes.length * 80);
  }
}

/** What a record's numbers, hashes and addresses take, beside its variable-length parts. */
const RECORD_BYTES = 1_024;

const transactionBytes = (tx: StoredTransaction): number => RECORD_BYTES + tx.input.length + tx.logsBloom.length;

type BlockWithTransactionHashes = { block: StoredBlock; transactionHashes: Hex[] };
