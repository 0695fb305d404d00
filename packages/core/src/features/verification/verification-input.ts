import type { JsonInput } from '@ethereum-sourcify/lib-sourcify';
import { z } from 'zod';
import { InvalidRequestError } from '../../errors/index.js';
import { parseInput } from '../../values/validation.js';
import type { Hex } from '../../storage/index.js';
import { SOLC_VERSION } from './compiler-builds.js';

/** How `sourceCode` is given: one Solidity file, or solc's standard-JSON input as text. */
export type CodeFormat = 'solidity-single-file' | 'solidity-standard-json-input';

/**
 * A request to verify a contract's source, as the REST and Etherscan-compatible APIs take it.
 *
 * @example
 * ```ts
 * await explorer.services.verification.verify({
 *   address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
 *   sourceCode: 'pragma solidity ^0.8.0; contract Counter { uint256 public count; }',
 *   contractName: 'Counter',
 *   compilerVersion: 'v0.8.37+commit.f401782d',
 *   optimizationUsed: true,
 *   runs: 200,
 * });
 * ```
 */
export interface VerificationInput {
  /** The contract's address. */
  address: string;
  /** The Solidity source, or the standard-JSON input as JSON text. */
  sourceCode: string;
  /** Default `solidity-single-file`. */
  codeFormat?: CodeFormat;
  /** `Name`, or `path:Name` (required for standard-JSON input, e.g. `contracts/Token.sol:Token`). */
  contractName: string;
  /** `v0.8.37+commit.f401782d` or `0.8.37`. */
  compilerVersion: string;
  /** Single file only (standard JSON carries its settings): default `false`. */
  optimizationUsed?: boolean;
  /** Single file only: default 200. */
  runs?: number;
  /** Single file only: the compiler's default when unset (or `default`). */
  evmVersion?: string;
  /** ABI-encoded constructor arguments, `0x` optional; unset, they are read from the creation. */
  constructorArguments?: string;
  /** Used when the defining file declares no SPDX license: an Etherscan code (1–14) or an SPDX identifier. */
  licenseType?: number | string;
}

/** Standard-JSON settings as submitted, without `outputSelection`: the matcher chooses the outputs. */
export type SoliditySettings = Omit<NonNullable<JsonInput['settings']>, 'outputSelection'>;

/** Standard-JSON input as submitted: every source with its content. */
export interface SolidityInput {
  language: 'Solidity';
  sources: Record<string, { content: string }>;
  settings: SoliditySettings;
}

/** A verification checked and ready to compile: the standard-JSON input and the contract in it. */
export interface VerificationRequest {
  address: Hex;
  compilerVersion: string;
  /** The contract: its source file and name. */
  target: { path: string; name: string };
  /** Sources and settings (the compiled outputs are chosen by the matcher). */
  jsonInput: SolidityInput;
  /** Lowercase `0x…`, `null` when not submitted. */
  constructorArguments: Hex | null;
  licenseType: number | string | undefined;
}

/** `Name` or `path:Name`; a path may itself hold colons (`C:/x.sol:Name` stays unambiguous at the last one). */
const CONTRACT_NAME = /^(?:(.+):)?([A-Za-z_$][A-Za-z0-9_$]*)$/;

/**
 * Field schemas of a verification, shared by the interfaces that take one. Booleans and numbers
 * also come as the strings form posts carry (`'1'`, `'200'`).
 */
export const verificationFields = {
  sourceCode: z.string().refine((value) => value.trim() !== '', 'must not be empty'),
  codeFormat: z.enum(['solidity-single-file', 'solidity-standard-json-input'], {
    message: "must be 'solidity-single-file' or 'solidity-standard-json-input'",
  }),
  contractName: z.string().max(1_024, 'must be at most 1024 characters').regex(CONTRACT_NAME, 'must be a contract name, or path:Name (e.g. contracts/Token.sol:Token)'),
  compilerVersion: z.string().regex(SOLC_VERSION, 'must be a solc version, e.g. v0.8.37+commit.f401782d or 0.8.37'),
  optimizationUsed: z
    .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['0', '1', 'true', 'false'])], { message: 'must be true or false (or 1 or 0)' })
    .transform((value) => value === true || value === 1 || value === '1' || value === 'true'),
  runs: z
    .union([z.number(), z.string().regex(/^\d{1,10}$/).transform(Number)], { message: 'must be a whole number' })
    .pipe(z.number().int('must be a whole number').min(0, 'must not be negative').max(2 ** 32 - 1, 'must be below 2^32')),
  evmVersion: z.string().regex(/^[a-z]{1,32}$/, 'must be an EVM version name, e.g. cancun (or default)'),
  constructorArguments: z.string().regex(/^(0x)?([0-9a-fA-F]{2})*$/, 'must be ABI-encoded hex'),
  licenseType: z.union(
    [
      z.number().int().min(1).max(14),
      z.string().regex(/^(1[0-4]|[1-9])$/).transform(Number),
      z.string().regex(/^[A-Za-z][A-Za-z0-9.+-]{0,63}$/),
    ],
    { message: 'must be an Etherscan license code (1 to 14) or an SPDX identifier' },
  ),
};

