import { UnauthorizedError } from '../errors/index.js';
import type { HttpRequest } from '../http/types.js';
import type { Principal } from './principal.js';
import type { UserService } from './user-service.js';

const BEARER = /^Bearer +([A-Za-z0-9\-_.]+)$/;

/**
 * Resolves who sent a request. No credentials: anonymous (`null`), without any work. Credentials
 * that do not hold (malformed, unknown, expired, a deactivated user) throw, whatever the route:
 * a bad credential is never served as anonymous.
 */
export function createAuthenticator(users: UserService): (request: HttpRequest) => Promise<Principal | null> | null {
  return (request) => {
    const header = request.headers.authorization;
    if (header === undefined) return null;
    const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
    if (token === undefined) throw new UnauthorizedError();
    return users.authenticateToken(token);
  };
}
