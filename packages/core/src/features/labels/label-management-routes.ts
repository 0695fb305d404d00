import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { addressParams, textSchema } from '../../http/request-schemas.js';
import type { LabelService } from './label-service.js';
import { addressLabelRecordSchema } from '../../records/record-schemas.js';

/** `/api/v2/labels/*`: public address labels, for admins. */
export function labelManagementRoutes(services: { labels: LabelService }): Route[] {
  return [
    defineRoute({
      method: 'PUT',
      path: '/api/v2/labels/:address',
      response: addressLabelRecordSchema,
      auth: 'user',
      scope: 'admin',
      summary: "Set (replace) an address's public label, shown wherever records name the address",
      params: addressParams,
      body: z.strictObject({
        label: textSchema(100, { min: 1 }),
        category: textSchema(32, { min: 1 }).nullable().optional(),
        note: textSchema(1_000, { min: 1, multiline: true }).nullable().optional(),
      }),
      handler: ({ params, body }) => services.labels.put(params.address, body),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v2/labels/:address',
      response: z.null(),
      errors: ['LABEL_NOT_FOUND'],
      auth: 'user',
      scope: 'admin',
      summary: "Remove an address's public label",
      params: addressParams,
      handler: async ({ params }) => {
        await services.labels.delete(params.address);
        return null;
      },
    }),
  ];
}
