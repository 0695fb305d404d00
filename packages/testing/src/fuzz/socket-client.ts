import { waitFor } from '../api/context.js';
import type { UpgradeResponse } from '../sockets/client.js';

/** The part of a `ws` client the socket fuzzers use: text and binary frames, raw bytes as text. */
export interface FuzzSocket {
  readonly readyState: number;
  send(data: string | Uint8Array, options?: { binary?: boolean }): void;
  terminate(): void;
  on(event: 'message', listener: (data: Buffer, isBinary: boolean) => void): unknown;
  on(event: 'open', listener: () => void): unknown;
  on(event: 'close', listener: (code: number) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'unexpected-response', listener: (request: { destroy(): void }, response: UpgradeResponse) => void): unknown;
}

/** `ws`'s `WebSocket` class (core imports no WebSocket library: the adapter test passes it). */
export type FuzzSocketClass = new (url: string, protocols?: string | string[], options?: { headers?: Record<string, string> }) => FuzzSocket;

/** A connected client that keeps every frame the server sent as it came, unparsed. */
export class RecordingClient {
  readonly received: string[] = [];
  /** Frames the server sent as binary (the protocol never does). */
  binaryFrames = 0;
  closeCode: number | null = null;

  constructor(readonly socket: FuzzSocket) {
    socket.on('message', (data, isBinary) => {
      if (isBinary) this.binaryFrames++;
      this.received.push(data.toString('utf8'));
    });
    socket.on('close', (code) => {
      this.closeCode = code;
    });
    socket.on('error', () => undefined);
  }

  /** Waits until `count` received frames satisfy `matches`. */
  async receivedAtLeast(count: number, matches: (text: string) => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    await waitFor(() => this.closeCode !== null || this.received.filter(matches).length >= count, what, timeoutMs);
  }

  async closed(timeoutMs = 15_000): Promise<number> {
    return waitFor(() => this.closeCode, 'the connection to close', timeoutMs);
  }
}

/** How an upgrade ended: open (the client), refused with an HTTP answer, or failed at the transport. */
export type UpgradeOutcome = { open: RecordingClient } | { refused: { status: number; text: string } } | { failed: string };

/** Opens a connection to `url` and reports how the upgrade ended. */
export function tryUpgrade(WebSocket: FuzzSocketClass, url: string, options: { headers?: Record<string, string>; protocols?: string[] } = {}): Promise<UpgradeOutcome> {
  return new Promise((resolve) => {
    let socket: FuzzSocket;
    try {
      socket = new WebSocket(url, options.protocols, { headers: options.headers });
    } catch (error) {
      resolve({ failed: `the client refused to send it: ${String(error)}` });
      return;
    }
    const client = new RecordingClient(socket);
    socket.on('open', () => resolve({ open: client }));
    socket.on('error', (error) => {
      socket.terminate();
      resolve({ failed: String(error) });
    });
    socket.on('unexpected-response', (request, response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk.toString('utf8')));
      response.on('end', () => {
        // The client owns a refused upgrade's connection: drop it, as a browser would.
        request.destroy();
        resolve({ refused: { status: response.statusCode ?? 0, text } });
      });
    });
  });
}

/** Opens a connection that must be accepted. */
export async function openClient(WebSocket: FuzzSocketClass, url: string, options: { headers?: Record<string, string>; protocols?: string[] } = {}): Promise<RecordingClient> {
  const outcome = await tryUpgrade(WebSocket, url, options);
  if ('open' in outcome) return outcome.open;
  throw new Error(`the upgrade to ${url} was not accepted: ${JSON.stringify(outcome)}`);
}
