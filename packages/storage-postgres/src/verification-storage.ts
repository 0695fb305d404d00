import type { Hex, StoredVerificationJob, StoredVerifiedContract, VerificationStorage } from '@chainlens/core';
import { toBytea } from './codec.js';
import type { RolePools } from './role-pools.js';
import {
  isStorableGuid,
  toVerificationJob,
  toVerifiedContract,
  type VerificationJobRow,
  type VerificationStatements,
  type VerifiedContractRow,
  verificationJobValues,
  verifiedContractValues,
} from './verification-queries.js';

/** Verified contracts (read where chain reads go) and verification jobs (on the primary, polled by any instance). */
export class PostgresVerificationStorage implements VerificationStorage {
  constructor(
    private readonly pools: RolePools,
    private readonly statements: VerificationStatements,
  ) {}

  async putVerifiedContract(contract: StoredVerifiedContract): Promise<void> {
    await this.pools.primary.query({ ...this.statements.putContract, values: verifiedContractValues(contract) });
  }

  async getVerifiedContract(address: Hex): Promise<StoredVerifiedContract | null> {
    return (await this.getVerifiedContracts([address]))[0] ?? null;
  }

  async getVerifiedContracts(addresses: Hex[]): Promise<StoredVerifiedContract[]> {
    if (addresses.length === 0) return [];
    const { rows } = await this.pools.reads().query<VerifiedContractRow>({ ...this.statements.contracts, values: [addresses.map(toBytea)] });
    return rows.map(toVerifiedContract);
  }

  async putVerificationJob(job: StoredVerificationJob): Promise<void> {
    await this.pools.primary.query({ ...this.statements.putJob, values: verificationJobValues(job) });
  }

  async getVerificationJob(guid: string): Promise<StoredVerificationJob | null> {
    if (!isStorableGuid(guid)) return null;
    const { rows } = await this.pools.primary.query<VerificationJobRow>({ ...this.statements.job, values: [guid] });
    return rows[0] ? toVerificationJob(rows[0]) : null;
  }
}
