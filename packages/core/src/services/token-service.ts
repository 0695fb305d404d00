import { TokenNotFoundError } from '../errors/index.js';
import type { Hex, Storage, StoredToken, StoredTokenTransfer, TokenStandard, TokenTransfersQuery } from '../storage/index.js';
import type { TokenMetadata, TokenMetadataReader } from '../tokens/token-metadata.js';
import type { IndexedHead } from './indexed-head.js';
import { percentOf } from './percent.js';

/**
 * The spec's Token record (plus `standard`). Name and symbol come from the contract (the profile's
 * where the contract has none); verification, links and the `metadata` object from the address's
 * metadata profile; price fields stay `null` until a price source exists.
 */
export interface TokenRecord {
  address: string;
  standard: TokenStandard;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  /** `totalSupply()` at the newest indexed block; `null` where the contract has none. */
  totalSupply: string | null;
  holders: number;
  transfers: number;
  priceUSD: string | null;
  marketCap: string | null;
  volume24h: string | null;
  verified: boolean;
  website: string | null;
  social: { twitter: string | null; telegram: string | null };
  metadata: { logo: string | null; description: string | null; riskScore: number | null; trustLevel: string | null };
}

/** One row of the spec's Token holders result. */
export interface TokenHolderRecord {
  address: string;
  balance: string;
  /** Percent of `totalSupply` (0–100, decimal); `null` where the contract reports no total supply. */
  percentage: string | null;
  firstSeen: string;
  lastActivity: string;
}

export interface TokenHoldersRecord {
  total: number;
  page: number;
  holders: TokenHolderRecord[];
}

/** The spec's Token transfer record, plus the log index and (NFTs) the token id. */
export interface TokenTransferRecord {
  blockNumber: string;
  timestamp: string;
  hash: string;
  logIndex: string;
  from: string;
  to: string;
  value: string;
  tokenId: string | null;
  tokenName: string;
  tokenSymbol: string;
  tokenDecimal: string;
}

/** Tokens: records and holders from storage, metadata and total supply from the chain. */
export class TokenService {
  constructor(
    private readonly storage: Storage,
    private readonly head: IndexedHead,
    private readonly reader: TokenMetadataReader,
  ) {}

  async token(address: Hex): Promise<TokenRecord> {
    const token = await this.find(address);
    const tag = await this.head.blockTag();
    const [metadata, totalSupply, profile] = await Promise.all([
      this.reader.metadata(address, tag),
      this.reader.totalSupply(address, tag),
      this.storage.getMetadataProfile(address),
    ]);
    return {
      address,
      standard: token.standard,
      name: metadata.name ?? profile?.name ?? null,
      symbol: metadata.symbol ?? profile?.symbol ?? null,
      decimals: metadata.decimals?.toString() ?? null,
      totalSupply: totalSupply?.toString() ?? null,
      holders: token.holderCount,
      transfers: token.transferCount,
      priceUSD: null,
      marketCap: null,
      volume24h: null,
      verified: profile?.verified ?? false,
      website: profile?.website ?? null,
      social: { twitter: profile?.social.twitter ?? null, telegram: profile?.social.telegram ?? null },
      metadata: {
        logo: profile?.logo ?? null,
        description: profile?.description ?? null,
        riskScore: profile?.riskScore ?? null,
        trustLevel: profile?.trustLevel ?? null,
      },
    };
  }

  async holders(address: Hex, query: { page: number; offset: number; minBalance?: bigint }): Promise<TokenHoldersRecord> {
    await this.find(address);
    const tag = await this.head.blockTag();
    const [page, totalSupply] = await Promise.all([
      this.storage.listTokenHolders({ token: address, ...query }),
      this.reader.totalSupply(address, tag),
    ]);
    return {
      total: page.total,
      page: query.page,
      holders: page.holders.map((holder) => ({
        address: holder.holder,
        balance: holder.balance.toString(),
        percentage: totalSupply === null || totalSupply === 0n ? null : percentOf(holder.balance, totalSupply),
        firstSeen: holder.firstSeen.toString(),
        lastActivity: holder.lastActivity.toString(),
      })),
    };
  }

  async transfers(query: TokenTransfersQuery): Promise<TokenTransferRecord[]> {
    const token = await this.find(query.token);
    const [transfers, metadata] = await Promise.all([
      this.storage.listTokenTransfers(query),
      this.head.blockTag().then((tag) => this.reader.metadata(query.token, tag)),
    ]);
    return transfers.map((transfer) => formatTokenTransfer(transfer, metadata, token.standard));
  }

  private async find(address: Hex): Promise<StoredToken> {
    const token = await this.storage.getToken(address);
    if (!token) throw new TokenNotFoundError();
    return token;
  }
}

/**
 * A transfer as the API answers it. Unreadable names and symbols are `''`, as Etherscan has
 * them; NFTs have no decimals, `'0'`.
 */
export function formatTokenTransfer(transfer: StoredTokenTransfer, metadata: TokenMetadata, standard: TokenStandard): TokenTransferRecord {
  return {
    blockNumber: transfer.blockNumber.toString(),
    timestamp: transfer.timestamp.toString(),
    hash: transfer.transactionHash,
    logIndex: transfer.logIndex.toString(),
    from: transfer.from,
    to: transfer.to,
    value: transfer.value.toString(),
    tokenId: transfer.tokenId?.toString() ?? null,
    tokenName: metadata.name ?? '',
    tokenSymbol: metadata.symbol ?? '',
    tokenDecimal: metadata.decimals?.toString() ?? (standard === 'ERC-20' ? '' : '0'),
  };
}
