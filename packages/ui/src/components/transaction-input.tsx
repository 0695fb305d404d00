import { v1 } from '../api.js';
import { useLoad } from '../load.js';
import type { DecodedInput } from '../records.js';
import { ParametersTable } from './decoded-call.js';

const SOURCES = { verified: 'from the verified ABI', common: 'from the table of common functions' };

/** A transaction's input: decoded as a function call where an ABI is known, the raw data always a click away. */
export function TransactionInput({ hash, input }: { hash: string; input: string }) {
  const decoded = useLoad(() => v1<DecodedInput>(`transaction/${hash}/input`), [hash]);
  const raw = <code class="input">{input}</code>;
  if (decoded.state !== 'done' || decoded.data.functionName === null || decoded.data.parameters === null) return raw;
  const { functionName, signature, source, parameters } = decoded.data;
  return (
    <div class="decoded-input" data-testid="decoded-input">
      <p>
        <strong>{functionName}</strong> <code>{signature}</code> <span class="muted">(decoded {source ? SOURCES[source] : ''})</span>
      </p>
      {parameters.length > 0 && <ParametersTable parameters={parameters} caption={`Arguments of ${functionName}`} />}
      <details>
        <summary>Raw input</summary>
        {raw}
      </details>
    </div>
  );
}
