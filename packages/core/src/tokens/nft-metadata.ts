import type { z } from 'zod';
import type { nftMetadataRecordSchema } from '../records/nft-record-schemas.js';

/** What a token's metadata JSON says, where it is on chain ({@link nftMetadataRecordSchema}). */
export type NftMetadataRecord = z.infer<typeof nftMetadataRecordSchema>;

/** The name, description and image of a `data:application/json` URI (base64 or percent-encoded); `null` for other URIs. */
export function dataUriMetadata(uri: string): NftMetadataRecord | null {
  const match = /^data:application\/json(?:;charset=[\w-]+)?(;base64)?,(.*)$/is.exec(uri);
  if (!match) return null;
  let json: unknown;
  try {
    json = JSON.parse(match[1] ? new TextDecoder().decode(Uint8Array.from(atob(match[2]!), (char) => char.charCodeAt(0))) : decodeURIComponent(match[2]!));
  } catch {
    return null;
  }
  if (typeof json !== 'object' || json === null) return null;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const fields = json as Record<string, unknown>;
  return { name: text(fields['name']), description: text(fields['description']), image: text(fields['image']) };
}
