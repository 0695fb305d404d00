import type { Hex } from '../../storage/index.js';
import { connectionOf, type ConnectionArgs, type PageLimits } from '../../modules/graphql-connection.js';
import type { GraphqlContribution } from '../../modules/graphql-contribution.js';
import type { ApprovalService } from './approval-service.js';

/** What these resolvers read of the GraphQL context (the graphql module's context has it). */
interface ApprovalsContext {
  services: { approvals: ApprovalService };
  pages: PageLimits;
}

/** The approvals module's field: an account's standing approvals, as `GET /api/v1/account/approvals` answers them. */
export const approvalFields: GraphqlContribution = {
  typeDefs: /* GraphQL */ `
extend type Account {
  "Its standing token approvals as an owner, newest first, as GET /api/v1/account/approvals answers them."
  approvals(first: Int, after: String): ApprovalConnection! @cost(weight: 20)
}

"REST's approval: the latest Approval or ApprovalForAll of the owner for a token and spender, not revoked."
type Approval {
  token: Address!
  tokenName: String
  tokenSymbol: String
  tokenDecimal: String
  "allowance (ERC-20 Approval) or operator (ApprovalForAll: every token id)."
  kind: String!
  spender: Address!
  "The spender's public label; null without one."
  spenderLabel: String
  "The amount last approved, base units (operator: 1)."
  value: String!
  "What the spender may still take: allowance(owner, spender) at the newest indexed block; null for an operator approval or where the token does not answer."
  remaining: String
  blockNumber: String!
  timestamp: String!
  transactionHash: Hash!
}

type ApprovalConnection {
  edges: [ApprovalEdge!]!
  pageInfo: PageInfo!
}

type ApprovalEdge {
  node: Approval!
  cursor: String!
}
`,
  resolvers: {
    Account: {
      approvals: (account: { address: Hex }, args: ConnectionArgs, context: ApprovalsContext) =>
        connectionOf(args, context.pages, (page, offset) => context.services.approvals.list({ owner: account.address, page, offset })),
    },
  },
};
