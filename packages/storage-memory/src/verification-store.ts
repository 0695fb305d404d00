import type { Hex, StoredVerificationJob, StoredVerifiedContract } from '@chainlens/core';

/** Verified contracts and verification jobs, copied on the way in and out so no caller can change them. */
export class VerificationStore {
  readonly #contracts = new Map<Hex, StoredVerifiedContract>();
  readonly #jobs = new Map<string, StoredVerificationJob>();

  putContract(contract: StoredVerifiedContract): void {
    this.#contracts.set(contract.address, structuredClone(contract));
  }

  getContract(address: Hex): StoredVerifiedContract | null {
    const contract = this.#contracts.get(address);
    return contract ? structuredClone(contract) : null;
  }

  getContracts(addresses: Hex[]): StoredVerifiedContract[] {
    return [...new Set(addresses)].flatMap((address) => this.getContract(address) ?? []);
  }

  putJob(job: StoredVerificationJob): void {
    this.#jobs.set(job.guid, { ...job });
  }

  getJob(guid: string): StoredVerificationJob | null {
    const job = this.#jobs.get(guid);
    return job ? { ...job } : null;
  }
}
