import { COMMON_CALL_ABI, decodeCallInput, decodeCallOutput, decodeCustomError, errorText, type CallAbi, type DecodedCall, type DecodedError, type DecodedParameter } from '../abi/decode-call.js';
import { decodeRevertReason } from '../chain/revert-reason.js';
import type { Hex, StoredVerifiedContract } from '../storage/index.js';
import type { CallTraceFrame, TransactionTraceRecord } from './call-trace.js';
import type { z } from 'zod';
import type { decodedCallFrameRecordSchema } from '../records/transaction-insight-schemas.js';

/** A frame of a transaction's call tree with its call, result and failure decoded where an ABI is known. */
export type DecodedCallFrameRecord = z.infer<typeof decodedCallFrameRecordSchema>;

/** The verified records of a transaction's contracts, by address, to decode its calls and errors. */
export class VerifiedAbis {
  private readonly byAddress: Map<string, StoredVerifiedContract>;

  /** `delegations`: the accounts among the callees that delegate by EIP-7702, and to what: their calls decode by the target's ABI. */
  constructor(
    contracts: readonly StoredVerifiedContract[],
    private readonly delegations: ReadonlyMap<string, string> = new Map(),
  ) {
    this.byAddress = new Map(contracts.map((contract) => [contract.address.toLowerCase(), contract]));
  }

  /** The verified record of `address`, if any. */
  of(address: string | null): StoredVerifiedContract | null {
    return address === null ? null : (this.byAddress.get(address.toLowerCase()) ?? null);
  }

  /**
   * The ABIs to decode a call to `addresses` with, in order: theirs where verified (a proxy's
   * own, then the implementations it delegated the same call to; a delegated account's target),
   * then the common functions.
   */
  callAbis(addresses: readonly (string | null)[]): CallAbi[] {
    const expanded = addresses.flatMap((address) => [address, address === null ? null : (this.delegations.get(address) ?? null)]);
    const verified = expanded.flatMap((address) => {
      const record = this.of(address);
      return record ? [{ abi: record.abi, source: 'verified' as const }] : [];
    });
    return [...verified, COMMON_CALL_ABI];
  }

  /** Every verified ABI, those of `first` in front: where a custom error may be declared. */
  errorAbis(first: readonly (string | null)[]): (readonly unknown[])[] {
    const front = first.flatMap((address) => this.of(address) ?? []);
    return [...new Set([...front, ...this.byAddress.values()])].map((record) => record.abi);
  }
}

/** A revert's data made readable: a standard error or panic, else a custom error of `abis`, else the hex data. */
export function explainRevert(data: string | undefined, fallback: string, abis: readonly (readonly unknown[])[]): { reason: string; error: DecodedError | null } {
  const reason = decodeRevertReason(data, fallback);
  const error = data !== undefined && reason === data.toLowerCase() ? decodeCustomError(data, abis) : null;
  return { reason: error ? errorText(error) : reason, error };
}

/** The callees `frame`'s call went on to by `DELEGATECALL` with the same input: a proxy's implementations. */
export function implementationsOf(frame: TransactionTraceRecord): string[] {
  return frame.calls.filter((call) => call.type === 'DELEGATECALL' && call.input === frame.input && call.to !== null).map((call) => call.to!);
}

/** `frame`'s call and its result decoded with `abis`, or `null`s where no ABI describes them. */
export function decodeFrameCall(frame: Pick<TransactionTraceRecord, 'type' | 'to' | 'input' | 'output' | 'error'>, callees: readonly string[], abis: VerifiedAbis): { call: DecodedCall | null; result: DecodedParameter[] | null } {
  if (frame.type.startsWith('CREATE') || frame.type === 'SELFDESTRUCT') return { call: null, result: null };
  const found = decodeCallInput(frame.input, abis.callAbis([frame.to, ...callees]));
  return { call: found?.call ?? null, result: found && frame.error === null ? decodeCallOutput(found.fn, frame.output) : null };
}

/** The call tree with each frame's call, result and failure decoded where `abis` (or the common functions) describe them. */
export function decodeCallTree(frame: TransactionTraceRecord, abis: VerifiedAbis): DecodedCallFrameRecord {
  const implementations = implementationsOf(frame);
  const { call, result } = decodeFrameCall(frame, implementations, abis);
  const revert = frame.error === null ? null : explainRevert(frame.output === '0x' ? undefined : frame.output, frame.error, abis.errorAbis([frame.to, ...implementations]));
  return {
    ...frame,
    contractName: abis.of(frame.to)?.name ?? null,
    call,
    result,
    revertReason: revert?.reason ?? null,
    revertError: revert?.error ?? null,
    calls: frame.calls.map((child) => decodeCallTree(child, abis)),
  };
}

/** Every contract address of the tree (callees), for one read of their verified records. */
export function calleesOf(frame: CallTraceFrame): Hex[] {
  return [...new Set([...(frame.to === null ? [] : [frame.to as Hex]), ...frame.calls.flatMap(calleesOf)])];
}
