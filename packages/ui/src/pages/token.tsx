import { useState } from 'preact/hooks';
import { v1 } from '../api.js';
import { useNow } from '../clock.js';
import { Details, Tabs } from '../components/details.js';
import { PageTitle } from '../components/layout.js';
import { NftInventory } from '../components/nft-inventory.js';
import { AddressLink } from '../components/links.js';
import { PagedList } from '../components/pager.js';
import { DataTable } from '../components/data-table.js';
import { SeriesCharts } from '../components/series-chart.js';
import { Loaded } from '../components/states.js';
import { TransfersTable } from '../components/tables.js';
import { age, formatTokenAmount, formatUsd, groupThousands } from '../format.js';
import { useLoad, usePaged } from '../load.js';
import type { ChartSeries, Token, TokenHolders, TokenTransfer } from '../records.js';

const PAGE_SIZE = 25;

/** One token: what it is, its price, its activity over time, its holders and its transfers. */
export function TokenPage({ address }: { address: string }) {
  const token = useLoad(() => v1<Token>(`token/${address}`), [address]);
  const [tab, setTab] = useState<'transfers' | 'holders' | 'inventory'>('transfers');
  return (
    <Loaded loading={token} what="this token">
      {(found) => (
        <>
          <PageTitle sub={<span class="mono">{address}</span>}>
            {found.name ?? 'Token'} {found.symbol && <span class="symbol">({found.symbol})</span>}
          </PageTitle>
          <Details
            label="Token details"
            rows={[
              ['Standard', found.standard],
              ['Contract', <AddressLink address={found.address} full />],
              ['Total supply', found.totalSupply === null ? '—' : formatTokenAmount(found.totalSupply, found.decimals, found.symbol)],
              ['Decimals', found.decimals ?? '—'],
              ['Holders', groupThousands(found.holders)],
              ['Transfers', groupThousands(found.transfers)],
              ['Price', found.priceUSD === null ? 'no price source' : formatUsd(found.priceUSD)],
              ['Market cap', found.marketCap === null ? '—' : formatUsd(found.marketCap)],
              ['Volume (24 h)', found.volume24h === null ? '—' : formatUsd(found.volume24h)],
            ]}
          />
          <h2>Over time</h2>
          <TokenCharts address={found.address} />
          <Tabs label="Token sections" current={tab} onChange={setTab} tabs={[['transfers', 'Transfers'], ['holders', 'Holders'], ...(found.standard === 'ERC-20' ? [] : ([['inventory', 'Inventory']] as ['inventory', string][]))]} />
          {tab === 'transfers' && <TokenTransfers token={found} />}
          {tab === 'holders' && <TokenHoldersList token={found} />}
          {tab === 'inventory' && <NftInventory collection={found.address} />}
        </>
      )}
    </Loaded>
  );
}

/** The series of one token (its transfers, holders and price), from the list the server keeps. */
function TokenCharts({ address }: { address: string }) {
  const series = useLoad(() => v1<ChartSeries[]>('stats/charts'), []);
  return (
    <Loaded loading={series} what="the token's charts">
      {(all) => <SeriesCharts label="This token over time" token={address} series={all.filter((one) => one.token !== 'none')} />}
    </Loaded>
  );
}

function TokenTransfers({ token }: { token: Token }) {
  const now = useNow();
  const paged = usePaged((page, offset) => v1<TokenTransfer[]>(`token/${token.address}/transfers`, { page, offset }), PAGE_SIZE);
  return (
    <PagedList paged={paged} what="transfers" empty="This token has no indexed transfers.">
      {(rows) => <TransfersTable transfers={rows} now={now} withToken={false} caption={`Transfers of ${token.symbol ?? 'this token'}, newest first, page ${paged.page}`} />}
    </PagedList>
  );
}

function TokenHoldersList({ token }: { token: Token }) {
  const now = useNow();
  const paged = usePaged((page, offset) => v1<TokenHolders>(`token/${token.address}/holders`, { page, offset }).then((answer) => answer.holders), PAGE_SIZE);
  return (
    <PagedList paged={paged} what="holders" empty="Nobody holds this token.">
      {(rows) => (
        <DataTable
          caption={`Holders of ${token.symbol ?? 'this token'}, largest balance first, page ${paged.page}`}
          rows={rows}
          rowKey={(holder) => holder.address}
          columns={[
            ['Rank', (_, index) => (paged.page - 1) * PAGE_SIZE + index + 1],
            ['Address', (holder) => <AddressLink address={holder.address} label={holder.label} />],
            ['Balance', (holder) => formatTokenAmount(holder.balance, token.decimals, token.symbol)],
            ['Share', (holder) => (holder.percentage === null ? '—' : `${Number(holder.percentage).toFixed(4)} %`)],
            ['Last activity', (holder) => age(holder.lastActivity, now)],
          ]}
        />
      )}
    </PagedList>
  );
}
