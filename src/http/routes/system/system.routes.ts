import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeSchema, errorResponses, ok } from '../../kit/envelope.js';
import { HttpError } from '../../kit/errors.js';

const tags = ['system'];

export const SealingSchema = Type.Object(
  {
    halted: Type.Array(
      Type.Object({
        tenantId: Type.String(),
        eventId: Type.String(),
        position: Type.Object({ commit: Type.Integer(), prepare: Type.Integer() }),
        reason: Type.String(),
        haltedAt: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  {
    description:
      "Tenants whose transparency log stopped sealing at an event the service did not append (or whose time goes back): the event's id, ledger position and why. The service stays ready for the others.",
  },
);

/** What /ready reports (src/ledger/readiness.ts). */
export type ReadyReport = { ledger: boolean; readStore: boolean; sealing: Static<typeof SealingSchema> };

/** Liveness and readiness, no key needed. */
export const systemRoutes: FastifyPluginAsyncTypebox<{ ready: () => Promise<ReadyReport> }> = async (app, { ready }) => {
  app.get(
    '/health',
    { schema: { tags, summary: 'Liveness', response: { 200: EnvelopeSchema(Type.Object({ status: Type.Literal('ok') })) } } },
    async () => ok({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      schema: {
        tags,
        summary: 'Readiness: the ledger and the read store answer; and any tenant whose log stopped sealing',
        response: {
          200: EnvelopeSchema(
            Type.Object({ status: Type.Literal('ready'), ledger: Type.Boolean(), readStore: Type.Boolean(), sealing: SealingSchema }),
          ),
          ...errorResponses(503),
        },
      },
    },
    async () => {
      const r = await ready();
      if (!r.ledger || !r.readStore) throw new HttpError(503, 'NOT_READY', 'not ready', r);
      return ok({ status: 'ready' as const, ...r });
    },
  );
};
