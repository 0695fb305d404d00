/**
 * Value types every layer shares, transport-neutral: block tags, hashes and addresses as inputs,
 * input validation with typed errors, and time.
 */
export * from './block-tag.js';
export * from './hex.js';
export * from './time.js';
export * from './validation.js';
