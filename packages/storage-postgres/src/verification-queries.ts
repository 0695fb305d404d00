import type { StoredVerificationJob, StoredVerifiedContract } from '@chainlens/core';
import { toBytea } from './codec.js';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/** Verified contract columns aliased to {@link StoredVerifiedContract} keys (times still Dates). */
const CONTRACT_COLUMNS = `address, name, path, compiler_version AS "compilerVersion", compiler_settings AS "compilerSettings",
  sources, abi, license, constructor_arguments AS "constructorArguments", runtime_match AS "runtimeMatch",
  creation_match AS "creationMatch", verified_at AS "verifiedAt"`;

/** Verification job columns aliased to {@link StoredVerificationJob} keys (times still Dates). */
const JOB_COLUMNS = `guid, kind, address, status, message, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** The statements of verified contracts and verification jobs. A put replaces the whole row. */
export function verificationStatements(t: Tables) {
  return {
    putContract: {
      name: 'chainlens_put_verified_contract',
      text: `INSERT INTO ${t.verifiedContracts} (address, name, path, compiler_version, compiler_settings, sources, abi, license,
          constructor_arguments, runtime_match, creation_match, verified_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
        ON CONFLICT (address) DO UPDATE SET name = excluded.name, path = excluded.path,
          compiler_version = excluded.compiler_version, compiler_settings = excluded.compiler_settings,
          sources = excluded.sources, abi = excluded.abi, license = excluded.license,
          constructor_arguments = excluded.constructor_arguments, runtime_match = excluded.runtime_match,
          creation_match = excluded.creation_match, verified_at = excluded.verified_at`,
    },
    contracts: {
      name: 'chainlens_verified_contracts',
      text: `SELECT ${CONTRACT_COLUMNS} FROM ${t.verifiedContracts} WHERE address = ANY($1::bytea[])`,
    },
    putJob: {
      name: 'chainlens_put_verification_job',
      text: `INSERT INTO ${t.verificationJobs} (guid, kind, address, status, message, created_at, updated_at)
        VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (guid) DO UPDATE SET kind = excluded.kind, address = excluded.address, status = excluded.status,
          message = excluded.message, created_at = excluded.created_at, updated_at = excluded.updated_at`,
    },
    job: {
      name: 'chainlens_verification_job',
      text: `SELECT ${JOB_COLUMNS} FROM ${t.verificationJobs} WHERE guid = $1`,
    },
  } satisfies Record<string, Statement>;
}

export type VerificationStatements = ReturnType<typeof verificationStatements>;

/** A row of {@link verificationStatements}' contract reads. */
export type VerifiedContractRow = Omit<StoredVerifiedContract, 'verifiedAt'> & { verifiedAt: Date };

/** A row of {@link verificationStatements}' job read. */
export type VerificationJobRow = Omit<StoredVerificationJob, 'createdAt' | 'updatedAt'> & { createdAt: Date; updatedAt: Date };

/**
 * The parameters of `putContract`. The json documents are stringified here: pg would send an
 * array (the ABI) as a Postgres array literal.
 */
export function verifiedContractValues(contract: StoredVerifiedContract): unknown[] {
  return [
    toBytea(contract.address),
    contract.name,
    contract.path,
    contract.compilerVersion,
    JSON.stringify(contract.compilerSettings),
    JSON.stringify(contract.sources),
    JSON.stringify(contract.abi),
    contract.license,
    toBytea(contract.constructorArguments),
    contract.runtimeMatch,
    contract.creationMatch,
    contract.verifiedAt,
  ];
}

/** The parameters of `putJob`. */
export function verificationJobValues(job: StoredVerificationJob): unknown[] {
  return [job.guid, job.kind, toBytea(job.address), job.status, job.message, job.createdAt, job.updatedAt];
}

/** A contract row as the record: times as ISO 8601 text (`toISOString`'s form). */
export function toVerifiedContract({ verifiedAt, ...contract }: VerifiedContractRow): StoredVerifiedContract {
  return { ...contract, verifiedAt: verifiedAt.toISOString() };
}

/** A job row as the record: times as ISO 8601 text (`toISOString`'s form). */
export function toVerificationJob({ createdAt, updatedAt, ...job }: VerificationJobRow): StoredVerificationJob {
  return { ...job, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}

/** Whether `guid` could be stored: Postgres text cannot hold NUL (and the lookup would fail). */
export function isStorableGuid(guid: string): boolean {
  return !guid.includes('\u0000');
}
