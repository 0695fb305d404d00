import type { RawAnswer } from './verdicts.js';

/** A request as the fuzzers send it. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * Sends every request to `base` with at most `concurrency` in flight; answers come back in
 * request order. A request that cannot be completed (a reset connection, a timeout) answers
 * status `-1` and the error as its text, for the caller to report.
 */
export async function sendAll(base: string, requests: readonly SentRequest[], concurrency: number): Promise<RawAnswer[]> {
  const answers: RawAnswer[] = new Array(requests.length);
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const index = next++;
      answers[index] = await send(base, requests[index]!);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return answers;
}

async function send(base: string, request: SentRequest): Promise<RawAnswer> {
  try {
    const response = await fetch(`${base}${request.url}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(30_000),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    return { status: -1, text: `request failed: ${String(error)}${error instanceof Error && error.cause ? ` (${String(error.cause)})` : ''}` };
  }
}
