import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { etherscanModules, isEtherscanPath, type Route, Router } from '@chainlens/core';
import { get } from '../api/context.js';
import type { FuzzContext } from './context.js';
import { requestsFor, type FuzzRequest } from './rest-requests.js';
import { FUZZ_TEST_TIMEOUT_MS, fuzzSeed, reportFailures } from './seed.js';
import { sendAll } from './send.js';
import { changedKeys, readStoredState, safeCanonical, type StateScope } from './stored-state.js';
import { validCandidates } from './values.js';
import { envelopeProblem, etherscanProblem, type RawAnswer } from './verdicts.js';

/** Credential sets that must be refused on every route, public ones included (decisions.md). */
const REFUSED = new Map([
  ['expiredJwt', ['Token expired']],
  ['forgedJwt', ['Unauthorized']],
  ['unsignedJwt', ['Unauthorized']],
  ['tamperedJwt', ['Unauthorized']],
  ['revokedKey', ['Invalid API key']],
  ['unknownKey', ['Invalid API key']],
]);

/** Options of {@link restFuzzTests}. */
export interface RestFuzzOptions {
  /** How many requests to generate across all routes. */
  requests: number;
  /** How many are in flight at once. */
  concurrency: number;
}

/**
 * Generated requests to every REST route (v1, v2, the Etherscan API), built from each route's own
 * zod schemas: every answer must be the right envelope, never a 5xx, and no refused write may
 * change what is stored.
 */
export function restFuzzTests(ctx: () => FuzzContext, options: RestFuzzOptions): void {
  it(`answers ${options.requests} generated hostile requests across every REST route with the envelope and the right code, never a 5xx, and refused writes change nothing`, async () => {
    const context = ctx();
    const { explorer, demo, credentials } = context;
    const seed = fuzzSeed();
    // JSON-RPC and GraphQL speak their own protocols: their fuzzers are their own.
    const routes = explorer.kernel.routes.filter((route) => route.path !== '/' && route.path !== '/graphql');
    const addresses = [...Object.values(demo.contracts), ...demo.accounts, `0x${randomUUID().replaceAll('-', '').padEnd(40, '0')}`];
    const hashes = Object.values(demo.transactions).filter((value): value is `0x${string}` => typeof value === 'string');
    const candidates = validCandidates({
      addresses,
      hashes,
      ids: [credentials.victim.id, ...credentials.victimKeys, randomUUID()],
      emails: [credentials.victim.email, ...Array.from({ length: 20 }, (_, i) => `fuzz-${seed}-${i}@example.com`)],
    });
    const pools = { candidates, headers: credentials.headers, validCredentials: credentials.valid, bodyLimit: explorer.config.http.bodyLimit, etherscan: etherscanActions(context) };
    const router = new Router(explorer.kernel.routes);
    const perRoute = new Map<Route, fc.Arbitrary<FuzzRequest>>(routes.map((route) => [route, requestsFor(route, pools)]));
    const requests = fc.sample(fc.constantFrom(...routes).chain((route) => perRoute.get(route)!), { seed, numRuns: options.requests });

    const scope: StateScope = {
      userIds: [credentials.admin.id, credentials.member.id, credentials.victim.id],
      emails: [...requests.flatMap((request) => emailOf(request)), credentials.admin.email, credentials.member.email, credentials.victim.email],
      addresses: [...addresses, ...requests.flatMap((request) => addressesOf(request))],
    };
    const before = await readStoredState(explorer.storage, scope);
    const answers = await sendAll(context.url, requests, options.concurrency);
    const after = await readStoredState(explorer.storage, scope);

    const failures: string[] = [];
    const allowed = new Set<string>();
    requests.forEach((request, i) => {
      const answer = answers[i]!;
      const problem = answerProblem(request, answer, router);
      if (problem) failures.push(`${describe(request)} → ${answer.status} ${answer.text.slice(0, 160)}: ${problem}`);
      for (const key of writtenKeys(request, answer, credentials, before)) allowed.add(key);
    });
    const changed = changedKeys(before, after);
    for (const key of changed) if (!allowed.has(key)) failures.push(`${key} changed, yet no accepted write named it`);
    reportFailures(failures, seed);
    // Some writes were accepted (registrations, keys): the comparison above had changes to explain.
    expect(changed.some((key) => key.startsWith('email:'))).toBe(true);
    expect(changed.some((key) => key.startsWith('keys:'))).toBe(true);

    // Every route was exercised, and enough got past validation to matter.
    const hits = new Map(routes.map((route) => [route, 0]));
    for (const request of requests) hits.set(request.route, hits.get(request.route)! + 1);
    expect([...hits].filter(([, count]) => count < 50).map(([route]) => `${route.method} ${route.path}`)).toEqual([]);
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThan(options.requests / 20);
    expect((await get(context, '/api/v1/health')).status).toBe(200);
    expect(explorer.indexer.status.running).toBe(true);
  }, FUZZ_TEST_TIMEOUT_MS);
}

