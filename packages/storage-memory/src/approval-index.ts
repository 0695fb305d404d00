import type { ApprovalsQuery, Hex, StoredApproval } from '@chainlens/core';

/**
 * Each owner's approvals in chain order: appends push, rollbacks pop, like the other indexes.
 * An owner's standing approvals are found walking back from the newest.
 */
export class ApprovalIndex {
  readonly #byOwner = new Map<Hex, StoredApproval[]>();

  add(approval: StoredApproval): void {
    const list = this.#byOwner.get(approval.owner);
    if (list) list.push(approval);
    else this.#byOwner.set(approval.owner, [approval]);
  }

  /** Takes back the last {@link add}, which must have added `approval`. */
  removeLast(approval: StoredApproval): void {
    const list = this.#byOwner.get(approval.owner)!;
    list.pop();
    if (list.length === 0) this.#byOwner.delete(approval.owner);
  }

  /** The latest approval per token, spender and kind when not zero, newest first, paged. */
  standing({ owner, page, offset }: ApprovalsQuery): StoredApproval[] {
    if (page < 1 || offset < 1) return [];
    const list = this.#byOwner.get(owner) ?? [];
    const seen = new Set<string>();
    const standing: StoredApproval[] = [];
    for (let i = list.length - 1; i >= 0; i--) {
      const approval = list[i]!;
      const key = `${approval.token}:${approval.spender}:${approval.kind}`;
      if (seen.has(key)) continue;
      seen.add(key);
      if (approval.value !== 0n) standing.push(approval);
    }
    const start = (page - 1) * offset;
    return standing.slice(start, start + offset);
  }
}
