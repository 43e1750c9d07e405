import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { activePolicyVersionId, listPolicyVersions } from '../../../../projections/policy-versions/policy-versions.queries.js';
import { EnvelopeSchema, errorResponses, ListEnvelopeSchema, ok, okList } from '../../envelope.js';
import { HttpError, validationError } from '../../errors.js';
import type { AppDeps } from '../../app.js';
import {
  MAX_CONTENT_BYTES,
  MessageSchema,
  PolicyCreateSchema,
  PolicyIdParamsSchema,
  PolicyListItemSchema,
  PolicyListQuerySchema,
  PolicySchema,
  PolicyTypeParamsSchema,
  PolicyUpdateSchema,
} from './policies.schemas.js';

const tags = ['policies'];

export const policiesRoutes: FastifyPluginAsyncTypebox<{ deps: AppDeps }> = async (app, { deps }) => {
  app.post(
    '/policies',
    {
      schema: {
        tags,
        summary: 'Publish a policy version',
        body: PolicyCreateSchema,
        response: { 201: EnvelopeSchema(PolicySchema), ...errorResponses(400, 401, 409, 413, 415) },
      },
    },
    async (request, reply) => {
      if (Buffer.byteLength(request.body.content, 'utf8') > MAX_CONTENT_BYTES) {
        throw validationError([{ field: 'content', message: 'must be at most 1 MiB of UTF-8' }]);
      }
      const view = await deps.policies.publish(request.tenant.tenantId, request.body);
      return reply.status(201).send(ok(view));
    },
  );

  app.get(
    '/policies',
    {
      schema: {
        tags,
        summary: 'List policy versions (without content)',
        querystring: PolicyListQuerySchema,
        response: { 200: ListEnvelopeSchema(PolicyListItemSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const q = request.query;
      const page = q.page ?? 1;
      const limit = q.limit ?? 20;
      await deps.readFence(request.tenant.tenantId);
      const { items, total } = await listPolicyVersions(
        deps.db,
        request.tenant.tenantId,
        { policyType: q.policyType ?? q.type, isActive: q.isActive ?? q.is_active },
        page,
        limit,
      );
      return okList(items, page, limit, total);
    },
  );

  app.get(
    '/policies/active/:policyType',
    {
      schema: {
        tags,
        summary: 'The active version of a policy type',
        description: 'The active version with the latest effectiveDate not in the future; ties go to the highest version.',
        params: PolicyTypeParamsSchema,
        response: { 200: EnvelopeSchema(PolicySchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const tenantId = request.tenant.tenantId;
      await deps.readFence(tenantId);
      const id = await activePolicyVersionId(deps.db, tenantId, request.params.policyType, new Date());
      if (!id) throw new HttpError(404, 'NO_ACTIVE_POLICY', `no active ${request.params.policyType} version`);
      return ok(await deps.policies.get(tenantId, id));
    },
  );

  app.get(
    '/policies/:id',
    {
      schema: {
        tags,
        summary: 'Get a policy version',
        params: PolicyIdParamsSchema,
        response: { 200: EnvelopeSchema(PolicySchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await deps.policies.get(request.tenant.tenantId, request.params.id.toLowerCase())),
  );

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/policies/:id',
      schema: {
        tags,
        summary: `Activate or deactivate a policy version (${method})`,
        params: PolicyIdParamsSchema,
        body: PolicyUpdateSchema,
        response: { 200: EnvelopeSchema(PolicySchema), ...errorResponses(400, 401, 404, 409, 415) },
      },
      handler: async (request) =>
        ok(await deps.policies.setActive(request.tenant.tenantId, request.params.id.toLowerCase(), request.body.isActive)),
    });
  }

  app.delete(
    '/policies/:id',
    {
      schema: {
        tags,
        summary: 'Delete a policy version',
        description: 'The version leaves every list; its consents keep their policy details and still verify.',
        params: PolicyIdParamsSchema,
        response: { 200: EnvelopeSchema(MessageSchema), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => {
      await deps.policies.delete(request.tenant.tenantId, request.params.id.toLowerCase());
      return ok({ message: 'policy version deleted' });
    },
  );
};
