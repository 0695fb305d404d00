export * from './types.js';
export * from './envelope.js';
export * from './route.js';
export * from './kernel.js';
export * from './client-error.js';
export { withError, parseInput, fieldError } from './validation.js';
export * from './response-cache.js';
export * from './response-format.js';
export * from './text-format.js';
