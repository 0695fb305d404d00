import type { Hex, LabelStorage, PrivateLabelCap, StoredAddressLabel, StoredPrivateLabel } from '@chainlens/core';

/**
 * Public and private address labels, copied both ways (callers may change what they pass or
 * get). Operator and user data: rollbacks never touch them.
 */
export class LabelStore implements LabelStorage {
  readonly #labels = new Map<Hex, StoredAddressLabel>();
  readonly #private = new Map<string, Map<Hex, StoredPrivateLabel>>();
  #version = 0;

  async putAddressLabel(label: StoredAddressLabel): Promise<void> {
    this.#labels.set(label.address, { ...label });
    this.#version += 1;
  }

  async deleteAddressLabel(address: Hex): Promise<boolean> {
    const deleted = this.#labels.delete(address);
    if (deleted) this.#version += 1;
    return deleted;
  }

  async getAddressLabels(addresses: readonly Hex[]): Promise<StoredAddressLabel[]> {
    return [...new Set(addresses)].flatMap((address) => {
      const label = this.#labels.get(address);
      return label ? [{ ...label }] : [];
    });
  }

  /** Walks every label: memory storage serves small label sets. */
  async searchAddressLabels(prefix: string, limit: number): Promise<StoredAddressLabel[]> {
    if (limit < 1) return [];
    const key = prefix.toLowerCase();
    const found = [...this.#labels.values()].map((label) => ({ label, key: label.label.toLowerCase() })).filter((entry) => entry.key.startsWith(key));
    // UTF-8 bytes order as Unicode code points do (UTF-16 units do not, past the BMP).
    found.sort((a, b) => Buffer.compare(Buffer.from(a.key), Buffer.from(b.key)) || (a.label.address < b.label.address ? -1 : 1));
    return found.slice(0, limit).map((entry) => ({ ...entry.label }));
  }

  async getLabelsVersion(): Promise<number> {
    return this.#version;
  }

  async putPrivateLabel(label: StoredPrivateLabel, cap?: PrivateLabelCap): Promise<boolean> {
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

  async deletePrivateLabel(userId: string, address: Hex): Promise<boolean> {
    const entries = this.#private.get(userId);
    const deleted = entries?.delete(address) ?? false;
    if (entries?.size === 0) this.#private.delete(userId);
    return deleted;
  }

  async listPrivateLabels(userId: string): Promise<StoredPrivateLabel[]> {
    const entries = [...(this.#private.get(userId)?.values() ?? [])].map((entry) => ({ ...entry }));
    return entries.sort((a, b) => (a.createdAt === b.createdAt ? (a.address < b.address ? -1 : 1) : a.createdAt > b.createdAt ? -1 : 1));
  }
}
