import type { Hex, StoredMetadataProfile } from '@chainlens/core';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/** The statements of metadata profiles. */
export function metadataStatements(t: Tables) {
  return {
    putProfile: {
      name: 'chainlens_put_metadata_profile',
      text: `INSERT INTO ${t.metadataProfiles} (address, profile) VALUES ($1, $2)
        ON CONFLICT (address) DO UPDATE SET profile = excluded.profile`,
    },
    verifiedAddresses: {
      name: 'chainlens_verified_addresses',
      text: `SELECT address FROM ${t.metadataProfiles} WHERE profile @> '{"verified": true}'`,
    },
    profiles: {
      name: 'chainlens_metadata_profiles',
      text: `SELECT address, profile FROM ${t.metadataProfiles} WHERE address = ANY($1::bytea[])`,
    },
  } satisfies Record<string, Statement>;
}

export type MetadataStatements = ReturnType<typeof metadataStatements>;

/** A row of {@link metadataStatements}' reads. */
export interface ProfileRow {
  address: Hex;
  profile: Omit<StoredMetadataProfile, 'address'>;
}

/** The document stored for a profile: every field but the address (the key). */
export function profileDocument({ address: _address, ...profile }: StoredMetadataProfile): string {
  return JSON.stringify(profile);
}
