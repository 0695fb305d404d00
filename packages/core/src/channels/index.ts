export * from './events.js';
export * from './hub.js';
