import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { optionalAddressSchema } from '../../values/hex.js';
import type { Services } from '../../explorer-services.js';
import { chartRecordSchema, chartSeriesRecordSchema } from '../../records/record-schemas.js';

/** Unix seconds in a query, as bigint. */
const unixSecondsQuery = z
  .string()
  .regex(/^(0|[1-9]\d{0,15})$/, 'must be Unix seconds (a non-negative decimal integer)')
  .transform((v) => BigInt(v))
  .optional();

/** `/api/v1/stats/*`: statistics over time (charts) from rollups kept as blocks are indexed. */
export function statsRoutes(services: Services): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/stats/charts',
      response: z.array(chartSeriesRecordSchema),
      auth: 'none',
      summary: 'The chart series there are, with what each counts and whether it is of one token',
      handler: () => services.charts.list(),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/stats/charts/:name',
      response: chartRecordSchema,
      errors: ['CHART_NOT_FOUND', 'TOKEN_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      cache: 'head',
      summary:
        'A series over time: a point per UTC day or hour in which blocks were indexed (from and to are Unix seconds; by default the last 365 days or 168 hours up to the newest indexed block; at most 10000 points)',
      params: z.object({ name: z.string().max(64) }),
      query: z.object({
        resolution: z.enum(['day', 'hour'], { message: "must be 'day' or 'hour'" }).optional().default('day'),
        from: unixSecondsQuery,
        to: unixSecondsQuery,
        token: optionalAddressSchema,
      }),
      handler: ({ params, query }) => services.charts.chart(params.name, query),
    }),
  ];
}
