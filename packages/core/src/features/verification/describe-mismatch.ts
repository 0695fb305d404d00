import type { ImmutableReferences } from '@ethereum-sourcify/lib-sourcify';
import type { SoliditySettings } from './verification-input.js';

/** What is known about compiled code that did not match the chain's. */
export interface MismatchFacts {
  /** Runtime code as compiled (immutables still zero), `0x…`. */
  compiledRuntime: string;
  /** Runtime code on the chain, `0x…`. */
  onchainRuntime: string;
  immutableReferences: ImmutableReferences;
  /** Long form, e.g. `0.8.37+commit.f401782d`. */
  compilerVersion: string;
  settings: SoliditySettings;
}

/**
 * Says in one sentence what differed between compiled and deployed runtime code: the compiler
 * version the chain's metadata names, the code's length, or the first byte that differs (immutables
 * and the metadata left out), followed by the settings compiled with.
 */
export function describeMismatch(facts: MismatchFacts): string {
  const compiled = splitMetadata(facts.compiledRuntime);
  const onchain = splitMetadata(facts.onchainRuntime);
  const differences: string[] = [];
  const chainSolc = solcVersionIn(onchain.metadata);
  const ourSolc = facts.compilerVersion.split('+')[0]!;
  if (chainSolc && chainSolc !== ourSolc) differences.push(`the chain's code names solc ${chainSolc} in its metadata, this was compiled with ${ourSolc}`);
  if (compiled.code.length !== onchain.code.length) {
    differences.push(`the compiled runtime code is ${compiled.code.length / 2} bytes, the chain's ${onchain.code.length / 2} (metadata left out)`);
  } else {
    const at = firstDifference(compiled.code, onchain.code, facts.immutableReferences);
    differences.push(at === null ? 'only the metadata hash differs' : `the runtime code differs from byte ${at} of ${compiled.code.length / 2} on (immutables and metadata left out)`);
  }
  return `${differences.join('; ')}; compiled with solc ${facts.compilerVersion}, ${settingsSummary(facts.settings)}: check the source, the compiler version and the settings`;
}

/** Code and its trailing CBOR metadata (hex without `0x`), told apart by the length in the last two bytes. */
function splitMetadata(bytecode: string): { code: string; metadata: string } {
  const hex = bytecode.replace(/^0x/, '').toLowerCase();
  const length = hex.length >= 4 ? Number.parseInt(hex.slice(-4), 16) : 0;
  const start = hex.length - 4 - length * 2;
  // A CBOR map begins with 0xa0–0xbf; anything else means there is no metadata to strip.
  if (length === 0 || start < 0 || !/^[ab]/.test(hex.slice(start, start + 1))) return { code: hex, metadata: '' };
  return { code: hex.slice(0, start), metadata: hex.slice(start) };
}

/** The release solc writes into the metadata (`"solc": 3 bytes`), e.g. `0.8.26`; `null` when absent. */
function solcVersionIn(metadata: string): string | null {
  const match = /64736f6c6343([0-9a-f]{6})/.exec(metadata);
  if (!match) return null;
  const [major, minor, patch] = [0, 2, 4].map((at) => Number.parseInt(match[1]!.slice(at, at + 2), 16));
  return `${major}.${minor}.${patch}`;
}

/** The first byte where two equally long codes differ outside the immutables; `null` when none. */
function firstDifference(a: string, b: string, immutables: ImmutableReferences): number | null {
  const skipped = new Set<number>();
  for (const references of Object.values(immutables)) {
    for (const { start, length } of references) for (let i = start; i < start + length; i++) skipped.add(i);
  }
  for (let byte = 0; byte < a.length / 2; byte++) {
    if (!skipped.has(byte) && a.slice(byte * 2, byte * 2 + 2) !== b.slice(byte * 2, byte * 2 + 2)) return byte;
  }
  return null;
}

function settingsSummary(settings: SoliditySettings): string {
  const optimizer = settings.optimizer?.enabled ? `optimizer on with ${settings.optimizer.runs ?? 200} runs` : 'optimizer off';
  return `${optimizer}${settings.viaIR ? ', viaIR' : ''}, evmVersion ${settings.evmVersion ?? 'default'}`;
}
