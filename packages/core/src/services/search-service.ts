import { BlockNotFoundError, TransactionNotFoundError } from '../errors/index.js';
import type { Hex, TokenStandard } from '../storage/index.js';
import type { BlockService } from './block-service.js';
import type { ContractService } from './contract-service.js';
import { orNull } from './or-null.js';
import type { TokenService, TokenSummary } from './token-service.js';
import type { TransactionService } from './transaction-service.js';

/** `q` is an indexed block's number (decimal) or hash. */
export interface BlockMatch {
  type: 'block';
  blockNumber: string;
  hash: string;
}

/** `q` is an indexed transaction's hash. */
export interface TransactionMatch {
  type: 'transaction';
  hash: string;
  blockNumber: string;
}

/** `q` is a contract's address; `name` from its verified source, else its token's name. */
export interface ContractMatch {
  type: 'contract';
  address: string;
  name: string | null;
}

/** `q` is an address with no contract: an explorer shows every address, even one never seen. */
export interface AddressMatch {
  type: 'address';
  address: string;
}

/** `q` is a token's address, or a prefix of its name or symbol. */
export interface TokenMatch {
  type: 'token';
  address: string;
  name: string | null;
  symbol: string | null;
  standard: TokenStandard;
}

/** One answer to a search, by what `q` names. */
export type SearchMatch = BlockMatch | TransactionMatch | ContractMatch | AddressMatch | TokenMatch;

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
 * The explorer's search box: what a block number, a hash, an address or the start of a token's
 * name or symbol names, from the services each kind of record comes from.
 */
export class SearchService {
  constructor(
    private readonly blocks: BlockService,
    private readonly transactions: TransactionService,
    private readonly tokens: TokenService,
    private readonly contracts: ContractService,
  ) {}

  /**
   * What `q` (trimmed, non-empty) names, best first: the block, transaction, token, contract or
   * address it is exactly, then the tokens whose name or symbol it starts (from
   * {@link SEARCH_LIMITS}.minPrefix characters; exact names first, then the most held); at most
   * `limit`. A hash neither of an indexed block nor of an indexed transaction names nothing.
   */
  async search(q: string, limit: number): Promise<SearchMatch[]> {
    if (HASH.test(q)) return (await this.byHash(q.toLowerCase() as Hex)).slice(0, limit);
    if (ADDRESS.test(q)) return (await this.byAddress(q.toLowerCase() as Hex)).slice(0, limit);
    const exact = DECIMAL.test(q) ? await this.byNumber(BigInt(q)) : [];
    const room = limit - exact.length;
    const named = room > 0 && [...q].length >= SEARCH_LIMITS.minPrefix ? await this.tokens.search(q, room) : [];
    return [...exact, ...named.map(tokenMatch)].slice(0, limit);
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
    if (!token && !verified && !(await this.contracts.isContract(address))) return [{ type: 'address', address }];
    const contract: ContractMatch = { type: 'contract', address, name: verified?.name ?? token?.name ?? null };
    return token ? [tokenMatch(token), contract] : [contract];
  }
}

function tokenMatch(token: TokenSummary): TokenMatch {
  return { type: 'token', address: token.address, name: token.name, symbol: token.symbol, standard: token.standard };
}
