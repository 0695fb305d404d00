import { age, formatEth, formatTokenAmount, groupThousands } from '../format.js';
import type { AccountTokenTransfer, TokenTransfer, Transaction } from '../records.js';
import { DataTable } from './data-table.js';
import { AddressLink, BlockLink, TokenLink, TransactionLink } from './links.js';

/** Blocks, newest first: the rows every block list shows. */
export interface BlockRow {
  blockNumber: string;
  hash: string;
  timestamp: string;
  transactionCount: number;
  gasUsed: string;
  miner: string;
  /** The miner's public label; the `blocks` channel's messages carry none. */
  minerLabel?: string | null;
}

export function BlocksTable({ blocks, now, caption }: { blocks: BlockRow[]; now: number; caption: string }) {
  return (
    <DataTable
      caption={caption}
      rows={blocks}
      rowKey={(block) => block.hash}
      columns={[
        ['Block', (block) => <BlockLink number={block.blockNumber} />],
        ['Age', (block) => age(block.timestamp, now)],
        ['Transactions', (block) => block.transactionCount],
        ['Gas used', (block) => groupThousands(block.gasUsed)],
        ['Miner', (block) => <AddressLink address={block.miner} label={block.minerLabel} />],
      ]}
    />
  );
}

/** Transactions; `compact` leaves out their age and status, for a narrow column. */
export function TransactionsTable({ transactions, now, caption, showBlock = true, compact = false }: { transactions: Transaction[]; now: number; caption: string; showBlock?: boolean; compact?: boolean }) {
  return (
    <DataTable
      caption={caption}
      rows={transactions}
      rowKey={(tx) => tx.hash}
      columns={[
        ['Hash', (tx) => <TransactionLink hash={tx.hash} />],
        showBlock && ['Block', (tx) => <BlockLink number={tx.blockNumber} />],
        !compact && ['Age', (tx) => age(tx.timestamp, now)],
        ['From', (tx) => <AddressLink address={tx.from} label={tx.fromLabel} />],
        ['To', (tx) => (tx.to ? <AddressLink address={tx.to} label={tx.toLabel} /> : <span>Create <AddressLink address={tx.contractAddress} label={tx.toLabel} /></span>)],
        ['Value', (tx) => formatEth(tx.value, 4)],
        !compact && ['Status', (tx) => <OutcomeBadge success={tx.txreceipt_status === '1'} />],
      ]}
    />
  );
}

/** Success or failure, as a badge. */
export function OutcomeBadge({ success, failure = 'Failed' }: { success: boolean; failure?: string }) {
  return success ? <span class="badge ok">Success</span> : <span class="badge fail">{failure}</span>;
}

/** Token transfers; `withToken` adds the token column where they are of several tokens. */
export function TransfersTable({ transfers, now, caption, withToken }: { transfers: (TokenTransfer | AccountTokenTransfer)[]; now: number; caption: string; withToken: boolean }) {
  return (
    <DataTable
      caption={caption}
      rows={transfers}
      rowKey={(transfer) => `${transfer.hash}-${transfer.logIndex}-${transfer.tokenId ?? ''}-${transfer.to}`}
      columns={[
        ['Transaction', (transfer) => <TransactionLink hash={transfer.hash} />],
        ['Block', (transfer) => <BlockLink number={transfer.blockNumber} />],
        ['Age', (transfer) => age(transfer.timestamp, now)],
        ['From', (transfer) => <AddressLink address={transfer.from} label={transfer.fromLabel} />],
        ['To', (transfer) => <AddressLink address={transfer.to} label={transfer.toLabel} />],
        ['Amount', (transfer) => <TransferAmount transfer={transfer} />],
        withToken && [
          'Token',
          (transfer) =>
            'token' in transfer && (
              <>
                <TokenLink address={transfer.token} label={transfer.tokenSymbol ?? transfer.tokenName} /> <span class="muted">{transfer.standard}</span>
              </>
            ),
        ],
      ]}
    />
  );
}

/** A fungible amount in whole tokens, a single NFT by its id, or an ERC-1155 amount of an id. */
function TransferAmount({ transfer }: { transfer: TokenTransfer }) {
  if (transfer.tokenId !== null && transfer.tokenDecimal === null && transfer.value === '1') return <>#{transfer.tokenId}</>;
  const amount = formatTokenAmount(transfer.value, transfer.tokenDecimal, transfer.tokenSymbol);
  return <>{transfer.tokenId !== null ? `${amount} (id ${transfer.tokenId})` : amount}</>;
}
