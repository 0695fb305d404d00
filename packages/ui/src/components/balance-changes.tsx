import { v1 } from '../api.js';
import { formatEth, formatTokenAmount } from '../format.js';
import { useLoad } from '../load.js';
import type { BalanceChanges as BalanceChangesRecord } from '../records.js';
import { DataTable } from './data-table.js';
import { AddressLink, TokenLink } from './links.js';
import { Loaded } from './states.js';

/** A signed change with its sign always written, and its direction as a colour. */
function Change({ text, negative }: { text: string; negative: boolean }) {
  return <span class={negative ? 'change down' : 'change up'}>{negative ? text : `+${text}`}</span>;
}

/** What the transaction moved, per address: ether (calls' values and the fee) and tokens. */
export function BalanceChanges({ hash }: { hash: string }) {
  const changes = useLoad(() => v1<BalanceChangesRecord>(`transaction/${hash}/balance-changes`), [hash]);
  return (
    <Loaded loading={changes} what="balance changes">
      {({ ether, tokens }) => (
        <div class="balance-changes">
          {ether === null ? (
            <p class="muted">The node does not trace transactions, so the ether moved by calls inside this one is not known.</p>
          ) : (
            <DataTable
              caption="Ether balance changes (call values, the fee, the miner's priority fee)"
              rows={ether}
              rowKey={(row) => row.address}
              columns={[
                ['Address', (row) => <AddressLink address={row.address} label={row.label} full />],
                ['Change', (row) => <Change text={formatEth(row.change, 18)} negative={row.change.startsWith('-')} />],
              ]}
            />
          )}
          {tokens.length > 0 && (
            <DataTable
              caption="Token balance changes"
              rows={tokens}
              rowKey={(row) => `${row.address}-${row.token}-${row.tokenId ?? ''}`}
              columns={[
                ['Address', (row) => <AddressLink address={row.address} label={row.label} full />],
                ['Token', (row) => <TokenLink address={row.token} label={row.tokenSymbol ?? row.tokenName} />],
                ['Change', (row) => <Change text={`${formatTokenAmount(row.change, row.tokenDecimal, row.tokenSymbol)}${row.tokenId === null ? '' : ` (id ${row.tokenId})`}`} negative={row.change.startsWith('-')} />],
              ]}
            />
          )}
        </div>
      )}
    </Loaded>
  );
}