const inputSchema = z.object({
  address: z
    .string()
    .regex(/^0x[0-9a-fA-F]{40}$/, 'must be a 0x-prefixed 20-byte hex address')
    .transform((value) => value.toLowerCase() as Hex),
  sourceCode: verificationFields.sourceCode,
  codeFormat: verificationFields.codeFormat.optional(),
  contractName: verificationFields.contractName,
  compilerVersion: verificationFields.compilerVersion,
  optimizationUsed: verificationFields.optimizationUsed.optional(),
  runs: verificationFields.runs.optional(),
  evmVersion: verificationFields.evmVersion.optional(),
  constructorArguments: verificationFields.constructorArguments.optional(),
  licenseType: verificationFields.licenseType.optional(),
});

/** Standard-JSON input as far as checking it needs. */
const standardJsonSchema = z.object({
  language: z.literal('Solidity', { message: "language must be 'Solidity'" }).optional(),
  sources: z.record(z.string(), z.object({ content: z.string().optional(), urls: z.array(z.unknown()).optional() }).loose(), {
    message: 'sources must map file paths to {content}',
  }),
  settings: z.record(z.string(), z.unknown(), { message: 'settings must be an object' }).optional(),
});

/**
 * Checks a {@link VerificationInput} and builds the standard-JSON input it compiles. Throws
 * `InvalidRequestError` naming the field. Sources must carry their `content`: ChainLens compiles
 * only what was submitted and never fetches `urls`.
 */
export function prepareVerification(input: VerificationInput): VerificationRequest {
  const fields = parseInput(inputSchema, input, 'input');
  const [, path, name] = CONTRACT_NAME.exec(fields.contractName)!;
  const constructorArguments = fields.constructorArguments ? (`0x${fields.constructorArguments.replace(/^0x/, '').toLowerCase()}` as Hex) : null;
  const common = { address: fields.address, compilerVersion: fields.compilerVersion, constructorArguments, licenseType: fields.licenseType };
  if (fields.codeFormat === 'solidity-standard-json-input') {
    if (!path) throw new InvalidRequestError('contractName', 'must be path:Name for standard-JSON input (e.g. contracts/Token.sol:Token)');
    const jsonInput = standardJsonInput(fields.sourceCode);
    if (!(path in jsonInput.sources)) throw new InvalidRequestError('contractName', `${path} is not among the submitted sources`);
    return { ...common, target: { path, name: name! }, jsonInput };
  }
  const settings: SoliditySettings = { optimizer: { enabled: fields.optimizationUsed ?? false, runs: fields.runs ?? 200 } };
  if (fields.evmVersion && fields.evmVersion !== 'default') settings.evmVersion = fields.evmVersion;
  const file = path ?? `${name}.sol`;
  return { ...common, target: { path: file, name: name! }, jsonInput: { language: 'Solidity', sources: { [file]: { content: fields.sourceCode } }, settings } };
}

/** The standard-JSON input in `text`, every source with its content, `outputSelection` dropped. */
function standardJsonInput(text: string): SolidityInput {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InvalidRequestError('sourceCode', 'must be the standard-JSON input as JSON text');
  }
  const parsed = standardJsonSchema.safeParse(json);
  if (!parsed.success) throw new InvalidRequestError('sourceCode', parsed.error.issues[0]!.message);
  const sources: SolidityInput['sources'] = {};
  for (const [path, source] of Object.entries(parsed.data.sources)) {
    if (typeof source.content !== 'string') {
      throw new InvalidRequestError('sourceCode', `sources[${JSON.stringify(path)}] has no content: only submitted sources are compiled, urls are never fetched`);
    }
    sources[path] = { content: source.content };
  }
  if (Object.keys(sources).length === 0) throw new InvalidRequestError('sourceCode', 'sources must not be empty');
  const settings: Record<string, unknown> = { ...parsed.data.settings };
  delete settings.outputSelection;
  return { language: 'Solidity', sources, settings: settings as SoliditySettings };
}
