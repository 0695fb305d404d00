import type { Hex, MetadataStorage, StoredMetadataProfile } from '@chainlens/core';
import { toBytea } from './codec.js';
import { profileDocument, type MetadataStatements, type ProfileRow } from './metadata-queries.js';
import type { RolePools } from './role-pools.js';

/** Metadata profiles: written on the primary, read where chain reads go. */
export class PostgresMetadataStorage implements MetadataStorage {
  constructor(
    private readonly pools: RolePools,
    private readonly statements: MetadataStatements,
  ) {}

  async putMetadataProfile(profile: StoredMetadataProfile): Promise<void> {
    await this.pools.primary.query({ ...this.statements.putProfile, values: [toBytea(profile.address), profileDocument(profile)] });
  }

  async getMetadataProfile(address: Hex): Promise<StoredMetadataProfile | null> {
    return (await this.getMetadataProfiles([address]))[0] ?? null;
  }

  async getMetadataProfiles(addresses: Hex[]): Promise<StoredMetadataProfile[]> {
    if (addresses.length === 0) return [];
    const { rows } = await this.pools.reads().query<ProfileRow>({ ...this.statements.profiles, values: [addresses.map(toBytea)] });
    return rows.map(({ address, profile }) => ({ ...profile, address }));
  }

  async listVerifiedAddresses(): Promise<Hex[]> {
    const { rows } = await this.pools.reads().query<{ address: Hex }>(this.statements.verifiedAddresses);
    return rows.map((row) => row.address);
  }
}
