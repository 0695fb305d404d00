/**
 * What a token's metadata JSON says, where it is on chain: in a
 * `data:application/json` token URI (on-chain metadata). `null` fields where it says nothing.
 */
export interface NftMetadataRecord {
  name: string | null;
  description: string | null;
  /** As the metadata gives it (an `ipfs://`, `https://` or `data:` URI). */
  image: string | null;
}

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
