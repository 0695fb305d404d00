import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { addressParams, textSchema, urlSchema } from '../../http/request-schemas.js';
import type { MetadataService } from './metadata-service.js';
import { metadataProfileRecordSchema } from '../../records/record-schemas.js';

const optionalText = (max: number) => textSchema(max, { min: 1 }).nullable().optional();
const optionalUrl = urlSchema.nullable().optional();
/** A social link: a URL or a handle. */
const social = z.union([urlSchema, textSchema(200, { min: 1 })]).nullable().default(null);

const profileBody = z.strictObject({
  type: textSchema(32, { min: 1 }).default('token'),
  name: optionalText(100),
  symbol: optionalText(32),
  logo: optionalUrl,
  description: textSchema(5_000, { min: 1, multiline: true }).nullable().optional(),
  website: optionalUrl,
  whitepaper: optionalUrl,
  social: z.strictObject({ twitter: social, telegram: social, discord: social, github: social }).optional(),
  verified: z.boolean().default(false),
  verifiedBy: optionalText(100),
  verifiedAt: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date and time' }).transform((v) => new Date(v).toISOString()).nullable().optional(),
  riskScore: z.number().min(0, 'must be between 0 and 100').max(100, 'must be between 0 and 100').nullable().optional(),
  trustLevel: optionalText(32),
  auditReports: z
    .array(z.strictObject({ auditor: textSchema(100, { min: 1 }), date: z.iso.date({ message: 'must be a date YYYY-MM-DD' }), url: urlSchema }))
    .max(50)
    .default([]),
  tags: z.array(textSchema(32, { min: 1 })).max(20).default([]),
});

/** `/api/v2/metadata/*`: metadata management, for admins. */
export function metadataManagementRoutes(services: { metadata: MetadataService }): Route[] {
  return [
    defineRoute({
      method: 'PUT',
      path: '/api/v2/metadata/:address',
      response: metadataProfileRecordSchema,
      errors: ['UPSTREAM_UNAVAILABLE'],
      auth: 'user',
      scope: 'admin',
      summary: "Set (replace) an address's metadata profile",
      params: addressParams,
      body: profileBody,
      handler: ({ params, body, principal }) => services.metadata.put(params.address, body, principal!.user.email),
    }),
  ];
}
