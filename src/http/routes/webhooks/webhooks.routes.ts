import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ADMIN_SCOPES } from '../../scopes.js';
import { EnvelopeSchema, errorResponses, ListEnvelopeSchema, now, ok, okList, pageOf } from '../../kit/envelope.js';
import { alias, validationError } from '../../kit/errors.js';
import { literalRefusal } from '../../../webhooks/outbound.js';
import { isUsableSecret } from '../../../webhooks/signing.js';
import type { WebhookService } from '../../../webhooks/webhooks.service.js';
import {
  DeliveryParamsSchema,
  RedeliverySchema,
  DeliveryListEnvelopeSchema,
  MessageSchema,
  TestResultSchema,
  WebhookCreatedEnvelopeSchema,
  WebhookCreateSchema,
  WebhookIdParamsSchema,
  WebhookListQuerySchema,
  WebhookSchema,
  WebhookUpdateSchema,
} from './webhooks.schemas.js';

const tags = ['webhooks'];

export interface WebhookRoutesOptions {
  webhooks: WebhookService;
  allowHttp: boolean;
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: a non-public literal address or localhost may be registered. */
  allowPrivateNetworks: boolean;
}

function checkUrl(raw: string, allowHttp: boolean, allowPrivateNetworks: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw validationError([{ field: 'url', message: 'must be an absolute https:// URL' }]);
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) {
    throw validationError([{ field: 'url', message: allowHttp ? 'must be an https:// (or http://) URL' : 'must be an https:// URL' }]);
  }
  if (url.username || url.password) throw validationError([{ field: 'url', message: 'must not carry credentials' }]);
  if (!url.hostname) throw validationError([{ field: 'url', message: 'must name a host' }]);
  // What no connection can reach: port 0, and a name DNS cannot hold (RFC 1035: labels of 63 bytes, 253 in all).
  if (url.port === '0') throw validationError([{ field: 'url', message: 'must name a port from 1 to 65535' }]);
  const name = url.hostname.replace(/\.$/, '');
  if (!url.hostname.startsWith('[') && (name.length > 253 || name.split('.').some((label) => label.length === 0 || label.length > 63))) {
    throw validationError([{ field: 'url', message: 'must name a host DNS can hold: labels of 1 to 63 characters, 253 in all' }]);
  }
  // A literal the tenant wrote is refused now, not at every delivery; names are checked when resolved.
  const refusal = allowPrivateNetworks ? null : literalRefusal(url);
  if (refusal) {
    throw validationError([
      {
        field: 'url',
        message: `must reach a public address: ${url.hostname} is ${refusal === 'unspecified' ? 'the unspecified address' : `a ${refusal} address`}`,
      },
    ]);
  }
  return raw;
}

/** A body's isActive, written either way (docs/contract.md); both must agree. */
const isActiveOf = (b: { isActive?: boolean | undefined; is_active?: boolean | undefined }) =>
  alias({ name: 'isActive', value: b.isActive }, { name: 'is_active', value: b.is_active });

