import { defineRoute, type Route } from '../../http/index.js';
import { addressParams } from '../../http/request-schemas.js';
import type { MetadataService } from './metadata-service.js';
import { metadataProfileRecordSchema } from '../../records/record-schemas.js';

/** `GET /api/v1/metadata/:address`: an address's metadata profile. */
export function metadataRoutes(services: { metadata: MetadataService }): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/metadata/:address',
      response: metadataProfileRecordSchema,
      errors: ['METADATA_NOT_FOUND', 'UPSTREAM_UNAVAILABLE'],
      auth: 'none',
      summary: "The address's metadata profile; a token without one gets its contract's name and symbol",
      params: addressParams,
      handler: ({ params }) => services.metadata.get(params.address),
    }),
  ];
}
