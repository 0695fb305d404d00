import { connect } from 'node:net';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { get } from '../api/context.js';
import type { FuzzContext } from './context.js';
import { FUZZ_TEST_TIMEOUT_MS, fuzzSeed, reportFailures } from './seed.js';
import { hostileText } from './values.js';
import { envelopeProblem } from './verdicts.js';

/** Options of {@link rawHttpFuzzTests}. */
export interface RawHttpFuzzOptions {
  requests: number;
  concurrency: number;
}

const PATHS = ['/api/v1/health', '/api/v1/block/getblock?blockno=1', '/api/v1/auth/login', '/', '/api', '/nope'];

/** Request lines, headers and bodies as no HTTP client library would send them. */
function rawRequest(): fc.Arbitrary<string> {
  const method = fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'), fc.constantFrom('get', 'G ET', 'CONNECT', 'TRACE', 'PRI', 'BREW', '', 'GET\u0000'));
  const target = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...PATHS) },
    { weight: 1, arbitrary: fc.constantFrom('*', 'http://evil.example/api', '//x', '/%', '/%zz', '/a b', '/\u00ff', `/${'a'.repeat(20_000)}`, '') },
    { weight: 1, arbitrary: hostileText.map((text) => `/${text}`) },
  );
  const version = fc.oneof({ weight: 6, arbitrary: fc.constant('HTTP/1.1') }, { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/9.9', 'HTTP/1', 'HTTPS/1.1', '') });
  const header = fc.oneof(
    fc.constantFrom(
      'Host: localhost',
      'Content-Type: application/json',
      'Content-Length: 5',
      'Content-Length: -1',
      'Content-Length: 99999999999999999999',
      'Content-Length: 1, 2',
      'Transfer-Encoding: chunked',
      'Transfer-Encoding: gzip, chunked',
      'Transfer-Encoding: nonsense',
      'Authorization: Bearer ',
      'X-API-Key: \u00ff\u00fe',
      'Connection: upgrade',
      'Upgrade: websocket',
      'Expect: 100-continue',
      'No colon here',
      ': empty name',
      'Bad Name: x',
      ' Leading-Space: x',
      `X-Big: ${'x'.repeat(20_000)}`,
    ),
    fc.tuple(fc.stringMatching(/^[A-Za-z-]{1,20}$/), fc.string({ unit: 'binary-ascii', maxLength: 40 })).map(([name, value]) => `${name}: ${value.replace(/[\r\n]/g, '')}`),
  );
  const body = fc.oneof(fc.constant(''), fc.constantFrom('{"email":"a@b.c","password":"x"}', '{', '0\r\n\r\n', '5\r\nhello\r\n0\r\n\r\n', 'zz\r\nbad chunk\r\n', '\u0000\u0001\u0002'), fc.string({ maxLength: 200 }));
  const newline = fc.constantFrom('\r\n', '\r\n', '\r\n', '\n');
  return fc.record({ method, target, version, headers: fc.array(header, { maxLength: 5 }), body, newline }).map(({ method, target, version, headers, body, newline }) => {
    const head = [`${method} ${target} ${version}`.trim(), ...headers].join(newline);
    return `${head}${newline}${newline}${body}`;
  });
}

/** Writes `raw` on a fresh connection, half-closes it and resolves everything the server sent back. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(15_000, () => socket.destroy());
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.end(Buffer.from(raw, 'latin1'));
  });
}

/** What is wrong with the bytes answered to one raw request, or `null`. */
function rawProblem(response: string): string | null {
  // The server may close a connection it cannot read anything from without answering.
  if (response === '') return null;
  const match = /^HTTP\/1\.[01] (\d{3}) /.exec(response);
  if (!match) return 'not an HTTP response';
  const status = Number(match[1]);
  if (status >= 500) return `HTTP ${status}`;
  const bodyStart = response.indexOf('\r\n\r\n');
  const body = bodyStart === -1 ? '' : response.slice(bodyStart + 4);
  // Pipelined or chunked answers are framed; an answer that is a single error must be the envelope.
  if (status >= 400 && !/transfer-encoding: chunked/i.test(response.slice(0, bodyStart)) && body.startsWith('{')) {
    const length = /content-length: (\d+)/i.exec(response.slice(0, bodyStart));
    const text = length ? body.slice(0, Number(length[1])) : body;
    return envelopeProblem({ status, text });
  }
  return null;
}

/** Malformed HTTP on raw sockets: every answer is an HTTP response (an error one in the envelope), never a 5xx, and the server stays up. */
export function rawHttpFuzzTests(ctx: () => FuzzContext, options: RawHttpFuzzOptions): void {
  it(`answers ${options.requests} malformed raw HTTP requests with 4xx envelopes (or a closed connection), never a 5xx, and keeps serving`, async () => {
    const context = ctx();
    const seed = fuzzSeed();
    const port = Number(new URL(context.url).port);
    const requests = fc.sample(rawRequest(), { seed, numRuns: options.requests });
    const answers: string[] = new Array(requests.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < requests.length) {
          const index = next++;
          answers[index] = await exchange(port, requests[index]!);
        }
      }),
    );
    const failures = requests.flatMap((raw, i) => {
      const problem = rawProblem(answers[i]!);
      return problem ? [`${JSON.stringify(raw.slice(0, 160))} → ${JSON.stringify(answers[i]!.slice(0, 200))}: ${problem}`] : [];
    });
    reportFailures(failures, seed);
    // Most were answered, not just dropped.
    expect(answers.filter((answer) => answer.startsWith('HTTP/1.')).length).toBeGreaterThan(options.requests / 2);
    expect((await get(context, '/api/v1/health')).status).toBe(200);
  }, FUZZ_TEST_TIMEOUT_MS);
}
