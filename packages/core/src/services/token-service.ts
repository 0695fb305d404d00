import { TokenNotFoundError } from '../errors/index.js';
import type { Hex, Storage, StoredToken, StoredTokenTransfer, TokenStandard, TokenTransfersQuery } from '../storage/index.js';
import type { TokenMetadata, TokenMetadataReader } from '../tokens/token-metadata.js';
import type { IndexedHead } from './indexed-head.js';
import { lastBlockAtOrBefore } from './block-at-time.js';
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

/** The spec's Token list item. Price fields stay `null` until a price source exists. */
export interface TokenListItem {
  address: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  priceUSD: string | null;
  marketCap: string | null;
  volume24h: string | null;
  holders: number;
  verified: boolean;
  logo: string | null;
}

/** What a token list asks for, validated by the route. */
export interface TokenListQuery {
  verified?: boolean;
  sort: 'marketCap' | 'volume' | 'holders';
  limit: number;
}

/** The spec's Token analytics. Price, volume and liquidity stay `null` (and no pools) until a price source exists. */
export interface TokenAnalyticsRecord {
  price: { current: string | null; change24h: string | null; change7d: string | null; high24h: string | null; low24h: string | null };
  volume: { volume24h: string | null; volumeChange24h: string | null };
  liquidity: { totalLiquidity: string | null; liquidityPools: { dex: string; pair: string; liquidity: string }[] };
  holders: {
    total: number;
    /** Holders now less holders 24 h of chain time before the newest indexed block; `null` when indexing began later than that. */
    change24h: number | null;
    /** Share of `totalSupply()` the ten largest holders hold, in percent; `null` without a total supply. */
    top10Percentage: number | null;
  };
}

const DAY_SECONDS = 86_400n;

/** Tokens: records and holders from storage, metadata and total supply from the chain. */
export class TokenService {
  constructor(
    private readonly storage: Storage,
    private readonly head: IndexedHead,
    private readonly reader: TokenMetadataReader,
    /** The first block indexing covers: holder counts before it are unknown unless it is genesis. */
    private readonly startBlock: bigint = 0n,
  ) {}

  /**
   * Tokens, most held first. With no price source every market cap and volume is unknown, so
   * `marketCap` and `volume` order by holders as well.
   */
  async list(query: TokenListQuery): Promise<TokenListItem[]> {
    const verified = query.verified === undefined ? [] : await this.storage.listVerifiedAddresses();
    const tokens = await this.storage.listTokens({
      limit: query.limit,
      ...(query.verified === true && { include: verified }),
      ...(query.verified === false && { exclude: verified }),
    });
    const tag = await this.head.blockTag();
    const [metadata, profiles] = await Promise.all([
      Promise.all(tokens.map((token) => this.metadataOf(token, tag))),
      this.storage.getMetadataProfiles(tokens.map((token) => token.address)),
    ]);
    const profileOf = new Map(profiles.map((profile) => [profile.address, profile]));
    return tokens.map((token, i) => {
      const profile = profileOf.get(token.address);
      return {
        address: token.address,
        name: metadata[i]!.name ?? profile?.name ?? null,
        symbol: metadata[i]!.symbol ?? profile?.symbol ?? null,
        decimals: metadata[i]!.decimals?.toString() ?? null,
        priceUSD: null,
        marketCap: null,
        volume24h: null,
        holders: token.holderCount,
        verified: profile?.verified ?? false,
        logo: profile?.logo ?? null,
      };
    });
  }

  async analytics(address: Hex): Promise<TokenAnalyticsRecord> {
    const token = await this.find(address);
    const [change24h, top10Percentage] = await Promise.all([this.holderChange24h(token), this.top10Percentage(address)]);
    return {
      price: { current: null, change24h: null, change7d: null, high24h: null, low24h: null },
      volume: { volume24h: null, volumeChange24h: null },
      liquidity: { totalLiquidity: null, liquidityPools: [] },
      holders: { total: token.holderCount, change24h, top10Percentage },
    };
  }

  private async holderChange24h(token: StoredToken): Promise<number | null> {
    const cursor = await this.head.current();
    if (!cursor) return null;
    const newest = await this.storage.getBlockByNumber(cursor.number);
    if (!newest) return null;
    const dayBefore = await lastBlockAtOrBefore(this.storage, this.startBlock, cursor.number, newest.timestamp - DAY_SECONDS);
    if (!dayBefore) return this.startBlock === 0n ? token.holderCount : null;
    return token.holderCount - (await this.storage.countTokenHoldersAt(token.address, dayBefore.number));
  }

  private async top10Percentage(address: Hex): Promise<number | null> {
    const [top, totalSupply] = await Promise.all([
      this.storage.listTokenHolders({ token: address, page: 1, offset: 10 }),
      this.head.blockTag().then((tag) => this.reader.totalSupply(address, tag)),
    ]);
    if (totalSupply === null || totalSupply === 0n) return null;
    return Number(percentOf(top.holders.reduce((sum, holder) => sum + holder.balance, 0n), totalSupply));
  }

  async token(address: Hex): Promise<TokenRecord> {
    const token = await this.find(address);
    const tag = await this.head.blockTag();
    const [metadata, totalSupply, profile] = await Promise.all([
      this.metadataOf(token, tag),
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
      this.head.blockTag().then((tag) => this.metadataOf(token, tag)),
    ]);
    return transfers.map((transfer) => formatTokenTransfer(transfer, metadata, token.standard));
  }

  /** What the metadata indexer stored, or (not read yet) what the contract answers now. */
  private metadataOf(token: StoredToken, tag: string): Promise<TokenMetadata> {
    return token.metadata ? Promise.resolve(token.metadata) : this.reader.metadata(token.address, tag);
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
