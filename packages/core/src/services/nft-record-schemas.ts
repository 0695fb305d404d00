import { z } from 'zod';

/**
 * zod description of the NFT inventory record, for the API description (`/api/v1/openapi.json`);
 * `record-schemas.ts` checks it against its interface with the other records.
 */
export const nftRecordSchema = z.object({
  token: z.string().regex(/^0x[0-9a-f]{40}$/),
  tokenName: z.string().nullable(),
  tokenSymbol: z.string().nullable(),
  standard: z.enum(['ERC-721', 'ERC-1155']),
  tokenId: z.string().regex(/^\d+$/).describe('a decimal integer'),
  owner: z.string().regex(/^0x[0-9a-f]{40}$/),
  ownerLabel: z.string().nullable().describe('the public label of the owner; null without one'),
  balance: z.string().regex(/^\d+$/).describe('units held: 1 for an ERC-721 token'),
  tokenUri: z.string().nullable().describe('tokenURI(id) (ERC-721) or uri(id) with {id} filled in (ERC-1155) at the newest indexed block; null where the contract has none'),
  metadata: z
    .object({ name: z.string().nullable(), description: z.string().nullable(), image: z.string().nullable() })
    .nullable()
    .describe('what a data:application/json token URI carries; null for any other URI (the server fetches none)'),
});
