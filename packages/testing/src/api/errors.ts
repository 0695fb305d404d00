import { expect, it } from 'vitest';
import { call, errorEnvelope, get, type ApiContext } from './context.js';

/** Envelope, health and the framework-level error cases. */
export function errorAndHealthTests(ctx: () => ApiContext): void {
  it('GET /health reports ok with the chain id and no indexing lag', async () => {
    const { status, body } = await get(ctx(), '/api/v1/health');
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: '1', message: 'OK' });
    expect(body.result).toMatchObject({ status: 'ok', chainId: 31337, storage: 'ok' });
    expect(body.result.indexedBlock).toBeGreaterThan(0);
    expect(typeof body.result.uptime).toBe('number');
  });

  it('answers an unknown route with 404 Endpoint not found', async () => {
    for (const path of ['/api/v1/nope', '/api/v2/anything', '/favicon.ico']) {
      const { status, body } = await get(ctx(), path);
      expect(status).toBe(404);
      expect(body).toEqual(errorEnvelope('Error! Endpoint not found'));
    }
  });

  it('answers a body over the limit with 413 in the envelope', async () => {
    const huge = JSON.stringify({ signedTransaction: `0x${'ab'.repeat(2 * 1024 * 1024)}` });
    const { status, body } = await call(ctx(), 'POST', '/api/v1/transaction/send', huge);
    expect(status).toBe(413);
    expect(body).toEqual(errorEnvelope('Error! Request body too large'));
  });

  it('lets fetch read the 413 of a body at 2× and 20× the limit, sent at once or as it comes', async () => {
    const limit = ctx().explorer.kernel.bodyLimit;
    for (const times of [2, 20]) {
      const body = Buffer.from(JSON.stringify({ email: 'big@example.com', password: 'x'.repeat(times * limit), name: 'Big' }));
      for (const streamed of [false, true]) {
        const response = await fetch(`${ctx().url}/api/v1/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(body.byteLength) },
          body: streamed ? trickle(body) : body,
          duplex: 'half',
        } as RequestInit);
        expect({ times, streamed, status: response.status, body: await response.json() }).toEqual({ times, streamed, status: 413, body: errorEnvelope('Error! Request body too large') });
      }
    }
  });

  it('answers malformed JSON with 400 and the field', async () => {
    const { status, body } = await call(ctx(), 'POST', '/api/v1/transaction/estimate-gas', '{"to":');
    expect(status).toBe(400);
    expect(body).toEqual(errorEnvelope('Error! Invalid request: body: malformed JSON'));
  });

  it('answers oversized headers with 431 in the envelope', async () => {
    const { status, body } = await call(ctx(), 'GET', '/api/v1/health', undefined, { 'x-padding': 'x'.repeat(64 * 1024) });
    expect(status).toBe(431);
    expect(body).toEqual(errorEnvelope('Error! Request header fields too large'));
  });
}

/** `bytes` in 64 KiB pieces, one per turn of the event loop: a client slower than the server reads. */
function trickle(bytes: Buffer): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      for (let offset = 0; offset < bytes.byteLength; offset += 65_536) {
        controller.enqueue(bytes.subarray(offset, offset + 65_536));
        await new Promise((resolve) => setImmediate(resolve));
      }
      controller.close();
    },
  });
}
