import type { Principal } from '../auth/principal.js';
import type { HttpRequest } from '../http/types.js';
import type { SocketLike } from './socket-like.js';

/** A WebSocket connection the gateway accepted: who opened it, and the upgrade request. */
export interface SocketAdmission {
  /** The caller authenticated at connect time, `null` for anonymous. */
  principal: Principal | null;
  /** The HTTP upgrade request (URL relative to the mount point). */
  request: HttpRequest;
  /** The client's address, as the rate limits see it. */
  ip: string;
}

/**
 * A protocol served over WebSocket at one path (the channel protocol at `/ws`, `graphql-ws` at
 * `/graphql`). The gateway admits the connection (origin, credentials, per-IP limits) and owns
 * the heartbeat, the message size limit and backpressure; the endpoint speaks its protocol.
 */
export interface SocketEndpoint {
  /** Path relative to the mount point, e.g. `/ws`. */
  path: string;
  /** The subprotocol to agree to among those the client offers; `false` refuses. Default: none. */
  selectProtocol?(offered: ReadonlySet<string>): string | false;
  /** Takes over an accepted connection. */
  open(socket: SocketLike, admission: SocketAdmission): void;
  /** Counts for metrics, e.g. subscriptions per channel. Default: none. */
  stats?(): Record<string, number>;
}