export const webhooksRoutes: FastifyPluginAsyncTypebox<WebhookRoutesOptions> = async (
  app,
  { webhooks, allowHttp, allowPrivateNetworks },
) => {
  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary: 'Register a webhook',
        description: 'The secret (given or generated) is answered once, here; save it to verify deliveries.',
        body: WebhookCreateSchema,
        response: { 201: WebhookCreatedEnvelopeSchema, ...errorResponses(400, 401, 413, 415) },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const url = checkUrl(b.url, allowHttp, allowPrivateNetworks);
      if (b.secret !== undefined && !isUsableSecret(b.secret)) {
        throw validationError([{ field: 'secret', message: 'must be base64 after its whsec_ prefix' }]);
      }
      const { webhook, secret } = await webhooks.create(request.tenant.tenantId, {
        url,
        events: b.events,
        description: b.description,
        secret: b.secret,
        isActive: isActiveOf(b),
      });
      return reply.status(201).send({
        success: true,
        data: {
          id: webhook.id,
          url: webhook.url,
          events: webhook.events,
          description: webhook.description,
          secret,
          isActive: webhook.isActive,
          createdAt: webhook.createdAt,
        },
        meta: { timestamp: now(), message: 'Save this secret now: it is needed to verify deliveries and will not be shown again.' },
      });
    },
  );

  app.get(
    '/webhooks',
    {
      config: { scopes: ADMIN_SCOPES },
      schema: {
        tags,
        summary: 'List webhooks',
        querystring: WebhookListQuerySchema,
        response: { 200: ListEnvelopeSchema(WebhookSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, limit } = pageOf(request.query);
      const { items, total } = await webhooks.list(request.tenant.tenantId, page, limit);
      return okList(items, page, limit, total);
    },
  );

  app.get(
    '/webhooks/:id',
    {
      config: { scopes: ADMIN_SCOPES },
      schema: {
        tags,
        summary: 'Get a webhook',
        params: WebhookIdParamsSchema,
        response: { 200: EnvelopeSchema(WebhookSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await webhooks.get(request.tenant.tenantId, request.params.id.toLowerCase())),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/webhooks/:id',
      schema: {
        tags,
        summary: `Activate, deactivate or change the events of a webhook (${method})`,
        description: 'Re-activating starts from now: events recorded while inactive are not sent. Deactivating cancels pending deliveries.',
        params: WebhookIdParamsSchema,
        body: WebhookUpdateSchema,
        response: { 200: EnvelopeSchema(WebhookSchema), ...errorResponses(400, 401, 404, 415) },
      },
      handler: async (request) => {
        const b = request.body;
        return ok(
          await webhooks.update(request.tenant.tenantId, request.params.id.toLowerCase(), {
            isActive: isActiveOf(b),
            events: b.events,
            description: b.description,
          }),
        );
      },
    });
  }

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        tags,
        summary: 'Delete a webhook',
        params: WebhookIdParamsSchema,
        response: { 200: EnvelopeSchema(MessageSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await webhooks.delete(request.tenant.tenantId, request.params.id.toLowerCase());
      return ok({ message: 'webhook deleted' });
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      config: { scopes: ADMIN_SCOPES },
      schema: {
        tags,
        summary: 'Delivery history: every attempt, newest first',
        params: WebhookIdParamsSchema,
        querystring: WebhookListQuerySchema,
        response: { 200: DeliveryListEnvelopeSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { page, limit } = pageOf(request.query);
      const { items, total } = await webhooks.deliveries(request.tenant.tenantId, request.params.id.toLowerCase(), page, limit);
      return { success: true as const, data: items, pagination: { page, limit, total }, meta: { timestamp: now() } };
    },
  );

  app.post(
    '/webhooks/:id/deliveries/:deliveryId/redeliver',
    {
      schema: {
        tags,
        summary: 'Send a delivery again',
        description:
          'A delivery the receiver missed, failed or lost (its deliveryId is in the history) is pending again and sent now, its stored payload (same event id) signed afresh, if its row is still as the service wrote it (docs/webhooks.md, Sealed deliveries); a failed attempt is retried on the usual schedule while the delivery has had fewer than five, else it is failed again. 404 for a delivery not of this webhook or pruned from the history; 409 WEBHOOK_INACTIVE for an inactive webhook; 409 DELIVERY_PENDING for one pending already.',
        params: DeliveryParamsSchema,
        response: { 202: EnvelopeSchema(RedeliverySchema), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      const { id, deliveryId } = request.params;
      void reply.status(202);
      return ok(await webhooks.redeliver(request.tenant.tenantId, id.toLowerCase(), deliveryId.toLowerCase()));
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        tags,
        summary: 'Send a signed webhook.test delivery now',
        description: 'Recorded in the delivery history. Sent whether the webhook is active or not.',
        params: WebhookIdParamsSchema,
        response: { 200: EnvelopeSchema(TestResultSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await webhooks.test(request.tenant.tenantId, request.params.id.toLowerCase())),
  );
};
