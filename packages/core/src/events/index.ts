export * from './explorer-events.js';
export * from './hub.js';
export * from './indexed-head.js';
