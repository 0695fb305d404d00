import type { StoredApiKey, StoredUser } from '../storage/index.js';

/** Who is calling: a user proven by a JWT (valid until `expiresAt`, its `exp`), or by one of their API keys. */
export type Principal = { kind: 'jwt'; user: StoredUser; expiresAt: Date } | { kind: 'apiKey'; user: StoredUser; key: StoredApiKey };
