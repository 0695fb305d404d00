export { ARGON2_PARAMETERS, PasswordHasher } from './passwords.js';
export type { Principal } from './principal.js';
export { TokenIssuer, type AccessToken, type TokenIssuerOptions } from './tokens.js';
export { formatUser, type UserRecord } from './user-record.js';
export { canonicalEmail, ROLES, UserService, type Registration, type Role } from './user-service.js';
