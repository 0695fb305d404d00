import type { Logger } from 'pino';
import type { ChainClient } from '../chain/chain-client.js';
import type { HubChannel } from '../channels/hub-channels.js';
import type { EventHub } from '../events/index.js';
import type { GraphqlContribution } from './graphql-contribution.js';
import type { RequestOutcome, Route } from '../http/index.js';
import type { Storage, StorageOf, StorageRole } from '../storage/index.js';

/**
 * One feature of the explorer, composed the way Fastify plugins are: `register` adds the
 * feature's parts (services, routes, start and close hooks) to the explorer being built and
 * answers what later modules may use. What it needs from earlier modules and its slice of the
 * config come in `options`, so a module sees only what it is handed and the composition in
 * `createExplorer` reads top to bottom, each module after those it uses.
 *
 * `Reads` and `Writes` name the storage roles it uses: the host hands it, as `app.storage` and
 * `app.writer`, storage typed as exactly those roles, so a module cannot reach data it did not
 * declare (`modules/module-roles.test.ts`).
 */
export interface ExplorerModule<Options, Exports, Reads extends StorageRole = never, Writes extends StorageRole = never> {
  /** Names the module in errors; a name is registered once. */
  readonly name: string;
  /**
   * The GraphQL fields the module always contributes: the host adds them as it registers the
   * module, so the explorer's own fields are read off its modules (`BUILT_IN_GRAPHQL`). Fields
   * that depend on the options go through `app.graphql()` instead.
   */
  readonly graphql?: readonly GraphqlContribution[];
  register(app: ModuleContext<Reads, Writes>, options: Options): Exports;
}

/** The infrastructure every module shares. */
export interface ModuleInfrastructure {
  readonly logger: Logger;
  /** The storage everything served reads, which may be read replicas a little behind the primary. */
  readonly storage: Storage;
  /** The storage that reads its own writes (the primary): for indexers, accounts, counters and jobs. */
  readonly writer: Storage;
  readonly chain: ChainClient;
  readonly hub: EventHub;
  readonly clock: () => number;
}

/** What every module is given: the shared infrastructure, its storage roles, and where to add its parts. */
export interface ModuleContext<Reads extends StorageRole = never, Writes extends StorageRole = never> extends Omit<ModuleInfrastructure, 'storage' | 'writer'> {
  /** The roles the module reads, from the storage everything served reads (perhaps replicas a little behind). */
  readonly storage: StorageOf<Reads>;
  /** The roles the module writes or must read its own writes of, from the primary. */
  readonly writer: StorageOf<Writes>;
  /** Adds API routes: served, and described in the OpenAPI document and `/docs`. */
  route(...routes: readonly Route[]): void;
  /** Adds page routes (HTML and assets), listed after the API's. */
  page(...routes: readonly Route[]): void;
  /** Adds fields to the GraphQL schema (types, `extend type Query { … }`, resolvers); before the graphql module is registered. */
  graphql(...fields: readonly GraphqlContribution[]): void;
  /**
   * The GraphQL fields every module registered so far contributed, for the module that serves
   * them; a contribution after this call is refused, since the schema is built.
   */
  takeGraphql(): readonly GraphqlContribution[];
  /** Adds channels fed by hub events to the channel protocol at `/ws`; before the sockets module is registered. */
  channel(...channels: readonly HubChannel[]): void;
  /** The channels every module registered so far contributed, for the module that serves them; later ones are refused. */
  takeChannels(): readonly HubChannel[];
  /** Tells `observer` of every answered request, after the request log; it runs on the hot path. */
  observeResponses(observer: (outcome: RequestOutcome) => void): void;
  /** Runs `hook` on `explorer.start()`, after the hooks of the modules registered before. */
  onStart(hook: () => void | Promise<void>): void;
  /** Runs `hook` on `explorer.close()`, beside every other module's, before storage is closed. */
  onClose(hook: () => unknown): void;
}
