export * from './label-service.js';
export * from './labels-version.js';
export * from './metadata-service.js';
