import { useState } from 'preact/hooks';
import { encodeFunctionData } from 'viem';
import { etherscan, v1 } from '../api.js';
import type { ApprovalRecord, ContractEventRecord } from '@chainlens/core';
import { useNow } from '../clock.js';
import { age, formatEth, formatTokenAmount, formatUnits } from '../format.js';
import { usePaged } from '../load.js';
import { useWallet } from '../wallet.js';
import { AddressLink, BlockLink, TokenLink, TransactionLink } from './links.js';
import { PagedTable } from './pager.js';
import { OutcomeBadge } from './tables.js';
import { SendStatus, useSend, WalletBar } from './wallet-send.js';

const PAGE_SIZE = 25;

/** An internal transaction as the Etherscan-compatible `txlistinternal` lists an address's. */
interface ListedInternalTransaction {
  blockNumber: string;
  timeStamp: string;
  hash: string;
  from: string;
  to: string;
  value: string;
  contractAddress: string;
  type: string;
  traceId: string;
  isError: string;
}

/** Value transfers, creations and self-destructs inside transactions, to or from the address (from the indexed call traces). */
export function InternalTransactions({ address }: { address: string }) {
  const now = useNow();
  const paged = usePaged((page, offset) => etherscan<ListedInternalTransaction[]>('account', 'txlistinternal', { address, page, offset, sort: 'desc' }), PAGE_SIZE);
  return (
    <PagedTable
      paged={paged}
      what="internal transactions"
      empty="No indexed internal transaction moved value to or from this address (the node's call traces are needed to find them)."
      caption="Internal transactions of this address, newest first"
      rowKey={(row) => `${row.hash}-${row.traceId}`}
      columns={[
        ['Parent transaction', (row) => <TransactionLink hash={row.hash} />],
        ['Block', (row) => <BlockLink number={row.blockNumber} />],
        ['Age', (row) => age(row.timeStamp, now)],
        ['Type', (row) => row.type],
        ['From', (row) => <AddressLink address={row.from} />],
        ['To', (row) => <AddressLink address={row.to || row.contractAddress} />],
        ['Value', (row) => formatEth(row.value, 6)],
        ['Status', (row) => <OutcomeBadge success={row.isError === '0'} />],
      ]}
    />
  );
}

