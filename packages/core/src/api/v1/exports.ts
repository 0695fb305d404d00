import { z } from 'zod';
import { defineRoute, envelopeFormat, StreamedResult, type ResponseFormat, type Route } from '../../http/index.js';
import { addressSchema } from '../../values/hex.js';
import { optionalBlockTagQuery } from '../../values/block-tag.js';
import type { ExportKind } from '../../services/index.js';
import type { Services } from '../../explorer-services.js';

/** How export routes are described: CSV answers (streamed as `StreamedResult`s); errors stay envelopes. */
const csvFormat: ResponseFormat = { contentType: 'text/csv; charset=utf-8', success: envelopeFormat.success, error: envelopeFormat.error };

const KINDS: readonly { kind: ExportKind; what: string }[] = [
  { kind: 'transactions', what: 'transactions (sent, received or creating it)' },
  { kind: 'internal-transactions', what: 'internal transactions (as sender or recipient)' },
  { kind: 'token-transfers', what: 'token transfers (sent or received, every token)' },
  { kind: 'logs', what: 'logs it emitted' },
];

/** Options of {@link exportRoutes}. */
export interface ExportRoutesOptions {
  /** Rate-limit weight of one export. */
  weight: number;
  /** Most rows an export answers (told in the summary). */
  maxRows: number;
}

/**
 * `/api/v1/export/:kind.csv`: an address's records as CSV (RFC 4180, a header row, at most
 * `maxRows` rows in chain order), streamed; for signed-in callers, each export counting `weight`
 * requests against their rate limit.
 */
export function exportRoutes(services: Services, options: ExportRoutesOptions): Route[] {
  return KINDS.map(({ kind, what }) =>
    defineRoute({
      method: 'GET',
      path: `/api/v1/export/${kind}.csv`,
      auth: 'user',
      summary: `CSV of an address’s ${what}, oldest first, at most ${options.maxRows} rows (narrow startblock/endblock for more); counts ${options.weight} requests`,
      format: csvFormat,
      errors: ['BLOCK_NOT_FOUND'],
      weight: () => options.weight,
      query: z.object({ address: addressSchema, startblock: optionalBlockTagQuery, endblock: optionalBlockTagQuery }),
      handler: async ({ query }) => {
        const range = await services.blocks.bounds({ start: query.startblock, end: query.endblock });
        const chunks = await services.exports.export(kind, { address: query.address, ...range });
        return new StreamedResult(chunks, {
          'content-type': 'text/csv; charset=utf-8',
          'content-disposition': `attachment; filename="${kind}-${query.address}.csv"`,
          'cache-control': 'no-store',
        });
      },
    }),
  );
}
