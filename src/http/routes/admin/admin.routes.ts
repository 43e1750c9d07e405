import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { PLANS } from '../../../tenants/plans.js';
import { KEY_SCOPES } from '../../../tenants/key-scopes.js';
import type { TenantService } from '../../../tenants/tenants.service.js';
import { BackupNotAvailableError, type BackupTaken } from '../../../backup/backup.js';
import { EnvelopeSchema, errorResponses, ok } from '../../kit/envelope.js';
import { HttpError } from '../../kit/errors.js';

const tags = ['admin'];
const PlanSchema = Type.Union(PLANS.map((p) => Type.Literal(p)));
/** What a key may do (docs/contract.md, Keys and scopes). */
export const KeyScopeSchema = Type.Union(
  KEY_SCOPES.map((s) => Type.Literal(s)),
  {
    description:
      'admin: everything; write: record and withdraw (no reading records back); read: read, verify, prove, export, receipts (no writing); publishable: pk_… with no secret, records decisions from a browser on the origins it lists, nothing else (docs/browser.md)',
  },
);
/** A new key: its scope (admin unless said), its label, its expiry. */
export const NewKeySchema = Type.Object(
  {
    scope: Type.Optional(KeyScopeSchema),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'a label of your own, e.g. "auditor 2027"' })),
    expiresAt: Type.Optional(
      Type.String({ format: 'date-time', description: 'when the key stops working (in the future); absent: never' }),
    ),
    origins: Type.Optional(
      Type.Array(Type.String({ maxLength: 300, examples: ['https://shop.example.com'] }), {
        minItems: 1,
        maxItems: 20,
        description: 'publishable keys only (and required there): the origins (scheme://host[:port]) the key may be used from',
      }),
    ),
    perMinute: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100_000,
        description: "publishable keys only: the key's own budget per minute (default 60; per day 1,440 times it), apart from its tenant's",
      }),
    ),

    userTokenKey: Type.Optional(
      Type.String({
        maxLength: 1000,
        description:
          'publishable keys only: an Ed25519 public key (PEM, or its 32 bytes in hex, base64 or base64url). With one, each decision the key records must carry X-User-Token, a JWT (EdDSA) your backend signs with the private key naming the userReference as its sub (docs/browser.md)',
      }),
    ),
  },
  { additionalProperties: false },
);
/** A key as its tenant and the operator see it: never its secret. */
/** A publishable key's user-token key as shown: its 32 bytes in base64url, or null (it needs no user token). */
export const UserTokenKeyView = Type.Union([Type.String(), Type.Null()], {
  description: "publishable keys: the Ed25519 public key (32 bytes, base64url) the key's user tokens are signed by; null: it needs none",
});
export const ApiKeySchema = Type.Object({
  apiKey: Type.String(),
  name: Type.Union([Type.String(), Type.Null()]),
  scope: KeyScopeSchema,
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'to within a minute; null: never used' }),
  revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  origins: Type.Optional(Type.Array(Type.String(), { description: 'publishable keys: the origins allowed' })),
  perMinute: Type.Optional(Type.Integer({ description: "publishable keys: the key's own budget per minute" })),
  userTokenKey: Type.Optional(UserTokenKeyView),
});
const Limit = Type.Union([Type.Integer({ minimum: 1, maximum: 1_000_000_000 }), Type.Null()]);

