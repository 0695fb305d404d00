export * from './codes.js';
export * from './explorer-error.js';
