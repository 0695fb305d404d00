/**
 * Metadata profiles as storage keeps them: what an operator says about an address (logo,
 * links, audits, verification). Not chain data: rollbacks leave them alone. Every field but the
 * address is the operator's; texts are kept exactly as given.
 */
import type { Hex } from './records.js';

/** One audit report of a profile. */
export interface AuditReport {
  auditor: string;
  /** `YYYY-MM-DD`. */
  date: string;
  url: string;
}

/** A metadata profile, as set by `PUT /api/v2/metadata/:address`. */
export interface StoredMetadataProfile {
  address: Hex;
  /** What the address is, e.g. `token`. */
  type: string;
  name: string | null;
  symbol: string | null;
  logo: string | null;
  description: string | null;
  website: string | null;
  whitepaper: string | null;
  social: { twitter: string | null; telegram: string | null; discord: string | null; github: string | null };
  verified: boolean;
  verifiedBy: string | null;
  /** ISO 8601, or `null`. */
  verifiedAt: string | null;
  /** 0–100, or `null`. */
  riskScore: number | null;
  trustLevel: string | null;
  auditReports: AuditReport[];
  tags: string[];
  /** ISO 8601 time of the last write. */
  updatedAt: string;
}
