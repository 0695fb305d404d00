import { labelOf, type LabelLookup, type TokenService } from '../../services/index.js';
import type { ApprovalKind, ApprovalsQuery, TokenReader } from '../../storage/index.js';
import type { z } from 'zod';
import type { approvalRecordSchema } from '../../records/record-schemas.js';

/**
 * A standing approval (revoke.cash style): the latest `Approval` or `ApprovalForAll` of an owner
 * for a token and spender, not revoked. `value` is the amount last approved in base units (an
 * operator approval: `1`); tokens that lower an allowance on `transferFrom` without an event
 * leave it as approved, so it is the most the spender may still take.
 */
export type ApprovalRecord = z.infer<typeof approvalRecordSchema>;

/** Standing token approvals of owners, from indexed approval events. */
export class ApprovalService {
  constructor(
    private readonly storage: TokenReader,
    private readonly tokens: TokenService,
    private readonly labels: LabelLookup,
  ) {}

  /** The owner's standing approvals, newest first, paged (see `TokenReader.listApprovals`). */
  async list(query: ApprovalsQuery): Promise<ApprovalRecord[]> {
    const approvals = await this.storage.listApprovals(query);
    if (approvals.length === 0) return [];
    const [identities, labels] = await Promise.all([
      this.tokens.identities(approvals.map((approval) => approval.token)),
      this.labels.labelsOf(approvals.map((approval) => approval.spender)),
    ]);
    return approvals.map((approval) => {
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
        blockNumber: approval.blockNumber.toString(),
        timestamp: approval.timestamp.toString(),
        transactionHash: approval.transactionHash,
      };
    });
  }
}
