import { BlockNotFoundError, TransactionNotFoundError } from '../errors/index.js';
import type { Hex } from '../storage/index.js';
import type { BlockService } from './block-service.js';
import type { ContractService } from './contract-service.js';
import type { LabelLookup } from './address-labels.js';
import { orNull } from './or-null.js';
import type { TokenService, TokenSummary } from './token-service.js';
import type { TransactionService } from './transaction-service.js';
import type { z } from 'zod';
import type { searchMatchSchema } from '../records/record-schemas.js';

/** `q` is an indexed block's number (decimal) or hash. */
export type BlockMatch = Extract<SearchMatch, { type: 'block' }>;

/** `q` is an indexed transaction's hash. */
export type TransactionMatch = Extract<SearchMatch, { type: 'transaction' }>;

/** `q` is a contract's address or the start of its label; `name` from its verified source, else its token's name. */
export type ContractMatch = Extract<SearchMatch, { type: 'contract' }>;

/**
 * `q` is an address with no contract, or the start of its label: an explorer shows every
 * address, even one never seen.
 */
export type AddressMatch = Extract<SearchMatch, { type: 'address' }>;

/** `q` is a token's address, or a prefix of its name or symbol. */
export type TokenMatch = Extract<SearchMatch, { type: 'token' }>;

/** One answer to a search, by what `q` names. */
export type SearchMatch = z.infer<typeof searchMatchSchema>;

/** Bounds of a search: `q`'s length, and how many matches one answer holds. */
export const SEARCH_LIMITS = {
  maxLength: 200,
  /** Fewest characters a name or symbol prefix has: one names too many tokens to tell apart. */
  minPrefix: 2,
  defaultLimit: 10,
  maxLimit: 50,
} as const;

const DECIMAL = /^\d+$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/**
 * The explorer's search box: what a block number, a hash, an address, the start of a token's
 * name or symbol or the start of an address's public label names, from the services each kind of
 * record comes from.
 */
export class SearchService {
  constructor(
    private readonly blocks: BlockService,
    private readonly transactions: TransactionService,
    private readonly tokens: TokenService,
    private readonly contracts: ContractService,
    private readonly labels: LabelLookup,
  ) {}

  /**
   * What `q` (trimmed, non-empty) names, best first: the block, transaction, token, contract or
   * address it is exactly, then the tokens whose name or symbol it starts (from
   * {@link SEARCH_LIMITS}.minPrefix characters; exact names first, then the most held), then the
   * contracts and addresses whose public label it starts (by label); at most `limit`. A hash
   * neither of an indexed block nor of an indexed transaction names nothing. Every contract and
   * address match carries its label.
   */
  async search(q: string, limit: number): Promise<SearchMatch[]> {
    if (HASH.test(q)) return (await this.byHash(q.toLowerCase() as Hex)).slice(0, limit);
    if (ADDRESS.test(q)) return this.labelled((await this.byAddress(q.toLowerCase() as Hex)).slice(0, limit));
    const exact = DECIMAL.test(q) ? await this.byNumber(BigInt(q)) : [];
    if ([...q].length < SEARCH_LIMITS.minPrefix || exact.length >= limit) return exact.slice(0, limit);
    const room = limit - exact.length;
    const [tokens, labelled] = await Promise.all([this.tokens.search(q, room), this.labels.search(q, room)]);
    const matches: SearchMatch[] = [...exact, ...tokens.map(tokenMatch)];
    // A labelled address is shown as what it is; one already listed as a token is not repeated.
    const listed = new Set<string>(tokens.map((token) => token.address));
    const byLabel = await Promise.all(labelled.filter((entry) => !listed.has(entry.address)).map((entry) => this.byAddress(entry.address as Hex)));
    matches.push(...byLabel.map((found) => found.at(-1)!));
    return this.labelled(matches.slice(0, limit));
  }

  /** `matches` with each contract's and address's public label: one label read for all. */
  private async labelled(matches: SearchMatch[]): Promise<SearchMatch[]> {
    const labels = await this.labels.labelsOf(matches.flatMap((match) => (match.type === 'contract' || match.type === 'address' ? [match.address as Hex] : [])));
    return matches.map((match) => (match.type === 'contract' || match.type === 'address' ? { ...match, label: labels.get(match.address as Hex) ?? null } : match));
  }

  private async byNumber(number: bigint): Promise<SearchMatch[]> {
    const block = await orNull(this.blocks.resolve(number), BlockNotFoundError);
    return block ? [{ type: 'block', blockNumber: block.number.toString(), hash: block.hash }] : [];
  }

  private async byHash(hash: Hex): Promise<SearchMatch[]> {
    const [block, transaction] = await Promise.all([orNull(this.blocks.byHash(hash), BlockNotFoundError), orNull(this.transactions.get(hash), TransactionNotFoundError)]);
    return [
      ...(block ? [{ type: 'block', blockNumber: block.number.toString(), hash: block.hash } as const] : []),
      ...(transaction ? [{ type: 'transaction', hash: transaction.hash, blockNumber: transaction.blockNumber } as const] : []),
    ];
  }

  /** A token's address names the token, then the contract; any other contract's the contract; the rest the address. */
  private async byAddress(address: Hex): Promise<SearchMatch[]> {
    const [token, verified] = await Promise.all([this.tokens.summary(address), this.contracts.verified(address)]);
    // A token emitted its transfers, so it is a contract: only other addresses need asking.
    if (!token && !verified && !(await this.contracts.isContract(address))) return [{ type: 'address', address, label: null }];
    const contract: ContractMatch = { type: 'contract', address, name: verified?.name ?? token?.name ?? null, label: null };
    return token ? [tokenMatch(token), contract] : [contract];
  }
}

function tokenMatch(token: TokenSummary): TokenMatch {
  return { type: 'token', address: token.address, name: token.name, symbol: token.symbol, standard: token.standard };
}
