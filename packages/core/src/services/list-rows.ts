import { LRUCache } from 'lru-cache';
import type { EventHub } from '../events/index.js';
import { growing } from '../runtime/growing-lru.js';
import { JsonArrayText } from '../records/json-array-text.js';
import type { BlockBundle, Hex, IndexerCursor, ListTip, OrdinalRange } from '../storage/index.js';
import { confirmationsOf } from './format.js';
import { KeptRows, type RowText } from './kept-rows.js';

export type { RowText } from './kept-rows.js';

/** A token's transfers, numbered in chain order (`token_seq`). */
export function tokenTransfersList(token: Hex): string {
  return `token:${token.toLowerCase()}`;
}

/** A contract's logs, numbered in chain order (`address_seq`). */
export function addressLogsList(address: Hex): string {
  return `logs:${address.toLowerCase()}`;
}

/** Lists whose length is followed at once; beyond it the least recently read are read again when asked. */
const MAX_LISTS = 100_000;
/**
 * Rows read above a newest-first page whose top rows are not kept. Each block that adds to a list
 * shifts its newest-first pages down by the rows it adds, so such a page lacks the few rows above
 * it again at every block (those of the page above, when that one is not kept): read ahead, the
 * next blocks' shifts find them kept.
 */
const READ_AHEAD = 32;

/** What a list's rows show besides the rows themselves, read from storage (see {@link ListSource.context}). */
export interface ListContext<C> {
  value: C;
  /** Identifies `value`: a kept text written under another context is written again. */
  key: string;
}

/** How to read one list and write its rows, for {@link ListRows.page}. */
export interface ListSource<T, C> {
  /** The list's name ({@link tokenTransfersList}, {@link addressLogsList}). */
  list: string;
  /** How its rows are written (a contract's logs as REST events, as Etherscan logs): each shape's texts and context are kept apart. */
  shape: string;
  /** The operator data version rows show (the labels version): a context read under another is read again. */
  version: string;
  /**
   * What a row's text depends on besides the row and `version` (the token's name, the contract's
   * label and verification). Kept per list until a heard block touches the list, a contract's
   * verification (`logs:` lists), a reorg or another `version`, as the response cache keeps an
   * answer of the list's scope; rejects (nothing kept) where the list's owner does not exist.
   */
  context(): Promise<ListContext<C>>;
  /** The list's length and newest block, read together from storage. */
  tip(): Promise<ListTip | null>;
  /** The list's entries numbered `first` to `last` (as {@link tip} counts them), oldest first. */
  range(range: OrdinalRange): Promise<T[]>;
  /** The rows' JSON texts, in order, exactly as the answer's array holds them (confirmations apart). */
  write(rows: T[], context: C): Promise<RowText[]>;
}

/**
 * Ready-to-serve rows of the lists kept in chain order (a token's transfers, a contract's logs).
 * A list's entries are numbered 1, 2, 3… in chain order and an entry never changes once written
 * (until a reorg), so its JSON text is kept by (list, ordinal), and each list's length is
 * followed in process from the blocks this instance hears. A page, newest first too, is then a
 * range of ordinals assembled from kept texts: a new block adds rows at the top of a list rather
 * than outdating its pages, and a page recomputed after it reads nothing from storage. Rows not
 * kept yet are read by their ordinals: a page a block shifted reads the few rows it lacks (new
 * ones at its top, older ones at its bottom), not the whole page. What the rows show besides
 * themselves (the list's context) is kept per list too, so a page assembled from kept rows
 * makes no storage read at all.
 *
 * A length is read from storage once (its newest block with it) and moved by every heard block
 * after that block; the blocks heard must form one line (each the child of the last), else, as
 * at a reorg, everything is forgotten. A page is only assembled at the heard tip; otherwise, or
 * when a read overlapped a heard block or a reorg, {@link page} answers `null` and the caller
 * reads the page from storage as it would without this. Memory is bounded by the texts' size.
 */
export class ListRows {
  readonly #texts: KeptRows;
  /** Per list, its length and the newest block it counts (no entry after it is counted). */
  readonly #lengths = new LRUCache<string, ListTip>(growing(MAX_LISTS));
  /** Per list and shape, its context read (or being read) under a version; dropped when the list is touched. */
  readonly #contexts = new LRUCache<string, Map<string, { version: string; context: Promise<ListContext<unknown>> }>>(growing(MAX_LISTS));
  /** Bumped by a reorg or a break in the heard blocks: nothing read before is used after. */
  #line = 0;
  /** Bumped by each heard block: a length read meanwhile may or may not count that block. */
  #heard = 0;
  #tip: Hex | null = null;

