import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import { EndpointNotFoundError, RateLimitedError, toExplorerError } from '../errors/index.js';
import { errorResponse } from '../http/envelope.js';
import type { HttpRequest, TextResponse } from '../http/types.js';
import { pathOf, withQueryCredentials } from './connect-credentials.js';
import type { CredentialWatch } from './credential-watch.js';
import { GuardedSocket } from './guarded-socket.js';
import { handshakeError } from './handshake.js';
import { Heartbeat } from './heartbeat.js';
import { OriginNotAllowedError } from './origin-error.js';
import type { SocketAdmission, SocketEndpoint } from './socket-endpoint.js';
import type { SocketLike } from './socket-like.js';

/** The limits every WebSocket connection lives under (config `sockets`). */
export interface SocketGatewayLimits {
  maxMessageBytes: number;
  maxConnectionsPerIp: number;
  heartbeatIntervalMs: number;
  maxBufferedBytes: number;
  /** Unset: any origin. */
  allowedOrigins?: readonly string[];
}

/** What a {@link SocketGateway} needs. */
export interface SocketGatewayOptions {
  endpoints: readonly SocketEndpoint[];
  limits: SocketGatewayLimits;
  /** The authenticator REST uses: `null` for no credentials, throws for bad ones. */
  authenticate: (request: HttpRequest) => Promise<Principal | null> | Principal | null;
  /** The client's address as the rate limits see it. */
  clientIp: (request: HttpRequest) => string;
  /** Binds authenticated connections to their credentials (closed when those stop holding). */
  credentials: CredentialWatch;
  logger: Logger;
}

/**
 * A connection the gateway let in. It holds a place of its address's connections from admission
 * on: hand the upgraded socket to {@link SocketGateway.open}, or, when the upgrade does not
 * complete, give the place back with {@link SocketGateway.abandon}.
 */
export interface SocketAcceptance {
  accepted: true;
  endpoint: SocketEndpoint;
  admission: SocketAdmission;
}

/** A connection refused before the upgrade: answer it with this HTTP response. */
export interface SocketRefusal {
  accepted: false;
  response: TextResponse;
}

/** Counts of what is open now, for metrics. */
export interface SocketStats {
  connections: number;
  /** Per endpoint path. */
  connectionsByPath: Record<string, number>;
  /** What each endpoint counts (the channel protocol: subscriptions per channel), per path. */
  endpoints: Record<string, Record<string, number>>;
}

/**
 * Where WebSocket connections come in, whatever the adapter: `admit` decides on the upgrade
 * request (path, origin, credentials, connections per address); `open` hands the upgraded socket
 * to its endpoint, guarded by the heartbeat and the send-buffer limit, and bound to its
 * credentials (closed when they expire or are revoked).
 *
 * Connections per address count handshakes in flight: admission takes its place before it
 * awaits anything (the credentials' check), so a burst of simultaneous handshakes from one
 * address cannot all pass a count that none of them has joined yet.
 */
export class SocketGateway {
  readonly #byPath: Map<string, SocketEndpoint>;
  /** Open connections and handshakes in flight, per address. */
  readonly #perIp = new Map<string, number>();
  /** Acceptances whose place is taken and whose socket is not open yet. */
  readonly #inFlight = new Set<SocketAcceptance>();
  readonly #perPath = new Map<string, number>();
  readonly #heartbeat: Heartbeat;
  #closed = false;

  constructor(private readonly options: SocketGatewayOptions) {
    this.#byPath = new Map(options.endpoints.map((endpoint) => [endpoint.path, endpoint]));
    this.#heartbeat = new Heartbeat(options.limits.heartbeatIntervalMs);
  }

  /** The largest incoming message in bytes: adapters pass it to `ws` as `maxPayload` (1009 beyond it). */
  get maxMessageBytes(): number {
    return this.options.limits.maxMessageBytes;
  }

  /** The endpoints, for adapters that register a route per path. */
  get endpoints(): readonly SocketEndpoint[] {
    return this.options.endpoints;
  }

