/**
 * Source verification as storage keeps it: contracts whose submitted source compiled to the
 * code on the chain, and the verification jobs that clients poll. Not chain data: rollbacks leave
 * both alone (a contract re-created differently at the same address is verified again).
 */
import type { Hex } from './records.js';

/** How much of the compiled code matched the chain's. */
export type CodeMatch = 'full' | 'partial';

/** A contract whose source was verified against its code on this chain. */
export interface StoredVerifiedContract {
  address: Hex;
  /** The contract's name, e.g. `Token`. */
  name: string;
  /** Path of the source file that defines it, e.g. `contracts/Token.sol`. */
  path: string;
  /** Long form, e.g. `0.8.37+commit.f401782d`. */
  compilerVersion: string;
  /** The standard-JSON `settings` it was compiled with (optimizer, evmVersion, libraries, …). */
  compilerSettings: Record<string, unknown>;
  /** Every source file by path, exactly as submitted. */
  sources: Record<string, string>;
  /** The contract's JSON ABI, as the compiler produced it. */
  abi: unknown[];
  /** SPDX identifier of the defining file, or `null` where it declares none. */
  license: string | null;
  /** ABI-encoded constructor arguments, `0x` when none. */
  constructorArguments: Hex;
  /** Match of the deployed (runtime) code: `full` includes the metadata hash. */
  runtimeMatch: CodeMatch;
  /** Match of the creation code, `null` where it could not be checked (creation not indexed). */
  creationMatch: CodeMatch | null;
  /** ISO 8601 time of the verification. */
  verifiedAt: string;
}

/** What a verification job does: verify source, or link a proxy to its implementation. */
export type VerificationJobKind = 'source' | 'proxy';

/** Where a job stands. */
export type VerificationJobStatus = 'pending' | 'verified' | 'failed';

/** One verification request, polled by its `guid` (Etherscan's `checkverifystatus`). */
export interface StoredVerificationJob {
  guid: string;
  kind: VerificationJobKind;
  address: Hex;
  status: VerificationJobStatus;
  /** What the caller is told: why it failed, or what it found. */
  message: string;
  /** ISO 8601. */
  createdAt: string;
  /** ISO 8601. */
  updatedAt: string;
}
