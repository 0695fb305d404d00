/** Where on a line of heard blocks an answer was computed (see {@link AnswerLineage}). */
export interface LineageMark {
  line: number;
  number: bigint;
}

/**
 * The blocks an instance heard written, as one unbroken line, and what each touched: what lets
 * an answer outlive its head.
 */
export interface AnswerLineage {
  /** A mark for an answer computed now at `head`, or `null` when `head` is not the heard line's tip. */
  mark(head: string): LineageMark | null;
  /** Whether `head` is the tip of `mark`'s line and no block after `mark` touched any of `scopes`. */
  unchangedSince(mark: LineageMark, head: string, scopes: readonly string[]): boolean;
}
