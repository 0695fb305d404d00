/**
 * Credentials that stopped holding: one API key (revoked by its owner), or every credential of
 * one user (deactivated). Told to whatever keeps connections open on them (WebSocket sessions),
 * on this instance and, through the cluster's bus, on every other.
 */
export type Revocation = { keyId: string } | { userId: string };
