import { LRUCache } from 'lru-cache';
import type { HttpResponse } from './types.js';

/**
 * Answers of routes marked `cache: 'head'`, kept per indexed head: such an answer is a function
 * of the request URL and the chain data up to the head, so until the head moves a repeated
 * request (a popular token's holders, a hot transaction) is answered without storage reads or
 * serialization. Keys carry the head, so a new block or a reorg starts afresh; the answers of
 * an earlier head can never be served again, so they are dropped as soon as a request sees the
 * head move rather than left to fill the budget. Only 200 answers are kept; concurrent misses of
 * one URL share one computation. Memory is bounded by the bodies' total size.
 */
export class ResponseCache {
  readonly #answers: LRUCache<string, HttpResponse>;
  readonly #running = new Map<string, Promise<HttpResponse>>();
  #head: string | null = null;

  /**
   * @param head - identifies the indexed head (its hash), `null` before anything is indexed
   *   (then nothing is cached).
   * @param maxBytes - the most body and key characters kept at once (positive).
   */
  constructor(
    private readonly head: () => Promise<string | null>,
    maxBytes: number,
  ) {
    this.#answers = new LRUCache({ maxSize: maxBytes, sizeCalculation: (response, key) => response.body.length + key.length });
  }

  /** The kept answer to `url` at the current head, else `compute`'s (kept when it is a 200). */
  async answer(url: string, compute: () => Promise<HttpResponse>): Promise<HttpResponse> {
    const head = await this.head();
    if (head === null) return compute();
    if (head !== this.#head) {
      this.#head = head;
      this.#answers.clear();
    }
    const key = `${head} ${url}`;
    const kept = this.#answers.get(key) ?? this.#running.get(key);
    if (kept) return kept;
    const running = compute()
      .then((response) => {
        if (response.status === 200) this.#answers.set(key, response);
        return response;
      })
      .finally(() => this.#running.delete(key));
    this.#running.set(key, running);
    return running;
  }
}
