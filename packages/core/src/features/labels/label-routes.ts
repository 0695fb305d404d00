import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { addressParams, textSchema } from '../../http/request-schemas.js';
import type { LabelService } from './label-service.js';
import { addressLabelRecordSchema, watchlistEntryRecordSchema } from '../../records/record-schemas.js';

/**
 * `GET /api/v1/labels/:address` (an address's public label) and the signed-in user's watch list
 * at `/api/v1/account/watchlist`.
 */
export function labelRoutes(services: { labels: LabelService }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/labels/:address',
      response: addressLabelRecordSchema,
      errors: ['LABEL_NOT_FOUND'],
      auth: 'none',
      summary: "The address's public label",
      params: addressParams,
      handler: ({ params }) => services.labels.get(params.address),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/watchlist',
      response: z.array(watchlistEntryRecordSchema),
      auth: 'user',
      summary: "The caller's watch list: their own labels of addresses, newest first",
      handler: ({ principal }) => services.labels.watchlist(principal!.user.id),
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/account/watchlist/:address',
      response: watchlistEntryRecordSchema,
      errors: ['WATCHLIST_LIMIT'],
      auth: 'user',
      scope: 'write',
      summary: "Put an address on the caller's watch list with a label of their own, or change its entry",
      params: addressParams,
      body: z.strictObject({ label: textSchema(100, { min: 1 }), note: textSchema(1_000, { min: 1, multiline: true }).nullable().optional() }),
      handler: ({ principal, params, body }) => services.labels.watch(principal!.user.id, params.address, body),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/account/watchlist/:address',
      response: z.null(),
      errors: ['LABEL_NOT_FOUND'],
      auth: 'user',
      scope: 'write',
      summary: "Take an address off the caller's watch list",
      params: addressParams,
      handler: async ({ principal, params }) => {
        await services.labels.unwatch(principal!.user.id, params.address);
        return null;
      },
    }),
  ];
}
