import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import type { EventHub } from '../events/index.js';
import type { Services } from '../explorer-services.js';
import type { PageLimits } from '../modules/graphql-connection.js';
import type { HubFeeds } from './hub-feed.js';
import type { GraphqlLoaders } from './loaders.js';

/** What every resolver receives: the services REST uses, the caller, and this request's loaders. */
export interface GraphqlContext {
  services: Services;
  hub: EventHub;
  /** Hub events for subscriptions, shared by every subscriber of one field and filter. */
  feeds: HubFeeds;
  loaders: GraphqlLoaders;
  /** The authenticated caller, `null` for anonymous. */
  principal: Principal | null;
  pages: PageLimits;
  logger: Logger;
}