  /** `maxBytes`: the most characters of row texts and keys kept at once (positive). */
  constructor(hub: EventHub, maxBytes: number) {
    this.#texts = new KeptRows(maxBytes);
    hub.on('block', (bundle) => this.#witness(bundle));
    hub.on('reorg', () => this.#restart());
    // A verification changes how a contract's logs decode.
    hub.on('verified', ({ address }) => this.#contexts.delete(addressLogsList(address)));
  }

  /**
   * Page `page` of `offset` entries of `source`'s list in `sort` order, as a JSON array's text,
   * at the indexed head `head`; `null` where it cannot be assembled exactly (see the class), or
   * for an empty list (whose answer may need more than its rows). Rejects as `source.context` does.
   */
  async page<T, C, R>(source: ListSource<T, C>, head: IndexerCursor | null, query: { page: number; offset: number; sort: 'asc' | 'desc' }): Promise<JsonArrayText<R> | null> {
    if (head === null || head.hash !== this.#tip) return null;
    const line = this.#line;
    const [tip, context] = await Promise.all([this.#tipOf(source), this.#contextOf(source)]);
    if (tip === null || tip.length === 0 || line !== this.#line) return null;
    const { length } = tip;
    const { page, offset, sort } = query;
    const key = `${source.version}|${context.key}`;
    // Ordinals first to last as the page shows them.
    const [first, last] = sort === 'asc' ? [(page - 1) * offset + 1, Math.min(page * offset, length)] : [length - (page - 1) * offset, Math.max(length - page * offset + 1, 1)];
    if (sort === 'asc' ? first > last : first < last) return new JsonArrayText('[]', 0);
    const step = sort === 'asc' ? 1 : -1;
    const count = Math.abs(last - first) + 1;
    const texts = new Array<RowText>(count);
    const kept = `${source.shape}|${source.list}`;
    // The lowest and highest ordinals not kept.
    const { lowest, highest } = this.#texts.gather(kept, key, first, step, texts);
    if (highest >= lowest) {
      const top = sort === 'desc' && highest === first ? Math.min(length, highest + READ_AHEAD) : highest;
      // One read of the ordinals between them. They are at most the length, so the read holds
      // exactly the entries the length counts, whatever was written after it.
      const rows = await source.range({ first: lowest, last: top });
      if (rows.length !== top - lowest + 1) return null;
      const written = await source.write(rows, context.value);
      // Rows read across a reorg may be of either branch.
      if (line !== this.#line) return null;
      for (let ordinal = lowest; ordinal <= highest; ordinal++) texts[(ordinal - first) * step] = written[ordinal - lowest]!;
      this.#texts.keep(kept, key, lowest, written);
    }
    const shown = texts.map((text) => (typeof text === 'string' ? text : `${text.before}${confirmationsOf(text.blockNumber, head.number)}${text.after}`));
    return new JsonArrayText(`[${shown.join(',')}]`, count);
  }

  /** The list's length at the tip: followed, else read (`null` when a block was heard meanwhile). */
  async #tipOf(source: ListSource<unknown, unknown>): Promise<ListTip | null> {
    const kept = this.#lengths.get(source.list);
    if (kept !== undefined) return kept;
    const [line, heard] = [this.#line, this.#heard];
    const read = (await source.tip()) ?? { length: 0, blockNumber: -1n };
    // A block heard during the read may or may not be counted in it: it is read again next time.
    if (line !== this.#line || heard !== this.#heard) return null;
    this.#lengths.set(source.list, read);
    return read;
  }

  /** The list's context under `source.version`: kept, else read once for every concurrent caller. */
  #contextOf<C>(source: ListSource<unknown, C>): Promise<ListContext<C>> {
    let shapes = this.#contexts.get(source.list);
    const kept = shapes?.get(source.shape);
    if (kept !== undefined && kept.version === source.version) return kept.context as Promise<ListContext<C>>;
    if (shapes === undefined) this.#contexts.set(source.list, (shapes = new Map()));
    const context = source.context();
    const entry = { version: source.version, context: context as Promise<ListContext<unknown>> };
    shapes.set(source.shape, entry);
    // A failed read (no such token or contract) is not kept.
    context.catch(() => {
      if (shapes.get(source.shape) === entry) shapes.delete(source.shape);
    });
    return context;
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
      // Read again at the next page, as the response cache computes the list's answers again.
      this.#contexts.delete(list);
      const kept = this.#lengths.peek(list);
      // A length read after this block was written already counts it.
      if (kept !== undefined && kept.blockNumber < number) this.#lengths.set(list, { length: kept.length + count, blockNumber: number });
    }
    this.#tip = hash;
  }

  #restart(): void {
    this.#line++;
    this.#lengths.clear();
    this.#contexts.clear();
    this.#texts.clear();
    this.#tip = null;
  }
}