const CredentialsSchema = Type.Object({
  tenantId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  plan: Type.String(),
  apiKey: Type.String(),
  apiSecret: Type.Union([Type.String(), Type.Null()], {
    description: 'shown once; only its hash is stored. Null for a publishable key, which has none',
  }),
  scope: KeyScopeSchema,
  keyName: Type.Union([Type.String(), Type.Null()]),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  origins: Type.Optional(Type.Array(Type.String())),
  perMinute: Type.Optional(Type.Integer()),
  userTokenKey: Type.Optional(UserTokenKeyView),
});
const TenantSchema = Type.Object({
  tenantId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  plan: Type.String(),
  limits: Type.Object({ perMinute: Type.Integer(), perDay: Type.Integer() }),
  createdAt: Type.String({ format: 'date-time' }),
});
const TenantWithKeysSchema = Type.Object({
  ...TenantSchema.properties,
  keys: Type.Array(ApiKeySchema),
});
const TenantParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Operator API: tenants, plans and keys, backups. Registered only when ADMIN_TOKEN is set. */
export const adminRoutes: FastifyPluginAsyncTypebox<{ tenants: TenantService; backup: () => BackupTaken }> = async (
  app,
  { tenants, backup },
) => {
  app.post(
    '/backup',
    {
      schema: {
        tags,
        summary: 'Stream a backup of the running embedded store',
        description:
          "A consistent archive (tar.gz) of the embedded store, taken while the service keeps answering: PostgreSQL's online base backup (the files, then the WAL written meanwhile, replayed on restore). It holds every event acknowledged before it ends. It holds NO key: restoring (`npx consent-ledger restore --from FILE --data-dir DIR`) needs the master and signing key files the store was created with; keep them backed up apart. One backup at a time (409 BACKUP_IN_PROGRESS); on a PostgreSQL server use pg_dump (409 BACKUP_NOT_AVAILABLE). Once the response is sent whole the backup is recorded (metric consent_ledger_backup_last_success_timestamp_seconds); a download cut off is not. See docs/operations.md, Backups.",
        response: {
          200: {
            description: 'The archive, streamed as it is taken',
            content: { 'application/gzip': { schema: { type: 'string', format: 'binary', description: 'tar.gz' } } },
          },
          ...errorResponses(401, 409),
        },
      },
    },
    async (_request, reply) => {
      let taken: BackupTaken;
      try {
        taken = backup();
      } catch (error) {
        if (error instanceof BackupNotAvailableError) throw new HttpError(409, error.code, error.message);
        throw error;
      }
      // Sent whole: recorded for the age metric (an aborted download is not a backup).
      reply.raw.once('finish', () => {
        taken.written().catch((error: unknown) => reply.log.warn({ err: error }, 'the backup was sent but could not be recorded'));
      });
      const at = new Date().toISOString().replace(/[:.]/g, '-');
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="consent-ledger-backup-${at}.tar.gz"`)
        .header('cache-control', 'no-store')
        .send(taken.archive);
    },
  );

  app.post(
    '/tenants',
    {
      schema: {
        tags,
        summary: 'Create a tenant and its first API key',
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), plan: PlanSchema }, { additionalProperties: false }),
        response: { 201: EnvelopeSchema(CredentialsSchema), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => reply.status(201).send(ok(await tenants.create(request.body.name, request.body.plan))),
  );

  app.get(
    '/tenants',
    {
      schema: {
        tags,
        summary: 'List tenants and their keys',
        response: { 200: EnvelopeSchema(Type.Array(TenantWithKeysSchema)), ...errorResponses(401) },
      },
    },
    async () => ok(await tenants.list()),
  );

  app.patch(
    '/tenants/:id',
    {
      schema: {
        tags,
        summary: "Change a tenant's plan or its own limits",
        params: TenantParams,
        body: Type.Object(
          {
            plan: Type.Optional(PlanSchema),
            // null, or a limit null: the plan's again.
            limits: Type.Optional(
              Type.Union([
                Type.Object({ perMinute: Type.Optional(Limit), perDay: Type.Optional(Limit) }, { additionalProperties: false }),
                Type.Null(),
              ]),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: EnvelopeSchema(TenantSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const { plan, limits } = request.body;
      const own = limits === null ? { perMinute: null, perDay: null } : limits;
      return ok(await tenants.update(request.params.id, { ...(plan ? { plan } : {}), ...(own ? { limits: own } : {}) }));
    },
  );

  app.post(
    '/tenants/:id/keys',
    {
      schema: {
        tags,
        summary: 'Issue another API key',
        description: 'The body is optional: without a scope the key is an admin key; without expiresAt it never expires.',
        'x-optional-body': true,
        params: TenantParams,
        body: Type.Optional(NewKeySchema),
        response: { 201: EnvelopeSchema(CredentialsSchema), ...errorResponses(400, 401, 404) },
      },
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => reply.status(201).send(ok(await tenants.issue(request.params.id, request.body ?? {}))),
  );

  app.delete(
    '/tenants/:id/keys/:apiKey',
    {
      schema: {
        tags,
        summary: 'Revoke an API key',
        params: Type.Object({ id: Type.String({ format: 'uuid' }), apiKey: Type.String({ maxLength: 64 }) }),
        response: { 200: EnvelopeSchema(Type.Object({ message: Type.String() })), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      await tenants.revokeKey(request.params.id, request.params.apiKey);
      return ok({ message: 'API key revoked' });
    },
  );
};
