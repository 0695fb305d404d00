import type { AnswerLineage, LineageMark } from '../events/answer-lineage.js';
import type { EventHub } from '../events/index.js';
import type { BlockBundle, Hex } from '../storage/index.js';

/** What a block's transfers touch: the pages listing a token's transfers are answers of `token:<address>`. */
export function tokenScope(token: string): string {
  return `token:${token.toLowerCase()}`;
}

/** The scopes a block touches: each token it transfers. */
export function blockScopes(bundle: BlockBundle): Iterable<string> {
  return new Set(bundle.tokenTransfers.map((transfer) => tokenScope(transfer.token)));
}

/**
 * The blocks this instance has heard written (the hub's `block` events, from its own indexer or
 * another instance's), as an unbroken line of children, and the newest block of that line that
 * touched each scope. An answer computed at the line's tip stays true at a later tip of the same
 * line as long as no block in between touched its scopes. A reorg, or a block that is not the
 * tip's child (a missed event, a rollback that sent none), starts a new line: nothing computed
 * on an earlier one is reused. A head this instance read from storage without hearing its block
 * is not the tip, so nothing is reused there either.
 */
export class BlockLineage implements AnswerLineage {
  #line = 0;
  #tip: { number: bigint; hash: Hex } | null = null;
  /** Scope → number of the newest block that touched it, oldest touch first. */
  readonly #touched = new Map<string, bigint>();
  /** Every scope no longer in `#touched` was last touched at or below this block. */
  #forgotten = -1n;

  /**
   * @param maxScopes - scopes remembered with the block that last touched them; beyond it the
   *   longest untouched are forgotten and count as touched at the newest forgotten one (so an
   *   answer older than that is computed again).
   */
  constructor(
    hub: EventHub,
    private readonly maxScopes = 100_000,
    private readonly scopesOf: (bundle: BlockBundle) => Iterable<string> = blockScopes,
  ) {
    hub.on('block', (bundle) => this.#witness(bundle));
    hub.on('reorg', () => this.#restart());
  }

  mark(head: string): LineageMark | null {
    const tip = this.#tip;
    return tip !== null && tip.hash === head ? { line: this.#line, number: tip.number } : null;
  }

  unchangedSince(mark: LineageMark, head: string, scopes: readonly string[]): boolean {
    if (mark.line !== this.#line || this.#tip?.hash !== head) return false;
    return scopes.every((scope) => (this.#touched.get(scope) ?? this.#forgotten) <= mark.number);
  }

  #witness(bundle: BlockBundle): void {
    const { number, hash, parentHash } = bundle.block;
    if (this.#tip === null || this.#tip.hash !== parentHash) this.#restart();
    for (const scope of this.scopesOf(bundle)) {
      // Deleted first so that the map stays in order of last touch.
      this.#touched.delete(scope);
      this.#touched.set(scope, number);
    }
    for (const [scope, touchedAt] of this.#touched) {
      if (this.#touched.size <= this.maxScopes) break;
      this.#touched.delete(scope);
      if (touchedAt > this.#forgotten) this.#forgotten = touchedAt;
    }
    this.#tip = { number, hash };
  }

  #restart(): void {
    this.#line++;
    this.#touched.clear();
    this.#forgotten = -1n;
    this.#tip = null;
  }
}
