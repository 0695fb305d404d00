import { ZERO_ADDRESS, type Hex, type StoredTokenTransfer } from '@chainlens/core';
import { byteaArray, integerArray } from './codec.js';

/** The fields of a token transfer that move balances and counts. */
export type BalanceMove = Pick<StoredTokenTransfer, 'token' | 'standard' | 'from' | 'to' | 'value'>;

/**
 * Per distinct (token, holder), the net balance change of `transfers` (negated with `undo`, for
 * rollbacks): what token_holders moves by. The zero address holds nothing. Array literals ready
 * for `unnest`; pairs are distinct, as an upsert needs.
 */
export function holderChanges(transfers: readonly BalanceMove[], undo = false): { tokens: string; holders: string; deltas: string } {
  const changes = new Map<string, { token: Hex; holder: Hex; delta: bigint }>();
  const add = (token: Hex, holder: Hex, delta: bigint) => {
    if (holder === ZERO_ADDRESS) return;
    const key = `${token}${holder}`;
    const entry = changes.get(key);
    if (entry) entry.delta += delta;
    else changes.set(key, { token, holder, delta });
  };
  for (const { token, from, to, value } of transfers) {
    const moved = undo ? -value : value;
    add(token, from, -moved);
    add(token, to, moved);
  }
  const rows = [...changes.values()];
  return {
    tokens: byteaArray(rows.map((row) => row.token)),
    holders: byteaArray(rows.map((row) => row.holder)),
    deltas: integerArray(rows.map((row) => row.delta)),
  };
}

/**
 * Per distinct token, how many of `transfers` it has and the standard of its first one: what
 * the tokens table moves by. Standards travel as a plain array (pg quotes them).
 */
export function tokenCounts(transfers: readonly BalanceMove[]): { tokens: string; standards: string[]; counts: string } {
  const counts = new Map<Hex, { standard: string; count: number }>();
  for (const { token, standard } of transfers) {
    const entry = counts.get(token);
    if (entry) entry.count += 1;
    else counts.set(token, { standard, count: 1 });
  }
  return {
    tokens: byteaArray([...counts.keys()]),
    standards: [...counts.values()].map((entry) => entry.standard),
    counts: integerArray([...counts.values()].map((entry) => entry.count)),
  };
}

/**
 * For each of a block's `transfers` in order, how many later ones move the same token: its
 * ordinal (`token_seq`) is the token's transfer count after the block less this. An array
 * literal ready for `unnest`.
 */
export function transfersFromEnd(transfers: readonly Pick<StoredTokenTransfer, 'token'>[]): string {
  const seen = new Map<Hex, number>();
  const fromEnd = new Array<number>(transfers.length);
  for (let i = transfers.length - 1; i >= 0; i--) {
    const token = transfers[i]!.token;
    const later = seen.get(token) ?? 0;
    fromEnd[i] = later;
    seen.set(token, later + 1);
  }
  return integerArray(fromEnd);
}
