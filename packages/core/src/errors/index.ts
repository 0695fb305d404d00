export * from './codes.js';
export * from './config-error.js';
export * from './explorer-error.js';
