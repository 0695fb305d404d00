export * from './coordinator.js';
export { announceBlock, ClusterMember } from './cluster.js';
