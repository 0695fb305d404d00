import type { Hex, MetadataStorage, StoredMetadataProfile } from '@chainlens/core';

/** Metadata profiles by address, copied on the way in and out so no caller can change them. */
export class MetadataStore implements MetadataStorage {
  readonly #profiles = new Map<Hex, StoredMetadataProfile>();

  async putMetadataProfile(profile: StoredMetadataProfile): Promise<void> {
    this.#profiles.set(profile.address, structuredClone(profile));
  }

  async getMetadataProfile(address: Hex): Promise<StoredMetadataProfile | null> {
    return this.#profile(address);
  }

  async listVerifiedAddresses(): Promise<Hex[]> {
    return [...this.#profiles.values()].filter((profile) => profile.verified).map((profile) => profile.address);
  }

  async getMetadataProfiles(addresses: Hex[]): Promise<StoredMetadataProfile[]> {
    return [...new Set(addresses)].flatMap((address) => this.#profile(address) ?? []);
  }

  #profile(address: Hex): StoredMetadataProfile | null {
    const profile = this.#profiles.get(address);
    return profile ? structuredClone(profile) : null;
  }
}
