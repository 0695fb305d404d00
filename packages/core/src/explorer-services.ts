import type { ApiKeyService, UserService } from './features/accounts/index.js';
import type { ApprovalService } from './features/approvals/index.js';
import type { LabelService, MetadataService } from './features/labels/index.js';
import type { PriceService } from './features/prices/index.js';
import type { VerificationService } from './features/verification/index.js';
import type { DomainServices } from './services/index.js';

/**
 * The services every interface (REST, JSON-RPC, GraphQL, channels) calls: the domain's, and
 * those of the feature folders, which is why this record sits above them.
 */
export interface Services extends DomainServices {
  /** API keys of users: creation, revocation, per-key limits. */
  apiKeys: ApiKeyService;
  /** Owners' standing token approvals. */
  approvals: ApprovalService;
  /** Public address labels (shown in records) and users' watch lists. */
  labels: LabelService;
  /** Metadata profiles of addresses: read by anyone, set by admins. */
  metadata: MetadataService;
  /** Token prices, volume and liquidity from on-chain pairs (see `prices` in the config). */
  prices: PriceService;
  /** Accounts of people: registration, login, roles (`explorer.services.users.setRoles`). */
  users: UserService;
  /** Source verification: compiling submitted Solidity and matching it against the chain's code. */
  verification: VerificationService;
}
