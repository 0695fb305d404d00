import type { ApiKeyService } from './api-key-service.js';
import type { Principal } from '../../auth/principal.js';
import type { UserService } from './user-service.js';
import { UnauthorizedError } from '../../errors/index.js';
import type { HttpRequest } from '../../http/types.js';

const BEARER = /^Bearer +([A-Za-z0-9\-_.]+)$/;
/** The usual start of that header: one space after the scheme. */
const SCHEME = 'Bearer ';

/**
 * Resolves who sent a request. No credentials: anonymous (`null`), without any work. Credentials
 * that do not hold (malformed, unknown, expired, revoked, a deactivated user) throw, whatever the
 * route: a bad credential is never served as anonymous. A request carrying both a JWT and a key
 * must have both valid and acts with the key's scopes. A key or a token alone, verified lately, is
 * answered at once, without a promise.
 */
export function createAuthenticator(users: UserService, keys: ApiKeyService): (request: HttpRequest) => Promise<Principal | null> | Principal | null {
  return (request) => {
    const { authorization, 'x-api-key': apiKey } = request.headers;
    if (authorization === undefined && apiKey === undefined) return null;
    // A key alone, as most authenticated calls bring, is checked without a promise layer of ours
    // (and without any promise when it was verified lately).
    if (authorization === undefined) return keys.authenticate(typeof apiKey === 'string' ? apiKey : '');
    // A token alone likewise (most browser and app traffic); a token kept verified is found by
    // the header's text after the scheme, before BEARER parses it (which accepts every kept token).
    if (apiKey === undefined) return keptCaller(authorization) ?? users.authenticateToken(bearerToken(authorization));
    return resolve(authorization, apiKey);
  };

  /** The caller of a kept token sent as `Bearer <token>`, else `undefined`. */
  function keptCaller(authorization: string | string[]): Principal | undefined {
    return typeof authorization === 'string' && authorization.startsWith(SCHEME) ? users.keptCaller(authorization.slice(SCHEME.length)) : undefined;
  }

  /** Both must hold; the key's scopes are the ones acted with. */
  async function resolve(authorization: string | string[], apiKey: string | string[]): Promise<Principal> {
    await users.authenticateToken(bearerToken(authorization));
    // A repeated header is refused rather than guessed at.
    return keys.authenticate(typeof apiKey === 'string' ? apiKey : '');
  }
}

/** The token of an `Authorization: Bearer` header; anything else (a repeated header included) is {@link UnauthorizedError}. */
function bearerToken(authorization: string | string[]): string {
  const token = typeof authorization === 'string' ? BEARER.exec(authorization)?.[1] : undefined;
  if (token === undefined) throw new UnauthorizedError();
  return token;
}
