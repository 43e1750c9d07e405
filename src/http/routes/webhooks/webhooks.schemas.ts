import { Type, type Static } from '@sinclair/typebox';
import { PageQuery } from '../../kit/envelope.js';
import { SUBSCRIBABLE } from '../../../webhooks/webhook.events.js';

export const EventNameSchema = Type.Unsafe<(typeof SUBSCRIBABLE)[number]>({
  type: 'string',
  enum: [...SUBSCRIBABLE],
  description: `one of ${SUBSCRIBABLE.join(', ')} (* is every event)`,
});
const Events = Type.Array(EventNameSchema, { minItems: 1, maxItems: 20, description: 'event names to receive' });
// null is no description, as GET answers it (an update with null clears it).
const Description = Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], { description: 'up to 1,000 characters; null for none' });

export const WebhookCreateSchema = Type.Object(
  {
    url: Type.String({ format: 'uri', maxLength: 2048, description: 'an https:// URL that receives the deliveries' }),
    events: Events,
    description: Type.Optional(Description),
    secret: Type.Optional(
      Type.String({
        minLength: 16,
        maxLength: 256,
        description: 'your own signing secret, 16..256 characters (its UTF-8 bytes are the key); generated (whsec_…) when omitted',
      }),
    ),
    isActive: Type.Optional(Type.Boolean()),
    is_active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type WebhookCreate = Static<typeof WebhookCreateSchema>;

export const WebhookUpdateSchema = Type.Object(
  {
    isActive: Type.Optional(Type.Boolean()),
    is_active: Type.Optional(Type.Boolean()),
    events: Type.Optional(Events),
    description: Type.Optional(Description),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const WebhookIdParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }) });
export const DeliveryParamsSchema = Type.Object({ id: Type.String({ format: 'uuid' }), deliveryId: Type.String({ format: 'uuid' }) });
export const RedeliverySchema = Type.Object({
  deliveryId: Type.String({ format: 'uuid' }),
  eventId: Type.String({ format: 'uuid', description: 'the payload id, the same as before: a receiver de-duplicates by it' }),
  event: Type.String({ description: 'event name' }),
  deliveryStatus: Type.Literal('pending'),
  nextAttemptAt: Type.String({ format: 'date-time', description: 'when it is sent: now' }),
});
export const WebhookListQuerySchema = Type.Object(PageQuery);

const Stats = Type.Object(
  { total: Type.Integer(), successful: Type.Integer(), failed: Type.Integer() },
  { description: 'counts of delivery attempts' },
);
const WebhookFields = {
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Type.Union([Type.String(), Type.Null()]),
  isActive: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
};
export const WebhookCreatedSchema = Type.Object({ ...WebhookFields, secret: Type.String({ description: 'shown once: save it' }) });
export const WebhookCreatedEnvelopeSchema = Type.Object({
  success: Type.Literal(true),
  data: WebhookCreatedSchema,
  meta: Type.Object({ timestamp: Type.String({ format: 'date-time' }), message: Type.String() }),
});
export const WebhookSchema = Type.Object({
  ...WebhookFields,
  updatedAt: Type.String({ format: 'date-time' }),
  lastTriggered: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'time of the latest attempt' }),
  deliveryStats: Stats,
});

export const DeliverySchema = Type.Object({
  id: Type.String({ format: 'uuid', description: 'the attempt' }),
  webhookId: Type.String({ format: 'uuid' }),
  deliveryId: Type.String({ format: 'uuid', description: 'the delivery (one event to one webhook) the attempt belongs to' }),
  eventId: Type.String({ format: 'uuid', description: 'the payload id, for de-duplication' }),
  event: Type.String({ description: 'event name' }),
  attempt: Type.Integer({ description: '1..5, and on after a redelivery' }),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'the receiver’s HTTP status; null when none came' }),
  success: Type.Boolean(),
  error: Type.Optional(
    Type.String({
      description:
        'why the attempt failed: the receiver’s answer (`HTTP 500`), a connection error by its code, `refused: …` for a destination that is not public, or `not sent: …` when nothing was sent because the delivery’s row is not as the service wrote it (its URL, webhook or body changed in the database, docs/webhooks.md)',
    }),
  ),
  responseTime: Type.Integer({ description: 'milliseconds' }),
  attemptedAt: Type.String({ format: 'date-time' }),
  deliveryStatus: Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed'), Type.Literal('cancelled')], {
    description:
      'where the delivery this attempt belongs to stands now: pending (another attempt is due), delivered, failed (the fifth attempt failed: no more come), cancelled (the webhook was deactivated or deleted; an attempt already on its way that the receiver takes makes it delivered)',
  }),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'when the delivery is tried next, while it is pending; else null',
  }),
});
export const DeliveryListEnvelopeSchema = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(DeliverySchema),
  pagination: Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer() }),
  meta: Type.Object({ timestamp: Type.String({ format: 'date-time' }) }, { additionalProperties: true }),
});

export const TestResultSchema = Type.Object({
  delivered: Type.Boolean(),
  statusCode: Type.Union([Type.Integer(), Type.Null()], { description: 'null when no HTTP answer came' }),
  responseTime: Type.Integer({ description: 'milliseconds' }),
  message: Type.String(),
});
export const MessageSchema = Type.Object({ message: Type.String() });
