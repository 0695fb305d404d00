import type { SocketLike } from './socket-like.js';

/**
 * Pings every socket each `intervalMs`; a socket that has not answered the previous ping by the
 * next round is terminated (a peer gone without a close frame, or a dead network path). One
 * timer serves every connection, and it does not keep the process alive.
 */
export class Heartbeat {
  readonly #answered = new Map<SocketLike, boolean>();
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly intervalMs: number) {}

  /** Starts watching `socket` until it closes. */
  watch(socket: SocketLike): void {
    this.#answered.set(socket, true);
    socket.on('pong', () => {
      if (this.#answered.has(socket)) this.#answered.set(socket, true);
    });
    socket.on('close', () => this.#answered.delete(socket));
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#beat(), this.intervalMs);
      this.#timer.unref();
    }
  }

  /** Stops the timer (sockets are left as they are). */
  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #beat(): void {
    for (const [socket, answered] of this.#answered) {
      if (!answered) {
        this.#answered.delete(socket);
        socket.terminate();
        continue;
      }
      this.#answered.set(socket, false);
      socket.ping();
    }
  }
}
