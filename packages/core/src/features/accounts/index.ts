export { ApiKeyService, formatApiKey, type ApiKeyRecord, type ApiKeyRequest, type ApiKeyServiceOptions, type CreatedApiKeyRecord } from './api-key-service.js';
export { Throttles, type LoginAttempt, type ThrottleOptions } from './throttles.js';
export { formatUser, type UserRecord } from './user-record.js';
export { canonicalEmail, ROLES, UserService, type Registration, type Role } from './user-service.js';
