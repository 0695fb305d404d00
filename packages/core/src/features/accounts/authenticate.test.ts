import { memoryStorage } from '@chainlens/storage-memory';
import { describe, expect, it } from 'vitest';
import { TokenExpiredError, UnauthorizedError } from '../../errors/index.js';
import { PasswordHasher } from '../../auth/passwords.js';
import { TokenIssuer } from '../../auth/jwt.js';
import type { Principal } from '../../auth/principal.js';
import type { HttpRequest } from '../../http/types.js';
import { ApiKeyService } from './api-key-service.js';
import { createAuthenticator } from './authenticate.js';
import { Throttles } from './throttles.js';
import { UserService } from './user-service.js';

const secret = new TextEncoder().encode('a-test-secret-that-is-long-enough-for-hs256');
const PASSWORD = 'a long enough passphrase';

/** The authenticator over real services on memory storage, with a clock the test moves; a user logged in. */
async function setUp() {
  const clock = { now: Date.now() };
  const now = () => clock.now;
  const storage = memoryStorage();
  await storage.init();
  const tokens = new TokenIssuer({ secret, lifetimeSeconds: 60, issuer: 'chainlens', audience: 'chainlens-api', now });
  const throttles = new Throttles(storage, { registrationsPerHour: 10, loginFailures: 10, loginWindowMinutes: 15, now });
  const users = new UserService(storage, new PasswordHasher(), tokens, throttles, now);
  const keys = new ApiKeyService(storage, { now, maxLiveKeys: 10 });
  const { id } = await users.register({ email: 'ada@example.com', password: PASSWORD, name: 'Ada' }, '127.0.0.1');
  const { access_token: token } = await users.login('ada@example.com', PASSWORD);
  const authenticate = createAuthenticator(users, keys);
  const withHeader = (authorization: string) => authenticate({ method: 'GET', url: '/api/v1/health', headers: { authorization }, ip: '127.0.0.1' } as HttpRequest);
  return { clock, users, id, token, withHeader };
}

/** What the authenticator answers, a refusal as the error it rejects or throws with. */
async function outcome(run: () => Promise<Principal | null> | Principal | null): Promise<Principal | null | unknown> {
  try {
    return await run();
  } catch (error) {
    return error;
  }
}

describe('bearer tokens kept verified', () => {
  it('answer a kept token at once, until its expiry and no longer once its user is deactivated', async () => {
    const { clock, users, id, token, withHeader } = await setUp();
    expect(await withHeader(`Bearer ${token}`)).toMatchObject({ kind: 'jwt', user: { id } });
    // Kept now: answered without a promise.
    expect(withHeader(`Bearer ${token}`)).toMatchObject({ kind: 'jwt', user: { id } });
    await users.setActive(id, false);
    expect(await outcome(() => withHeader(`Bearer ${token}`))).toBeInstanceOf(UnauthorizedError);
    await users.setActive(id, true);
    expect(await withHeader(`Bearer ${token}`)).toMatchObject({ kind: 'jwt', user: { id } });
    expect(withHeader(`Bearer ${token}`)).toMatchObject({ kind: 'jwt' });
    // Within the second it is kept for, but past the token's own expiry.
    clock.now += 60_000;
    expect(await outcome(() => withHeader(`Bearer ${token}`))).toBeInstanceOf(TokenExpiredError);
  });

  it("refuse a token that ends as a kept one's does but differs before", async () => {
    const { id, token, withHeader } = await setUp();
    expect(await withHeader(`Bearer ${token}`)).toMatchObject({ kind: 'jwt', user: { id } });
    const [header, payload, signature] = token.split('.');
    const otherClaims = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), sub: 'someone-else' })).toString('base64url');
    expect(await outcome(() => withHeader(`Bearer ${header}.${otherClaims}.${signature}`))).toBeInstanceOf(UnauthorizedError);
    // The kept token itself is still answered at once.
    expect(withHeader(`Bearer ${token}`)).toMatchObject({ kind: 'jwt', user: { id } });
  });

  it("keep to the header's grammar for a token spelled otherwise, even once the library verified that spelling", async () => {
    const { id, users, token, withHeader } = await setUp();
    // Base64url with padding: the verifier decodes the same signature, the header's grammar has no `=`.
    const padded = `${token}=`;
    expect(await users.authenticateToken(padded)).toMatchObject({ kind: 'jwt', user: { id } });
    expect(await outcome(() => withHeader(`Bearer ${padded}`))).toBeInstanceOf(UnauthorizedError);
    expect(await outcome(() => withHeader(`Bearer  ${token}`))).toMatchObject({ kind: 'jwt', user: { id } });
    expect(await outcome(() => withHeader(`bearer ${token}`))).toBeInstanceOf(UnauthorizedError);
  });
});
