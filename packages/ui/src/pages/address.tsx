import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { etherscan, nodeRead, v1 } from '../api.js';
import { useNow } from '../clock.js';
import { Approvals, ContractEvents, InternalTransactions } from '../components/address-activity.js';
import { ReadContract, WriteContract } from '../components/contract-functions.js';
import { Details, Tabs } from '../components/details.js';
import { PageTitle } from '../components/layout.js';
import { NftInventory } from '../components/nft-inventory.js';
import { AddressLink, BlockLink, TokenLink, TransactionLink } from '../components/links.js';
import { PagedList } from '../components/pager.js';
import { DataTable } from '../components/data-table.js';
import { Loaded } from '../components/states.js';
import { TransactionsTable, TransfersTable } from '../components/tables.js';
import { formatEth, formatTime, formatTokenAmount } from '../format.js';
import { useLoad, usePaged } from '../load.js';
import type { AbiEntry, AccountTokenTransfer, Balance, Contract, Delegation, SourceCode, TokenHolding, Transaction } from '../records.js';

const PAGE_SIZE = 25;

type Tab = 'transactions' | 'internal' | 'transfers' | 'tokens' | 'nfts' | 'approvals' | 'events' | 'contract' | 'read' | 'write';

/** Any address: its public label, balance, transactions, token transfers, tokens held, and for a contract its code's details. */
export function AddressPage({ address }: { address: string }) {
  const overview = useLoad(async () => {
    const [balance, code, delegation] = await Promise.all([
      v1<Balance>('account/balance', { address }),
      nodeRead<string>('eth_getCode', { address, tag: 'latest' }),
      v1<Delegation>('account/delegation', { address }),
    ]);
    // Only an address with code has a contract record: asking for one of any other would be a 404.
    // An account that delegates (EIP-7702) has code too, but is no contract.
    const contract = code !== '0x' && delegation.delegatedTo === null ? await v1<Contract>(`contract/${address}`) : null;
    return { balance, contract, delegation };
  }, [address]);
  const [tab, setTab] = useState<Tab>('transactions');
  return (
    <>
      <Loaded loading={overview} what="this address">
        {({ balance, contract, delegation }) => (
          <>
            <PageTitle
              sub={
                <>
                  {balance.label && <span class="address-label">{balance.label}</span>} <span class="mono">{address}</span>
                </>
              }
            >{contract ? `Contract${contract.name ? ` ${contract.name}` : ''}` : 'Address'}</PageTitle>
            <Details
              label="Address overview"
              rows={[
                ['Balance', formatEth(balance.balance, 18)],
                ['At block', <BlockLink number={balance.blockNumber} />],
                ...(delegation.delegatedTo
                  ? ([['Delegated to', <span><AddressLink address={delegation.delegatedTo} label={delegation.delegatedToLabel} full /> <span class="badge">EIP-7702 delegated account</span></span>]] as [string, ComponentChildren][])
                  : []),
                ...(contract
                  ? ([
                      ['Kind', contract.isToken ? <span>Token contract · <TokenLink address={address} label="view the token" /></span> : 'Contract'],
                      ['Creator', contract.creator ? <AddressLink address={contract.creator} label={contract.creatorLabel} full /> : 'not indexed'],
                      ['Created in', contract.creationTx ? <TransactionLink hash={contract.creationTx} full /> : 'not indexed'],
                    ] as [string, ComponentChildren][])
                  : []),
              ]}
            />
            <Tabs
              label="Address sections"
              current={tab}
              onChange={setTab}
              tabs={[
                ['transactions', 'Transactions'],
                ['internal', 'Internal transactions'],
                ['transfers', 'Token transfers'],
                ['tokens', 'Tokens held'],
                ['nfts', 'NFTs'],
                ['approvals', 'Approvals'],
                ...(contract ? ([['events', 'Events'], ['contract', 'Contract'], ['read', 'Read contract'], ['write', 'Write contract']] as [Tab, string][]) : []),
              ]}
            />
            {tab === 'transactions' && <AddressTransactions address={address} />}
            {tab === 'transfers' && <AddressTransfers address={address} />}
            {tab === 'tokens' && <TokensHeld address={address} />}
            {tab === 'internal' && <InternalTransactions address={address} />}
            {tab === 'nfts' && <NftInventory owner={address} />}
            {tab === 'approvals' && <Approvals address={address} />}
            {tab === 'events' && <ContractEvents address={address} />}
            {tab === 'contract' && contract && <ContractTab contract={contract} />}
            {tab === 'read' && contract && <ReadContract contract={contract} />}
            {tab === 'write' && contract && <WriteContract contract={contract} />}
          </>
        )}
      </Loaded>
    </>
  );
}

