import type { ChainClient } from '../../chain/chain-client.js';
import { MetadataNotFoundError } from '../../errors/index.js';
import type { IndexedHead } from '../../events/indexed-head.js';
import type { AuditReport, Hex, MetadataStorage, StoredMetadataProfile, TokenReader } from '../../storage/index.js';
import type { TokenMetadataReader } from '../../tokens/token-metadata.js';
import type { z } from 'zod';
import type { metadataProfileRecordSchema } from '../../records/record-schemas.js';

/** The spec's Metadata profile, plus when it was last set (`null` for a token without a profile). */
export type MetadataProfileRecord = z.infer<typeof metadataProfileRecordSchema>;

/** What an admin sends to set a profile (validated by the route); omitted fields are empty. */
export interface MetadataProfileInput {
  type: string;
  name?: string | null;
  symbol?: string | null;
  logo?: string | null;
  description?: string | null;
  website?: string | null;
  whitepaper?: string | null;
  social?: Partial<StoredMetadataProfile['social']>;
  verified: boolean;
  verifiedBy?: string | null;
  verifiedAt?: string | null;
  riskScore?: number | null;
  trustLevel?: string | null;
  auditReports: AuditReport[];
  tags: string[];
}

/** Metadata profiles: set by admins, read by everyone; a token without one gets what its contract says. */
export class MetadataService {
  constructor(
    private readonly storage: MetadataStorage & TokenReader,
    private readonly chain: ChainClient,
    private readonly head: IndexedHead,
    private readonly reader: TokenMetadataReader,
    private readonly now: () => number,
  ) {}

  async get(address: Hex): Promise<MetadataProfileRecord> {
    const [profile, chainId] = await Promise.all([this.storage.getMetadataProfile(address), this.chain.chainId()]);
    if (profile) return { ...profile, chainId };
    const token = await this.storage.getToken(address);
    if (!token) throw new MetadataNotFoundError();
    const { name, symbol } = token.metadata ?? (await this.reader.metadata(address, await this.head.blockTag()));
    return { ...emptyProfile(address, 'token'), name, symbol, chainId, updatedAt: null };
  }

  /**
   * Replaces the address's profile. Marking it verified without saying by whom or when records
   * the admin (`verifier`) and the time of this call.
   */
  async put(address: Hex, input: MetadataProfileInput, verifier: string): Promise<MetadataProfileRecord> {
    const now = new Date(this.now()).toISOString();
    const empty = emptyProfile(address, input.type);
    const profile: StoredMetadataProfile = {
      ...empty,
      name: input.name ?? null,
      symbol: input.symbol ?? null,
      logo: input.logo ?? null,
      description: input.description ?? null,
      website: input.website ?? null,
      whitepaper: input.whitepaper ?? null,
      social: { ...empty.social, ...input.social },
      verified: input.verified,
      verifiedBy: input.verifiedBy ?? (input.verified ? verifier : null),
      verifiedAt: input.verifiedAt ?? (input.verified ? now : null),
      riskScore: input.riskScore ?? null,
      trustLevel: input.trustLevel ?? null,
      auditReports: input.auditReports,
      tags: [...new Set(input.tags)],
      updatedAt: now,
    };
    await this.storage.putMetadataProfile(profile);
    return { ...profile, chainId: await this.chain.chainId() };
  }
}

function emptyProfile(address: Hex, type: string): StoredMetadataProfile {
  return {
    address,
    type,
    name: null,
    symbol: null,
    logo: null,
    description: null,
    website: null,
    whitepaper: null,
    social: { twitter: null, telegram: null, discord: null, github: null },
    verified: false,
    verifiedBy: null,
    verifiedAt: null,
    riskScore: null,
    trustLevel: null,
    auditReports: [],
    tags: [],
    updatedAt: '',
  };
}
