import type { Hex, PrivateLabelCap, StoredAddressLabel, StoredPrivateLabel } from '@chainlens/core';

/**
 * Public and private address labels, copied both ways (callers may change what they pass or
 * get). Operator and user data: rollbacks never touch them.
 */
export class LabelStore {
  readonly #labels = new Map<Hex, StoredAddressLabel>();
  readonly #private = new Map<string, Map<Hex, StoredPrivateLabel>>();
  #version = 0;

  put(label: StoredAddressLabel): void {
    this.#labels.set(label.address, { ...label });
    this.#version += 1;
  }

  delete(address: Hex): boolean {
    const deleted = this.#labels.delete(address);
    if (deleted) this.#version += 1;
    return deleted;
  }

  getMany(addresses: readonly Hex[]): StoredAddressLabel[] {
    return [...new Set(addresses)].flatMap((address) => {
      const label = this.#labels.get(address);
      return label ? [{ ...label }] : [];
    });
  }

  /** Walks every label: memory storage serves small label sets. */
  search(prefix: string, limit: number): StoredAddressLabel[] {
    if (limit < 1) return [];
    const key = prefix.toLowerCase();
    const found = [...this.#labels.values()].map((label) => ({ label, key: label.label.toLowerCase() })).filter((entry) => entry.key.startsWith(key));
    // UTF-8 bytes order as Unicode code points do (UTF-16 units do not, past the BMP).
    found.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)) || (a.label.address < b.label.address ? -1 : 1));
    return found.slice(0, limit).map((entry) => ({ ...entry.label }));
  }

  get version(): number {
    return this.#version;
  }

  putPrivate(label: StoredPrivateLabel, cap?: PrivateLabelCap): boolean {
    let entries = this.#private.get(label.userId);
    const existing = entries?.get(label.address);
    if (!existing && cap && (entries?.size ?? 0) >= cap.maxEntries) return false;
    if (!entries) {
      entries = new Map();
      this.#private.set(label.userId, entries);
    }
    entries.set(label.address, { ...label, createdAt: existing?.createdAt ?? label.createdAt });
    return true;
  }

  deletePrivate(userId: string, address: Hex): boolean {
    const entries = this.#private.get(userId);
    const deleted = entries?.delete(address) ?? false;
    if (entries?.size === 0) this.#private.delete(userId);
    return deleted;
  }

  listPrivate(userId: string): StoredPrivateLabel[] {
    const entries = [...(this.#private.get(userId)?.values() ?? [])].map((entry) => ({ ...entry }));
    return entries.sort((a, b) => (a.createdAt === b.createdAt ? (a.address < b.address ? -1 : 1) : a.createdAt > b.createdAt ? -1 : 1));
  }
}
