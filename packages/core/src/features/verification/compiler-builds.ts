import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeRequire } from '../../runtime/node-require.js';
import { CompilerNotAvailableError } from '../../errors/index.js';

/**
 * A solc version as submitted: Etherscan's long form `v0.8.37+commit.f401782d` (nightlies too) or
 * the plain `0.8.37`, with or without the `v`.
 */
export const SOLC_VERSION = /^v?(\d{1,3}\.\d{1,3}\.\d{1,3})(-nightly\.\d{4}\.\d{1,2}\.\d{1,2})?(\+commit\.[0-9a-f]{8})?$/;

/** How builds in the compilers directory are named, as binaries.soliditylang.org names them. */
const BUILD_FILE = /^soljson-v(\d+\.\d+\.\d+(?:-nightly\.\d{4}\.\d{1,2}\.\d{1,2})?\+commit\.[0-9a-f]{8})\.js$/;

/** A solc-js build to load, and the version it must report once loaded. */
export interface CompilerBuild {
  /** The `soljson` file. */
  soljsonPath: string;
  /**
   * Long version without `v` (`0.8.20+commit.a1b79de6`) the build must report; `null` when only
   * the short one was asked for and the bundled build serves it.
   */
  expectedVersion: string | null;
}

/** The `solc` package where it is installed: an optional peer of core, needed by verification only. */
export interface InstalledSolc {
  version: string;
  /** The wrapper solc-js puts around a soljson build (the same for every version). */
  wrapperPath: string;
  /** Its bundled build. */
  soljsonPath: string;
}

/** Says how to enable verification when what it needs is not installed. */
export const VERIFICATION_PACKAGES_HINT = 'contract verification needs the optional packages solc and @ethereum-sourcify/lib-sourcify (npm install solc @ethereum-sourcify/lib-sourcify)';

/** The installed `solc`; {@link CompilerNotAvailableError} saying how to install it when it is not. */
export function installedSolc(): InstalledSolc {
  try {
    return {
      version: (nodeRequire('solc/package.json') as { version: string }).version,
      wrapperPath: nodeRequire.resolve('solc/wrapper.js'),
      soljsonPath: nodeRequire.resolve('solc/soljson.js'),
    };
  } catch {
    throw new CompilerNotAvailableError(`solc is not installed: ${VERIFICATION_PACKAGES_HINT}`);
  }
}

/** Throws {@link CompilerNotAvailableError} unless solc and lib-sourcify are both installed (checked per request: installing them needs no restart). */
export function assertVerificationInstalled(): void {
  installedSolc();
  try {
    nodeRequire.resolve('@ethereum-sourcify/lib-sourcify');
  } catch {
    throw new CompilerNotAvailableError(`@ethereum-sourcify/lib-sourcify is not installed: ${VERIFICATION_PACKAGES_HINT}`);
  }
}

/**
 * Finds the build that serves a solc version: the bundled `solc` package for its own version,
 * else a `soljson-v<version>.js` file in the compilers directory (read on every lookup, so builds
 * added later are found without a restart).
 */
export class CompilerBuilds {
  constructor(private readonly compilersDir: string | undefined) {}

  /** The build for `requested`; {@link CompilerNotAvailableError} naming where it looked when none. */
  async find(requested: string): Promise<CompilerBuild> {
    const parts = SOLC_VERSION.exec(requested);
    if (!parts) throw new CompilerNotAvailableError(`${requested} is no solc version (e.g. v0.8.37+commit.f401782d or 0.8.37)`);
    const [, short, nightly = '', commit = ''] = parts;
    const bundled = installedSolc();
    const long = commit ? `${short}${nightly}${commit}` : null;
    if (short === bundled.version && !nightly) return { soljsonPath: bundled.soljsonPath, expectedVersion: long };
    const file = await this.#fileFor(long ?? `${short}${nightly}`, long !== null);
    if (file) return { soljsonPath: join(this.compilersDir!, file.name), expectedVersion: file.version };
    const where = this.compilersDir
      ? `found no soljson-v${long ?? `${short}${nightly}+commit.<hash>`}.js in ${this.compilersDir}`
      : 'no compilers directory is configured (verification.compilersDir)';
    throw new CompilerNotAvailableError(`v${long ?? short} is not the bundled solc (${bundled.version}) and ${where}`);
  }

  /** The build file for a long version, or the release of a short one; `null` when none. */
  async #fileFor(version: string, exact: boolean): Promise<{ name: string; version: string } | null> {
    if (!this.compilersDir) return null;
    const builds = (await readdir(this.compilersDir)).sort().flatMap((name) => {
      const match = BUILD_FILE.exec(name);
      return match ? [{ name, version: match[1]! }] : [];
    });
    return builds.find((build) => (exact ? build.version === version : build.version.startsWith(`${version}+commit.`))) ?? null;
  }
}