/** The logs a contract emitted, decoded where its ABI (or a standard one) knows the event. */
export function ContractEvents({ address }: { address: string }) {
  const paged = usePaged((page, offset) => v1<ContractEventRecord[]>(`contract/${address}/events`, { page, offset }), PAGE_SIZE);
  return (
    <PagedTable
      paged={paged}
      what="events"
      empty="This contract has emitted no indexed event."
      caption="Events this contract emitted, newest first"
      rowKey={(row) => `${row.transactionHash}-${row.logIndex}`}
      class="wrap"
      columns={[
        ['Transaction', (row) => <TransactionLink hash={row.transactionHash} />],
        ['Block', (row) => <BlockLink number={row.blockNumber} />],
        ['Event', (row) => (row.eventName ? <span class="mono">{row.eventName}</span> : <span class="muted">Not decoded</span>)],
        [
          'Parameters',
          (row) =>
            Object.keys(row.decoded).length > 0 ? (
              <ul class="params">
                {Object.entries(row.decoded).map(([name, value]) => (
                  <li key={name}>
                    <span class="muted">{name}</span> <span class="mono">{String(value)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              // An event no known ABI has (or an anonymous one): its topics and data as logged.
              <ul class="params mono muted">
                {[...row.topics, row.data].map((word, index) => (
                  <li key={index}>{word}</li>
                ))}
              </ul>
            ),
        ],
      ]}
    />
  );
}

/** ERC-20 `approve` and ERC-721/1155 `setApprovalForAll`: what a revoke sends. */
const REVOKE_ABI = [
  { type: 'function', name: 'approve', stateMutability: 'nonpayable', inputs: [{ name: 'spender', type: 'address' }, { name: 'value', type: 'uint256' }], outputs: [{ name: '', type: 'bool' }] },
  { type: 'function', name: 'setApprovalForAll', stateMutability: 'nonpayable', inputs: [{ name: 'operator', type: 'address' }, { name: 'approved', type: 'bool' }], outputs: [] },
] as const;

/** The calldata that takes `approval` back: an allowance set to zero, an operator unset. */
export function revokeData(approval: Pick<ApprovalRecord, 'kind' | 'spender'>): `0x${string}` {
  const spender = approval.spender as `0x${string}`;
  return approval.kind === 'allowance'
    ? encodeFunctionData({ abi: REVOKE_ABI, functionName: 'approve', args: [spender, 0n] })
    : encodeFunctionData({ abi: REVOKE_ABI, functionName: 'setApprovalForAll', args: [spender, false] });
}

const MAX_UINT256 = ((1n << 256n) - 1n).toString();

/** What the spender may take: every token for an operator, "unlimited" for the largest allowance, else the amount to its last decimal. */
function allowanceOf(approval: ApprovalRecord): string {
  return approval.kind === 'operator' ? 'All tokens (operator)' : amountOf(approval, approval.value);
}

/** What the spender may still take now; an operator's is every token, and a token that does not answer says nothing. */
function remainingOf(approval: ApprovalRecord): string {
  if (approval.kind === 'operator') return 'All tokens';
  return approval.remaining === null ? 'Unknown' : amountOf(approval, approval.remaining);
}

function amountOf(approval: ApprovalRecord, value: string): string {
  if (value === MAX_UINT256) return `Unlimited ${approval.tokenSymbol ?? ''}`.trim();
  const amount = approval.tokenDecimal === null ? formatTokenAmount(value, null, null) : formatUnits(value, Number(approval.tokenDecimal), Number(approval.tokenDecimal));
  return approval.tokenSymbol ? `${amount} ${approval.tokenSymbol}` : amount;
}

/** The owner's standing token approvals, each with a Revoke button that sends the revoking call from the owner's wallet. */
export function Approvals({ address }: { address: string }) {
  const wallet = useWallet();
  const { sending, send } = useSend(wallet);
  // Read again (a new list) once a revoke is mined and indexed.
  const [round, setRound] = useState(0);
  const owner = wallet.account === address;
  const revoke = (approval: ApprovalRecord) => send({ to: approval.token, data: revokeData(approval), value: 0n }).then(() => setRound((count) => count + 1));
  return (
    <section aria-label="Approvals">
      <WalletBar wallet={wallet} />
      {wallet.account && !owner && <p class="muted">Only this address can revoke its approvals: connect its wallet to revoke.</p>}
      <div aria-live="polite">
        <SendStatus sending={sending} />
      </div>
      <ApprovalList key={round} address={address} canRevoke={owner && sending.state !== 'signing' && sending.state !== 'pending'} revoke={revoke} />
    </section>
  );
}

function ApprovalList({ address, canRevoke, revoke }: { address: string; canRevoke: boolean; revoke: (approval: ApprovalRecord) => Promise<void> }) {
  const paged = usePaged((page, offset) => v1<ApprovalRecord[]>('account/approvals', { address, page, offset }), PAGE_SIZE);
  return (
    <PagedTable
      paged={paged}
      what="approvals"
      empty="This address has no standing token approval."
      caption="Token approvals this address gave, newest first"
      rowKey={(row) => `${row.token}-${row.spender}-${row.kind}`}
      columns={[
        ['Token', (row) => <TokenLink address={row.token} label={row.tokenSymbol ?? row.tokenName} />],
        ['Spender', (row) => <AddressLink address={row.spender} label={row.spenderLabel} />],
        ['Approved', (row) => allowanceOf(row)],
        ['Left to spend', (row) => remainingOf(row)],
        ['Set in', (row) => <TransactionLink hash={row.transactionHash} />],
        [
          'Revoke',
          (row) => (
            <button type="button" disabled={!canRevoke} aria-label={`Revoke the ${row.tokenSymbol ?? row.token} approval of ${row.spenderLabel ?? row.spender}`} onClick={() => void revoke(row)}>
              Revoke
            </button>
          ),
        ],
      ]}
    />
  );
}
