import { randomBytes } from 'node:crypto';
import { TokenIssuer } from '@chainlens/core';
import { call, createApiContext, signUp, type ApiContext, type ApiSuiteOptions, type SignedUpUser } from '../api/context.js';

/** Header sets a fuzzed request may carry: valid credentials of each kind, and broken ones. */
export interface FuzzCredentials {
  admin: SignedUpUser;
  member: SignedUpUser;
  /** A user whose record and keys the fuzz aims writes at (never one whose credentials it sends). */
  victim: SignedUpUser;
  /** Ids of the victim's keys. */
  victimKeys: string[];
  /** The member's API key, its id and secret. */
  memberKey: { id: string; key: string };
  /** Every header set, by what it holds. */
  headers: Record<string, Record<string, string>>;
  /** Names of the header sets that authenticate, or are anonymous. */
  valid: string[];
}

/** A served explorer on the demo chain, with a known JWT secret so expired and forged tokens can be made. */
export interface FuzzContext extends ApiContext {
  credentials: FuzzCredentials;
}

const ALLOWANCE = { perMinute: 100_000_000, perDay: 1_000_000_000 };

/**
 * Starts anvil with the demo deployed, serves a fresh explorer through `options` (the adapter and
 * storage under test) and makes the users, keys and broken credentials the fuzzers send.
 */
export async function createFuzzContext(options: ApiSuiteOptions): Promise<FuzzContext> {
  const jwtSecret = randomBytes(32).toString('hex');
  const context = await createApiContext(options, {
    auth: { jwtSecret },
    // Thousands of requests from one address: limits are on (their headers and paths run) but never reached.
    rateLimits: { anonymous: ALLOWANCE, authenticated: ALLOWANCE, registrationsPerHour: 100_000_000, loginFailures: 100_000_000 },
  });
  try {
    return { ...context, credentials: await makeCredentials(context, jwtSecret) };
  } catch (error) {
    await context.close();
    throw error;
  }
}

async function makeCredentials(context: ApiContext, jwtSecret: string): Promise<FuzzCredentials> {
  const admin = await signUp(context, ['admin', 'user']);
  const member = await signUp(context);
  const victim = await signUp(context);
  const victimKeys: string[] = [];
  for (const name of ['victim one', 'victim two']) victimKeys.push((await call(context, 'POST', '/api/v1/auth/api-keys', { name }, victim.bearer)).body.result.id as string);
  const created = await call(context, 'POST', '/api/v1/auth/api-keys', { name: 'fuzz member', scopes: ['read', 'write'] }, member.bearer);
  const memberKey = created.body.result as { id: string; key: string };
  const revoked = (await call(context, 'POST', '/api/v1/auth/api-keys', { name: 'fuzz revoked' }, member.bearer)).body.result as { id: string; key: string };
  await call(context, 'DELETE', `/api/v1/auth/api-keys/${revoked.id}`, undefined, member.bearer);
  const { issuer, audience, tokenLifetimeSeconds } = context.explorer.config.auth;
  const secret = new TextEncoder().encode(jwtSecret);
  const issuedLongAgo = () => Date.now() - 2_000 * tokenLifetimeSeconds;
  const expired = (await new TokenIssuer({ secret, lifetimeSeconds: tokenLifetimeSeconds, issuer, audience, now: issuedLongAgo }).issue(admin.id)).access_token;
  const otherSecret = new TextEncoder().encode(randomBytes(32).toString('hex'));
  const forged = (await new TokenIssuer({ secret: otherSecret, lifetimeSeconds: 3_600, issuer, audience, now: Date.now }).issue(admin.id)).access_token;
  const [header, payload] = admin.token.split('.');
  const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
  const tampered = `${header}.${Buffer.from(JSON.stringify({ sub: member.id, roles: ['admin'], exp: 9_999_999_999 })).toString('base64url')}.${admin.token.split('.')[2]}`;
  return {
    admin,
    member,
    victim,
    victimKeys,
    memberKey,
    valid: ['anonymous', 'admin', 'member', 'memberKey', 'bothKinds'],
    headers: {
      anonymous: {},
      admin: admin.bearer,
      member: member.bearer,
      memberKey: { 'x-api-key': memberKey.key },
      expiredJwt: { authorization: `Bearer ${expired}` },
      forgedJwt: { authorization: `Bearer ${forged}` },
      unsignedJwt: { authorization: `Bearer ${unsigned}` },
      tamperedJwt: { authorization: `Bearer ${tampered}` },
      revokedKey: { 'x-api-key': revoked.key },
      unknownKey: { 'x-api-key': `${memberKey.key.slice(0, -4)}0000` },
      bothKinds: { ...admin.bearer, 'x-api-key': memberKey.key },
    },
  };
}
