import {
  ZERO_ADDRESS,
  type AddressTokenBalancesQuery,
  type AddressTokenTransfersQuery,
  type Hex,
  type KeysetQuery,
  type ListTip,
  type OrdinalRange,
  type TransferPosition,
  type StoredToken,
  type StoredTokenBalance,
  type StoredTokenHolder,
  type StoredTokenMetadata,
  type StoredTokenTransfer,
  type TokenHoldersPage,
  type TokenHoldersQuery,
  type TokenSearchQuery,
  type TokensQuery,
  type TokenTransfersQuery,
} from '@chainlens/core';
import { comparePositions, firstAtOrAbove, keysetSlice, ordinalSlice } from './block-order.js';

/** A UTF-16 surrogate without its partner. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

interface HolderEntry {
  balance: bigint;
  /** Timestamps of the holder's transfers of this token, oldest first: rollbacks pop them. */
  activity: bigint[];
}

interface TokenEntry {
  metadata: StoredTokenMetadata | null;
  /** The metadata's name and symbol lowercased, as searches compare them. */
  searchKeys: string[];
  /** In chain order: appends push, rollbacks pop. */
  transfers: StoredTokenTransfer[];
  holders: Map<Hex, HolderEntry>;
  holderCount: number;
}

/**
 * Tokens, their holders' balances and their transfers, kept from token transfers in chain order.
 * Like the address index, blocks come in order and leave from the top, so every change is an
 * append taken back by a pop, and a rollback restores exactly the earlier state.
 */
export class TokenIndex {
  readonly #tokens = new Map<Hex, TokenEntry>();
  /** Each sender's and recipient's transfers in chain order (a transfer to oneself once). */
  readonly #byAddress = new Map<Hex, StoredTokenTransfer[]>();

  add(transfer: StoredTokenTransfer): void {
    let token = this.#tokens.get(transfer.token);
    if (!token) {
      token = { metadata: null, searchKeys: [], transfers: [], holders: new Map(), holderCount: 0 };
      this.#tokens.set(transfer.token, token);
    }
    token.transfers.push(transfer);
    this.#move(token, transfer.from, -transfer.value, transfer.timestamp);
    this.#move(token, transfer.to, transfer.value, transfer.timestamp);
    for (const party of partiesOf(transfer)) {
      const list = this.#byAddress.get(party);
      if (list) list.push(transfer);
      else this.#byAddress.set(party, [transfer]);
    }
  }

  /** Takes back the last {@link add}: `transfer` must be the newest transfer of its token. */
  removeLast(transfer: StoredTokenTransfer): void {
    const token = this.#tokens.get(transfer.token);
    if (token?.transfers.at(-1) !== transfer) throw new Error(`token index out of order for ${transfer.token}`);
    token.transfers.pop();
    this.#unmove(token, transfer.to, transfer.value);
    this.#unmove(token, transfer.from, -transfer.value);
    for (const party of partiesOf(transfer)) {
      const list = this.#byAddress.get(party)!;
      list.pop();
      if (list.length === 0) this.#byAddress.delete(party);
    }
    if (token.transfers.length === 0) this.#tokens.delete(transfer.token);
  }

  countAddressTransfers(address: Hex): number {
    return this.#byAddress.get(address)?.length ?? 0;
  }

  /** Walks the address's transfers in the block range: memory storage serves small chains. */
  listAddressTransfers({ address, token, standard, startBlock, endBlock, page, offset, sort }: AddressTokenTransfersQuery): StoredTokenTransfer[] {
    return pageOfTransfers(this.#byAddress.get(address), { startBlock, endBlock, page, offset, sort }, (transfer) =>
      (token === undefined || transfer.token === token) && (standard === undefined || transfer.standard === standard),
    );
  }

  /** The address's transfers after a position, ascending (see `Storage.listAddressTokenTransfersAfter`). */
  listAddressTransfersAfter(query: KeysetQuery<TransferPosition>): StoredTokenTransfer[] {
    return keysetSlice(this.#byAddress.get(query.address) ?? [], query, (transfer, at) =>
      comparePositions(transfer, at, [transfer.logIndex, at.logIndex], [transfer.batchIndex, at.batchIndex]),
    );
  }

  /** The token's holder count (0 for an unknown token). */
  holderCount(address: Hex): number {
    return this.#tokens.get(address)?.holderCount ?? 0;
  }

