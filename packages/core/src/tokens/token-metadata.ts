import { LRUCache } from 'lru-cache';
import { decodeAbiParameters, hexToString, type Hex } from 'viem';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import type { EventHub } from '../events/hub.js';
import type { IndexerCursor, StoredTokenMetadata } from '../storage/index.js';

/** What a token contract says about itself; `null` where it does not answer (or not sensibly). */
export type TokenMetadata = StoredTokenMetadata;

const SELECTORS = {
  name: '0x06fdde03',
  symbol: '0x95d89b41',
  decimals: '0x313ce567',
  totalSupply: '0x18160ddd',
  balanceOf: '0x70a08231',
  allowance: '0xdd62ed3e',
} as const;

const WORD = /^0x[0-9a-f]{64}$/i;

/** ERC-165 interface ids worth showing for a token, in the order records list them. */
const INTERFACES: readonly [name: string, id: string][] = [
  ['ERC-721', '80ac58cd'],
  ['ERC-721Metadata', '5b5e139f'],
  ['ERC-721Enumerable', '780e9d63'],
  ['ERC-1155', 'd9b67a26'],
  ['ERC-1155MetadataURI', '0e89341c'],
  ['ERC-2981', '2a55205a'],
  ['ERC-4906', '49064906'],
];
const SUPPORTS_INTERFACE = '0x01ffc9a7';
const TRUE_WORD = `0x${'0'.repeat(63)}1`;
/** A call the node answered with an error: a view that reverts, a block it does not have. */
const REFUSED = Symbol('refused');

/**
 * Reads token metadata from the chain with plain `eth_call`s, tolerating the non-standard: names
 * and symbols as `string` or as `bytes32` (early tokens), no `decimals`, views that revert; and
 * the ERC-165 interfaces the contract declares. A
 * call the node refuses is an unknown value; an unreachable node is an error (nothing cached).
 * Name, symbol and decimals are fixed by contract in practice, so they are cached per token
 * until a reorg (which can remove a contract, or put another at its address); the total supply
 * moves and is cached per block hash.
 */
export class TokenMetadataReader {
  readonly #cache: LRUCache<string, TokenMetadata>;
  /**
   * Supplies by token and block hash, which never change: a hot token's pages read it once a
   * block. Not by number: a reorg puts another block, and maybe another supply, at that number.
   */
  readonly #supplies = new LRUCache<string, { value: bigint | null }>({ max: 1_000 });

  /** Bumped by every reorg, so metadata read before one is not kept. */
  #generation = 0;

  constructor(
    private readonly chain: ChainClient,
    hub: EventHub,
    cacheSize = 10_000,
  ) {
    this.#cache = new LRUCache({ max: cacheSize });
    // Supplies stay: a removed block's hash is never asked for again.
    hub.on('reorg', () => {
      this.#generation++;
      this.#cache.clear();
    });
  }

  async metadata(token: Hex, blockTag: string): Promise<TokenMetadata> {
    const cached = this.#cache.get(token);
    if (cached) return cached;
    const generation = this.#generation;
    const [name, symbol, decimals, interfaces] = await Promise.all([
      this.#call(token, SELECTORS.name, blockTag),
      this.#call(token, SELECTORS.symbol, blockTag),
      this.#call(token, SELECTORS.decimals, blockTag),
      this.#interfaces(token, blockTag),
    ]);
    const metadata = { name: decodeText(name), symbol: decodeText(symbol), decimals: decodeDecimals(decimals), interfaces };
    if (generation === this.#generation) this.#cache.set(token, metadata);
    return metadata;
  }

  /**
   * `totalSupply()` at block `at` (the node's latest without one), or `null` where the contract
   * has none. Asked by the block's hash (EIP-1898), the key it is kept under: by number, a reorg
   * at that height between the indexer's write and this call would keep the other branch's
   * supply under this hash. A refused call (a view that reverts, a block the node no longer has)
   * is `null` and not kept.
   */
  async totalSupply(token: Hex, at: IndexerCursor | null): Promise<bigint | null> {
    const key = at && `${token}@${at.hash}`;
    const cached = key === null ? undefined : this.#supplies.get(key);
    if (cached) return cached.value;
    const answer = await this.#answer(token, SELECTORS.totalSupply, at ? { blockHash: at.hash } : 'latest');
    if (answer === REFUSED) return null;
    const value = answer !== null && WORD.test(answer) ? BigInt(answer) : null;
    if (key !== null) this.#supplies.set(key, { value });
    return value;
  }

  /** `balanceOf(holder)` at `blockTag`, or `null` where the contract does not answer it. */
  async balanceOf(token: Hex, holder: Hex, blockTag: string): Promise<bigint | null> {
    const answer = await this.#call(token, `${SELECTORS.balanceOf}${holder.slice(2).padStart(64, '0')}`, blockTag);
    return answer !== null && WORD.test(answer) ? BigInt(answer) : null;
  }

  /** `allowance(owner, spender)` at `blockTag`, or `null` where the contract does not answer it. */
  async allowance(token: Hex, owner: Hex, spender: Hex, blockTag: string): Promise<bigint | null> {
    const answer = await this.#call(token, `${SELECTORS.allowance}${owner.slice(2).padStart(64, '0')}${spender.slice(2).padStart(64, '0')}`, blockTag);
    return answer !== null && WORD.test(answer) ? BigInt(answer) : null;
  }

  /**
   * ERC-165 detection as the standard prescribes: the contract must answer true for ERC-165's
   * own id and false for `0xffffffff` (a contract whose fallback answers anything says both);
   * only then are its answers for the other ids believed.
   */
  async #interfaces(token: Hex, blockTag: string): Promise<string[]> {
    const supports = async (id: string) => (await this.#call(token, `${SUPPORTS_INTERFACE}${id.padEnd(64, '0')}`, blockTag)) === TRUE_WORD;
    const [erc165, invalid] = await Promise.all([supports(SUPPORTS_INTERFACE.slice(2)), supports('ffffffff')]);
    if (!erc165 || invalid) return [];
    const answers = await Promise.all(INTERFACES.map(([, id]) => supports(id)));
    return ['ERC-165', ...INTERFACES.filter((_, i) => answers[i]).map(([name]) => name)];
  }

  async #call(to: Hex, data: Hex, blockTag: string): Promise<Hex | null> {
    const answer = await this.#answer(to, data, blockTag);
    return answer === REFUSED ? null : answer;
  }

  /** What the call returned (`null` for no bytes), or {@link REFUSED} where the node refused it. */
  async #answer(to: Hex, data: Hex, block: string | { blockHash: Hex }): Promise<Hex | null | typeof REFUSED> {
    try {
      const answer = await this.chain.request<Hex>('eth_call', [{ to, data }, block]);
      return answer === '0x' ? null : answer;
    } catch (error) {
      if (error instanceof NodeRpcError) return REFUSED;
      throw error;
    }
  }
}

/** An ABI `string`, else a NUL-padded `bytes32`; `null` for anything else or invalid UTF-8 text. */
function decodeText(answer: Hex | null): string | null {
  if (answer === null) return null;
  let text: string;
  try {
    text = WORD.test(answer) ? hexToString(answer, { size: 32 }).replace(/\0+$/, '') : decodeAbiParameters([{ type: 'string' }], answer)[0];
  } catch {
    return null;
  }
  // Control characters and replacement characters mean the bytes were not text.
  return /[\p{Cc}\uFFFD]/u.test(text) ? null : text;
}

function decodeDecimals(answer: Hex | null): number | null {
  if (answer === null || !WORD.test(answer)) return null;
  const value = BigInt(answer);
  return value <= 255n ? Number(value) : null;
}
