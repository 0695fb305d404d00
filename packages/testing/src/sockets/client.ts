import { waitFor } from '../api/context.js';

/** The part of a `ws` client the suite uses (core imports no WebSocket library: the adapter test passes `ws`'s class). */
export interface ClientSocket {
  readonly readyState: number;
  send(data: string): void;
  close(): void;
  terminate(): void;
  pause(): void;
  on(event: 'message', listener: (data: Buffer) => void): unknown;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'unexpected-response', listener: (request: unknown, response: UpgradeResponse) => void): unknown;
}

/** The HTTP answer to a refused upgrade, as `ws` reports it. */
export interface UpgradeResponse {
  statusCode?: number;
  on(event: 'data', listener: (chunk: Buffer) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
}

/** `ws`'s `WebSocket` class. */
export type ClientSocketClass = new (url: string, options?: { headers?: Record<string, string>; autoPong?: boolean }) => ClientSocket;

/** Any message the server sent. */
export type ServerMessage = Record<string, any>;

/** A connected test client that keeps every message it receives, for `next` to find. */
export class TestClient {
  readonly messages: ServerMessage[] = [];
  /** When each message arrived (`performance.now()`), by index. */
  readonly arrivals: number[] = [];
  closeCode: number | null = null;
  /** The close frame's reason (`''` without one). */
  closeReason: string | null = null;
  #read = 0;

  constructor(readonly socket: ClientSocket) {
    socket.on('message', (data) => {
      this.messages.push(JSON.parse(data.toString('utf8')) as ServerMessage);
      this.arrivals.push(performance.now());
    });
    socket.on('close', (code, reason) => {
      this.closeReason = reason.toString('utf8');
      this.closeCode = code;
    });
    socket.on('error', () => {});
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The next message (after those `next` already returned) that `matches`, waiting for it. */
  async next(matches: (message: ServerMessage) => boolean = () => true, what = 'a message', timeoutMs = 15_000): Promise<ServerMessage> {
    return waitFor(
      () => {
        for (let i = this.#read; i < this.messages.length; i++) {
          if (matches(this.messages[i]!)) {
            this.#read = i + 1;
            return this.messages[i]!;
          }
        }
        return null;
      },
      what,
      timeoutMs,
    );
  }

  /** Sends `message` and waits for the answer `matches` accepts. */
  async request(message: unknown, matches: (message: ServerMessage) => boolean): Promise<ServerMessage> {
    this.send(message);
    return this.next(matches, `the answer to ${JSON.stringify(message)}`);
  }

  /** Subscribes and waits for the acknowledgement (or an error). */
  subscribe(channel: string, extra: Record<string, unknown> = {}): Promise<ServerMessage> {
    return this.request({ event: 'subscribe', channel, ...extra }, (m) => m.event === 'subscribed' || m.event === 'error');
  }

  /** Data messages of `channel` received so far. */
  data(channel: string): ServerMessage[] {
    return this.messages.filter((m) => m.channel === channel && m.event === undefined);
  }

  async closed(): Promise<number> {
    return waitFor(() => this.closeCode, 'the connection to close');
  }

  close(): void {
    this.socket.terminate();
  }
}

/** Opens a connection; rejects with the refusal (`{status, body}`) when the upgrade is refused. */
export function connect(WebSocket: ClientSocketClass, url: string, options: { headers?: Record<string, string>; autoPong?: boolean } = {}): Promise<TestClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, options);
    const client = new TestClient(socket);
    socket.on('open', () => resolve(client));
    socket.on('error', reject);
    socket.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk.toString('utf8')));
      response.on('end', () => reject(new UpgradeRefused(response.statusCode ?? 0, body)));
    });
  });
}

/** An upgrade the server answered with an HTTP response instead. */
export class UpgradeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upgrade refused with ${status}: ${body}`);
  }
}

/** The refusal an upgrade to `url` gets. */
export async function refusal(WebSocket: ClientSocketClass, url: string, headers?: Record<string, string>): Promise<{ status: number; body: any }> {
  try {
    const client = await connect(WebSocket, url, { headers });
    client.close();
  } catch (error) {
    if (error instanceof UpgradeRefused) return { status: error.status, body: JSON.parse(error.body) };
    throw error;
  }
  throw new Error(`the upgrade to ${url} was accepted`);
}
