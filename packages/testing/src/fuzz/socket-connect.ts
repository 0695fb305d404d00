import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { OriginNotAllowedError } from '@chainlens/core';
import { waitFor } from '../api/context.js';
import { openClient, tryUpgrade, type FuzzSocketClass, type UpgradeOutcome } from './socket-client.js';
import { describeErrors, FUZZ_SOCKET_LIMITS, type SocketFuzzContext } from './socket-context.js';
import { FUZZ_TEST_TIMEOUT_MS, fuzzSeed, reportFailures } from './seed.js';
import { headerText, hostileText } from './values.js';
import { envelopeProblem, type RawAnswer } from './verdicts.js';

/** Options of {@link socketConnectFuzzTests}. */
export interface SocketConnectFuzzOptions {
  /** Generated upgrade requests through a WebSocket client (default 300). */
  upgrades: number;
  /** Raw connections: malformed handshakes, and junk bytes after a good one (default 200). */
  rawConnections: number;
  WebSocket: FuzzSocketClass;
}

/** One generated upgrade: where to, with which headers. */
interface Upgrade {
  path: string;
  query: string;
  headers: Record<string, string>;
}

const ALLOWED_ORIGIN = FUZZ_SOCKET_LIMITS.allowedOrigins[0]!;
/** Node's default limit on a request's head (16 KiB): beyond it, 431 before any route runs. */
const HEADER_LIMIT = 16 * 1024;

/** `text` percent-encoded for a query string; a lone surrogate (which cannot be encoded) becomes U+FFFD. */
function queryEncoded(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, (unit, at: number) => (isPair(text, at) ? unit : '\ufffd')));
}

