/**
 * The part of a WebSocket connection core uses. It is the shape of a `ws` `WebSocket`, so
 * adapters hand their sockets over as they are, while core imports no transport library.
 */
export interface SocketLike {
  /** The subprotocol agreed in the handshake (`''` when none). */
  readonly protocol: string;
  /** Bytes queued for sending and not yet written to the network. */
  readonly bufferedAmount: number;
  /** `1` while open (the WebSocket `OPEN` state). */
  readonly readyState: number;
  send(data: string, callback?: (error?: Error) => void): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  /** Drops the connection at once, without a closing handshake. */
  terminate(): void;
  on(event: 'message', listener: (data: SocketData, isBinary: boolean) => void): unknown;
  on(event: 'pong', listener: () => void): unknown;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** A received frame's payload, as `ws` delivers it. */
export type SocketData = Buffer | ArrayBuffer | Buffer[];

/** `WebSocket.OPEN`. */
export const SOCKET_OPEN = 1;
