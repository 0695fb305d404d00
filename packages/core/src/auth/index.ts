export { API_KEY_PREFIX, checkApiKey, generateApiKey, hashApiKey, type GeneratedApiKey } from './api-key-format.js';
export { ARGON2_PARAMETERS, PasswordHasher } from './passwords.js';
export type { Principal } from './principal.js';
export type { Revocation } from './revocation.js';
export { TokenIssuer, type AccessToken, type TokenIssuerOptions, type VerifiedToken } from './jwt.js';
export { holdsScope, SCOPES, scopesOf, type Scope } from './scopes.js';
