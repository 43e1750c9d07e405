import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeSchema, errorResponses, ok } from '../../kit/envelope.js';
import { HttpError } from '../../kit/errors.js';

const tags = ['system'];

/** Liveness and readiness, no key needed. */
export const systemRoutes: FastifyPluginAsyncTypebox<{ ready: () => Promise<{ ledger: boolean; readStore: boolean }> }> = async (
  app,
  { ready },
) => {
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
        summary: 'Readiness: the ledger and the read store answer',
        response: {
          200: EnvelopeSchema(Type.Object({ status: Type.Literal('ready'), ledger: Type.Boolean(), readStore: Type.Boolean() })),
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
