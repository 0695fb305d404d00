import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { WebhookTarget } from './target-guard.js';

/** Bytes of a response body kept (the rest is never read into memory). */
export const RESPONSE_BODY_LIMIT = 1024;

/** What one POST came to: the status and at most {@link RESPONSE_BODY_LIMIT} bytes of body, or why it failed. */
export type SendOutcome = { statusCode: number; body: string } | { statusCode: null; error: string };

/**
 * POSTs `body` to `target` with Node's http/https: connected to the checked address (the URL's
 * host still names the TLS server and the Host header), redirects not followed (a 3xx is an
 * answer like any other), the whole exchange bounded by `timeoutMs`, and the response body read
 * to {@link RESPONSE_BODY_LIMIT} bytes at most.
 */
export function sendWebhook(target: WebhookTarget, body: string, headers: Record<string, string>, timeoutMs: number): Promise<SendOutcome> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    const request = client.request(target.url, {
      method: 'POST',
      lookup: pinned,
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'ChainLens-Webhooks/1', ...headers },
    });
    const timer = setTimeout(() => finish({ statusCode: null, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
    request.on('error', (error) => finish({ statusCode: null, error: error.message }));
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => finish({ statusCode: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
      response.on('data', (chunk: Buffer) => {
        const room = RESPONSE_BODY_LIMIT - size;
        if (room > 0) chunks.push(chunk.subarray(0, room));
        size += chunk.length;
        if (size >= RESPONSE_BODY_LIMIT) done();
      });
      response.on('end', done);
      response.on('error', done);
    });
    request.end(body);
  });
}
