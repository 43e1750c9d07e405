import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type Static } from '@sinclair/typebox';
import { AUDIT_CSV_COLUMNS, auditCsvRow, type AuditLog, type AuditLogFilter } from '../../../application/config/audit-log.js';
import { AUDIT_ACTIONS, AUDIT_TARGETS } from '../../../domain/config/audit-entry.js';
import { csvStream } from '../../../export/csv.js';
import type { TransparencyService } from '../../../transparency/transparency.service.js';
import { EnvelopeSchema, errorResponses, ListEnvelopeSchema, ok, okList, PageQuery, pageOf, wantsCsv } from '../../kit/envelope.js';
import { queryBounds } from '../../kit/errors.js';
import { READ_SCOPES } from '../../scopes.js';
import { EventProofSchema, proofOrNotReady } from '../transparency/transparency.routes.js';

const tags = ['audit-log'];

const AuditEntrySchema = Type.Object({
  id: Type.String({ format: 'uuid', description: "the ledger event's id" }),
  action: Type.Union(AUDIT_ACTIONS.map((a) => Type.Literal(a))),
  at: Type.String({ format: 'date-time', description: 'when the change was appended to the ledger' }),
  actor: Type.Union([
    Type.Object({
      type: Type.String({ description: 'key, operator (the admin API), cli or service (an expiry the service recorded)' }),
      id: Type.Union([Type.String(), Type.Null()], { description: "the key's public id when the actor is a key" }),
    }),
    Type.Null(),
  ]),
  target: Type.Object({
    type: Type.Union(AUDIT_TARGETS.map((t) => Type.Literal(t))),
    id: Type.Union([Type.String(), Type.Null()]),
  }),
  details: Type.Object({}, { additionalProperties: true, description: 'what changed; never a secret' }),
  stream: Type.String(),
  revision: Type.Integer(),
  eventHash: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

const AuditQuerySchema = Type.Object({
  ...PageQuery,
  action: Type.Optional(Type.Union(AUDIT_ACTIONS.map((a) => Type.Literal(a)))),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: "operator, cli, service, or a key's id (ck_…)" })),
  from: Type.Optional(Type.String({ format: 'date-or-date-time', description: 'inclusive; a date covers its whole UTC day' })),
  to: Type.Optional(Type.String({ format: 'date-or-date-time', description: 'inclusive; a date covers its whole UTC day' })),
  format: Type.Optional(Type.Literal('csv', { description: 'csv: every matching entry, oldest first (or Accept: text/csv)' })),
});

const filterOf = (q: Static<typeof AuditQuerySchema>): AuditLogFilter => {
  const { from, before } = queryBounds({ name: 'from', value: q.from }, { name: 'to', value: q.to });
  return { action: q.action, actor: q.actor, from, before };
};

/**
 * The operator audit trail (docs/audit-log.md): every change to the tenant's configuration, with
 * who made it, as a page or as CSV, and each entry's inclusion proof in the transparency log.
 */
export const auditLogRoutes: FastifyPluginAsyncTypebox<{ auditLog: AuditLog; transparency: TransparencyService }> = async (
  app,
  { auditLog, transparency },
) => {
  app.get(
    '/audit-log',
    {
      config: { scopes: READ_SCOPES },
      schema: {
        tags,
        summary: "The tenant's configuration changes, who made them, when",
        description:
          "Keys issued, revoked or expired; plan and limit changes; webhooks created, changed or deleted; purposes and policy versions; erasures; master and signing key rotations. Each is a ledger event in the tenant's log, hashed, chained and sealed into its transparency log (its proof: /audit-log/{id}/proof). A page as JSON, newest first; or every matching entry as CSV, oldest first, with format=csv or Accept: text/csv.",
        querystring: AuditQuerySchema,
        response: {
          200: {
            description: 'A page (JSON), or every matching entry (CSV, streamed)',
            content: {
              'application/json': { schema: ListEnvelopeSchema(AuditEntrySchema) },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const filter = filterOf(request.query);
      const { format } = request.query;
      const csv = wantsCsv(format, request.headers.accept);
      if (!csv) {
        const { page, limit } = pageOf(request.query);
        const { items, total } = await auditLog.page(request.tenant.tenantId, filter, page, limit);
        return okList(items, page, limit, total);
      }
      const entries = await auditLog.all(request.tenant.tenantId, filter);
      const rows = (async function* () {
        for await (const e of entries) yield auditCsvRow(e);
      })();
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${new Date().toISOString().slice(0, 10)}.csv"`)
        .send(csvStream(AUDIT_CSV_COLUMNS, rows));
    },
  );

  app.get(
    '/audit-log/:id/proof',
    {
      config: { scopes: READ_SCOPES },
      schema: {
        tags,
        summary: "Inclusion proof of an audit log entry's event in the newest signed checkpoint",
        description:
          'The entry’s ledger event, its eventHash and leaf index, and the RFC 9162 inclusion path to the root the signed checkpoint states: checked as a consent’s proof is (docs/verifying.md). 409 ROLLBACK when the newest checkpoint no longer covers its sealed leaf.',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: EnvelopeSchema(EventProofSchema), ...errorResponses(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => {
      const entry = await auditLog.entry(request.tenant.tenantId, request.params.id.toLowerCase());
      return ok(await proofOrNotReady(transparency.proofForEvent(request.tenant.tenantId, entry.stream, entry.id)));
    },
  );
};
