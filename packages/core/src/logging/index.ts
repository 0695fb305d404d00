export * from './request-log.js';
