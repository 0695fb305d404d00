export * from './socket-like.js';
export * from './socket-endpoint.js';
export * from './gateway.js';
export { CREDENTIALS_CLOSE_CODE, CredentialWatch, type CredentialWatchOptions } from './credential-watch.js';
export { OriginNotAllowedError } from './origin-error.js';
export * from './upgrades.js';
