import { z } from 'zod';
import { defineRoute, type Route } from '../../http/index.js';
import { textSchema, urlSchema } from '../../http/request-schemas.js';
import type { Hex } from '../../storage/index.js';
import { webhookDeliveryRecordSchema, webhookRecordSchema, webhookTestRecordSchema, webhookWithSecretSchema } from './webhook-records.js';
import type { WebhookService } from './webhook-service.js';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const addressList = z.array(
  z
    .string()
    .regex(ADDRESS, 'must be a 0x-prefixed 20-byte hex address')
    .transform((v) => v.toLowerCase() as Hex),
);
const events = z.array(z.enum(['address_activity', 'token_transfer', 'block'], { error: 'must be address_activity, token_transfer or block' })).min(1, 'must name at least one event');
const description = textSchema(500, { multiline: true }).nullable().optional();
const idParams = z.object({ id: z.string().max(64).transform((v) => v.toLowerCase()) });
const deliveryParams = idParams.extend({ deliveryId: z.string().max(64).transform((v) => v.toLowerCase()) });

/**
 * `/api/v1/account/webhooks`: the signed-in user's webhooks (JWT, or an API key; changes need
 * the `write` scope), their deliveries, redelivery, secret rotation and a test delivery.
 */
export function webhookRoutes(webhooks: WebhookService): Route[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/account/webhooks',
      response: webhookWithSecretSchema,
      errors: ['WEBHOOK_LIMIT', 'WEBHOOK_ADDRESS_LIMIT'],
      auth: 'user',
      scope: 'write',
      summary: 'Create a webhook: signed POSTs of address activity, token transfers or blocks; its secret is answered this once',
      body: z.strictObject({ url: urlSchema, events, addresses: addressList.optional(), tokens: addressList.optional(), description }),
      handler: ({ principal, body }) => webhooks.create(principal!.user.id, body),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/webhooks',
      response: z.array(webhookRecordSchema),
      auth: 'user',
      summary: "The caller's webhooks, newest first, without secrets",
      handler: ({ principal }) => webhooks.list(principal!.user.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/webhooks/:id',
      response: webhookRecordSchema,
      errors: ['WEBHOOK_NOT_FOUND'],
      auth: 'user',
      summary: 'One of the caller’s webhooks',
      params: idParams,
      handler: ({ principal, params }) => webhooks.get(principal!.user.id, params.id),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/account/webhooks/:id',
      response: webhookRecordSchema,
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_ADDRESS_LIMIT'],
      auth: 'user',
      scope: 'write',
      summary: 'Change a webhook; `active: true` enables a disabled one again',
      params: idParams,
      body: z.strictObject({ url: urlSchema.optional(), events: events.optional(), addresses: addressList.optional(), tokens: addressList.optional(), description, active: z.boolean().optional() }),
      handler: ({ principal, params, body }) => webhooks.update(principal!.user.id, params.id, body),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/account/webhooks/:id',
      response: z.null(),
      errors: ['WEBHOOK_NOT_FOUND'],
      auth: 'user',
      scope: 'write',
      summary: 'Delete a webhook with its deliveries',
      params: idParams,
      handler: async ({ principal, params }) => {
        await webhooks.delete(principal!.user.id, params.id);
        return null;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/account/webhooks/:id/rotate-secret',
      response: webhookWithSecretSchema,
      errors: ['WEBHOOK_NOT_FOUND'],
      auth: 'user',
      scope: 'write',
      summary: 'A new signing secret, answered once; for 24 hours deliveries carry signatures of both',
      params: idParams,
      handler: ({ principal, params }) => webhooks.rotateSecret(principal!.user.id, params.id),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/account/webhooks/:id/deliveries',
      response: z.array(webhookDeliveryRecordSchema),
      errors: ['WEBHOOK_NOT_FOUND'],
      auth: 'user',
      summary: 'A webhook’s deliveries, newest first: status, attempts, last response code, next retry; `before` pages on by sequence',
      params: idParams,
      query: z.object({
        limit: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1').transform((v) => Math.min(v, 100)).default(50),
        before: z.coerce.number({ error: 'must be an integer' }).int('must be an integer').min(1, 'must be at least 1').optional(),
      }),
      handler: ({ principal, params, query }) => webhooks.deliveries(principal!.user.id, params.id, query),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/account/webhooks/:id/deliveries/:deliveryId/redeliver',
      response: webhookDeliveryRecordSchema,
      errors: ['WEBHOOK_NOT_FOUND', 'WEBHOOK_DELIVERY_NOT_FOUND'],
      auth: 'user',
      scope: 'write',
      summary: 'Send a delivery again (same id and body), ahead of the webhook’s later ones',
      params: deliveryParams,
      handler: ({ principal, params }) => webhooks.redeliver(principal!.user.id, params.id, params.deliveryId),
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/account/webhooks/:id/test',
      response: webhookTestRecordSchema,
      errors: ['WEBHOOK_NOT_FOUND'],
      auth: 'user',
      scope: 'write',
      summary: 'Send a signed `test` event to the webhook now and answer how its target replied',
      params: idParams,
      handler: ({ principal, params }) => webhooks.test(principal!.user.id, params.id),
    }),
  ];
}
