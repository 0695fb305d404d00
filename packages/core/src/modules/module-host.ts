import type { Logger } from 'pino';
import type { ChainClient } from '../chain/chain-client.js';
import type { EventHub } from '../events/index.js';
import type { RequestOutcome, Route } from '../http/index.js';
import type { Storage } from '../storage/index.js';
import type { ExplorerModule, ModuleContext } from './module.js';

/** The shared infrastructure a {@link ModuleHost} hands every module. */
export interface ModuleHostOptions {
  logger: Logger;
  storage: Storage;
  writer: Storage;
  chain: ChainClient;
  hub: EventHub;
  clock: () => number;
}

/**
 * Registers modules in order and holds what they added: the route table, the response
 * observers, the start and close hooks.
 */
export class ModuleHost implements ModuleContext {
  readonly logger: Logger;
  readonly storage: Storage;
  readonly writer: Storage;
  readonly chain: ChainClient;
  readonly hub: EventHub;
  readonly clock: () => number;
  readonly apiRoutes: Route[] = [];
  readonly pageRoutes: Route[] = [];
  readonly responseObservers: ((outcome: RequestOutcome) => void)[] = [];
  private readonly startHooks: (() => void | Promise<void>)[] = [];
  private readonly closeHooks: (() => unknown)[] = [];
  private readonly names = new Set<string>();

  constructor(options: ModuleHostOptions) {
    ({ logger: this.logger, storage: this.storage, writer: this.writer, chain: this.chain, hub: this.hub, clock: this.clock } = options);
  }

  /** Adds `module` to the explorer and answers what it exports. */
  register<Options, Exports>(module: ExplorerModule<Options, Exports>, options: Options): Exports {
    if (this.names.has(module.name)) throw new Error(`module ${module.name} is registered twice`);
    this.names.add(module.name);
    return module.register(this, options);
  }

  route(...routes: readonly Route[]): void {
    this.apiRoutes.push(...routes);
  }

  page(...routes: readonly Route[]): void {
    this.pageRoutes.push(...routes);
  }

  observeResponses(observer: (outcome: RequestOutcome) => void): void {
    this.responseObservers.push(observer);
  }

  onStart(hook: () => void | Promise<void>): void {
    this.startHooks.push(hook);
  }

  onClose(hook: () => unknown): void {
    this.closeHooks.push(hook);
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
