import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findUp } from './find-up.js';
import { nodeRequire } from './node-require.js';

/** The per-platform packages that `@foundry-rs/anvil` lists as optional dependencies. */
const PLATFORM_PACKAGES: Record<string, string> = {
  'linux-x64': '@foundry-rs/anvil-linux-amd64',
  'linux-arm64': '@foundry-rs/anvil-linux-arm64',
  'darwin-x64': '@foundry-rs/anvil-darwin-amd64',
  'darwin-arm64': '@foundry-rs/anvil-darwin-arm64',
  'win32-x64': '@foundry-rs/anvil-win32-amd64',
};

/**
 * Finds the native anvil executable shipped by `@foundry-rs/anvil`. Prefers the native binary over
 * the package's `bin.mjs` wrapper: the wrapper is an extra node process that forwards SIGTERM but
 * not SIGKILL, so killing it could orphan anvil. Falls back to `node_modules/.bin/anvil` found by
 * walking up from the working directory.
 */
export function resolveAnvilBinary(): string {
  const name = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  const candidates = [...packagedBinaries(name), findUp(join('node_modules', '.bin', 'anvil'))];
  const found = candidates.find((path): path is string => path !== undefined && existsSync(path));
  if (found) return found;
  throw new Error(
    `anvil binary not found for ${process.platform}-${process.arch}; ` +
      'install it with "npm install -D @foundry-rs/anvil"',
  );
}

function packagedBinaries(name: string): string[] {
  let packageJson: string;
  try {
    packageJson = nodeRequire.resolve('@foundry-rs/anvil/package.json');
  } catch {
    return [];
  }
  // The package's postinstall downloads the binary next to its package.json when the
  // optional platform package could not be installed.
  const candidates = [join(dirname(packageJson), name)];
  const platformPackage = PLATFORM_PACKAGES[`${process.platform}-${process.arch}`];
  if (platformPackage) {
    try {
      // Resolve from the wrapper package: the platform package is its dependency, not ours.
      const platformJson = createRequire(packageJson).resolve(`${platformPackage}/package.json`);
      candidates.unshift(join(dirname(platformJson), 'bin', name));
    } catch {
      // Optional dependency skipped by npm; the other candidates may still exist.
    }
  }
  return candidates;
}
