export * from './explorer-metrics.js';
export * from './metrics-route.js';
