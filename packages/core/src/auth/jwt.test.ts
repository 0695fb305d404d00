import { generateKeyPair, jwtVerify, SignJWT, base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, UnauthorizedError } from '../errors/index.js';
import { TokenIssuer } from './jwt.js';

const secret = new TextEncoder().encode('a-test-secret-that-is-long-enough-for-hs256');
const NOW = 1_800_000_000_000;
const issuer = new TokenIssuer({ secret, lifetimeSeconds: 3_600, issuer: 'chainlens', audience: 'chainlens-api', now: () => NOW });
const seconds = NOW / 1000;

/** A token with the standard claims, each overridable (`undefined` drops it). */
function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const all: Record<string, unknown> = { sub: 'user-1', iss: 'chainlens', aud: 'chainlens-api', iat: seconds - 10, exp: seconds + 600, ...overrides };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}

const sign = (payload: Record<string, unknown>, alg = 'HS256', key: Parameters<SignJWT['sign']>[0] = secret) =>
  new SignJWT(payload).setProtectedHeader({ alg }).sign(key);

describe('TokenIssuer', () => {
  it('issues a token that verifies to its user, with expires_in the lifetime', async () => {
    const token = await issuer.issue('3f1c8a52-0b7e-4a38-9d3e-4d6f1c2b9a10');
    expect(token.expires_in).toBe(3_600);
    expect(await issuer.verify(token.access_token)).toEqual({ userId: '3f1c8a52-0b7e-4a38-9d3e-4d6f1c2b9a10', expiresAt: new Date(NOW + 3_600_000) });
  });

  it('accepts the hand-made control token', async () => {
    expect((await issuer.verify(await sign(claims()))).userId).toBe('user-1');
  });

  it('answers Token expired once exp has passed', async () => {
    const token = await issuer.issue('user-1');
    const later = new TokenIssuer({ secret, lifetimeSeconds: 3_600, issuer: 'chainlens', audience: 'chainlens-api', now: () => NOW + 3_601_000 });
    await expect(later.verify(token.access_token)).rejects.toBeInstanceOf(TokenExpiredError);
    await expect(issuer.verify(await sign(claims({ exp: seconds - 1 })))).rejects.toBeInstanceOf(TokenExpiredError);
  });

  const refused: [string, () => Promise<string>][] = [
    ['alg none', async () => `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url.encode(JSON.stringify(claims()))}.`],
    ['a wrong key', () => sign(claims(), 'HS256', new TextEncoder().encode('another-secret-that-is-long-enough-for-hs256'))],
    ['HS512 with the right secret', () => sign(claims(), 'HS512')],
    ['HS384 with the right secret', () => sign(claims(), 'HS384')],
    ['RS256', async () => sign(claims(), 'RS256', (await generateKeyPair('RS256')).privateKey)],
    ['no exp', () => sign(claims({ exp: undefined }))],
    ['no iat', () => sign(claims({ iat: undefined }))],
    ['no sub', () => sign(claims({ sub: undefined }))],
    ['nbf in the future', () => sign(claims({ nbf: seconds + 300 }))],
    ['a wrong iss', () => sign(claims({ iss: 'someone-else' }))],
    ['a wrong aud', () => sign(claims({ aud: 'another-api' }))],
    ['a tampered payload', async () => {
      const [header, , signature] = (await sign(claims())).split('.');
      return `${header}.${base64url.encode(JSON.stringify(claims({ sub: 'admin' })))}.${signature}`;
    }],
    ['garbage', async () => 'not.a.token'],
  ];
  it('signs the HS384 and HS512 cases with the right secret and claims, so only the algorithm is wrong', async () => {
    for (const alg of ['HS384', 'HS512']) {
      const { payload } = await jwtVerify(await sign(claims(), alg), secret, { algorithms: [alg], issuer: 'chainlens', audience: 'chainlens-api', currentDate: new Date(NOW) });
      expect(payload.sub, alg).toBe('user-1');
    }
  });

  for (const [name, make] of refused) {
    it(`refuses a token with ${name} as Unauthorized`, async () => {
      await expect(issuer.verify(await make())).rejects.toBeInstanceOf(UnauthorizedError);
    });
  }
});

describe('TokenIssuer verified-token cache', () => {
  it('still expires a token it verified before, at its exp', async () => {
    let now = NOW;
    const clocked = new TokenIssuer({ secret, lifetimeSeconds: 60, issuer: 'chainlens', audience: 'chainlens-api', now: () => now });
    const { access_token } = await clocked.issue('user-1');
    expect((await clocked.verify(access_token)).userId).toBe('user-1');
    now += 59_000;
    expect((await clocked.verify(access_token)).userId).toBe('user-1');
    now += 1_000;
    await expect(clocked.verify(access_token)).rejects.toBeInstanceOf(TokenExpiredError);
  });

  it('never caches a refusal: a tampered copy of a verified token is still refused', async () => {
    const { access_token } = await issuer.issue('user-1');
    expect((await issuer.verify(access_token)).userId).toBe('user-1');
    await expect(issuer.verify(`${access_token.slice(0, -2)}xx`)).rejects.toBeInstanceOf(UnauthorizedError);
    expect((await issuer.verify(access_token)).userId).toBe('user-1');
  });
});