function AddressTransactions({ address }: { address: string }) {
  const now = useNow();
  const paged = usePaged((page, offset) => v1<Transaction[]>('account/txlist', { address, page, offset, sort: 'desc' }), PAGE_SIZE);
  return (
    <PagedList paged={paged} what="transactions" empty="No indexed transaction sent, received or created this address.">
      {(rows) => <TransactionsTable transactions={rows} now={now} caption={`Transactions of this address, newest first, page ${paged.page}`} />}
    </PagedList>
  );
}

function AddressTransfers({ address }: { address: string }) {
  const now = useNow();
  const paged = usePaged((page, offset) => v1<AccountTokenTransfer[]>('account/token-transfers', { address, page, offset }), PAGE_SIZE);
  return (
    <PagedList paged={paged} what="token transfers" empty="No token moved to or from this address.">
      {(rows) => <TransfersTable transfers={rows} now={now} withToken caption={`Token transfers of this address, newest first, page ${paged.page}`} />}
    </PagedList>
  );
}

function TokensHeld({ address }: { address: string }) {
  const paged = usePaged((page, offset) => v1<TokenHolding[]>('account/tokens', { address, page, offset }), PAGE_SIZE);
  return (
    <PagedList paged={paged} what="tokens held" empty="This address holds no tokens.">
      {(rows) => (
        <DataTable
          caption={`Tokens this address holds, page ${paged.page}`}
          rows={rows}
          rowKey={(holding) => holding.token}
          columns={[
            ['Token', (holding) => <TokenLink address={holding.token} label={holding.name ?? holding.symbol} />],
            ['Standard', (holding) => holding.standard],
            ['Balance', (holding) => formatTokenAmount(holding.balance, holding.decimals, holding.symbol)],
          ]}
        />
      )}
    </PagedList>
  );
}

function ContractTab({ contract }: { contract: Contract }) {
  const verified = useLoad(
    async () =>
      contract.verified
        ? { abi: await v1<AbiEntry[]>(`contract/${contract.address}/abi`), source: (await etherscan<SourceCode[]>('contract', 'getsourcecode', { address: contract.address }))[0] ?? null }
        : null,
    [contract.address],
  );
  return (
    <section aria-label="Contract">
      <Details
        label="Contract details"
        rows={[
          ['Verified', contract.verified ? `Yes${contract.verifiedAt ? `, ${formatTime(String(Math.floor(Date.parse(contract.verifiedAt) / 1000)))}` : ''}` : 'No'],
          ...(contract.verified
            ? ([
                ['Name', contract.name ?? '—'],
                ['Compiler', contract.compiler ?? '—'],
                ['Optimization', contract.optimization ? `on, ${contract.runs ?? 200} runs` : 'off'],
                ['License', contract.license ?? '—'],
              ] as [string, string][])
            : []),
          ...(contract.isProxy ? ([['Proxy', <span>{contract.proxyType} to <AddressLink address={contract.implementation} full /></span>]] as [string, ComponentChildren][]) : []),
          ['Transactions', String(contract.txCount)],
        ]}
      />
      {!contract.verified && <p class="muted">This contract's source code is not verified. Submit it through the API (<code>POST /api/v1/contract/verify</code>) to see its source and ABI here.</p>}
      <Loaded loading={verified} what="the verified source">
        {(found) =>
          found && (
            <>
              <h2>ABI</h2>
              <DataTable
                caption="Functions and events of the verified ABI"
                rows={found.abi}
                rowKey={(_, index) => String(index)}
                columns={[
                  ['Kind', (entry) => entry.type],
                  ['Signature', (entry) => <span class="mono">{signatureOf(entry)}</span>],
                  ['Mutability', (entry) => entry.stateMutability ?? ''],
                ]}
              />
              {found.source && (
                <>
                  <h2>Source code</h2>
                  <pre class="source" tabIndex={0} aria-label={`Source code of ${found.source.ContractName}`}>
                    {found.source.SourceCode}
                  </pre>
                </>
              )}
            </>
          )
        }
      </Loaded>
    </section>
  );
}

/** An ABI entry as a reader knows it: `transfer(address to, uint256 value) → (bool)`. */
function signatureOf(entry: AbiEntry): string {
  const inputs = (entry.inputs ?? []).map((input) => `${input.type}${input.name ? ` ${input.name}` : ''}`).join(', ');
  const outputs = entry.outputs && entry.outputs.length > 0 ? ` → (${entry.outputs.map((output) => output.type).join(', ')})` : '';
  return `${entry.name ?? ''}(${inputs})${outputs}`;
}
