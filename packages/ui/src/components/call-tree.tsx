import { ApiError, v1 } from '../api.js';
import { formatEth } from '../format.js';
import { useLoad } from '../load.js';
import type { DecodedCallFrame } from '../records.js';
import { CallText } from './decoded-call.js';
import { AddressLink } from './links.js';
import { Loaded } from './states.js';

/** One call of the tree: its kind, caller and callee, value, decoded call and result or failure, then the calls it made. */
function Frame({ frame }: { frame: DecodedCallFrame }) {
  const creation = frame.type.startsWith('CREATE');
  return (
    <li>
      <div class="frame">
        <span class="badge">{frame.type}</span> <AddressLink address={frame.from} label={frame.fromLabel} /> → <AddressLink address={frame.to} label={frame.toLabel} />
        {frame.contractName && <span class="muted"> ({frame.contractName})</span>}
        {frame.value !== '0' && <span> · {formatEth(frame.value)}</span>}
        {frame.call ? (
          <>
            {' · '}
            <CallText name={frame.call.functionName} parameters={frame.call.parameters} />
          </>
        ) : (
          !creation && frame.input.length >= 10 && <span class="muted"> · selector <code>{frame.input.slice(0, 10)}</code> (not decoded)</span>
        )}
        {frame.result && frame.result.length > 0 && (
          <>
            {' → '}
            <CallText name="returns" parameters={frame.result} />
          </>
        )}
        {frame.error !== null && <span class="badge fail">{frame.revertReason ?? frame.error}</span>}
      </div>
      {frame.calls.length > 0 && (
        <ol>
          {frame.calls.map((call, index) => (
            <Frame key={index} frame={call} />
          ))}
        </ol>
      )}
    </li>
  );
}

/** Every call the transaction made, nested, from the node's trace; says so where the node does not trace. */
export function CallTree({ hash }: { hash: string }) {
  const tree = useLoad(() => v1<DecodedCallFrame>(`transaction/${hash}/calls`), [hash]);
  if (tree.state === 'failed' && tree.error instanceof ApiError && tree.error.status === 501) return <p class="muted">The node does not trace transactions, so their calls cannot be shown.</p>;
  return (
    <Loaded loading={tree} what="the call tree">
      {(top) => (
        <ol class="call-tree" aria-label="Call tree">
          <Frame frame={top} />
        </ol>
      )}
    </Loaded>
  );
}
