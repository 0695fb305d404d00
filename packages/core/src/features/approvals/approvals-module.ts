import type { ExplorerModule } from '../../modules/index.js';
import type { LabelLookup, TokenService } from '../../services/index.js';
import { ApprovalService } from './approval-service.js';
import { approvalRoutes } from './approval-routes.js';

/** Owners' standing token approvals, from the approval events the indexer keeps, at `/api/v1/account/approvals`. */
export const approvalsModule: ExplorerModule<{ services: { tokens: TokenService; labels: LabelLookup } }, { services: { approvals: ApprovalService } }, 'TokenReader'> = {
  name: 'approvals',
  register(app, { services: { tokens, labels } }) {
    const approvals = new ApprovalService(app.storage, tokens, labels);
    app.route(...approvalRoutes(approvals));
    return { services: { approvals } };
  },
};
