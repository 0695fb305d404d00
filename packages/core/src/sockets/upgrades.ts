import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { TextResponse } from '../http/types.js';
import type { SocketGateway } from './gateway.js';
import type { SocketLike } from './socket-like.js';

/** The part of a `ws` `WebSocketServer` (made with {@link webSocketServerOptions}) core drives. */
export interface UpgradeServer {
  readonly clients: Set<SocketLike>;
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer, done: (socket: SocketLike) => void): void;
  close(): void;
}

/** A Node HTTP server, as far as upgrades go. */
export interface UpgradingServer {
  on(event: 'upgrade', listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown;
  off(event: 'upgrade', listener: (request: IncomingMessage, socket: Duplex, head: Buffer) => void): unknown;
}

/**
 * Options for `new WebSocketServer(…)` (`ws`) serving `gateway` under `prefix`: upgrades are
 * handed over by {@link attachUpgrades}, frames beyond the message limit close with 1009, and
 * each endpoint picks its subprotocol.
 */
export function webSocketServerOptions(gateway: SocketGateway, mountPrefix = '') {
  const prefix = normalized(mountPrefix);
  return {
    noServer: true as const,
    maxPayload: gateway.maxMessageBytes,
    handleProtocols: (offered: Set<string>, request: IncomingMessage) => gateway.selectProtocol(relativeTo(prefix, request.url ?? '/'), offered),
  };
}

/**
 * Serves `gateway`'s endpoints on `server`'s upgrade requests under `prefix` (those outside it are
 * left to other listeners). A refused upgrade is answered with its envelope. Upgrades never pass
 * through the framework, so its HTTP requests pay nothing for WebSocket support. Resolves a
 * function that detaches and drops every connection.
 */
export function attachUpgrades(gateway: SocketGateway, server: UpgradingServer, sockets: UpgradeServer, mountPrefix = ''): () => void {
  const prefix = normalized(mountPrefix);
  const onUpgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = request.url ?? '/';
    if (prefix && url !== prefix && !url.startsWith(`${prefix}/`) && !url.startsWith(`${prefix}?`)) return;
    socket.on('error', () => socket.destroy());
    const admitted = await gateway.admit({ method: request.method ?? 'GET', url: relativeTo(prefix, url), headers: request.headers, ip: request.socket.remoteAddress ?? '' });
    if (!admitted.accepted) return refuse(socket, admitted.response);
    // The admission holds a place until the socket opens; a connection that ends first (the
    // client left while it was checked, or `ws` refused the handshake) gives it back.
    if (socket.destroyed) return gateway.abandon(admitted);
    let opened = false;
    socket.once('close', () => {
      if (!opened) gateway.abandon(admitted);
    });
    sockets.handleUpgrade(request, socket, head, (upgraded) => {
      opened = true;
      gateway.open(upgraded, admitted);
    });
  };
  server.on('upgrade', onUpgrade);
  return () => {
    server.off('upgrade', onUpgrade);
    for (const client of sockets.clients) client.terminate();
    sockets.close();
  };
}

function normalized(prefix: string): string {
  return prefix.replace(/\/$/, '');
}

function relativeTo(prefix: string, url: string): string {
  return prefix && url.startsWith(prefix) ? url.slice(prefix.length) || '/' : url;
}

/** Answers a refused upgrade with its envelope and drops the connection. */
function refuse(socket: Duplex, { status, headers, body }: TextResponse): void {
  const lines = [`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`)];
  lines.push(`content-length: ${Buffer.byteLength(body)}`, 'connection: close');
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
