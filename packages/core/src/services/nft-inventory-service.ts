import { decodeAbiParameters, encodeFunctionData } from 'viem';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { QueryTooLargeError, TokenNotFoundError } from '../errors/index.js';
import type { IndexedHead } from '../events/indexed-head.js';
import type { Hex, StoredTokenTransfer, TokenReader } from '../storage/index.js';
import { dataUriMetadata, type NftMetadataRecord } from '../tokens/nft-metadata.js';
import { ZERO_ADDRESS } from '../tokens/zero-address.js';
import { labelOf, type LabelLookup } from './address-labels.js';
import type { TokenService } from './token-service.js';
import type { z } from 'zod';
import type { nftRecordSchema } from '../records/nft-record-schemas.js';

export type { NftMetadataRecord };

/** One NFT (an ERC-721 token, or an ERC-1155 id) and who holds it, from the indexed transfers. */
export type NftRecord = z.infer<typeof nftRecordSchema>;

/**
 * The most indexed transfers one inventory is computed from: it is replayed from them on each
 * request, so a collection or owner with more is refused rather than read without bound.
 */
const INVENTORY_MAX_TRANSFERS = 10_000;
const READ_PAGE = 1_000;

const URI_ABI = [
  { type: 'function', name: 'tokenURI', stateMutability: 'view', inputs: [{ name: 'id', type: 'uint256' }], outputs: [{ name: '', type: 'string' }] },
  { type: 'function', name: 'uri', stateMutability: 'view', inputs: [{ name: 'id', type: 'uint256' }], outputs: [{ name: '', type: 'string' }] },
] as const;

/** NFT inventories: what an owner holds, and who holds each token of a collection. */
export class NftInventoryService {
  constructor(
    private readonly storage: TokenReader,
    private readonly chain: ChainClient,
    private readonly head: IndexedHead,
    private readonly tokens: TokenService,
    private readonly labels: LabelLookup,
  ) {}

  /** The NFTs `owner` holds, by token then id, paged. */
  async ofOwner(query: { owner: Hex; page: number; offset: number }): Promise<NftRecord[]> {
    const transfers = await Promise.all(
      (['ERC-721', 'ERC-1155'] as const).map((standard) => readAll((page, offset) => this.storage.listAddressTokenTransfers({ address: query.owner, standard, page, offset, sort: 'asc' }))),
    );
    const held = holdings(transfers.flat()).filter((holding) => holding.owner === query.owner);
    return this.records(pageOf(held, query.page, query.offset));
  }

  /** Every token of the collection `token` and who holds it, by id then owner, paged; not an NFT collection → 404. */
  async ofCollection(query: { token: Hex; page: number; offset: number }): Promise<NftRecord[]> {
    const stored = await this.storage.getToken(query.token);
    if (!stored || stored.standard === 'ERC-20') throw new TokenNotFoundError();
    const transfers = await readAll((page, offset) => this.storage.listTokenTransfers({ token: query.token, page, offset, sort: 'asc' }));
    return this.records(pageOf(holdings(transfers), query.page, query.offset));
  }

  private async records(held: Holding[]): Promise<NftRecord[]> {
    if (held.length === 0) return [];
    const [identities, labels, tag] = await Promise.all([this.tokens.identities(held.map((one) => one.token)), this.labels.labelsOf(held.map((one) => one.owner)), this.head.blockTag()]);
    const uris = await Promise.all(held.map((one) => this.tokenUri(one, tag)));
    return held.map((one, index) => {
      const identity = identities.get(one.token)!;
      const tokenUri = uris[index] ?? null;
      return {
        token: one.token,
        tokenName: identity.name,
        tokenSymbol: identity.symbol,
        standard: one.standard,
        tokenId: one.tokenId.toString(),
        owner: one.owner,
        ownerLabel: labelOf(labels, one.owner),
        balance: one.balance.toString(),
        tokenUri,
        metadata: tokenUri === null ? null : dataUriMetadata(tokenUri),
      };
    });
  }

  private async tokenUri(held: Holding, tag: string): Promise<string | null> {
    const functionName = held.standard === 'ERC-721' ? 'tokenURI' : 'uri';
    let answer: Hex;
    try {
      answer = await this.chain.request<Hex>('eth_call', [{ to: held.token, data: encodeFunctionData({ abi: URI_ABI, functionName, args: [held.tokenId] }) }, tag]);
    } catch (error) {
      if (error instanceof NodeRpcError) return null;
      throw error;
    }
    let uri: string;
    try {
      [uri] = decodeAbiParameters([{ type: 'string' }], answer);
    } catch {
      return null;
    }
    // ERC-1155: clients replace `{id}` with the id as 64 lowercase hex digits.
    return held.standard === 'ERC-1155' ? uri.replaceAll('{id}', held.tokenId.toString(16).padStart(64, '0')) : uri;
  }
}

interface Holding {
  token: Hex;
  standard: 'ERC-721' | 'ERC-1155';
  tokenId: bigint;
  owner: Hex;
  balance: bigint;
}

/** Every page of a transfer list, oldest first; more than {@link INVENTORY_MAX_TRANSFERS} is refused. */
async function readAll(read: (page: number, offset: number) => Promise<StoredTokenTransfer[]>): Promise<StoredTokenTransfer[]> {
  const all: StoredTokenTransfer[] = [];
  for (let page = 1; ; page++) {
    const rows = await read(page, READ_PAGE);
    all.push(...rows);
    if (all.length > INVENTORY_MAX_TRANSFERS) throw new QueryTooLargeError(`Error! Query reads too many records: this inventory comes from more than ${INVENTORY_MAX_TRANSFERS} indexed transfers`);
    if (rows.length < READ_PAGE) return all;
  }
}

/**
 * What each address holds of each NFT after `transfers` (in any order): every transfer moves its
 * value from sender to recipient, the zero address holding nothing. Positive holdings, by token,
 * id, then owner.
 */
function holdings(transfers: StoredTokenTransfer[]): Holding[] {
  const held = new Map<string, Holding>();
  const move = (transfer: StoredTokenTransfer, owner: Hex, delta: bigint) => {
    if (owner === ZERO_ADDRESS || transfer.tokenId === null || transfer.standard === 'ERC-20') return;
    const key = `${transfer.token} ${transfer.tokenId} ${owner}`;
    const entry = held.get(key) ?? { token: transfer.token, standard: transfer.standard, tokenId: transfer.tokenId, owner, balance: 0n };
    entry.balance += delta;
    held.set(key, entry);
  };
  for (const transfer of transfers) {
    move(transfer, transfer.from, -transfer.value);
    move(transfer, transfer.to, transfer.value);
  }
  return [...held.values()]
    .filter((entry) => entry.balance > 0n)
    .sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : a.tokenId < b.tokenId ? -1 : a.tokenId > b.tokenId ? 1 : a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0));
}

function pageOf<T>(rows: T[], page: number, offset: number): T[] {
  return rows.slice((page - 1) * offset, page * offset);
}
