import type { AnswerLineage, LineageMark } from '../events/answer-lineage.js';
import type { EventHub } from '../events/index.js';
import type { BlockBundle, Hex } from '../storage/index.js';

/** What a block's transfers touch: the pages listing a token's transfers are answers of `token:<address>`. */
export function tokenScope(token: string): string {
  return `token:${token.toLowerCase()}`;
}

/** The pages listing a contract's logs (its events) are answers of `logs:<address>`. */
export function logsScope(address: string): string {
  return `logs:${address.toLowerCase()}`;
}

/**
 * Answers that decode a contract's logs with its verified ABI are answers of
 * `verified:<address>` too: storing the contract's verification touches it.
 */
export function verificationScope(address: string): string {
  return `verified:${address.toLowerCase()}`;
}

/** The scopes a block touches: each token it transfers and each contract whose logs it holds. */
export function blockScopes(bundle: BlockBundle): Iterable<string> {
  const scopes = new Set(bundle.tokenTransfers.map((transfer) => tokenScope(transfer.token)));
  for (const log of bundle.logs) scopes.add(logsScope(log.address));
  return scopes;
}

/**
 * The blocks this instance has heard written (the hub's `block` events, from its own indexer or
 * another instance's), as an unbroken line of children, and when each scope was last touched on
 * that line: by a block, or by a contract's verification (the hub's `verified` events, this
 * instance's or relayed from another). An answer computed at the line's tip stays true at a later
 * tip of the same line as long as nothing heard in between touched its scopes. A reorg, or a block that is not the
 * tip's child (a missed event, a rollback that sent none), starts a new line: nothing computed
 * on an earlier one is reused. A head this instance read from storage without hearing its block
 * is not the tip, so nothing is reused there either.
 */
export class BlockLineage implements AnswerLineage {
  #line = 0;
  #tip: Hex | null = null;
  /**
   * Counts what the line heard (blocks and verifications): marks and touches are positions on
   * it, so a verification between two blocks outdates answers computed before it and not after.
   */
  #heard = 0;
  /** Scope → position of its last touch, oldest touch first. */
  readonly #touched = new Map<string, number>();
  /** Every scope no longer in `#touched` was last touched at or before this position. */
  #forgotten = -1;

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
    hub.on('verified', ({ address }) => this.#touch([verificationScope(address)]));
  }

  mark(head: string): LineageMark | null {
    return this.#tip !== null && this.#tip === head ? { line: this.#line, at: this.#heard } : null;
  }

  unchangedSince(mark: LineageMark, head: string, scopes: readonly string[]): boolean {
    if (mark.line !== this.#line || this.#tip !== head) return false;
    return scopes.every((scope) => (this.#touched.get(scope) ?? this.#forgotten) <= mark.at);
  }

  #witness(bundle: BlockBundle): void {
    const { hash, parentHash } = bundle.block;
    if (this.#tip === null || this.#tip !== parentHash) this.#restart();
    this.#touch(this.scopesOf(bundle));
    this.#tip = hash;
  }

  #touch(scopes: Iterable<string>): void {
    const at = ++this.#heard;
    for (const scope of scopes) {
      // Deleted first so that the map stays in order of last touch.
      this.#touched.delete(scope);
      this.#touched.set(scope, at);
    }
    for (const [scope, touchedAt] of this.#touched) {
      if (this.#touched.size <= this.maxScopes) break;
      this.#touched.delete(scope);
      if (touchedAt > this.#forgotten) this.#forgotten = touchedAt;
    }
  }

  #restart(): void {
    this.#line++;
    this.#touched.clear();
    this.#forgotten = -1;
    this.#tip = null;
  }
}
