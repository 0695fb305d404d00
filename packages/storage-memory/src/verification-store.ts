import type { Hex, StoredVerificationJob, StoredVerifiedContract, VerificationStorage } from '@chainlens/core';

/** Verified contracts and verification jobs, copied on the way in and out so no caller can change them. */
export class VerificationStore implements VerificationStorage {
  readonly #contracts = new Map<Hex, StoredVerifiedContract>();
  readonly #jobs = new Map<string, StoredVerificationJob>();

  async putVerifiedContract(contract: StoredVerifiedContract): Promise<void> {
    this.#contracts.set(contract.address, structuredClone(contract));
  }

  async getVerifiedContract(address: Hex): Promise<StoredVerifiedContract | null> {
    return this.#contract(address);
  }

  async getVerifiedContracts(addresses: Hex[]): Promise<StoredVerifiedContract[]> {
    return [...new Set(addresses)].flatMap((address) => this.#contract(address) ?? []);
  }

  #contract(address: Hex): StoredVerifiedContract | null {
    const contract = this.#contracts.get(address);
    return contract ? structuredClone(contract) : null;
  }

  async putVerificationJob(job: StoredVerificationJob): Promise<void> {
    this.#jobs.set(job.guid, { ...job });
  }

  async getVerificationJob(guid: string): Promise<StoredVerificationJob | null> {
    const job = this.#jobs.get(guid);
    return job ? { ...job } : null;
  }
}
