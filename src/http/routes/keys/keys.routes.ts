import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { TenantService } from '../../../tenants/tenants.service.js';
import { EnvelopeSchema, errorResponses, ok } from '../../kit/envelope.js';
import { ADMIN_SCOPES } from '../../scopes.js';
import { ApiKeySchema, KeyScopeSchema, NewKeySchema, UserTokenKeyView } from '../admin/admin.routes.js';

const tags = ['keys'];

const IssuedKeySchema = Type.Object({
  apiKey: Type.String(),
  apiSecret: Type.Union([Type.String(), Type.Null()], {
    description: 'shown once; only its hash is stored. Null for a publishable key, which has none',
  }),
  name: Type.Union([Type.String(), Type.Null()]),
  scope: KeyScopeSchema,
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  origins: Type.Optional(Type.Array(Type.String())),
  perMinute: Type.Optional(Type.Integer()),
  userTokenKey: Type.Optional(UserTokenKeyView),
});

/**
 * A tenant's own keys, managed with an admin key (docs/contract.md, Keys and scopes): issue one of
 * a scope, with a name and an expiry; list them with their last use; revoke one. Secrets are shown
 * once, at issue, and never listed.
 */
export const keysRoutes: FastifyPluginAsyncTypebox<{ tenants: TenantService }> = async (app, { tenants }) => {
  app.post(
    '/keys',
    {
      config: { scopes: ADMIN_SCOPES },
      schema: {
        tags,
        summary: 'Issue an API key of this tenant',
        description:
          'The body is optional: without a scope the key is an admin key; without expiresAt it never expires. A publishable key (scope publishable, `pk_…`, no secret) lists the origins it may be used from, may set its own budget per minute, and may name the Ed25519 key its user tokens are signed by, so that it records only for the user a token names (docs/browser.md).',
        'x-optional-body': true,
        body: Type.Optional(NewKeySchema),
        response: { 201: EnvelopeSchema(IssuedKeySchema), ...errorResponses(400, 401, 415) },
      },
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => {
      const issued = await tenants.issue(request.tenant.tenantId, request.body ?? {});
      return reply.status(201).send(
        ok({
          apiKey: issued.apiKey,
          apiSecret: issued.apiSecret,
          name: issued.keyName,
          scope: issued.scope,
          expiresAt: issued.expiresAt,
          ...(issued.origins ? { origins: issued.origins, perMinute: issued.perMinute, userTokenKey: issued.userTokenKey ?? null } : {}),
        }),
      );
    },
  );

  app.get(
    '/keys',
    {
      config: { scopes: ADMIN_SCOPES },
      schema: {
        tags,
        summary: "List this tenant's API keys (never their secrets)",
        response: { 200: EnvelopeSchema(Type.Array(ApiKeySchema)), ...errorResponses(401) },
      },
    },
    async (request) => ok(await tenants.listKeys(request.tenant.tenantId)),
  );

  app.delete(
    '/keys/:apiKey',
    {
      config: { scopes: ADMIN_SCOPES },
      schema: {
        tags,
        summary: 'Revoke an API key of this tenant (at once, on every process)',
        params: Type.Object({ apiKey: Type.String({ maxLength: 64 }) }),
        response: { 200: EnvelopeSchema(Type.Object({ message: Type.String() })), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await tenants.revokeKey(request.tenant.tenantId, request.params.apiKey);
      return ok({ message: 'API key revoked' });
    },
  );
};
