import { LRUCache } from 'lru-cache';
import type { AnswerLineage, LineageMark } from '../events/answer-lineage.js';
import type { HttpResponse } from './types.js';

interface LastingAnswer {
  response: HttpResponse;
  mark: LineageMark;
  scopes: readonly string[];
  /** The operator data version it was computed at. */
  version: string;
}

/**
 * Answers of routes marked `cache: 'head'`, kept per indexed head: such an answer is a function
 * of the request URL and the chain data up to the head, so until the head moves a repeated
 * request (a popular token's holders, a hot transaction) is answered without storage reads or
 * serialization. Keys carry the head, so a new block or a reorg starts afresh; the answers of
 * an earlier head can never be served again, so they are dropped as soon as a request sees the
 * head move rather than left to fill the budget. Only 200 answers are kept; concurrent misses of
 * one URL share one computation. Memory is bounded by the bodies' total size.
 *
 * An answer given scopes (what of the chain it reads, such as one token's transfers) outlives its
 * head: with a lineage, it is kept by URL and served at later heads until a block touches one of
 * its scopes, a reorg, or a head the lineage did not hear; one that later blocks can only append
 * after (a full page, oldest first) until a reorg or an unheard head. Half the budget is for these.
 *
 * Answers may show operator data that changes apart from the chain (address labels): keys carry
 * its version too, so a change starts afresh as a new head does.
 */
export class ResponseCache {
  readonly #answers: LRUCache<string, HttpResponse>;
  readonly #lasting: LRUCache<string, LastingAnswer>;
  readonly #running = new Map<string, Promise<HttpResponse>>();
  #head: string | null = null;
  #version = '';
  /** Bumped when the head or the operator version moves: answers computed before are not kept. */
  #generation = 0;

  /**
   * @param head - identifies the indexed head (its hash), `null` before anything is indexed
   *   (then nothing is cached); at once when it is at hand, so a kept answer is too.
   * @param maxBytes - the most body and key characters kept at once (positive).
   * @param lineage - the heard blocks; without it scoped answers are kept per head like the rest.
   * @param operatorVersion - identifies the operator data answers may show (the labels version);
   *   without it answers depend on the chain alone.
   */
  constructor(
    private readonly head: () => string | null | Promise<string | null>,
    maxBytes: number,
    private readonly lineage: AnswerLineage | null = null,
    private readonly operatorVersion: () => string | Promise<string> = () => '',
  ) {
    const half = Math.max(1, Math.floor(maxBytes / 2));
    this.#answers = new LRUCache({ maxSize: lineage ? half : maxBytes, sizeCalculation: (response, key) => response.body.length + key.length });
    this.#lasting = new LRUCache({ maxSize: half, sizeCalculation: (answer, key) => answer.response.body.length + key.length });
  }

  /**
   * The kept answer to `url` at the current head, else `compute`'s (kept when it is a 200); a kept
   * answer comes at once, without a promise, when the head and version are at hand.
   * `scopes`: what of the chain the answer reads, when that is all it depends on besides the URL.
   * `appendOnly`, asked once the answer is computed: whether later blocks can only add after what
   * it shows (a full page of a list, oldest first), so that only a reorg outdates it; or the
   * scopes that still outdate it however the list grows.
   */
  answer(url: string, compute: () => Promise<HttpResponse>, scopes?: readonly string[], appendOnly?: () => boolean | readonly string[]): HttpResponse | Promise<HttpResponse> {
    const head = this.head();
    const version = this.operatorVersion();
    // Both are almost always at hand: a kept answer is then answered at once, without a promise.
    if (head instanceof Promise || version instanceof Promise) return Promise.all([head, version]).then(([h, v]) => this.#answerAt(h, v, url, compute, scopes, appendOnly));
    return this.#answerAt(head, version, url, compute, scopes, appendOnly);
  }

  /**
   * The answer kept for `url` when the head and version are at hand and are those it was kept
   * at, else `undefined` ({@link answer} then decides, computing or waiting as it must). Lets a
   * caller skip building a computation that a kept answer does not need. Answers kept with scopes
   * are not looked up here.
   */
  kept(url: string): HttpResponse | undefined {
    const head = this.head();
    if (head === null || head instanceof Promise || head !== this.#head) return undefined;
    const version = this.operatorVersion();
    if (version instanceof Promise || version !== this.#version) return undefined;
    return this.#answers.get(url);
  }

  #answerAt(
    head: string | null,
    version: string,
    url: string,
    compute: () => Promise<HttpResponse>,
    scopes: readonly string[] | undefined,
    appendOnly: (() => boolean | readonly string[]) | undefined,
  ): HttpResponse | Promise<HttpResponse> {
    if (head === null) return compute();
    if (head !== this.#head || version !== this.#version) {
      this.#head = head;
      this.#version = version;
      this.#generation++;
      this.#answers.clear();
      this.#running.clear();
    }
    // Taken before computing: a block heard meanwhile that touches the scopes outdates the answer.
    const mark = scopes && this.lineage ? this.lineage.mark(head) : null;
    if (mark !== null) {
      const lasting = this.#lasting.get(url);
      if (lasting && lasting.version === version && this.lineage!.unchangedSince(lasting.mark, head, lasting.scopes)) return lasting.response;
    }
    // Keyed by URL alone: the per-head answers are emptied when the head or version moves, and an
    // answer computed before such a move is not kept (its generation is gone).
    const kept = this.#answers.get(url) ?? this.#running.get(url);
    if (kept) return kept;
    const generation = this.#generation;
    const running = compute()
      .then((computed) => {
        if (computed.status !== 200 || computed.stream) return computed;
        const response = encoded(computed);
        if (mark !== null) this.#lasting.set(url, { response, mark, scopes: scopesAfter(appendOnly?.() ?? false, scopes!), version });
        else if (generation === this.#generation) this.#answers.set(url, response);
        return response;
      })
      .finally(() => {
        if (generation === this.#generation && this.#running.get(url) === running) this.#running.delete(url);
      });
    this.#running.set(url, running);
    return running;
  }
}

/** The scopes whose blocks outdate an answer of `scopes` that is append-only as `appendOnly` says (see {@link ResponseCache.answer}). */
function scopesAfter(appendOnly: boolean | readonly string[], scopes: readonly string[]): readonly string[] {
  if (appendOnly === false) return scopes;
  return appendOnly === true ? [] : appendOnly;
}

/**
 * Bodies of at least this many characters are kept as bytes; smaller ones stay text. Node writes
 * a text body with the response head in one chunk straight to the socket, while bytes go out
 * beside the head in a gathered write that costs more than encoding a small body again (about
 * 2 µs a request of a 600-byte answer, measured through bare Fastify); a large body is not
 * encoded again for each request it answers.
 */
const BYTES_FROM = 16 * 1024;

/**
 * `response` with a large body as bytes (see {@link BYTES_FROM}). The bytes get memory of their
 * own: `Buffer.from` places a small body in Node's shared 8 KB pool, and one kept answer would
 * then hold a whole pool slab alive past the budget that counts only its own bytes.
 */
function encoded(response: HttpResponse): HttpResponse {
  if (typeof response.body !== 'string' || response.body.length < BYTES_FROM) return response;
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(response.body));
  bytes.write(response.body);
  return { ...response, body: bytes };
}
