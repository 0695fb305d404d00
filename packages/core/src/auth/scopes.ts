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
  return new Set(SCOPES.filter((scope) => holdsScope(principal, scope)));
}

/** Whether `principal` holds `scope` now ({@link scopesOf} for one scope, without building the set: asked on every request). */
export function holdsScope(principal: Principal, scope: Scope): boolean {
  if (scope === 'admin' && !principal.user.roles.includes('admin')) return false;
  return principal.kind === 'jwt' || principal.key.scopes.includes(scope);
}
