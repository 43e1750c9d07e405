import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EnvelopeSchema, errorResponses, ok } from '../http/envelope.js';
import type { SubjectErasure } from './erasure.js';

export const SubjectParamsSchema = Type.Object({
  userReference: Type.String({ minLength: 1, maxLength: 255, description: 'your identifier of the end user, 1..255 characters' }),
});

export const ErasureSchema = Type.Object({
  erased: Type.Literal(true),
  erasedAt: Type.String({ format: 'date-time', description: 'when the erasure was recorded (the first request, for a repeat)' }),
  consentIds: Type.Array(Type.String({ format: 'uuid' }), { description: 'the records it covered: they remain, with personal fields null and erased: true' }),
  receiptsDeleted: Type.Integer({ description: 'stored PDF receipts deleted by this request' }),
});

/** `POST /subjects/:userReference/erase` (docs/erasure.md). */
export const erasureRoutes: FastifyPluginAsyncTypebox<{ erasure: SubjectErasure }> = async (app, { erasure }) => {
  app.post(
    '/subjects/:userReference/erase',
    {
      schema: {
        tags: ['consent'],
        summary: "Erase a data subject's personal data (GDPR Art. 17)",
        description:
          "Destroys the data keys of the subject's records (crypto-shredding), records SubjectErased, deletes their stored receipts and clears their webhook payloads, and emits subject.erased. Their records remain with decision, time and consentHash; personal fields become null and verify answers erased. Idempotent: a repeat answers the same erasure.",
        params: SubjectParamsSchema,
        response: { 200: EnvelopeSchema(ErasureSchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const { view, replayed } = await erasure.erase(request.tenant.tenantId, request.params.userReference);
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return ok(view);
    },
  );
};
