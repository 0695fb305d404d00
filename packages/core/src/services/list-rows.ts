import { LRUCache } from 'lru-cache';
import type { EventHub } from '../events/index.js';
import { JsonArrayText } from '../records/json-array-text.js';
import type { BlockBundle, Hex, ListTip } from '../storage/index.js';

/** A token's transfers, numbered in chain order (`token_seq`). */
export function tokenTransfersList(token: Hex): string {
  return `token:${token.toLowerCase()}`;
}

/** A contract's logs, numbered in chain order (`address_seq`). */
export function addressLogsList(address: Hex): string {
  return `logs:${address.toLowerCase()}`;
}

/** Rows read from storage at once: aligned runs of this many ordinals, one storage page each. */
const CHUNK = 100;

/** Lists whose length is followed at once; beyond it the least recently read are read again when asked. */
const MAX_LISTS = 100_000;

/** How to read one list and write its rows, for {@link ListRows.page}. */
export interface ListSource<T> {
  /** The list's name ({@link tokenTransfersList}, {@link addressLogsList}). */
  list: string;
  /**
   * What a row's text depends on besides the row (the labels version, the token's name, the
   * contract's verification): a kept text written under another context is written again.
   */
  context: string;
  /** The list's length and newest block, read together from storage. */
  tip(): Promise<ListTip | null>;
  /** The list's entries oldest first, page `page` of `size` (ordinals (page-1)·size+1 on). */
  read(page: number, size: number): Promise<T[]>;
  /** The rows' JSON texts, in order, exactly as the answer's array holds them. */
  write(rows: T[]): Promise<string[]>;
}

/**
 * Ready-to-serve rows of the lists kept in chain order (a token's transfers, a contract's logs).
 * A list's entries are numbered 1, 2, 3… in chain order and an entry never changes once written
 * (until a reorg), so its JSON text is kept by (list, ordinal), and each list's length is
 * followed in process from the blocks this instance hears. A page, newest first too, is then a
 * range of ordinals assembled from kept texts: a new block adds rows at the top of a list rather
 * than outdating its pages, and a page recomputed after it reads nothing from storage.
 *
 * A length is read from storage once (its newest block with it) and moved by every heard block
 * after that block; the blocks heard must form one line (each the child of the last), else, as
 * at a reorg, everything is forgotten. A page is only assembled at the heard tip; otherwise, or
 * when a read overlapped a heard block or a reorg, {@link page} answers `null` and the caller
 * reads the page from storage as it would without this. Memory is bounded by the texts' size.
 */
export class ListRows {
  readonly #texts: LRUCache<string, { context: string; text: string }>;
  readonly #lengths = new LRUCache<string, { length: number; through: bigint }>({ max: MAX_LISTS });
  /** Bumped by a reorg or a break in the heard blocks: nothing read before is used after. */
  #line = 0;
  /** Bumped by each heard block: a length read meanwhile may or may not count that block. */
  #heard = 0;
  #tip: Hex | null = null;

  /** `maxBytes`: the most characters of row texts and keys kept at once (positive). */
  constructor(hub: EventHub, maxBytes: number) {
    this.#texts = new LRUCache({ maxSize: maxBytes, sizeCalculation: (row, key) => row.text.length + row.context.length + key.length });
    hub.on('block', (bundle) => this.#witness(bundle));
    hub.on('reorg', () => this.#restart());
  }

  /**
   * Page `page` of `offset` entries of `source`'s list in `sort` order, as a JSON array's text,
   * at the indexed head `head` (its hash); `null` where it cannot be assembled exactly (see the
   * class), or for an empty list (whose answer may need more than its rows).
   */
  async page<T, R>(source: ListSource<T>, head: Hex | null, query: { page: number; offset: number; sort: 'asc' | 'desc' }): Promise<JsonArrayText<R> | null> {
    if (head === null || head !== this.#tip) return null;
    const line = this.#line;
    const length = await this.#length(source);
    if (length === null || length === 0 || line !== this.#line) return null;
    const { page, offset, sort } = query;
    // Ordinals first to last as the page shows them.
    const [first, last] = sort === 'asc' ? [(page - 1) * offset + 1, Math.min(page * offset, length)] : [length - (page - 1) * offset, Math.max(length - page * offset + 1, 1)];
    if (sort === 'asc' ? first > last : first < last) return new JsonArrayText('[]', 0);
    const step = sort === 'asc' ? 1 : -1;
    const count = Math.abs(last - first) + 1;
    const texts = new Array<string>(count);
    const missing = new Set<number>();
    for (let i = 0; i < count; i++) {
      const kept = this.#texts.get(`${source.list}#${first + i * step}`);
      if (kept !== undefined && kept.context === source.context) texts[i] = kept.text;
      else missing.add(Math.floor((first + i * step - 1) / CHUNK));
    }
    for (const chunk of missing) {
      const read = await this.#chunk(source, chunk, length, line);
      if (read === null) return null;
      for (let i = 0; i < count; i++) {
        const text = read.get(first + i * step);
        if (text !== undefined) texts[i] = text;
      }
    }
    return new JsonArrayText(`[${texts.join(',')}]`, count);
  }

  /** The list's length at the tip: followed, else read (`null` when a block was heard meanwhile). */
  async #length(source: ListSource<unknown>): Promise<number | null> {
    const kept = this.#lengths.get(source.list);
    if (kept !== undefined) return kept.length;
    const [line, heard] = [this.#line, this.#heard];
    const tip = await source.tip();
    // A block heard during the read may or may not be counted in it: it is read again next time.
    if (line !== this.#line || heard !== this.#heard) return null;
    const length = tip?.length ?? 0;
    this.#lengths.set(source.list, { length, through: tip?.blockNumber ?? -1n });
    return length;
  }

  /** The texts of chunk `chunk` of the list by ordinal, kept; `null` when storage did not hold what the length says. */
  async #chunk<T>(source: ListSource<T>, chunk: number, length: number, line: number): Promise<Map<number, string> | null> {
    const rows = await source.read(chunk + 1, CHUNK);
    if (rows.length < Math.min(CHUNK, length - chunk * CHUNK)) return null;
    const texts = await source.write(rows);
    // Rows read across a reorg may be of either branch.
    if (line !== this.#line) return null;
    const read = new Map<number, string>();
    texts.forEach((text, i) => {
      const ordinal = chunk * CHUNK + i + 1;
      read.set(ordinal, text);
      this.#texts.set(`${source.list}#${ordinal}`, { context: source.context, text });
    });
    return read;
  }

  #witness(bundle: BlockBundle): void {
    const { number, hash, parentHash } = bundle.block;
    if (this.#tip !== parentHash) this.#restart();
    this.#heard++;
    const added = new Map<string, number>();
    const add = (list: string) => added.set(list, (added.get(list) ?? 0) + 1);
    for (const transfer of bundle.tokenTransfers) add(tokenTransfersList(transfer.token));
    for (const log of bundle.logs) add(addressLogsList(log.address));
    for (const [list, count] of added) {
      const kept = this.#lengths.peek(list);
      // A length read after this block was written already counts it.
      if (kept !== undefined && kept.through < number) this.#lengths.set(list, { length: kept.length + count, through: number });
    }
    this.#tip = hash;
  }

  #restart(): void {
    this.#line++;
    this.#lengths.clear();
    this.#texts.clear();
    this.#tip = null;
  }
}
