/** Transaction trace record (spec: Transaction trace), one frame of the call tree. Quantities are decimal strings. */
export interface TransactionTraceRecord {
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
  calls: TransactionTraceRecord[];
}

/** One frame of geth's `callTracer` (`debug_traceTransaction`); quantities in hex. */
export interface CallTracerFrame {
  type: string;
  from: string;
  to?: string;
  value?: string;
  gas?: string;
  gasUsed?: string;
  input?: string;
  output?: string;
  error?: string;
  calls?: CallTracerFrame[];
}

/** One entry of OpenEthereum's flat `trace_transaction` (Erigon, Nethermind, Reth, anvil); quantities in hex. */
export interface FlatTrace {
  type: 'call' | 'create' | 'suicide' | 'reward' | string;
  action: {
    callType?: string;
    creationMethod?: string;
    from?: string;
    to?: string;
    value?: string;
    gas?: string;
    input?: string;
    init?: string;
    address?: string;
    refundAddress?: string;
    balance?: string;
  };
  result?: { gasUsed?: string; output?: string; address?: string; code?: string } | null;
  error?: string;
  /** Child indexes from the top call down; `[]` for the top call. */
  traceAddress: number[];
}

const decimal = (hex: string | undefined) => (hex === undefined ? '0' : BigInt(hex).toString());
const lower = (address: string | undefined | null) => (address ? address.toLowerCase() : null);

/** The call tree of a `callTracer` trace as records. */
export function traceFromCallFrame(frame: CallTracerFrame): TransactionTraceRecord {
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
export function traceFromFlatTraces(traces: readonly FlatTrace[]): TransactionTraceRecord | null {
  const byAddress = new Map<string, TransactionTraceRecord>();
  let top: TransactionTraceRecord | null = null;
  for (const trace of traces) {
    if (trace.type === 'reward') continue;
    const record = flatRecord(trace);
    byAddress.set(trace.traceAddress.join('_'), record);
    if (trace.traceAddress.length === 0) top = record;
    else byAddress.get(trace.traceAddress.slice(0, -1).join('_'))?.calls.push(record);
  }
  return top;
}

function flatRecord(trace: FlatTrace): TransactionTraceRecord {
  const { action, result } = trace;
  const common = { gas: decimal(action.gas), gasUsed: decimal(result?.gasUsed), error: trace.error ?? null, calls: [] };
  if (trace.type === 'create') {
    const type = action.creationMethod === 'create2' ? 'CREATE2' : 'CREATE';
    return { type, from: lower(action.from)!, to: lower(result?.address), value: decimal(action.value), input: action.init ?? '0x', output: result?.code ?? '0x', ...common };
  }
  if (trace.type === 'suicide') {
    return { type: 'SELFDESTRUCT', from: lower(action.address)!, to: lower(action.refundAddress), value: decimal(action.balance), input: '0x', output: '0x', ...common };
  }
  return {
    type: (action.callType ?? 'call').toUpperCase(),
    from: lower(action.from)!,
    to: lower(action.to),
    value: decimal(action.value),
    input: action.input ?? '0x',
    output: result?.output ?? '0x',
    ...common,
  };
}
