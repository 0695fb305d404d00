/**
 * Address labels as storage keeps them: public ones set by admins, private ones each user keeps
 * for themselves (a watch list). Operator and user data, not chain data: rollbacks leave them
 * alone. Texts are kept exactly as given.
 */
import type { Hex } from './records.js';

/** A public label of an address, as set by `PUT /api/v2/labels/:address`. */
export interface StoredAddressLabel {
  address: Hex;
  /** The name shown for the address. */
  label: string;
  /** What kind of address it is (`exchange`, `bridge`, …), or `null`. */
  category: string | null;
  note: string | null;
  /** ISO 8601 time of the last write. */
  updatedAt: string;
}

/** A user's own label of an address: an entry of their watch list. */
export interface StoredPrivateLabel {
  userId: string;
  address: Hex;
  label: string;
  note: string | null;
  /** ISO 8601 time the entry was first written; later writes keep it. */
  createdAt: string;
  /** ISO 8601 time of the last write. */
  updatedAt: string;
}

/** How many entries a user may keep: a new one beyond `maxEntries` is refused. */
export interface PrivateLabelCap {
  maxEntries: number;
}
