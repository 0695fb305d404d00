/**
 * A row's JSON text. A row that shows its confirmations, which move with every block, is kept as
 * the text before and after them and its block: they are written in at each page, counted from
 * the page's head.
 */
export type RowText = string | { before: string; after: string; blockNumber: bigint };

/** Rows per chunk: a page of 100 rows spans two or three chunks. */
const CHUNK_BITS = 6;
const CHUNK_ROWS = 1 << CHUNK_BITS;
/** Characters counted per row slot and per chunk besides the texts (the slot array, the entry). */
const SLOT_COST = 8;
const CHUNK_COST = 64;
/** Chunk asks counted before every count is halved, per chunk kept: recent asks weigh most. */
const ASKS_PER_CHUNK = 8;

/** Ordinals `CHUNK_ROWS × index + 1 …` of one list, written under one context. */
interface Chunk {
  context: string;
  texts: (RowText | undefined)[];
  size: number;
}

/**
 * Row texts of numbered lists, kept by (list, ordinal) in chunks of consecutive ordinals, so a
 * page is a couple of lookups and a list's rows carry its context once per chunk, not once per
 * row. Bounded by the texts' characters (`maxBytes`).
 *
 * Eviction is least recently used, but a chunk not kept yet is only let in over a full budget
 * when it has been asked more often lately than the chunk it would evict (TinyLFU's admission).
 * The asks that reach here are each page's first at a head (later ones are answered by the
 * response cache), so every page asked since the last block is asked about once: when more
 * distinct pages are asked per block than the budget holds, plain LRU evicts every chunk before
 * its page is asked again, the hot ones too, and almost every page is read from storage. Counting
 * asks keeps the often-asked chunks and lets the rarely asked ones be read when asked.
 */
export class KeptRows {
  /** Least recently asked first. */
  readonly #chunks = new Map<string, Chunk>();
  /** Asks per chunk key, halved every {@link ASKS_PER_CHUNK} asks per chunk kept. */
  readonly #asks = new Map<string, number>();
  #asked = 0;
  #size = 0;

  /** `maxBytes`: the most characters of texts (and their bookkeeping) kept at once (positive). */
  constructor(private readonly maxBytes: number) {}

  /**
   * Fills `texts[i]` with the kept text of ordinal `first + i × step` of `list` written under
   * `context`, for `i` below `texts.length`; resolves the lowest and highest ordinals not kept
   * (`lowest > highest` when every one is).
   */
  gather(list: string, context: string, first: number, step: 1 | -1, texts: RowText[]): { lowest: number; highest: number } {
    let lowest = Number.POSITIVE_INFINITY;
    let highest = Number.NEGATIVE_INFINITY;
    let index = -1;
    let chunk: Chunk | undefined;
    for (let i = 0; i < texts.length; i++) {
      const ordinal = first + i * step;
      const at = ordinal - 1;
      if (at >> CHUNK_BITS !== index) {
        index = at >> CHUNK_BITS;
        chunk = this.#ask(`${list}#${index}`, context);
      }
      const text = chunk?.texts[at & (CHUNK_ROWS - 1)];
      if (text !== undefined) texts[i] = text;
      else {
        if (ordinal < lowest) lowest = ordinal;
        if (ordinal > highest) highest = ordinal;
      }
    }
    return { lowest, highest };
  }

  /** Keeps `texts` as ordinals `first`, `first + 1`… of `list`, written under `context` (as admission allows). */
  keep(list: string, context: string, first: number, texts: RowText[]): void {
    let i = 0;
    while (i < texts.length) {
      const at = first + i - 1;
      const index = at >> CHUNK_BITS;
      const end = Math.min(texts.length, i + CHUNK_ROWS - (at & (CHUNK_ROWS - 1)));
      this.#keepIn(`${list}#${index}`, context, at & (CHUNK_ROWS - 1), texts.slice(i, end));
      i = end;
    }
  }

  clear(): void {
    this.#chunks.clear();
    this.#asks.clear();
    this.#asked = 0;
    this.#size = 0;
  }

  /** The chunk under `key` if kept under `context` (marked recently asked), counting the ask either way. */
  #ask(key: string, context: string): Chunk | undefined {
    this.#asks.set(key, (this.#asks.get(key) ?? 0) + 1);
    if (++this.#asked >= ASKS_PER_CHUNK * (this.#chunks.size + CHUNK_ROWS)) this.#age();
    const chunk = this.#chunks.get(key);
    if (chunk === undefined || chunk.context !== context) return undefined;
    this.#chunks.delete(key);
    this.#chunks.set(key, chunk);
    return chunk;
  }

  #keepIn(key: string, context: string, from: number, texts: RowText[]): void {
    let chunk = this.#chunks.get(key);
    if (chunk !== undefined && chunk.context !== context) {
      this.#drop(key, chunk);
      chunk = undefined;
    }
    if (chunk === undefined) {
      const size = CHUNK_COST + key.length + context.length + CHUNK_ROWS * SLOT_COST;
      const added = texts.reduce((sum, text) => sum + sizeOf(text), 0);
      if (size + added > this.maxBytes) return;
      // Over a full budget, only a chunk asked more often than the one it would evict first.
      const victim = this.#size + size + added > this.maxBytes ? this.#chunks.keys().next().value : undefined;
      if (victim !== undefined && (this.#asks.get(key) ?? 0) <= (this.#asks.get(victim) ?? 0)) return;
      chunk = { context, texts: new Array<RowText | undefined>(CHUNK_ROWS), size };
      this.#chunks.set(key, chunk);
      this.#size += size;
    }
    for (let i = 0; i < texts.length; i++) {
      const old = chunk.texts[from + i];
      const change = sizeOf(texts[i]!) - (old === undefined ? 0 : sizeOf(old));
      chunk.texts[from + i] = texts[i];
      chunk.size += change;
      this.#size += change;
    }
    for (const [oldest, kept] of this.#chunks) {
      if (this.#size <= this.maxBytes) break;
      this.#drop(oldest, kept);
    }
  }

  #drop(key: string, chunk: Chunk): void {
    this.#chunks.delete(key);
    this.#size -= chunk.size;
  }

  /** Halves every ask count (forgetting those that reach 0): what was asked long ago weighs less. */
  #age(): void {
    this.#asked = 0;
    for (const [key, count] of this.#asks) {
      if (count > 1) this.#asks.set(key, count >> 1);
      else this.#asks.delete(key);
    }
  }
}

function sizeOf(text: RowText): number {
  return typeof text === 'string' ? text.length : text.before.length + text.after.length + SLOT_COST;
}
