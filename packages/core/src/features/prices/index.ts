export * from './price-service.js';
