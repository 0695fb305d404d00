import { createRequire } from 'node:module';

/**
 * A `require` for resolving package files. The CJS build has a real `require` but an empty
 * `import.meta`, the ESM build the opposite, so pick whichever exists.
 */
export const nodeRequire: NodeJS.Require =
  typeof require === 'function' ? require : createRequire(import.meta.url);
