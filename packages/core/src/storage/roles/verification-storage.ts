import type { Hex } from '../records.js';
import type { StoredVerificationJob, StoredVerifiedContract } from '../verification-records.js';

/**
 * Verified contracts and verification jobs: not chain data (`rollbackTo` MUST leave them alone).
 *
 * One role of `Storage`, whose rules every method here keeps too.
 */
export interface VerificationStorage {
  /**
   * Verified contracts: not chain data (`rollbackTo` MUST leave them alone).
   * `putVerifiedContract` replaces the address's whole record; records come back equal.
   */
  putVerifiedContract(contract: StoredVerifiedContract): Promise<void>;
  getVerifiedContract(address: Hex): Promise<StoredVerifiedContract | null>;
  /** One round trip for many addresses: the records that exist, in no particular order. */
  getVerifiedContracts(addresses: Hex[]): Promise<StoredVerifiedContract[]>;
  /**
   * Verification jobs, polled by guid from any instance. `putVerificationJob` inserts the job or
   * replaces the one with its guid; `getVerificationJob` is `null` for an unknown guid.
   */
  putVerificationJob(job: StoredVerificationJob): Promise<void>;
  getVerificationJob(guid: string): Promise<StoredVerificationJob | null>;
}
