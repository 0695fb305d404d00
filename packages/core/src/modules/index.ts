export type { ExplorerModule, ModuleContext } from './module.js';
export { ModuleHost, type ModuleHostOptions } from './module-host.js';
export { Signal } from './signal.js';
