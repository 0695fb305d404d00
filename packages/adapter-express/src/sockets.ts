import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Explorer, HttpResponse } from '@chainlens/core';
import { WebSocketServer } from 'ws';

/** Options of {@link attachChainlensSockets}. */
export interface ChainlensSocketsOptions {
  /** Where the router is mounted (`app.use('/explorer', chainlensRouter(explorer))` → `'/explorer'`); default the root. */
  prefix?: string;
}

/**
 * Serves ChainLens's WebSocket endpoints (the channel protocol at `/ws`) on `server`'s upgrade
 * requests. Upgrades outside `prefix` are left to other listeners. Returns a function that
 * detaches and closes every connection.
 *
 * @example
 * ```ts
 * const server = http.createServer(app);
 * attachChainlensSockets(server, explorer);
 * ```
 */
export function attachChainlensSockets(server: Server, explorer: Explorer, options: ChainlensSocketsOptions = {}): () => void {
  const { sockets } = explorer;
  const prefix = options.prefix?.replace(/\/$/, '') ?? '';
  const relative = (url: string) => url.slice(prefix.length) || '/';
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: sockets.maxMessageBytes,
    handleProtocols: (offered, request) => sockets.selectProtocol(relative(request.url ?? '/'), offered),
  });
  const onUpgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? '/';
    if (prefix && url !== prefix && !url.startsWith(`${prefix}/`) && !url.startsWith(`${prefix}?`)) return;
    socket.on('error', () => socket.destroy());
    const admitted = await sockets.admit({ method: request.method ?? 'GET', url: relative(url), headers: request.headers, ip: request.socket.remoteAddress ?? '' });
    if (!admitted.accepted) return refuse(socket, admitted.response);
    wss.handleUpgrade(request, socket, head, (ws) => sockets.open(ws, admitted));
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const client of wss.clients) client.terminate();
    wss.close();
  };
}

/** Answers a refused upgrade with its envelope and drops the connection. */
function refuse(socket: Duplex, { status, headers, body }: HttpResponse): void {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  lines.push(`content-length: ${Buffer.byteLength(body)}`, 'connection: close');
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
