export * from './approval-service.js';
