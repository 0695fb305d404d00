import type { NftRecord } from '@chainlens/core';
import { v1 } from '../api.js';
import { usePaged } from '../load.js';
import { AddressLink, TokenLink } from './links.js';
import { PagedTable } from './pager.js';

const PAGE_SIZE = 25;

/**
 * NFTs from the indexed transfers: those an address holds (`owner`), or every token of a
 * collection and its holder (`collection`), with what their metadata says where it is on chain.
 */
export function NftInventory({ owner, collection }: { owner?: string; collection?: string }) {
  const paged = usePaged(
    (page, offset) => (collection ? v1<NftRecord[]>(`token/${collection}/inventory`, { page, offset }) : v1<NftRecord[]>('account/nfts', { address: owner, page, offset })),
    PAGE_SIZE,
  );
  return (
    <PagedTable
      paged={paged}
      what="NFTs"
      empty={collection ? 'No token of this collection is held.' : 'This address holds no NFT.'}
      caption={collection ? 'Tokens of this collection and their holders, by id' : 'NFTs this address holds, by collection and id'}
      rowKey={(row) => `${row.token}-${row.tokenId}-${row.owner}`}
      class="wrap"
      columns={[
        !collection && ['Collection', (row) => <TokenLink address={row.token} label={row.tokenName ?? row.tokenSymbol} />],
        ['Token id', (row) => <span class="mono">{row.tokenId}</span>],
        collection !== undefined && ['Holder', (row) => <AddressLink address={row.owner} label={row.ownerLabel} />],
        ['Amount', (row) => (row.standard === 'ERC-721' ? '1' : row.balance)],
        ['Metadata', (row) => <Metadata nft={row} />],
      ]}
    />
  );
}

/** The token's name and description where its metadata is on chain, else its token URI (not fetched: the page loads nothing from elsewhere). */
function Metadata({ nft }: { nft: NftRecord }) {
  if (nft.metadata) {
    const image = nft.metadata.image?.startsWith('data:image/') ? nft.metadata.image : null;
    return (
      <span class="nft-meta">
        {image && <img src={image} alt="" width={40} height={40} />}
        <span>
          {nft.metadata.name ?? <span class="muted">no name</span>}
          {nft.metadata.description && <span class="muted"> · {nft.metadata.description}</span>}
        </span>
      </span>
    );
  }
  return nft.tokenUri ? <span class="mono muted">{nft.tokenUri}</span> : <span class="muted">—</span>;
}
