import type { Principal } from './principal.js';

/** What a caller may do: `read` the API, `write` (verification and other writes), `admin`. */
export const SCOPES = ['admin', 'read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];

/**
 * The scopes a caller holds now. A JWT holds what the user's roles allow (`admin` only for
 * admins); a key holds its own scopes within that, so an admin key loses `admin` with its
 * owner's role.
 */
export function scopesOf(principal: Principal): Set<Scope> {
  const allowed = new Set<Scope>(principal.user.roles.includes('admin') ? ['read', 'write', 'admin'] : ['read', 'write']);
  if (principal.kind === 'jwt') return allowed;
  return new Set(principal.key.scopes.filter((scope): scope is Scope => allowed.has(scope as Scope)));
}
