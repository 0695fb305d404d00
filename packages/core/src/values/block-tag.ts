import { z } from 'zod';
import { InvalidBlockNumberError } from '../errors/index.js';
import { withError } from './validation.js';

/** A block number, or `latest`: the newest indexed block when the request is served. */
export type BlockTag = bigint | 'latest';

const MAX_UINT64 = 2n ** 64n - 1n;

/**
 * A block number (decimal without leading zeros, 64 bits at most) or `latest`, as text: the one
 * form REST queries, the Etherscan-compatible API, GraphQL and channel messages take. The API
 * description shows it as an integer or `"latest"`.
 */
export const blockTagText = z
  .union([
    z.literal('latest'),
    z
      .string()
      .refine((v) => /^(0|[1-9]\d{0,19})$/.test(v) && BigInt(v) <= MAX_UINT64, 'must be a block number or "latest"')
      .meta({ type: 'integer', minimum: 0 }),
  ])
  .meta({ description: 'A block number, or latest: the newest indexed block when the request is served' })
  .transform((v): BlockTag => (v === 'latest' ? 'latest' : BigInt(v)));

/** A {@link blockTagText}; malformed → `Error! Invalid block number`. */
export const blockTagSchema = withError(blockTagText, () => new InvalidBlockNumberError());

/** An optional {@link blockTagSchema} (a query's block or block-range bound). */
export const optionalBlockTagQuery = withError(blockTagText.optional(), () => new InvalidBlockNumberError());
