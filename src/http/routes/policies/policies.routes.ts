import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ANY_SCOPE } from '../../scopes.js';
import type { PolicyCommands } from '../../../application/policies/policy.commands.js';
import type { PolicyQueries } from '../../../application/policies/policy.queries.js';
import { EnvelopeSchema, errorResponses, ListEnvelopeSchema, ok, okList, pageOf } from '../../kit/envelope.js';
import { alias, validationError } from '../../kit/errors.js';
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
  OptionalPurposeQuerySchema,
  PurposeQuerySchema,
} from './policies.schemas.js';

const tags = ['policies'];

/** What the policy routes use: the policy commands and queries (src/application/policies). */
export interface PoliciesRoutesOptions {
  commands: PolicyCommands;
  queries: PolicyQueries;
}

export const policiesRoutes: FastifyPluginAsyncTypebox<PoliciesRoutesOptions> = async (app, { commands, queries }) => {
  app.post(
    '/policies',
    {
      // 1 MiB of content may take six times that as JSON escapes (`\u0001`), plus the other fields.
      bodyLimit: 6 * MAX_CONTENT_BYTES + 64 * 1024,
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
      const view = await commands.publish(request.tenant.tenantId, request.body);
      return reply.status(201).send(ok(view));
    },
  );

  app.get(
    '/policies',
    {
      config: { scopes: ANY_SCOPE },
      schema: {
        tags,
        summary: 'List policy versions (without content)',
        querystring: PolicyListQuerySchema,
        response: { 200: ListEnvelopeSchema(PolicyListItemSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const q = request.query;
      const { page, limit } = pageOf(q);
      const { items, total } = await queries.list(
        request.tenant.tenantId,
        {
          policyType: alias({ name: 'policyType', value: q.policyType }, { name: 'type', value: q.type }),
          purpose: q.purpose,
          isActive: alias({ name: 'isActive', value: q.isActive }, { name: 'is_active', value: q.is_active }),
        },
        page,
        limit,
      );
      return okList(items, page, limit, total);
    },
  );

  app.get(
    '/policies/active',
    {
      config: { scopes: ANY_SCOPE },
      schema: {
        tags,
        summary: 'The active version of a purpose',
        description:
          'As /policies/active/:policyType, for the versions published for a purpose (a defined one, or a policy type for the versions published without one).',
        querystring: PurposeQuerySchema,
        response: { 200: EnvelopeSchema(PolicySchema), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ok(await queries.activeFor(request.tenant.tenantId, request.query.purpose)),
  );

  app.get(
    '/policies/active/:policyType',
    {
      config: { scopes: ANY_SCOPE },
      schema: {
        tags,
        summary: 'The active version of a policy type',
        description:
          'The active version with the latest effectiveDate not in the future; ties go to the highest version. With `purpose`, among the versions of the type published for that purpose (a type of several purposes, such as custom, has an active version for each).',
        params: PolicyTypeParamsSchema,
        querystring: OptionalPurposeQuerySchema,
        response: { 200: EnvelopeSchema(PolicySchema), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ok(await queries.active(request.tenant.tenantId, request.params.policyType, request.query.purpose)),
  );

  app.get(
    '/policies/:id',
    {
      config: { scopes: ANY_SCOPE },
      schema: {
        tags,
        summary: 'Get a policy version',
        description:
          'The version as its ledger events hold it. 409 POLICY_TAMPERED when those events are not as the service wrote them (a row edited in the database: it no longer hashes and chains, or its authenticator no longer verifies): its text is then not the one published, and is not answered.',
        params: PolicyIdParamsSchema,
        response: { 200: EnvelopeSchema(PolicySchema), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ok(await queries.get(request.tenant.tenantId, request.params.id.toLowerCase())),
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
        ok(await commands.setActive(request.tenant.tenantId, request.params.id.toLowerCase(), request.body.isActive)),
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
      await commands.delete(request.tenant.tenantId, request.params.id.toLowerCase());
      return ok({ message: 'policy version deleted' });
    },
  );
};