/** Etherscan module names and their actions, from the modules the explorer serves. */
function etherscanActions(context: FuzzContext): Record<string, string[]> {
  const { services, chain } = context.explorer;
  const modules = etherscanModules(services, chain);
  return Object.fromEntries(Object.entries(modules).map(([name, module]) => [name, Object.keys(module.actions)]));
}

/** What is wrong with `answer`, judged by the route the kernel really matched (a wrong method matches none). */
function answerProblem(request: FuzzRequest, answer: RawAnswer, router: Router): string | null {
  if (answer.status < 0) return 'no answer';
  const route = router.match(request.method, request.url.split('?')[0]!)?.route;
  // Bodies and headers too large are refused by the HTTP server before any route runs, with the envelope.
  const beforeRouting = answer.status === 413 || answer.status === 431;
  const etherscan = route !== undefined && isEtherscanPath(route.path);
  // Pages, scripts and metrics answer their own text; their errors are envelopes like any other.
  const text = route?.format?.contentType !== undefined && answer.status === 200;
  if (text) return null;
  const problem = etherscan && !beforeRouting ? etherscanProblem(answer) : envelopeProblem(answer);
  if (problem || etherscan || beforeRouting) return problem;
  const refusal = REFUSED.get(request.credential);
  if (refusal === undefined) return null;
  const message = (JSON.parse(answer.text) as { message: string }).message;
  return answer.status === 401 && refusal.includes(message) ? null : `${request.credential} must be refused with 401 ${refusal.join(' or ')}`;
}

function describe(request: FuzzRequest): string {
  const body = request.body === undefined ? '' : ` body ${request.body.slice(0, 120)}`;
  return `${request.method} ${request.url.slice(0, 160)} [${request.credential}] (route ${request.route.method} ${request.route.path})${body}`;
}

/** The decoded value of path parameter `name` of `request`, if its route has one. */
function pathParam(request: FuzzRequest, name: string): string | undefined {
  const index = request.route.path.split('/').indexOf(`:${name}`);
  const segment = request.url.split('?')[0]!.split('/')[index];
  if (index < 0 || segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function field(request: FuzzRequest, name: string): unknown {
  const json = request.json;
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[name] : undefined;
}

function emailOf(request: FuzzRequest): string[] {
  const email = field(request, 'email');
  return typeof email === 'string' ? [email] : [];
}

function addressesOf(request: FuzzRequest): string[] {
  return [pathParam(request, 'address'), field(request, 'address'), field(request, 'contractaddress')].filter((value): value is string => typeof value === 'string');
}

/** The stored records an accepted write may change: its target and, for keys, their owner. */
function writtenKeys(request: FuzzRequest, answer: RawAnswer, credentials: FuzzContext['credentials'], before: Map<string, unknown>): string[] {
  if (answer.status !== 200 || request.method === 'GET') return [];
  const { route } = request;
  const name = `${request.method} ${route.path}`;
  const callers = request.credential === 'admin' ? [credentials.admin.id] : request.credential === 'bothKinds' ? [credentials.admin.id, credentials.member.id] : [credentials.member.id];
  const address = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : '');
  switch (name) {
    case 'POST /api/v1/auth/register':
      return [`email:${safeCanonical(String(field(request, 'email')))}`];
    case 'POST /api/v1/auth/api-keys':
    case 'DELETE /api/v1/auth/api-keys/:id':
      return callers.map((id) => `keys:${id}`);
    case 'PATCH /api/v1/admin/users/:id': {
      const id = pathParam(request, 'id')!.toLowerCase();
      const user = before.get(`user:${id}`) as { email: string } | null | undefined;
      return [`user:${id}`, ...(user ? [`email:${user.email}`] : [])];
    }
    case 'PATCH /api/v1/admin/api-keys/:id': {
      const id = pathParam(request, 'id')!.toLowerCase();
      return [...before].filter(([key, keys]) => key.startsWith('keys:') && (keys as { id: string }[]).some((stored) => stored.id === id)).map(([key]) => key);
    }
    case 'PUT /api/v2/metadata/:address':
      return [`metadata:${address(pathParam(request, 'address'))}`];
    case 'POST /api/v1/contract/verify':
      return [`verified:${address(field(request, 'address'))}`, 'verified:*'];
    default: {
      // An Etherscan verification submitted (its status is in the body).
      const params = new URLSearchParams(request.url.split('?')[1] ?? '');
      const param = (name: string) => field(request, name) ?? params.get(name);
      const verification = param('module') === 'contract' && /^verify/i.test(String(param('action'))) && /"status":"1"/.test(answer.text);
      return verification ? [`verified:${address(param('contractaddress'))}`, 'verified:*'] : [];
    }
  }
}
