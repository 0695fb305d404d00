import { z } from 'zod';

/**
 * What a token's metadata JSON says, where it is on chain: in a `data:application/json` token URI
 * (on-chain metadata). `null` fields where it says nothing.
 */
export const nftMetadataRecordSchema = z.object({
  name: z.string().nullable(),
  description: z.string().nullable(),
  /** As the metadata gives it (an `ipfs://`, `https://` or `data:` URI). */
  image: z.string().nullable(),
});

/**
 * The NFT inventory record: its zod schema for the API description (`/api/v1/openapi.json`),
 * from which its type is inferred.
 */
export const nftRecordSchema = z.object({
  token: z.string().regex(/^0x[0-9a-f]{40}$/),
  tokenName: z.string().nullable(),
  tokenSymbol: z.string().nullable(),
  standard: z.enum(['ERC-721', 'ERC-1155']),
  tokenId: z.string().regex(/^\d+$/).describe('a decimal integer'),
  owner: z.string().regex(/^0x[0-9a-f]{40}$/),
  /** The owner's public label, `null` without one. */
  ownerLabel: z.string().nullable().describe('the public label of the owner; null without one'),
  /** Units held: 1 for an ERC-721 token. */
  balance: z.string().regex(/^\d+$/).describe('units held: 1 for an ERC-721 token'),
  /** `tokenURI(id)` (ERC-721) or `uri(id)` with `{id}` filled in (ERC-1155) at the newest indexed block; `null` where the contract has none. */
  tokenUri: z.string().nullable().describe('tokenURI(id) (ERC-721) or uri(id) with {id} filled in (ERC-1155) at the newest indexed block; null where the contract has none'),
  /** The metadata a `data:` token URI carries; `null` for any other URI (the server fetches none) or unreadable JSON. */
  metadata: nftMetadataRecordSchema
    .nullable()
    .describe('what a data:application/json token URI carries; null for any other URI (the server fetches none)'),
});
