import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import type { Revocation } from '../auth/revocation.js';
import { ERROR_TABLE, toExplorerError } from '../errors/index.js';
import type { HttpRequest } from '../http/types.js';
import { SOCKET_OPEN, type SocketLike } from './socket-like.js';

/**
 * The close code of a connection whose credentials stopped holding (a JWT expired, a key was
 * revoked or expired, a user was deactivated); the close reason is what REST answers those
 * credentials now: `Token expired`, `Invalid API key` or `Unauthorized`.
 */
export const CREDENTIALS_CLOSE_CODE = 4401;

/** What a {@link CredentialWatch} needs. */
export interface CredentialWatchOptions {
  /** The authenticator REST uses: it throws for credentials that do not hold. */
  authenticate: (request: HttpRequest) => Promise<Principal | null> | Principal | null;
  /** How often the credentials of open connections are checked again (`sockets.credentialCheckIntervalMs`). */
  checkIntervalMs: number;
  /** Current time in milliseconds. */
  now: () => number;
  logger: Logger;
}

/** A watched connection: who it acts as, and the request whose credentials prove it. */
interface Watched {
  principal: Principal;
  request: HttpRequest;
  /** Fires at the credentials' expiry. */
  expiry: NodeJS.Timeout | null;
}

/** Longest delay `setTimeout` takes (about 24.8 days); a later expiry is waited for in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1;

/**
 * Keeps every authenticated WebSocket connection bound to its credentials: it is closed with
 * {@link CREDENTIALS_CLOSE_CODE} when its JWT or key expires (a timer at the expiry), when a
 * {@link Revocation} names its key or user (checked at once), and otherwise when a periodic check
 * finds its credentials no longer hold, so a revocation whose notice never arrived (a dropped
 * bus connection, a change written to storage directly) still closes it within one interval.
 * A check that cannot be answered (storage down) keeps the connection until the next one.
 */
export class CredentialWatch {
  readonly #watched = new Map<SocketLike, Watched>();
  #timer: NodeJS.Timeout | null = null;
  #closed = false;

  constructor(private readonly options: CredentialWatchOptions) {}

  /**
   * Binds `socket` to the credentials of `request`, proven as `principal`, until it closes;
   * replaces what it was bound to before (the channel protocol's `auth` message).
   */
  watch(socket: SocketLike, principal: Principal, request: HttpRequest): void {
    // A connection that closed while its credentials were checked is gone already.
    if (socket.readyState !== SOCKET_OPEN) return;
    const known = this.#watched.get(socket);
    if (known?.expiry) clearTimeout(known.expiry);
    else if (!known) socket.on('close', () => this.#forget(socket));
    const watched: Watched = { principal, request, expiry: null };
    this.#watched.set(socket, watched);
    this.#awaitExpiry(socket, watched);
    if (!this.#timer && !this.#closed) this.#scheduleCheck();
  }

  /** Checks at once every connection the revocation names (one key, or every credential of one user). */
  revoked(revocation: Revocation): void {
    const named = [...this.#watched].filter(([, { principal }]) =>
      'keyId' in revocation ? principal.kind === 'apiKey' && principal.key.id === revocation.keyId : principal.user.id === revocation.userId,
    );
    void this.#check(named);
  }

  /** Stops the timers; connections are left as they are. */
  close(): void {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    for (const { expiry } of this.#watched.values()) if (expiry) clearTimeout(expiry);
  }

  #forget(socket: SocketLike): void {
    const watched = this.#watched.get(socket);
    if (watched?.expiry) clearTimeout(watched.expiry);
    this.#watched.delete(socket);
  }

  /** Closes `socket` when its credentials expire: a JWT at its `exp`, a key at its `expiresAt`. */
  #awaitExpiry(socket: SocketLike, watched: Watched): void {
    const { principal } = watched;
    const expiresAt = principal.kind === 'jwt' ? principal.expiresAt : principal.key.expiresAt;
    if (expiresAt === null) return;
    const wait = () => {
      const left = expiresAt.getTime() - this.options.now();
      if (left <= 0) {
        watched.expiry = null;
        return this.#cut(socket, principal.kind === 'jwt' ? ERROR_TABLE.TOKEN_EXPIRED.message : ERROR_TABLE.INVALID_API_KEY.message);
      }
      // Timers and the clock may part ways: at the timer, the clock decides.
      watched.expiry = setTimeout(wait, Math.min(left, MAX_DELAY_MS));
      watched.expiry.unref();
    };
    wait();
  }

  #scheduleCheck(): void {
    this.#timer = setTimeout(() => {
      void this.#check([...this.#watched]).finally(() => {
        this.#timer = null;
        if (this.#watched.size > 0 && !this.#closed) this.#scheduleCheck();
      });
    }, this.options.checkIntervalMs);
    this.#timer.unref();
  }

  /**
   * Authenticates the credentials of `entries` again, once per distinct credential, one after
   * the other (the storage reads of a round are spread, never a burst), and closes every
   * connection whose credentials are refused.
   */
  async #check(entries: [SocketLike, Watched][]): Promise<void> {
    const byCredential = new Map<string, [SocketLike, Watched][]>();
    for (const entry of entries) {
      const { authorization, 'x-api-key': apiKey } = entry[1].request.headers;
      const credential = JSON.stringify([authorization, apiKey]);
      byCredential.set(credential, [...(byCredential.get(credential) ?? []), entry]);
    }
    for (const group of byCredential.values()) {
      try {
        await this.options.authenticate(group[0]![1].request);
      } catch (error) {
        const refusal = toExplorerError(error);
        if (refusal.httpStatus !== 401) {
          this.options.logger.warn({ err: error }, 'the credentials of open WebSocket connections could not be checked; they stay open until the next check');
          continue;
        }
        // Only connections still bound to these credentials: an `auth` message may have replaced them meanwhile.
        for (const [socket, watched] of group) if (this.#watched.get(socket) === watched) this.#cut(socket, refusal.message);
      }
    }
  }

  #cut(socket: SocketLike, reason: string): void {
    this.#forget(socket);
    socket.close(CREDENTIALS_CLOSE_CODE, reason);
  }
}
