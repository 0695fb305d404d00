import { blockTagOf, type IndexedHead } from '../../events/indexed-head.js';
import { labelOf, type LabelLookup, type TokenService } from '../../services/index.js';
import type { TokenMetadataReader } from '../../tokens/token-metadata.js';
import type { ApprovalKind, ApprovalsQuery, TokenReader } from '../../storage/index.js';
import type { z } from 'zod';
import type { approvalRecordSchema } from '../../records/record-schemas.js';

/**
 * A standing approval (revoke.cash style): the latest `Approval` or `ApprovalForAll` of an owner
 * for a token and spender, not revoked. `value` is the amount last approved in base units (an
 * operator approval: `1`); `remaining` is what the spender may still take, read from the token's
 * `allowance(owner, spender)` at the newest indexed block, since tokens lower an allowance on
 * `transferFrom` without an event.
 */
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;

/** Standing token approvals of owners, from indexed approval events. */
export class ApprovalService {
  constructor(
    private readonly storage: TokenReader,
    private readonly tokens: TokenService,
    private readonly labels: LabelLookup,
    private readonly head: IndexedHead,
    private readonly reader: TokenMetadataReader,
  ) {}

  /** The owner's standing approvals, newest first, paged (see `TokenReader.listApprovals`). */
  async list(query: ApprovalsQuery): Promise<ApprovalRecord[]> {
    const approvals = await this.storage.listApprovals(query);
    if (approvals.length === 0) return [];
    const tag = blockTagOf(await this.head.current());
    const [identities, labels, remaining] = await Promise.all([
      this.tokens.identities(approvals.map((approval) => approval.token)),
      this.labels.labelsOf(approvals.map((approval) => approval.spender)),
      Promise.all(approvals.map((approval) => (approval.kind === 'allowance' ? this.reader.allowance(approval.token, query.owner, approval.spender, tag) : null))),
    ]);
    return approvals.map((approval, index) => {
      const identity = identities.get(approval.token)!;
      return {
        token: approval.token,
        tokenName: identity.name,
        tokenSymbol: identity.symbol,
        tokenDecimal: identity.decimals,
        kind: approval.kind,
        spender: approval.spender,
        spenderLabel: labelOf(labels, approval.spender),
        value: approval.value.toString(),
        remaining: remaining[index]?.toString() ?? null,
        blockNumber: approval.blockNumber.toString(),
        timestamp: approval.timestamp.toString(),
        transactionHash: approval.transactionHash,
      };
    });
  }
}
