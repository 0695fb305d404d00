import type { SocketData, SocketLike } from './socket-like.js';

/**
 * A socket whose `send` terminates the connection once the peer leaves more than `maxBuffered`
 * bytes unread: a client that stops reading costs a bounded amount of memory and never slows
 * the broadcast to anyone else (`send` only queues; nothing waits for a slow peer).
 */
export class GuardedSocket implements SocketLike {
  #cutOff = false;

  constructor(
    private readonly socket: SocketLike,
    private readonly maxBuffered: number,
    private readonly onOverflow: () => void,
  ) {}

  get protocol(): string {
    return this.socket.protocol;
  }

  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  get readyState(): number {
    return this.socket.readyState;
  }

  send(data: string, callback?: (error?: Error) => void): void {
    if (this.#cutOff) return;
    this.socket.send(data, callback);
    if (this.socket.bufferedAmount > this.maxBuffered) {
      this.#cutOff = true;
      this.onOverflow();
      this.socket.terminate();
    }
  }

  ping(): void {
    this.socket.ping();
  }

  close(code?: number, reason?: string): void {
    this.socket.close(code, reason);
  }

  terminate(): void {
    this.socket.terminate();
  }

  on(event: 'message', listener: (data: SocketData, isBinary: boolean) => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'message' | 'pong' | 'close' | 'error', listener: (...args: never[]) => void): unknown {
    return (this.socket.on as (event: string, listener: (...args: never[]) => void) => unknown)(event, listener);
  }
}
