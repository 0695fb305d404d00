import { decodeErrorResult, decodeFunctionData, decodeFunctionResult, toFunctionSelector, toFunctionSignature, type Abi, type AbiFunction, type AbiParameter, type Hex } from 'viem';

type AbiError = Extract<Abi[number], { type: 'error' }>;
import { abiValueText } from './abi-value.js';
import { COMMON_FUNCTIONS } from './common-functions.js';
import type { z } from 'zod';
import type { decodedCallSchema, decodedErrorSchema, decodedParameterSchema } from '../records/transaction-insight-schemas.js';

/** One argument or result of a decoded call or error. */
export type DecodedParameter = z.infer<typeof decodedParameterSchema>;

/** Where the ABI that decoded a call came from. */
export type CallAbiSource = 'verified' | 'common';

/** Call data decoded as a function call. */
export type DecodedCall = z.infer<typeof decodedCallSchema>;

/** Revert data decoded as a custom error of a verified ABI. */
export type DecodedError = z.infer<typeof decodedErrorSchema>;

/** The ABIs that may describe a call, in the order to try them (a verified contract's first). */
export interface CallAbi {
  abi: readonly unknown[];
  source: CallAbiSource;
}

/** A function found for call data: the ABI entry (to decode its output) and the decoded call. */
export interface FoundCall {
  fn: AbiFunction;
  call: DecodedCall;
}

/** The table of common functions as a {@link CallAbi}, tried after every verified ABI. */
export const COMMON_CALL_ABI: CallAbi = { abi: COMMON_FUNCTIONS, source: 'common' };

/** Functions and errors of an ABI by selector, computed once per ABI array (verified ABIs are long-lived records). */
const indexes = new WeakMap<readonly unknown[], { functions: Map<string, AbiFunction[]>; errors: Map<string, AbiError[]> }>();

function indexOf(abi: readonly unknown[]) {
  let index = indexes.get(abi);
  if (!index) {
    index = { functions: new Map(), errors: new Map() };
    for (const entry of abi) {
      if (isEntry<AbiFunction>(entry, 'function')) push(index.functions, toFunctionSelector(entry), entry);
      else if (isEntry<AbiError>(entry, 'error')) push(index.errors, toFunctionSelector(toFunctionSignature(entry as unknown as AbiFunction)), entry);
    }
    indexes.set(abi, index);
  }
  return index;
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function isEntry<T>(entry: unknown, type: string): entry is T {
  if (typeof entry !== 'object' || entry === null) return false;
  const candidate = entry as { type?: unknown; name?: unknown; inputs?: unknown };
  return candidate.type === type && typeof candidate.name === 'string' && Array.isArray(candidate.inputs);
}

/**
 * `input` decoded as a call of the first function of `abis` (in order) whose selector it starts
 * with and whose arguments it encodes; `null` when none does (no selector, unknown selector, or
 * data that does not decode as its function: a look-alike selector).
 */
export function decodeCallInput(input: string, abis: readonly CallAbi[]): FoundCall | null {
  if (!/^0x[0-9a-fA-F]*$/.test(input) || input.length < 10) return null;
  const selector = input.slice(0, 10).toLowerCase();
  for (const { abi, source } of abis) {
    for (const fn of indexOf(abi).functions.get(selector) ?? []) {
      try {
        const { args } = decodeFunctionData({ abi: [fn], data: input as Hex });
        return { fn, call: { functionName: fn.name, signature: toFunctionSignature(fn), source, parameters: parametersOf(fn.inputs, args) } };
      } catch {
        // Same selector, other encoding: try the next candidate.
      }
    }
  }
  return null;
}

/** What `fn` returned, from its return data; `null` when the data does not decode as its outputs. */
export function decodeCallOutput(fn: AbiFunction, output: string): DecodedParameter[] | null {
  if (!/^0x[0-9a-fA-F]*$/.test(output)) return null;
  if (fn.outputs.length === 0) return output === '0x' ? [] : null;
  try {
    const result = decodeFunctionResult({ abi: [fn], functionName: fn.name, data: output as Hex }) as unknown;
    return parametersOf(fn.outputs, fn.outputs.length === 1 ? [result] : result);
  } catch {
    return null;
  }
}

/** Revert data decoded as a custom error of the first of `abis` that declares one with its selector; `null` otherwise. */
export function decodeCustomError(data: string, abis: readonly (readonly unknown[])[]): DecodedError | null {
  if (!/^0x[0-9a-fA-F]*$/.test(data) || data.length < 10) return null;
  const selector = data.slice(0, 10).toLowerCase();
  for (const abi of abis) {
    for (const error of indexOf(abi).errors.get(selector) ?? []) {
      try {
        const { args } = decodeErrorResult({ abi: [error], data: data as Hex });
        return { errorName: error.name, signature: toFunctionSignature(error as unknown as AbiFunction), parameters: parametersOf(error.inputs, args ?? []) };
      } catch {
        // Same selector, other encoding: try the next candidate.
      }
    }
  }
  return null;
}

/** A decoded error as one line, e.g. `Nope(code: 42)`. */
export function errorText(error: DecodedError): string {
  return `${error.errorName}(${error.parameters.map((parameter) => `${parameter.name}: ${parameter.value}`).join(', ')})`;
}

function parametersOf(params: readonly AbiParameter[], values: unknown): DecodedParameter[] {
  const list = Array.isArray(values) ? values : [];
  return params.map((param, index) => ({ name: param.name || `arg${index}`, type: param.type, value: abiValueText(list[index]) }));
}
