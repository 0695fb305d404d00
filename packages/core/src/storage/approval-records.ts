/**
 * Token approvals as storage keeps them: the `Approval` and `ApprovalForAll` events of written
 * blocks, so rollbacks take them back with their blocks and an owner's standing approvals are
 * the latest event per token, spender and kind.
 */
import type { Hex } from './records.js';

/**
 * `allowance`: an ERC-20 `Approval(owner, spender, value)`; `operator`: an ERC-721 or ERC-1155
 * `ApprovalForAll(owner, operator, approved)`, whose value is 1 (approved) or 0 (revoked).
 */
export type ApprovalKind = 'allowance' | 'operator';

/** One approval event, decoded from a log of its block. */
export interface StoredApproval {
  blockNumber: bigint;
  logIndex: number;
  transactionHash: Hex;
  transactionIndex: number;
  /** The block's timestamp (Unix seconds). */
  timestamp: bigint;
  /** The token contract (the log's address). */
  token: Hex;
  owner: Hex;
  /** The spender, or the operator of an `ApprovalForAll`. */
  spender: Hex;
  kind: ApprovalKind;
  /** The amount approved in base units; for `operator`, 1 or 0. Zero revokes. */
  value: bigint;
}

/** A page of an owner's standing approvals. */
export interface ApprovalsQuery {
  owner: Hex;
  /** 1-based. */
  page: number;
  offset: number;
}
