import type { GraphqlContribution } from '../graphql/contribution.js';
import type { RequestOutcome, Route } from '../http/index.js';
import type { ExplorerModule, ModuleContext, ModuleInfrastructure } from './module.js';

/**
 * Registers modules in order and holds what they added: the route table, the GraphQL fields, the
 * response observers, the start and close hooks.
 */
export class ModuleHost {
  readonly apiRoutes: Route[] = [];
  readonly pageRoutes: Route[] = [];
  readonly responseObservers: ((outcome: RequestOutcome) => void)[] = [];
  private readonly startHooks: (() => void | Promise<void>)[] = [];
  private readonly closeHooks: (() => unknown)[] = [];
  private readonly graphqlFields: GraphqlContribution[] = [];
  /** The module that took the GraphQL fields (and built the schema), once one has. */
  private graphqlTakenBy: string | null = null;
  /** The module being registered, named in refusals. */
  private registering = '';
  private readonly names = new Set<string>();
  private readonly context: ModuleContext;

  constructor(readonly infrastructure: ModuleInfrastructure) {
    this.context = {
      ...infrastructure,
      route: (...routes) => void this.apiRoutes.push(...routes),
      page: (...routes) => void this.pageRoutes.push(...routes),
      graphql: (...fields) => {
        if (this.graphqlTakenBy !== null) {
          throw new Error(`module ${this.registering} adds GraphQL fields after ${this.graphqlTakenBy} built the schema: register it before ${this.graphqlTakenBy}`);
        }
        this.graphqlFields.push(...fields);
      },
      takeGraphql: () => {
        this.graphqlTakenBy = this.registering;
        return [...this.graphqlFields];
      },
      observeResponses: (observer) => void this.responseObservers.push(observer),
      onStart: (hook) => void this.startHooks.push(hook),
      onClose: (hook) => void this.closeHooks.push(hook),
    };
  }

  /** Adds `module` to the explorer and answers what it exports. */
  register<Options, Exports>(module: ExplorerModule<Options, Exports>, options: Options): Exports {
    if (this.names.has(module.name)) throw new Error(`module ${module.name} is registered twice`);
    this.names.add(module.name);
    this.registering = module.name;
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