  getToken(address: Hex): StoredToken | null {
    const token = this.#tokens.get(address);
    const first = token?.transfers[0];
    if (!token || !first) return null;
    return {
      address,
      standard: first.standard,
      firstBlock: first.blockNumber,
      transferCount: token.transfers.length,
      holderCount: token.holderCount,
      metadata: token.metadata && { ...token.metadata },
    };
  }

  /** Tokens without metadata, in order of their first transfer. */
  withoutMetadata(limit: number): Hex[] {
    const pending = [...this.#tokens].filter(([, token]) => token.metadata === null);
    pending.sort(([a, x], [b, y]) => (x.transfers[0]!.blockNumber < y.transfers[0]!.blockNumber ? -1 : x.transfers[0]!.blockNumber > y.transfers[0]!.blockNumber ? 1 : a < b ? -1 : 1));
    return pending.slice(0, Math.max(0, limit)).map(([address]) => address);
  }

  setMetadata(address: Hex, metadata: StoredTokenMetadata): void {
    const token = this.#tokens.get(address);
    if (!token) return;
    token.metadata = { ...metadata, interfaces: [...metadata.interfaces] };
    token.searchKeys = [metadata.name, metadata.symbol].flatMap((text) => (text === null ? [] : [text.toLowerCase()]));
  }

  /** Walks every token: memory storage serves small chains. */
  searchTokens({ prefix, limit }: TokenSearchQuery): StoredToken[] {
    const wanted = prefix.toLowerCase();
    // Half of a character's surrogate pair is no text a name can start with (Postgres refuses it too).
    if (wanted === '' || limit < 1 || LONE_SURROGATE.test(wanted)) return [];
    const found: { token: StoredToken; exact: boolean }[] = [];
    for (const [address, entry] of this.#tokens) {
      if (!entry.searchKeys.some((key) => key.startsWith(wanted))) continue;
      found.push({ token: this.getToken(address)!, exact: entry.searchKeys.includes(wanted) });
    }
    found.sort(
      (a, b) =>
        Number(b.exact) - Number(a.exact) ||
        b.token.holderCount - a.token.holderCount ||
        b.token.transferCount - a.token.transferCount ||
        (a.token.address < b.token.address ? -1 : 1),
    );
    return found.slice(0, limit).map(({ token }) => token);
  }

  listTokens({ limit, offset = 0, include, exclude = [] }: TokensQuery): StoredToken[] {
    const skip = new Set(exclude);
    const addresses = include ? [...new Set(include)].filter((a) => this.#tokens.has(a)) : [...this.#tokens.keys()];
    const tokens = addresses.filter((a) => !skip.has(a)).map((a) => this.getToken(a)!);
    tokens.sort((a, b) => b.holderCount - a.holderCount || b.transferCount - a.transferCount || (a.address < b.address ? -1 : 1));
    return tokens.slice(offset, offset + limit);
  }

  /** Holders once block `blockNumber` was written: today's, less the flows of the later transfers. */
  countHoldersAt(address: Hex, blockNumber: bigint): number {
    const token = this.#tokens.get(address);
    if (!token) return 0;
    const later = new Map<Hex, bigint>();
    for (let i = token.transfers.length - 1; i >= 0 && token.transfers[i]!.blockNumber > blockNumber; i--) {
      const { from, to, value } = token.transfers[i]!;
      if (from !== ZERO_ADDRESS) later.set(from, (later.get(from) ?? 0n) - value);
      if (to !== ZERO_ADDRESS) later.set(to, (later.get(to) ?? 0n) + value);
    }
    let count = token.holderCount;
    for (const [holder, flow] of later) {
      const balance = token.holders.get(holder)!.balance;
      count += holds(balance - flow) - holds(balance);
    }
    return count;
  }

  /** Sorts the token's matching holders on every call: memory storage serves small chains. */
  listHolders({ token, minBalance, page, offset }: TokenHoldersQuery): TokenHoldersPage {
    const floor = minBalance !== undefined && minBalance > 1n ? minBalance : 1n;
    const matching: StoredTokenHolder[] = [];
    for (const [holder, entry] of this.#tokens.get(token)?.holders ?? []) {
      if (entry.balance >= floor) {
        matching.push({ holder, balance: entry.balance, firstSeen: entry.activity[0]!, lastActivity: entry.activity.at(-1)! });
      }
    }
    matching.sort((a, b) => (a.balance === b.balance ? (a.holder < b.holder ? -1 : 1) : a.balance > b.balance ? -1 : 1));
    const start = (page - 1) * offset;
    return { total: matching.length, holders: page < 1 || offset < 1 ? [] : matching.slice(start, start + offset) };
  }

  /** Looks at every token: memory storage serves small chains. */
  listBalances({ holder, page, offset }: AddressTokenBalancesQuery): StoredTokenBalance[] {
    if (page < 1 || offset < 1) return [];
    const held: StoredTokenBalance[] = [];
    for (const [token, entry] of this.#tokens) {
      const state = entry.holders.get(holder);
      if (state && state.balance > 0n) held.push({ token, balance: state.balance, firstSeen: state.activity[0]!, lastActivity: state.activity.at(-1)! });
    }
    held.sort((a, b) => (a.token < b.token ? -1 : 1));
    return held.slice((page - 1) * offset, page * offset);
  }

  listTransfers({ token, from, to, startBlock, endBlock, page, offset, sort }: TokenTransfersQuery): StoredTokenTransfer[] {
    return pageOfTransfers(this.#tokens.get(token)?.transfers, { startBlock, endBlock, page, offset, sort }, (transfer) =>
      (from === undefined || transfer.from === from) && (to === undefined || transfer.to === to),
    );
  }

  /** `Storage.getTokenTransferTip`: the length of the token's transfers and its last one's block. */
  transferTip(token: Hex): ListTip | null {
    const transfers = this.#tokens.get(token)?.transfers;
    return transfers?.length ? { length: transfers.length, blockNumber: transfers.at(-1)!.blockNumber } : null;
  }

  /** `Storage.listTokenTransferRange`. */
  transferRange(token: Hex, range: OrdinalRange): StoredTokenTransfer[] {
    return ordinalSlice(this.#tokens.get(token)?.transfers ?? [], range);
  }

  #move(token: TokenEntry, party: Hex, change: bigint, timestamp: bigint): void {
    if (party === ZERO_ADDRESS) return;
    let holder = token.holders.get(party);
    if (!holder) {
      holder = { balance: 0n, activity: [] };
      token.holders.set(party, holder);
    }
    const before = holder.balance;
    holder.balance += change;
    holder.activity.push(timestamp);
    token.holderCount += holds(holder.balance) - holds(before);
  }

  #unmove(token: TokenEntry, party: Hex, change: bigint): void {
    if (party === ZERO_ADDRESS) return;
    const holder = token.holders.get(party)!;
    const before = holder.balance;
    holder.balance -= change;
    holder.activity.pop();
    token.holderCount += holds(holder.balance) - holds(before);
    if (holder.activity.length === 0) token.holders.delete(party);
  }
}

/** The addresses a transfer concerns: its sender and recipient, once when they are one. */
function partiesOf({ from, to }: StoredTokenTransfer): Hex[] {
  return from === to ? [from] : [from, to];
}

/** 1 when a balance makes its owner a holder. */
function holds(balance: bigint): number {
  return balance > 0n ? 1 : 0;
}

/**
 * One page of the `transfers` (in chain order) within the block range that `keep` accepts, walked
 * from the end `sort` starts at: memory storage serves small chains, so a filter walks the range.
 */
function pageOfTransfers(
  transfers: readonly StoredTokenTransfer[] | undefined,
  { startBlock, endBlock, page, offset, sort }: { startBlock?: bigint; endBlock?: bigint; page: number; offset: number; sort?: 'asc' | 'desc' },
  keep: (transfer: StoredTokenTransfer) => boolean,
): StoredTokenTransfer[] {
  if (!transfers || page < 1 || offset < 1) return [];
  const lo = startBlock === undefined ? 0 : firstAtOrAbove(transfers, startBlock);
  const hi = endBlock === undefined ? transfers.length : firstAtOrAbove(transfers, endBlock + 1n);
  const skip = (page - 1) * offset;
  const result: StoredTokenTransfer[] = [];
  let matched = 0;
  for (let n = 0; n < hi - lo && result.length < offset; n++) {
    const transfer = transfers[sort === 'asc' ? lo + n : hi - 1 - n]!;
    if (keep(transfer) && matched++ >= skip) result.push(transfer);
  }
  return result;
}
