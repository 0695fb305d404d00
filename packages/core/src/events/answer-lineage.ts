/** Where on a line of heard blocks an answer was computed (see {@link AnswerLineage}). */
export interface LineageMark {
  line: number;
  /** How much of the line was heard when the mark was taken: what later touches are compared to. */
  at: number;
}

/**
 * The blocks an instance heard written, as one unbroken line, and what each touched (and what
 * changed apart from blocks, such as a contract's verification): what lets an answer outlive its head.
 */
export interface AnswerLineage {
  /** A mark for an answer computed now at `head`, or `null` when `head` is not the heard line's tip. */
  mark(head: string): LineageMark | null;
  /** Whether `head` is the tip of `mark`'s line and nothing heard after `mark` touched any of `scopes`. */
  unchangedSince(mark: LineageMark, head: string, scopes: readonly string[]): boolean;
}
