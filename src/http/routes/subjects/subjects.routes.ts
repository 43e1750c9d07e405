import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from '@sinclair/typebox';
import { EnvelopeSchema, errorResponses, ok } from '../../kit/envelope.js';
import { UserReferenceSchema } from '../consent/consent.schemas.js';
import type { SubjectErasure } from '../../../application/subjects/erasure.js';

export const SubjectParamsSchema = Type.Object({ userReference: UserReferenceSchema });
export const SubjectBodySchema = Type.Object({ userReference: UserReferenceSchema }, { additionalProperties: false });

export const ErasureSchema = Type.Object({
  erased: Type.Literal(true),
  erasedAt: Type.String({ format: 'date-time', description: 'when the erasure was recorded (the first request, for a repeat)' }),
  consentIds: Type.Array(Type.String({ format: 'uuid' }), {
    description: 'the records it covered: they remain, with personal fields null and erased: true',
  }),
  receiptsDeleted: Type.Integer({ description: 'stored PDF receipts deleted by this request' }),
});

const DESCRIPTION =
  "Destroys the data keys of the subject's records (crypto-shredding), records SubjectErased, deletes their stored receipts and clears their webhook payloads, and emits subject.erased. Their records remain with decision, time and consentHash; personal fields become null and verify answers erased. Idempotent: a repeat answers the same erasure.";

/**
 * `POST /subjects/:userReference/erase` (the reference percent-encoded: any of its 255 characters)
 * and `POST /subjects/erase` with `{"userReference": …}` for clients that would rather not encode
 * it (docs/erasure.md).
 */
export const erasureRoutes: FastifyPluginAsyncTypebox<{ erasure: SubjectErasure }> = async (app, { erasure }) => {
  const response = { 200: EnvelopeSchema(ErasureSchema), ...errorResponses(400, 401, 409) };
  const answer = async (tenantId: string, userReference: string, reply: FastifyReply) => {
    const { view, replayed } = await erasure.erase(tenantId, userReference);
    if (replayed) void reply.header('idempotent-replayed', 'true');
    return ok(view);
  };
  app.post(
    '/subjects/:userReference/erase',
    {
      schema: {
        tags: ['consent'],
        summary: "Erase a data subject's personal data (GDPR Art. 17)",
        description: `${DESCRIPTION} Percent-encode the reference (\`/\` as %2F, \`?\` as %3F, \`%\` as %25); or send it in the body to POST /subjects/erase.`,
        params: SubjectParamsSchema,
        response,
      },
    },
    async (request, reply) => answer(request.tenant.tenantId, request.params.userReference, reply),
  );
  app.post(
    '/subjects/erase',
    {
      schema: {
        tags: ['consent'],
        summary: "Erase a data subject's personal data, the reference in the body",
        description: `${DESCRIPTION} The same as POST /subjects/{userReference}/erase, without encoding the reference.`,
        body: SubjectBodySchema,
        response,
      },
    },
    async (request, reply) => answer(request.tenant.tenantId, request.body.userReference, reply),
  );
};
