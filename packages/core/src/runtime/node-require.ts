import { createRequire } from 'node:module';

/**
 * A `require` for resolving package files from this module's location. The CJS build has an
 * empty `import.meta` but a real `__filename` (never evaluated in ESM thanks to `??`); a bare
 * `require` is no option, as the ESM bundler replaces it with a throwing shim.
 */
export const nodeRequire: NodeJS.Require = createRequire(import.meta.url ?? __filename);
