import type { Hex, StoredMetadataProfile } from '@chainlens/core';

/** Metadata profiles by address, copied on the way in and out so no caller can change them. */
export class MetadataStore {
  readonly #profiles = new Map<Hex, StoredMetadataProfile>();

  put(profile: StoredMetadataProfile): void {
    this.#profiles.set(profile.address, structuredClone(profile));
  }

  get(address: Hex): StoredMetadataProfile | null {
    const profile = this.#profiles.get(address);
    return profile ? structuredClone(profile) : null;
  }

  verifiedAddresses(): Hex[] {
    return [...this.#profiles.values()].filter((profile) => profile.verified).map((profile) => profile.address);
  }

  getMany(addresses: Hex[]): StoredMetadataProfile[] {
    return [...new Set(addresses)].flatMap((address) => this.get(address) ?? []);
  }
}
