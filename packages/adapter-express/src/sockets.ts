import type { Server } from 'node:http';
import { attachUpgrades, webSocketServerOptions, type Explorer } from '@chainlens/core';
import { WebSocketServer } from 'ws';

/** Options of {@link attachChainlensSockets}. */
export interface ChainlensSocketsOptions {
  /** Where the router is mounted (`app.use('/explorer', chainlensRouter(explorer))` → `'/explorer'`); default the root. */
  prefix?: string;
}

/**
 * Serves ChainLens's WebSocket endpoints (the channel protocol at `/ws`, GraphQL subscriptions at
 * `/graphql`) on `server`'s upgrade requests. Upgrades outside `prefix` are left to other
 * listeners. Returns a function that detaches and closes every connection.
 *
 * @example
 * ```ts
 * const server = http.createServer(app);
 * attachChainlensSockets(server, explorer);
 * ```
 */
export function attachChainlensSockets(server: Server, explorer: Explorer, options: ChainlensSocketsOptions = {}): () => void {
  const { sockets } = explorer;
  return attachUpgrades(sockets, server, new WebSocketServer(webSocketServerOptions(sockets, options.prefix)), options.prefix);
}
