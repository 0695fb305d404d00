export * from './coordinator.js';
export { ClusterMember } from './cluster.js';
