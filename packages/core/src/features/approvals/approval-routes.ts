import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { positiveIntQuery } from '../../http/request-schemas.js';
import { approvalRecordSchema } from '../../records/record-schemas.js';
import { addressSchema } from '../../values/hex.js';
import type { ApprovalService } from './approval-service.js';

/** An owner's standing token approvals at `GET /api/v1/account/approvals`. */
export function approvalRoutes(approvals: ApprovalService): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/approvals',
      response: z.array(approvalRecordSchema),
      auth: 'none',
      cache: 'head',
      summary: "An owner's standing token approvals (latest Approval or ApprovalForAll per token and spender, not revoked), newest first",
      query: z.object({ address: addressSchema, page: positiveIntQuery(1), offset: positiveIntQuery(50, 100) }),
      handler: ({ query }) => approvals.list({ owner: query.address, page: query.page, offset: query.offset }),
    }),
  ];
}
