export * from './documentation-routes.js';
export * from './openapi-document.js';