function isPair(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code < 0xdc00 ? (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00 : (text.charCodeAt(at - 1) & 0xfc00) === 0xd800;
}

function upgrades(valid: { token: string; apiKey: string }): fc.Arbitrary<Upgrade> {
  const path = fc.oneof({ weight: 6, arbitrary: fc.constant('/ws') }, { weight: 2, arbitrary: fc.constantFrom('/ws/', '/WS', '/ws%00', '/ws/x', '//ws', '/ws.json', '/wss', '/', '/api/v1/ws', '/%zz', '/ws;a=b') });
  const value = fc.oneof(fc.constantFrom(valid.token, valid.apiKey, '', 'null'), hostileText.map(queryEncoded).filter((text) => text.length <= 1_000));
  const pair = fc.tuple(fc.constantFrom('token', 'apiKey', 'apikey', 'token[]', 'access_token', 'x'), value).map(([key, text]) => `${key}=${text}`);
  const query = fc.oneof(
    { weight: 3, arbitrary: fc.constant('') },
    { weight: 4, arbitrary: fc.array(pair, { minLength: 1, maxLength: 3 }).map((pairs) => `?${pairs.join('&')}`) },
    { weight: 1, arbitrary: fc.constantFrom('?', '?&&&', '?token', '?token=&token=x', '?%', '?a=%zz', `?${'q'.repeat(4_000)}`) },
  );
  // Short enough that only the padding header below passes Node's 16 KiB header limit.
  const text = headerText.filter((value) => value.length <= 1_000);
  const credential = fc.oneof(fc.constantFrom(`Bearer ${valid.token}`, valid.apiKey), text);
  const headers = fc.record(
    {
      authorization: fc.oneof(credential, fc.constant(`Bearer ${valid.token}`)),
      'x-api-key': fc.oneof(credential, fc.constant(valid.apiKey)),
      origin: fc.oneof(fc.constant(ALLOWED_ORIGIN), fc.constantFrom('null', 'https://evil.example', `${ALLOWED_ORIGIN}/`, 'HTTPS://ALLOWED.EXAMPLE'), text),
      cookie: text,
      'x-forwarded-for': text,
    },
    { requiredKeys: [] },
  );
  const padding = fc.oneof({ weight: 20, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: fc.constant({ 'x-padding': 'x'.repeat(HEADER_LIMIT) }) });
  return fc.record({ path, query, headers: fc.tuple(headers, padding).map(([given, padded]) => ({ ...given, ...padded })) });
}

/**
 * The answer an upgrade must get, as decisions.md and the protocol order it: a head past Node's limit 431, an unknown path 404,
 * an origin not allowed 403, credentials that do not hold 401, else the connection opens.
 */
function expectedStatus(url: URL, headers: Record<string, string>, valid: { token: string; apiKey: string }): number[] {
  if (headers['x-padding'] !== undefined) return [431];
  // A path that cannot be percent-decoded: the framework may refuse the URL (400) before the route is looked up (404).
  if (url.pathname !== '/ws') return decodable(url.pathname) ? [404] : [400, 404];
  if (headers.origin !== undefined && headers.origin !== ALLOWED_ORIGIN) return [403];
  const query = new URLSearchParams(url.search);
  const token = query.get('token');
  const apiKey = query.get('apiKey');
  const authorization = token !== null ? `Bearer ${token}` : headers.authorization;
  const key = apiKey ?? headers['x-api-key'];
  if (authorization === undefined && key === undefined) return [101];
  const holds = (authorization === undefined || authorization === `Bearer ${valid.token}`) && (key === undefined || key === valid.apiKey);
  return holds ? [101] : [401];
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const ORIGIN_REFUSAL = new OriginNotAllowedError();

/** {@link envelopeProblem}, knowing the one refusal that only upgrades give (403 for an origin not allowed). */
function refusalProblem(answer: RawAnswer): string | null {
  const originRefused = answer.status === ORIGIN_REFUSAL.httpStatus && answer.text === JSON.stringify({ status: '0', message: ORIGIN_REFUSAL.message, result: null });
  return originRefused ? null : envelopeProblem(answer);
}

async function outcomeProblem(outcome: UpgradeOutcome, expected: readonly number[]): Promise<string | null> {
  if ('failed' in outcome) return outcome.failed.startsWith('the client refused') ? null : `the upgrade failed: ${outcome.failed}`;
  if ('refused' in outcome) {
    const { status, text } = outcome.refused;
    if (!expected.includes(status)) return `HTTP ${status} ${text.slice(0, 120)}, not ${expected.join(' or ')}`;
    return refusalProblem({ status, text });
  }
  const client = outcome.open;
  try {
    if (!expected.includes(101)) return `opened, not refused with ${expected.join(' or ')}`;
    client.socket.send(JSON.stringify({ event: 'ping' }));
    await client.receivedAtLeast(1, () => true, 'a pong on a fuzzed connection', 15_000);
    return client.received[0] === '{"event":"pong"}' ? null : `answered ping with ${client.received[0]}`;
  } finally {
    client.socket.terminate();
  }
}

/** Handshakes no WebSocket client would send, and junk bytes after a good handshake. */
function rawConnections(): fc.Arbitrary<string | Buffer> {
  const key = randomBytes(16).toString('base64');
  const good = ['Host: 127.0.0.1', 'Upgrade: websocket', 'Connection: Upgrade', `Sec-WebSocket-Key: ${key}`, 'Sec-WebSocket-Version: 13'];
  const handshake = (lines: string[], method = 'GET', target = '/ws') => `${method} ${target} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
  const broken = fc.oneof(
    fc.constantFrom(
      handshake(good.filter((line) => !line.startsWith('Sec-WebSocket-Key'))),
      handshake(good.map((line) => (line.startsWith('Sec-WebSocket-Key') ? 'Sec-WebSocket-Key: short' : line))),
      handshake(good.map((line) => (line.startsWith('Sec-WebSocket-Version') ? 'Sec-WebSocket-Version: 99' : line))),
      handshake(good.filter((line) => !line.startsWith('Sec-WebSocket-Version'))),
      handshake(good.map((line) => (line.startsWith('Upgrade') ? 'Upgrade: h2c' : line))),
      handshake(good, 'POST'),
      handshake([...good, 'Sec-WebSocket-Protocol: ,,,']),
      handshake([...good, 'Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits=99']),
      handshake([...good, 'Origin: https://evil.example']),
      handshake(good, 'GET', '/nowhere'),
      handshake([...good, 'Content-Length: 5'], 'GET', '/ws'),
    ),
    fc.string({ unit: 'binary-ascii', maxLength: 60 }).map((junk) => handshake([...good, `X-Junk: ${junk.replace(/[\r\n]/g, '')}`])),
  );
  // A good handshake, then bytes that are not a valid client frame (unmasked, reserved opcodes, lengths that lie).
  const junkFrames = fc.uint8Array({ minLength: 1, maxLength: 400 }).map((bytes) => Buffer.concat([Buffer.from(handshake(good), 'latin1'), Buffer.from(bytes)]));
  return fc.oneof(broken, junkFrames);
}

/** Writes `raw`, half-closes, and resolves what the server sent back (latin1) once it closes. */
function exchange(port: number, raw: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.end(typeof raw === 'string' ? Buffer.from(raw, 'latin1') : raw);
  });
}

/** What is wrong with the bytes a raw connection got back, or `null`: a 101 or an HTTP error in the envelope, never a 5xx. */
function rawProblem(response: string): string | null {
  if (response === '') return null;
  const match = /^HTTP\/1\.1 (\d{3}) /.exec(response);
  if (!match) return 'not an HTTP response';
  const status = Number(match[1]);
  if (status === 101) return null;
  if (status >= 500) return `HTTP ${status}`;
  const bodyStart = response.indexOf('\r\n\r\n');
  const problem = refusalProblem({ status, text: response.slice(bodyStart + 4) });
  return problem && `${problem}: ${JSON.stringify(response.slice(0, 300))}`;
}

/** Upgrades with junk paths, query strings, credentials and origins; malformed handshakes and frames on raw sockets. */
export function socketConnectFuzzTests(ctx: () => SocketFuzzContext, options: SocketConnectFuzzOptions): void {
  it(`answers ${options.upgrades} upgrades with junk paths, query strings, credentials and origins as decisions.md orders it (404, 403, 401 envelopes, else open)`, async () => {
    const context = ctx();
    const seed = fuzzSeed();
    const cases = fc.sample(upgrades(context.valid), { seed, numRuns: options.upgrades });
    const base = context.url.replace(/^http/, 'ws');
    const failures: string[] = [];
    let opened = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < cases.length) {
          const upgrade = cases[next++]!;
          const target = `${base}${upgrade.path}${upgrade.query}`;
          let url: URL;
          try {
            url = new URL(target);
          } catch {
            continue;
          }
          const expected = expectedStatus(url, upgrade.headers, context.valid);
          const outcome = await tryUpgrade(options.WebSocket, target, { headers: upgrade.headers });
          if ('open' in outcome) opened++;
          const problem = await outcomeProblem(outcome, expected);
          if (problem) failures.push(`${target.slice(0, 160)} ${JSON.stringify(upgrade.headers).slice(0, 200)}: ${problem}`);
        }
      }),
    );
    reportFailures(failures, seed);
    expect(opened).toBeGreaterThan(options.upgrades / 20);
    expect(describeErrors(context.errors)).toBe('');
  }, FUZZ_TEST_TIMEOUT_MS);

  it(`survives ${options.rawConnections} raw connections with malformed handshakes or junk frames: HTTP errors in the envelope or a closed socket, never a 5xx`, async () => {
    const context = ctx();
    const seed = fuzzSeed();
    const port = Number(new URL(context.url).port);
    const raws = fc.sample(rawConnections(), { seed, numRuns: options.rawConnections });
    const failures: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < raws.length) {
          const raw = raws[next++]!;
          const problem = rawProblem(await exchange(port, raw));
          if (problem) failures.push(`${JSON.stringify(raw.toString('latin1').slice(0, 200))}: ${problem}`);
        }
      }),
    );
    reportFailures(failures, seed);
    await waitFor(() => context.explorer.sockets.stats().connections === 0 || null, 'raw connections to be closed');
    const control = await openClient(options.WebSocket, context.wsUrl);
    control.socket.send(JSON.stringify({ event: 'ping' }));
    await control.receivedAtLeast(1, () => true, 'a pong after the raw connections');
    expect(control.received).toEqual(['{"event":"pong"}']);
    control.socket.terminate();
    expect(describeErrors(context.errors)).toBe('');
  }, FUZZ_TEST_TIMEOUT_MS);
}
