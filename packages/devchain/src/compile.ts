import { createHash } from 'node:crypto';
import type { Abi, Hex } from 'viem';
import { readCache, writeCache } from './compile-cache.js';
import { nodeRequire } from './node-require.js';

/** Compiler output for one contract. */
export interface CompiledContract {
  abi: Abi;
  /** Creation code (constructor arguments not included). */
  bytecode: Hex;
  /** Runtime code, as `eth_getCode` returns it after deployment (minus immutables). */
  deployedBytecode: Hex;
}

/** Compiled contracts by contract name. */
export type CompiledContracts = Record<string, CompiledContract>;

/**
 * Compiler settings. `cancun` rather than anvil's newer default hardfork keeps the bytecode
 * deployable on any post-Dencun chain an explorer might be pointed at.
 */
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<string, { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>
  >;
}

/**
 * Compiles Solidity sources (file name → source text) with solc-js's standard JSON interface,
 * optimizer on (200 runs). Throws with the compiler's messages on errors, and when two files
 * define a contract of the same name. Results are cached on disk by a hash of the sources,
 * settings and compiler version, because solc-js needs seconds to load and compile.
 */
export async function compileContracts(sources: Record<string, string>): Promise<CompiledContracts> {
  const input = {
    language: 'Solidity',
    sources: Object.fromEntries(
      Object.keys(sources)
        .sort()
        .map((file) => [file, { content: sources[file] }]),
    ),
    settings: SETTINGS,
  };
  const solcVersion = (nodeRequire('solc/package.json') as { version: string }).version;
  const key = createHash('sha256').update(JSON.stringify({ solcVersion, input })).digest('hex');
  const cached = readCache<CompiledContracts>(key);
  if (cached) return cached;

  // Loaded lazily: requiring solc-js alone costs most of a second.
  const solc = (await import('solc')).default;
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`Solidity compilation failed:\n${errors.map((e) => e.formattedMessage).join('\n')}`);
  }

  const compiled: CompiledContracts = {};
  for (const [file, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [name, { abi, evm }] of Object.entries(contracts)) {
      if (compiled[name]) throw new Error(`Contract name ${name} is defined twice (again in ${file})`);
      compiled[name] = {
        abi,
        bytecode: `0x${evm.bytecode.object}`,
        deployedBytecode: `0x${evm.deployedBytecode.object}`,
      };
    }
  }
  writeCache(key, compiled);
  return compiled;
}
