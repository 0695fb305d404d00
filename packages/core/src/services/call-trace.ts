import { callFrameFromFlatTraces } from '../chain/flat-traces.js';
import type { FlatTrace, RpcCallFrame } from '../chain/rpc-types.js';
import { labelOf, type AddressLabels } from './address-labels.js';
import type { z } from 'zod';
import type { transactionTraceRecordSchema } from '../records/record-schemas.js';

/** One frame of a transaction's call tree as the node traced it. Quantities are decimal strings. */
export interface CallTraceFrame {
  /** `CALL`, `STATICCALL`, `DELEGATECALL`, `CALLCODE`, `CREATE`, `CREATE2` or `SELFDESTRUCT`. */
  type: string;
  from: string;
  /** The callee, the created contract, or the beneficiary of a self-destruct; `null` for a creation that failed. */
  to: string | null;
  /** Wei. */
  value: string;
  gas: string;
  gasUsed: string;
  /** Call data, or the init code of a creation. */
  input: string;
  /** Return data, or the code a creation deployed; `0x` when none. */
  output: string;
  /** Why this frame failed (`execution reverted`, `out of gas`, …); `null` when it did not. Beyond the spec. */
  error: string | null;
  /** The frames this one called, in order. */
  calls: CallTraceFrame[];
}

/** Transaction trace record (spec: Transaction trace): a call frame with its parties' public labels. */
export type TransactionTraceRecord = z.infer<typeof transactionTraceRecordSchema>;

/** One frame of geth's `callTracer` (`debug_traceTransaction`); quantities in hex. */
export type CallTracerFrame = RpcCallFrame;

export type { FlatTrace } from '../chain/rpc-types.js';

const decimal = (hex: string | undefined) => (hex === undefined ? '0' : BigInt(hex).toString());
const lower = (address: string | undefined | null) => (address ? address.toLowerCase() : null);

/** The call tree of a `callTracer` trace as records. */
export function traceFromCallFrame(frame: CallTracerFrame): CallTraceFrame {
  return {
    type: frame.type.toUpperCase(),
    from: frame.from.toLowerCase(),
    to: lower(frame.to),
    value: decimal(frame.value),
    gas: decimal(frame.gas),
    gasUsed: decimal(frame.gasUsed),
    input: frame.input ?? '0x',
    output: frame.output ?? '0x',
    error: frame.error ?? null,
    calls: (frame.calls ?? []).map(traceFromCallFrame),
  };
}

/**
 * The call tree of a flat `trace_transaction` answer as records, nested by `traceAddress`;
 * `null` when it holds no top call. Block rewards are not calls and are left out.
 */
export function traceFromFlatTraces(traces: readonly FlatTrace[]): CallTraceFrame | null {
  const top = callFrameFromFlatTraces(traces);
  return top && traceFromCallFrame(top);
}

/** Every address the call tree names, callers and callees (for {@link labelledTrace}'s labels). */
export function traceAddresses(frame: CallTraceFrame): string[] {
  return [frame.from, ...(frame.to === null ? [] : [frame.to]), ...frame.calls.flatMap(traceAddresses)];
}

/** The trace record of a call tree, each frame's parties' labels from `labels`. */
export function labelledTrace(frame: CallTraceFrame, labels: AddressLabels): TransactionTraceRecord {
  return { ...frame, fromLabel: labelOf(labels, frame.from), toLabel: labelOf(labels, frame.to), calls: frame.calls.map((call) => labelledTrace(call, labels)) };
}
