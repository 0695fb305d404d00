/**
 * Credentials that stopped holding or changed: one API key (revoked by its owner, or given its
 * own limit), or every credential of one user (deactivated, or given other roles). Told to
 * whatever keeps connections open on them (WebSocket sessions, which check them again) or keeps
 * them verified (the API-key cache, which drops them), on this instance and, through the
 * cluster's bus, on every other.
 */
export type Revocation = { keyId: string } | { userId: string };
