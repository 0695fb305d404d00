import type { StoredMetadataProfile } from '../metadata-records.js';
import type { Hex } from '../records.js';

/**
 * Metadata profiles: operator data, not chain data (`rollbackTo` MUST leave them alone).
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface MetadataStorage {
  /**
   * Metadata profiles: operator data, not chain data (`rollbackTo` MUST leave them alone).
   * `putMetadataProfile` replaces the address's whole profile; records come back equal.
   */
  putMetadataProfile(profile: StoredMetadataProfile): Promise<void>;
  getMetadataProfile(address: Hex): Promise<StoredMetadataProfile | null>;
  /** One round trip for many addresses: the profiles that exist, in no particular order. */
  getMetadataProfiles(addresses: Hex[]): Promise<StoredMetadataProfile[]>;
  /** Addresses whose profile is marked verified, in no particular order. */
  listVerifiedAddresses(): Promise<Hex[]>;
}