  /**
   * The subprotocol to agree to for an upgrade to `url` (relative to the mount point) among those
   * the client offers, as `ws`'s `handleProtocols` wants it: `false` agrees to none.
   */
  selectProtocol(url: string, offered: ReadonlySet<string>): string | false {
    return this.#byPath.get(pathOf(url))?.selectProtocol?.(offered) ?? false;
  }

  /** Decides on an upgrade request; `request.url` is relative to where ChainLens is mounted. */
  async admit(request: HttpRequest): Promise<SocketAcceptance | SocketRefusal> {
    try {
      const endpoint = this.#byPath.get(pathOf(request.url));
      if (!endpoint || this.#closed) throw new EndpointNotFoundError();
      const malformed = handshakeError(request);
      if (malformed) throw malformed;
      const origin = request.headers.origin;
      const allowed = this.options.limits.allowedOrigins;
      if (allowed && typeof origin === 'string' && !allowed.includes(origin)) throw new OriginNotAllowedError();
      const ip = this.options.clientIp(request);
      if ((this.#perIp.get(ip) ?? 0) >= this.options.limits.maxConnectionsPerIp) throw new RateLimitedError(1);
      this.#perIp.set(ip, (this.#perIp.get(ip) ?? 0) + 1);
      let principal: Principal | null;
      try {
        principal = await this.options.authenticate(withQueryCredentials(request));
      } catch (error) {
        decrement(this.#perIp, ip);
        throw error;
      }
      const acceptance: SocketAcceptance = { accepted: true, endpoint, admission: { principal, request, ip } };
      this.#inFlight.add(acceptance);
      return acceptance;
    } catch (error) {
      const explorerError = toExplorerError(error);
      if (explorerError.httpStatus >= 500) this.options.logger.error({ err: error }, 'a WebSocket upgrade failed');
      return { accepted: false, response: errorResponse(explorerError) };
    }
  }

  /** Takes over an upgraded socket that {@link admit} accepted; its place becomes the open connection's. */
  open(socket: SocketLike, acceptance: SocketAcceptance): void {
    const { endpoint, admission } = acceptance;
    const { ip } = admission;
    // An acceptance opened twice, or after it was abandoned, takes a place of its own.
    if (!this.#inFlight.delete(acceptance)) this.#perIp.set(ip, (this.#perIp.get(ip) ?? 0) + 1);
    if (this.#closed) {
      decrement(this.#perIp, ip);
      socket.close(1001, 'server shutting down');
      return;
    }
    this.#perPath.set(endpoint.path, (this.#perPath.get(endpoint.path) ?? 0) + 1);
    socket.on('close', () => {
      decrement(this.#perIp, ip);
      decrement(this.#perPath, endpoint.path);
    });
    // A socket error is followed by 'close'; without a listener it would crash the process.
    socket.on('error', (error) => this.options.logger.debug({ err: error }, 'WebSocket error'));
    this.#heartbeat.watch(socket);
    const guarded = new GuardedSocket(socket, this.options.limits.maxBufferedBytes, () =>
      this.options.logger.info({ ip, path: endpoint.path }, 'terminating a WebSocket client that stopped reading'),
    );
    if (admission.principal) this.options.credentials.watch(guarded, admission.principal, withQueryCredentials(admission.request));
    endpoint.open(guarded, admission);
  }

  /** Gives back the place of an acceptance whose upgrade did not complete (the client left, the transport refused it). */
  abandon(acceptance: SocketAcceptance): void {
    if (this.#inFlight.delete(acceptance)) decrement(this.#perIp, acceptance.admission.ip);
  }

  /** Open connections, in all and per endpoint. */
  stats(): SocketStats {
    let connections = 0;
    for (const count of this.#perPath.values()) connections += count;
    const endpoints = Object.fromEntries(this.options.endpoints.map((endpoint) => [endpoint.path, endpoint.stats?.() ?? {}]));
    return { connections, connectionsByPath: Object.fromEntries(this.#perPath), endpoints };
  }

  /** Refuses new connections and stops the heartbeat; open sockets are closed by their server. */
  close(): void {
    this.#closed = true;
    this.#heartbeat.stop();
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}
