import type { ComponentChildren } from 'preact';
import { v1 } from '../api.js';
import { groupThousands } from '../format.js';
import { useLoad } from '../load.js';
import type { TransactionEnvelope } from '../records.js';
import { DataTable } from './data-table.js';
import { Details } from './details.js';
import { AddressLink } from './links.js';
import { Loaded } from './states.js';

/** A transaction's type and what it adds: EIP-7702's authorizations (who delegates to what), EIP-4844's blobs. */
export function TransactionType({ hash }: { hash: string }) {
  const envelope = useLoad(() => v1<TransactionEnvelope>(`transaction/${hash}/envelope`), [hash]);
  return (
    <Loaded loading={envelope} what="the transaction type">
      {(record) => (
        <>
          <Details label="Transaction type" rows={[['Type', `${record.type}${record.typeName ? ` · ${record.typeName}` : ''}`], ...blobRows(record)]} />
          {record.authorizationList && (
            <DataTable
              caption="Authorizations: each account that signed one runs the delegation target's code"
              rows={record.authorizationList}
              rowKey={(_, index) => String(index)}
              columns={[
                ['Authority', (row) => (row.authority ? <AddressLink address={row.authority} label={row.authorityLabel} full /> : <span class="muted">signature does not recover</span>)],
                ['Delegates to', (row) => <AddressLink address={row.address} label={row.addressLabel} full />],
                ['Chain', (row) => (row.chainId === '0' ? 'any' : row.chainId)],
                ['Nonce', (row) => row.nonce],
              ]}
            />
          )}
        </>
      )}
    </Loaded>
  );
}

function blobRows(record: TransactionEnvelope): [string, ComponentChildren][] {
  if (record.blobVersionedHashes === null) return [];
  return [
    ['Blobs', String(record.blobCount)],
    ['Blob gas used', record.blobGasUsed === null ? 'not known' : groupThousands(record.blobGasUsed)],
    ['Blob gas price', record.blobGasPrice === null ? 'not known' : `${groupThousands(record.blobGasPrice)} Wei`],
    [
      'Versioned hashes',
      <ul class="plain">
        {record.blobVersionedHashes.map((hash) => (
          <li key={hash} class="mono">
            {hash}
          </li>
        ))}
      </ul>,
    ],
  ];
}
