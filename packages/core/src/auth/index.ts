export { API_KEY_PREFIX, checkApiKey, generateApiKey, hashApiKey, type GeneratedApiKey } from './api-key-format.js';
export { ApiKeyService, formatApiKey, type ApiKeyRecord, type ApiKeyRequest, type ApiKeyServiceOptions, type CreatedApiKeyRecord } from './api-key-service.js';
export { ARGON2_PARAMETERS, PasswordHasher } from './passwords.js';
export type { Principal } from './principal.js';
export type { Revocation } from './revocation.js';
export { TokenIssuer, type AccessToken, type TokenIssuerOptions, type VerifiedToken } from './jwt.js';
export { formatUser, type UserRecord } from './user-record.js';
export { canonicalEmail, ROLES, UserService, type Registration, type Role } from './user-service.js';
export { holdsScope, SCOPES, scopesOf, type Scope } from './scopes.js';
