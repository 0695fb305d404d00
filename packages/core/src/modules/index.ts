export type { ExplorerModule, ModuleContext, ModuleInfrastructure } from './module.js';
export { ModuleHost } from './module-host.js';
export { Signal } from './signal.js';
