import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PayloadTooLargeError } from '../errors/index.js';
import { readRequestBody } from './request-body.js';

const limits = { bodyLimit: 10, drainLimit: 100 };
const body = (size: number) => Readable.from([Buffer.alloc(size, 'a')]);
const sized = (size: number) => ({ 'content-length': String(size) });

describe('readRequestBody', () => {
  it('reads a body within the limit whole, and none when the request declares none', async () => {
    expect((await readRequestBody(body(10), sized(10), limits))?.toString()).toBe('a'.repeat(10));
    expect(await readRequestBody(body(0), {}, limits)).toBeUndefined();
  });

  it('refuses a body over the limit only once it has been read to its end', async () => {
    const stream = body(50);
    const error = await readRequestBody(stream, sized(50), limits).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toMatchObject({ unread: false });
    expect(stream.readableEnded).toBe(true);
  });

  it('gives up on a body past the drain limit, by its declared length or as it comes, leaving it unread', async () => {
    await expect(readRequestBody(body(101), sized(101), limits)).rejects.toMatchObject({ unread: true });
    const endless = Readable.from((function* () { for (;;) yield Buffer.alloc(30); })());
    await expect(readRequestBody(endless, { 'transfer-encoding': 'chunked' }, limits)).rejects.toMatchObject({ unread: true });
    expect(endless.destroyed).toBe(false);
  });
});
