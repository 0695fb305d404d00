import type { HubChannel } from '../channels/hub-channels.js';
import type { GraphqlContribution } from './graphql-contribution.js';
import type { RequestOutcome, Route } from '../http/index.js';
import type { StorageRole } from '../storage/index.js';
import type { ExplorerModule, ModuleContext, ModuleInfrastructure } from './module.js';

/**
 * Registers modules in order and holds what they added: the route table, the GraphQL fields and
 * channels, the response observers, the start and close hooks.
 */
export class ModuleHost {
  readonly apiRoutes: Route[] = [];
  readonly pageRoutes: Route[] = [];
  readonly responseObservers: ((outcome: RequestOutcome) => void)[] = [];
  private readonly startHooks: (() => void | Promise<void>)[] = [];
  private readonly closeHooks: (() => unknown)[] = [];
  /** The module being registered, named in refusals. */
  private registering = '';
  private readonly graphqlFields = new Contributions<GraphqlContribution>('GraphQL fields', 'built the schema', () => this.registering);
  private readonly channels = new Contributions<HubChannel>('channels', 'opened the channel protocol', () => this.registering);
  private readonly names = new Set<string>();
  /** Holds the whole storage: each module's view of it is narrowed to its roles by type. */
  private readonly context: ModuleContext<StorageRole, StorageRole>;

  constructor(readonly infrastructure: ModuleInfrastructure) {
    this.context = {
      ...infrastructure,
      route: (...routes) => void this.apiRoutes.push(...routes),
      page: (...routes) => void this.pageRoutes.push(...routes),
      graphql: (...fields) => this.graphqlFields.add(fields),
      takeGraphql: () => this.graphqlFields.take(),
      channel: (...channels) => this.channels.add(channels),
      takeChannels: () => this.channels.take(),
      observeResponses: (observer) => void this.responseObservers.push(observer),
      onStart: (hook) => void this.startHooks.push(hook),
      onClose: (hook) => void this.closeHooks.push(hook),
    };
  }

  /** Adds `module` to the explorer and answers what it exports. */
  register<Options, Exports, Reads extends StorageRole, Writes extends StorageRole>(module: ExplorerModule<Options, Exports, Reads, Writes>, options: Options): Exports {
    if (this.names.has(module.name)) throw new Error(`module ${module.name} is registered twice`);
    this.names.add(module.name);
    this.registering = module.name;
    if (module.graphql) this.graphqlFields.add(module.graphql);
    return module.register(this.context, options);
  }

  /** Runs the start hooks one after another, in registration order. */
  async start(): Promise<void> {
    for (const hook of this.startHooks) await hook();
  }

  /** Runs the close hooks together, the last registered first (sockets close before what feeds them). */
  async close(): Promise<void> {
    await Promise.all([...this.closeHooks].reverse().map((hook) => hook()));
  }
}

/**
 * What modules contribute for one module to serve (GraphQL fields, channels): added in
 * registration order until that module takes them, refused after, since it has built on them.
 */
class Contributions<T> {
  private readonly items: T[] = [];
  private takenBy: string | null = null;

  constructor(
    private readonly what: string,
    private readonly built: string,
    private readonly registering: () => string,
  ) {}

  add(items: readonly T[]): void {
    if (this.takenBy !== null) throw new Error(`module ${this.registering()} adds ${this.what} after ${this.takenBy} ${this.built}: register it before ${this.takenBy}`);
    this.items.push(...items);
  }

  take(): readonly T[] {
    this.takenBy = this.registering();
    return [...this.items];
  }
}
