import { age, formatEth, formatTokenAmount, groupThousands } from '../format.js';
import type { AccountTokenTransfer, TokenTransfer, Transaction } from '../records.js';
import { AddressLink, BlockLink, TokenLink, TransactionLink } from './links.js';

/** Blocks, newest first: the rows every block list shows. */
export interface BlockRow {
  blockNumber: string;
  hash: string;
  timestamp: string;
  transactionCount: number;
  gasUsed: string;
  miner: string;
}

export function BlocksTable({ blocks, now, caption }: { blocks: BlockRow[]; now: number; caption: string }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Block</th>
          <th scope="col">Age</th>
          <th scope="col">Transactions</th>
          <th scope="col">Gas used</th>
          <th scope="col">Miner</th>
        </tr>
      </thead>
      <tbody>
        {blocks.map((block) => (
          <tr key={block.hash}>
            <td>
              <BlockLink number={block.blockNumber} />
            </td>
            <td>{age(block.timestamp, now)}</td>
            <td>{block.transactionCount}</td>
            <td>{groupThousands(block.gasUsed)}</td>
            <td>
              <AddressLink address={block.miner} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Transactions; `compact` leaves out their age and status, for a narrow column. */
export function TransactionsTable({ transactions, now, caption, showBlock = true, compact = false }: { transactions: Transaction[]; now: number; caption: string; showBlock?: boolean; compact?: boolean }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Hash</th>
          {showBlock && <th scope="col">Block</th>}
          {!compact && <th scope="col">Age</th>}
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Value</th>
          {!compact && <th scope="col">Status</th>}
        </tr>
      </thead>
      <tbody>
        {transactions.map((tx) => (
          <tr key={tx.hash}>
            <td>
              <TransactionLink hash={tx.hash} />
            </td>
            {showBlock && (
              <td>
                <BlockLink number={tx.blockNumber} />
              </td>
            )}
            {!compact && <td>{age(tx.timestamp, now)}</td>}
            <td>
              <AddressLink address={tx.from} />
            </td>
            <td>{tx.to ? <AddressLink address={tx.to} /> : <span>Create <AddressLink address={tx.contractAddress} /></span>}</td>
            <td>{formatEth(tx.value, 4)}</td>
            {!compact && <td>{tx.txreceipt_status === '1' ? <span class="badge ok">Success</span> : <span class="badge fail">Failed</span>}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Token transfers; `withToken` adds the token column where they are of several tokens. */
export function TransfersTable({ transfers, now, caption, withToken }: { transfers: (TokenTransfer | AccountTokenTransfer)[]; now: number; caption: string; withToken: boolean }) {
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Transaction</th>
          <th scope="col">Block</th>
          <th scope="col">Age</th>
          <th scope="col">From</th>
          <th scope="col">To</th>
          <th scope="col">Amount</th>
          {withToken && <th scope="col">Token</th>}
        </tr>
      </thead>
      <tbody>
        {transfers.map((transfer) => (
          <tr key={`${transfer.hash}-${transfer.logIndex}-${transfer.tokenId ?? ''}-${transfer.to}`}>
            <td>
              <TransactionLink hash={transfer.hash} />
            </td>
            <td>
              <BlockLink number={transfer.blockNumber} />
            </td>
            <td>{age(transfer.timestamp, now)}</td>
            <td>
              <AddressLink address={transfer.from} />
            </td>
            <td>
              <AddressLink address={transfer.to} />
            </td>
            <td>
              {transfer.tokenId !== null && transfer.tokenDecimal === null && transfer.value === '1' ? `#${transfer.tokenId}` : formatTokenAmount(transfer.value, transfer.tokenDecimal, transfer.tokenSymbol)}
              {transfer.tokenId !== null && transfer.value !== '1' ? ` (id ${transfer.tokenId})` : ''}
            </td>
            {withToken && 'token' in transfer && (
              <td>
                <TokenLink address={transfer.token} label={transfer.tokenSymbol ?? transfer.tokenName} /> <span class="muted">{transfer.standard}</span>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
