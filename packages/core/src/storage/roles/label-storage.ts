import type { PrivateLabelCap, StoredAddressLabel, StoredPrivateLabel } from '../label-records.js';
import type { Hex } from '../records.js';

/**
 * Public address labels and each user's private labels (watch list): operator and user data,
 * not chain data (`rollbackTo` MUST leave them alone).
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface LabelStorage {
  /**
   * Public address labels: operator data, not chain data (`rollbackTo` MUST leave them alone).
   * `putAddressLabel` replaces the address's label; records come back equal. Every put and
   * every delete that removed a label raises the labels version, atomically with the change: a
   * reader that sees the new version sees the change.
   */
  putAddressLabel(label: StoredAddressLabel): Promise<void>;
  /** Removes the address's label; resolves whether there was one. */
  deleteAddressLabel(address: Hex): Promise<boolean>;
  /** One round trip for many addresses: the labels that exist, in no particular order. */
  getAddressLabels(addresses: Hex[]): Promise<StoredAddressLabel[]>;
  /**
   * Labels whose text starts with `prefix`, ignoring case (both lowercased with
   * `String.prototype.toLowerCase`), ordered by the lowercased text (by Unicode code point),
   * then address; at most `limit`. Any text is a plain prefix: `%` and `_` match themselves.
   */
  searchAddressLabels(prefix: string, limit: number): Promise<StoredAddressLabel[]>;
  /** A number that grows with every label change (0 before the first): caches keyed by it never serve a label that changed. */
  getLabelsVersion(): Promise<number>;
  /**
   * Private labels: each user's own watch list. Not chain data (`rollbackTo` MUST leave them
   * alone). `putPrivateLabel` stores the entry or replaces the user's entry for the address
   * (keeping its `createdAt`) and resolves `true`; with `cap`, a new entry is stored only while
   * the user holds fewer than `cap.maxEntries` (else `false`, nothing written). Concurrent puts
   * of one user MUST NOT together pass the cap.
   */
  putPrivateLabel(label: StoredPrivateLabel, cap?: PrivateLabelCap): Promise<boolean>;
  /** Removes the user's entry for the address; resolves whether there was one. */
  deletePrivateLabel(userId: string, address: Hex): Promise<boolean>;
  /** The user's entries, newest first (`createdAt` descending, then address ascending). */
  listPrivateLabels(userId: string): Promise<StoredPrivateLabel[]>;
}
