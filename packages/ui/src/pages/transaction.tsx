import { etherscan, v1 } from '../api.js';
import { useNow } from '../clock.js';
import { Details } from '../components/details.js';
import { PageTitle } from '../components/layout.js';
import { AddressLink, BlockLink } from '../components/links.js';
import { Loaded } from '../components/states.js';
import { DataTable } from '../components/data-table.js';
import { OutcomeBadge, TransfersTable } from '../components/tables.js';
import { BalanceChanges } from '../components/balance-changes.js';
import { CallTree } from '../components/call-tree.js';
import { TransactionInput } from '../components/transaction-input.js';
import { TransactionType } from '../components/transaction-type.js';
import '../components/transaction-view.css';
import { age, feeOf, formatEth, formatGwei, formatTime, groupThousands } from '../format.js';
import { useLoad } from '../load.js';
import type { AccountTokenTransfer, DecodedLog, InternalTransaction, TransactionInfo } from '../records.js';

/** One transaction: status, value, fee, decoded input, then its type, balance changes, token transfers, decoded logs, call tree and internal transactions. */
export function TransactionPage({ hash }: { hash: string }) {
  const now = useNow();
  const info = useLoad(() => v1<TransactionInfo>('transaction/gettxinfo', { txhash: hash }), [hash]);
  return (
    <>
      <PageTitle sub={<span class="mono">{hash}</span>}>Transaction</PageTitle>
      <Loaded loading={info} what="this transaction">
        {(tx) => (
          <>
            <Details
              label="Transaction details"
              rows={[
                ['Status', <OutcomeBadge success={tx.success} />],
                ...(tx.success ? [] : ([['Revert reason', tx.revertReason ?? 'not known']] as [string, string][])),
                ['Block', <span><BlockLink number={tx.blockNumber} /> <span class="muted">({tx.confirmations} confirmations)</span></span>],
                ['Time', `${formatTime(tx.timestamp)} (${age(tx.timestamp, now)})`],
                ['From', <AddressLink address={tx.from} label={tx.fromLabel} full />],
                ['To', tx.to ? <AddressLink address={tx.to} label={tx.toLabel} full /> : <span>Contract creation: <AddressLink address={tx.contractAddress} label={tx.toLabel} full /></span>],
                ['Value', formatEth(tx.value, 18)],
                ['Fee', formatEth(feeOf(tx), 18)],
                ['Gas price', formatGwei(tx.gasPrice)],
                ['Gas used', `${groupThousands(tx.gasUsed)} of ${groupThousands(tx.gas)} limit`],
                ['Nonce', tx.nonce],
                ['Position in block', tx.transactionIndex],
                ['Input', <TransactionInput hash={hash} input={tx.input} />],
              ]}
            />
            <TransactionType hash={hash} />
            <h2>Balance changes</h2>
            <BalanceChanges hash={hash} />
            <h2>Token transfers</h2>
            <TokenTransfers hash={hash} now={now} />
            <h2>Logs</h2>
            <DecodedLogs hash={hash} />
            <h2>Call tree</h2>
            <CallTree hash={hash} />
            <h2>Internal transactions</h2>
            <InternalTransactions hash={hash} />
          </>
        )}
      </Loaded>
    </>
  );
}

function TokenTransfers({ hash, now }: { hash: string; now: number }) {
  const transfers = useLoad(() => v1<AccountTokenTransfer[]>(`transaction/${hash}/token-transfers`), [hash]);
  return (
    <Loaded loading={transfers} what="token transfers">
      {(rows) => (rows.length === 0 ? <p class="muted">This transaction moved no tokens.</p> : <TransfersTable transfers={rows} now={now} withToken caption="Tokens this transaction moved" />)}
    </Loaded>
  );
}

function DecodedLogs({ hash }: { hash: string }) {
  const logs = useLoad(() => v1<DecodedLog[]>(`transaction/${hash}/logs`, { decode: true }), [hash]);
  return (
    <Loaded loading={logs} what="logs">
      {(rows) =>
        rows.length === 0 ? (
          <p class="muted">This transaction emitted no logs.</p>
        ) : (
          <ol class="logs">
            {rows.map((log, index) => (
              <li key={index}>
                <p>
                  <strong>{log.eventName ?? 'Unknown event'}</strong> {log.eventSignature && <code>{log.eventSignature}</code>} from{' '}
                  <AddressLink address={log.contractAddress} /> {log.contractName && <span class="muted">({log.contractName})</span>}
                </p>
                {Object.keys(log.parameters).length > 0 && (
                  <DataTable
                    class="compact"
                    caption={`Parameters of ${log.eventName ?? 'the event'}`}
                    rows={Object.entries(log.parameters)}
                    rowKey={([name]) => name}
                    columns={[
                      ['Parameter', ([name]) => <strong>{name}</strong>],
                      ['Value', ([, value]) => <span class="mono">{/^0x[0-9a-f]{40}$/.test(value) ? <AddressLink address={value} full /> : value}</span>],
                    ]}
                  />
                )}
              </li>
            ))}
          </ol>
        )
      }
    </Loaded>
  );
}

function InternalTransactions({ hash }: { hash: string }) {
  const internal = useLoad(() => etherscan<InternalTransaction[]>('account', 'txlistinternal', { txhash: hash }), [hash]);
  return (
    <Loaded loading={internal} what="internal transactions">
      {(rows) =>
        rows.length === 0 ? (
          <p class="muted">No internal transactions: no call inside this transaction moved value or created a contract.</p>
        ) : (
          <DataTable
            caption="Calls inside this transaction that moved value or created contracts"
            rows={rows}
            rowKey={(_, index) => String(index)}
            columns={[
              ['Type', (row) => row.type],
              ['From', (row) => <AddressLink address={row.from} />],
              ['To', (row) => <AddressLink address={row.to || row.contractAddress} />],
              ['Value', (row) => formatEth(row.value)],
              ['Result', (row) => <OutcomeBadge success={row.isError === '0'} failure={row.errCode || 'Failed'} />],
            ]}
          />
        )
      }
    </Loaded>
  );
}
