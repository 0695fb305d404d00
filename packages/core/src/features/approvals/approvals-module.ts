import type { IndexedHead } from '../../events/indexed-head.js';
import type { ExplorerModule } from '../../modules/index.js';
import type { LabelLookup, TokenService } from '../../services/index.js';
import type { TokenMetadataReader } from '../../tokens/token-metadata.js';
import { ApprovalService } from './approval-service.js';
import { approvalRoutes } from './approval-routes.js';
import { approvalFields } from './approval-fields.js';

/** What the approvals read beside storage: the indexed head and the token calls that give each allowance left. */
export interface ApprovalsModuleOptions {
  head: IndexedHead;
  tokenReader: TokenMetadataReader;
  services: { tokens: TokenService; labels: LabelLookup };
}

/** Owners' standing token approvals, from the approval events the indexer keeps, at `/api/v1/account/approvals`, GraphQL's `Account.approvals` and JSON-RPC's `chain_getAccountApprovals`. */
export const approvalsModule: ExplorerModule<ApprovalsModuleOptions, { services: { approvals: ApprovalService } }, 'TokenReader'> = {
  name: 'approvals',
  graphql: [approvalFields],
  register(app, { head, tokenReader, services: { tokens, labels } }) {
    const approvals = new ApprovalService(app.storage, tokens, labels, head, tokenReader);
    app.route(...approvalRoutes(approvals));
    return { services: { approvals } };
  },
};
