import type { FlatTrace, RpcCallFrame } from './rpc-types.js';

/**
 * One transaction's flat traces (OpenEthereum's `trace_transaction`, or its part of
 * `trace_block`) as the call tree geth's call tracer answers, nested by `traceAddress`; `null`
 * when they hold no top call. Block rewards are not calls and are left out.
 */
export function callFrameFromFlatTraces(traces: readonly FlatTrace[]): RpcCallFrame | null {
  const byAddress = new Map<string, RpcCallFrame>();
  let top: RpcCallFrame | null = null;
  for (const trace of traces) {
    if (trace.type === 'reward') continue;
    const frame = flatFrame(trace);
    byAddress.set(trace.traceAddress.join('_'), frame);
    if (trace.traceAddress.length === 0) top = frame;
    else {
      const parent = byAddress.get(trace.traceAddress.slice(0, -1).join('_'));
      if (parent) (parent.calls ??= []).push(frame);
    }
  }
  return top;
}

function flatFrame(trace: FlatTrace): RpcCallFrame {
  const { action, result } = trace;
  const common = { gas: action.gas, gasUsed: result?.gasUsed, ...(trace.error !== undefined && { error: trace.error }) };
  if (trace.type === 'create') {
    const type = action.creationMethod === 'create2' ? 'CREATE2' : 'CREATE';
    return { type, from: action.from!, to: result?.address, value: action.value, input: action.init, output: result?.code, ...common };
  }
  if (trace.type === 'suicide') {
    return { type: 'SELFDESTRUCT', from: action.address!, to: action.refundAddress, value: action.balance, ...common };
  }
  return { type: (action.callType ?? 'call').toUpperCase(), from: action.from!, to: action.to, value: action.value, input: action.input, output: result?.output, ...common };
}
