export * from './standard-events.js';
export * from './decode-log.js';
export * from './verified-events.js';
