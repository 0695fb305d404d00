import type { GraphqlContribution } from '../modules/graphql-contribution.js';
import { rootFields } from '../graphql/fields/root.js';
import type { ExplorerModule } from '../modules/index.js';
import { accountsModule } from './accounts/accounts-module.js';
import { apiModule } from './api.js';
import { approvalsModule } from './approvals/approvals-module.js';
import { chainModule } from './chain.js';
import { consensusModule } from './consensus.js';
import { graphqlModule } from './graphql.js';
import { indexingModule } from './indexing.js';
import { labelsModule } from './labels/labels-module.js';
import { metricsModule } from './metrics.js';
import { pricesModule } from './prices/prices-module.js';
import { rateLimitsModule } from './rate-limits/rate-limits-module.js';
import { socketsModule } from './sockets.js';
import { uiModule } from './ui.js';
import { verificationModule } from './verification/verification-module.js';
import { webhooksModule } from './webhooks/webhooks-module.js';

/**
 * The explorer's own modules in the order `createExplorer()` registers them; `features/graphql.test.ts`
 * checks that `/graphql` serves exactly the fields they declare.
 */
const BUILT_IN_MODULES: readonly Pick<ExplorerModule<never, unknown>, 'name' | 'graphql'>[] = [
  indexingModule,
  rateLimitsModule,
  accountsModule,
  labelsModule,
  pricesModule,
  chainModule,
  approvalsModule,
  consensusModule,
  verificationModule,
  apiModule,
  graphqlModule,
  socketsModule,
  metricsModule,
  webhooksModule,
  uiModule,
];

/** The fields the explorer's own modules contribute, read off the modules in their order of registration. */
export const BUILT_IN_GRAPHQL: readonly GraphqlContribution[] = BUILT_IN_MODULES.flatMap((module) => module.graphql ?? []);

/**
 * The GraphQL schema (SDL) the explorer serves: the root types and the built-in modules' fields.
 * Amounts, block numbers and other quantities are decimal strings, as in REST: a uint256 never
 * passes through a Float. Lists are Relay-style connections.
 */
export const typeDefs = [rootFields, ...BUILT_IN_GRAPHQL].map((part) => part.typeDefs).join('');
