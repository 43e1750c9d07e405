import { unmapped } from '../../../common/addresses.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RECORD_SCOPES, WRITE_SCOPES } from '../../scopes.js';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LedgerPosition } from '../../../ledger/ledger.port.js';
import type { StandardRecords } from '../../../export/standard-records.js';
import type { ConsentCommands, ConsentInput } from '../../../application/consents/consent.commands.js';
import type { ConsentQueries, ConsentQuery } from '../../../application/consents/consent.queries.js';
import type { ConsentView } from '../../../application/consents/consent.views.js';
import type { Idempotency } from '../../../application/idempotency.js';
import { consentsCsv, csvStream, jsonLines } from '../../../export/csv.js';
import { hashCanonical } from '../../../common/hashing.js';
import { EnvelopeSchema, errorResponses, ListEnvelopeSchema, ok, okList, pageOf, wantsCsv } from '../../kit/envelope.js';
import { alias, HttpError, queryBounds, validationError } from '../../kit/errors.js';
import { vouchedUserReference } from '../../auth.js';
import { fieldErrors } from '../../kit/validation.js';
import {
  BatchResultSchema,
  CollectedConsentSchema,
  ConsentBatchSchema,
  ConsentCreateSchema,
  ConsentFilterQuerySchema,
  ExportQuerySchema,
  RecordFormatQuerySchema,
  StandardRecordSchema,
  ConsentIdParamsSchema,
  ConsentSchema,
  ConsentSearchQuerySchema,
  UserConsentsQuerySchema,
  IdempotencyHeadersSchema,
  RecordHeadersSchema,
  RecordedConsentSchema,
  SearchItemSchema,
  StatsSchema,
  UserConsentSchema,
  UserParamsSchema,
  UserStatusSchema,
  VerificationSchema,
  VerifyQuerySchema,
  WithdrawSchema,
  ReconsentItemSchema,
  ReconsentQuerySchema,
  UserStatusQuerySchema,
  WithdrawnStandingSchema,
  WithdrawalSchema,
  WithdrawnSchema,
  WithdrawStandingBodySchema,
  WithdrawStandingSchema,
  type ConsentBatchItem,
  type ConsentBatchRequestItem,
  type ResolvedConsent,
  type ConsentFilterQuery,
} from './consent.schemas.js';
import { importedErrors, itemErrors, NAMING_FIELDS, namingErrors } from './consent.checks.js';
import { DomainError } from '../../../domain/errors.js';
import { PolicyTypeSchema, PurposeKeySchema } from '../policies/policies.schemas.js';

const tags = ['consent'];

/** The filters OpenAPI cannot list as parameters (their names follow a pattern). */
const METADATA_FILTERS =
  'Also metadata.<key>=<value> (up to 5, each must match; key: any top-level key of 1 to 64 characters other than ".", percent-encoded): a top-level metadata value whose text equals <value>, whatever its JSON type (metadata.source=web, metadata.step=2).';

/** Query-string filters to a consent query; its time bounds are inclusive (`inclusiveBounds`). */
export function toQuery(q: ConsentFilterQuery): ConsentQuery {
  const { from, before } = queryBounds({ name: 'startDate', value: q.startDate }, { name: 'endDate', value: q.endDate });
  const metadata = Object.fromEntries(
    Object.entries(q as Record<string, unknown>).flatMap(([k, v]) =>
      k.startsWith('metadata.') && typeof v === 'string' ? [[k.slice(9), v]] : [],
    ),
  );
  if (Object.keys(metadata).length > 5) throw validationError([{ field: 'metadata', message: 'may be filtered on at most 5 keys' }]);
  return {
    userReference: q.userReference,
    policyType: alias({ name: 'policyType', value: q.policyType }, { name: 'consent_type', value: q.consent_type }),
    policyVersionId: q.policyVersionId?.toLowerCase(),
    purpose: q.purpose,
    metadata: Object.keys(metadata).length > 0 ? metadata : undefined,
    consentGiven: alias({ name: 'consentGiven', value: q.consentGiven }, { name: 'granted', value: q.granted }),
    status: q.status,
    from,
    before,
  };
}

type ItemError = { index: number; field: string; message: string };

/**
 * A batch body's schema errors, item by item. Errors that belong to no item (no `consents`, too
 * many items, not an object) are thrown as they are.
 */
function batchSchemaErrors(error: Error & { validation?: unknown; validationContext?: string }): ItemError[] {
  if (error.validationContext !== 'body' || !Array.isArray(error.validation)) throw error;
  const errors = fieldErrors(error.validation as never).map((e) => ({
    index: Number(/^consents\[(\d+)\]/.exec(e.field)?.[1] ?? NaN),
    ...e,
  }));
  if (errors.some((e) => Number.isNaN(e.index))) throw error;
  return errors;
}

/**
 * A single decision's schema errors, with the version's naming added when the body names none
 * (`{}` is told policyVersionId is required along with the rest). Any other failure as it came.
 */
function withNamingErrors(error: Error & { validation?: unknown; validationContext?: string }, body: unknown): Error {
  if (error.validationContext !== 'body' || !Array.isArray(error.validation)) return error;
  const errors = fieldErrors(error.validation as never);
  const object = typeof body === 'object' && body !== null && !Array.isArray(body);
  const naming = object && !errors.some((e) => NAMING_FIELDS.has(e.field)) ? namingErrors(body as Record<string, undefined>, '') : [];
  return validationError([...errors, ...naming]);
}

function toInput(item: ResolvedConsent | ConsentBatchItem, request: FastifyRequest): ConsentInput {
  const imported = item as ConsentBatchItem;
  // A decision moved in from another platform was not made from this request: it keeps what is sent.
  const ua = imported.collectedAt === undefined ? request.headers['user-agent'] : undefined;
  const ip = imported.collectedAt === undefined ? unmapped(request.ip) : undefined;
  return {
    ...(imported.collectedAt === undefined ? {} : { collectedAt: new Date(imported.collectedAt).toISOString() }),
    ...(imported.withdrawnAt === undefined ? {} : { withdrawnAt: new Date(imported.withdrawnAt).toISOString() }),
    policyVersionId: item.policyVersionId.toLowerCase(),
    userReference: item.userReference,
    consentGiven: item.consentGiven,
    ipAddress: item.ipAddress ?? ip,
    userAgent: item.userAgent ?? (ua ? ua.slice(0, 1024) : undefined),
    metadata: item.metadata ?? {},
  };
}

/** One purpose, or one policy type: exactly one of the two names what to withdraw. */
function standingOf(body: { purpose?: string | undefined; policyType?: string | undefined }): { purpose: string } | { policyType: string } {
  if ((body.purpose === undefined) === (body.policyType === undefined)) {
    throw validationError([{ field: 'purpose', message: 'or policyType is required, and only one of the two' }]);
  }
  return body.purpose !== undefined ? { purpose: body.purpose } : { policyType: body.policyType! };
}

/** A withdrawn record as the caller may see it: a `write` key reads no record back, only its withdrawal. */
function withdrawnAsSeenBy(request: FastifyRequest, view: ConsentView): ConsentView | Static<typeof WithdrawalSchema> {
  if (request.tenant.scope !== 'write') return view;
  return { id: view.id, status: 'withdrawn', withdrawnAt: view.withdrawnAt!, withdrawalReason: view.withdrawalReason };
}

/**
 * The Idempotency-Key as kept: a publishable key is public, so its keys are its own (`pk_…:sent`),
 * and a page can neither replay nor probe a record another key made under the same one. A secret
 * key's that would read as such (`pk_…`) is kept apart too, so that no other key reaches them.
 */
function keptIdempotencyKey(request: FastifyRequest, sent: string): string {
  if (request.tenant.scope === 'publishable') return `${request.tenant.apiKey}:${sent}`;
  return sent.startsWith('pk_') ? `secret:${sent}` : sent;
}

function idempotencyOf(request: FastifyRequest): Idempotency | undefined {
  const sent = request.headers['idempotency-key'];
  if (typeof sent !== 'string') return undefined;
  const key = keptIdempotencyKey(request, sent);
  // The operation, not the prefix it came by: /v1 and /api/v1 are the same API.
  const route = (request.routeOptions.url ?? '').replace(/^\/(api\/)?v1(?=\/)/, '');
  return { key, requestHash: hashCanonical({ route, params: request.params ?? {}, body: request.body ?? null }) };
}

/** What the consent routes use: the consent commands and queries (src/application/consents). */
export interface ConsentRoutesOptions {
  commands: ConsentCommands;
  queries: ConsentQueries;
  /** Records in the standard form (ISO/IEC TS 27560). */
  standard: StandardRecords;
  /**
   * The ledger state an export reflects, which it names in its headers: where the read models
   * stand before the export reads them, then the tenant's newest signed checkpoint within that.
   */
  ledgerState?: {
    readModelsAt(): Promise<LedgerPosition>;
    within(tenantId: string, at: LedgerPosition): Promise<{ treeSize: number; rootHash: string; timestamp: string } | null>;
  };
  /**
   * The id of the version in force now for a purpose or a policy type (NO_ACTIVE_POLICY when none;
   * VALIDATION_ERROR when a type alone has versions of several purposes and none of its own).
   */
  activeVersion: (tenantId: string, of: { purpose: string } | { policyType: string }) => Promise<string>;
  /** For imported decisions: a picker of the version in force at a time (its picks throw NO_ACTIVE_POLICY when none was; VALIDATION_ERROR as activeVersion). */
  versionInForceAt: (tenantId: string, of: { purpose: string } | { policyType: string }) => Promise<(at: string) => string>;
  /** A record's public verification link (the receipt's QR code), which the page then answers for. */
  publicLink: (tenantId: string, consentId: string, consentHash: string) => Promise<string>;
}

export const consentRoutes: FastifyPluginAsyncTypebox<ConsentRoutesOptions> = async (
  app,
  { commands, queries, standard, ledgerState, activeVersion, versionInForceAt, publicLink },
) => {
  /**
   * Opens an export's records, and names in its headers the newest signed checkpoint whose every
   * event they reflect. `read` passes the read fence and answers a stream whose pages are read as
   * it is sent; the read models' position is taken in between (they only move on), so every event
   * up to it is in the pages, even when the fence gave up waiting for models far behind.
   */
  const exportOf = async <T>(tenantId: string, reply: FastifyReply, read: () => Promise<AsyncIterable<T>>): Promise<AsyncIterable<T>> => {
    const records = await read();
    const at = await ledgerState?.readModelsAt();
    const state = at && (await ledgerState!.within(tenantId, at));
    if (state) {
      reply
        .header('x-ledger-tree-size', String(state.treeSize))
        .header('x-ledger-root-hash', state.rootHash)
        .header('x-ledger-signed-at', state.timestamp);
    } else if (ledgerState) reply.header('x-ledger-tree-size', '0');
    return records;
  };

  /**
   * The batch's items with each version named by its id: a purpose's or type's version in force
   * now, looked up once per name; a name with none is an item's error, like any other.
   */
  const resolveVersions = async (tenantId: string, items: ConsentBatchRequestItem[], errors: ItemError[]): Promise<ConsentBatchItem[]> => {
    const bad = new Set(errors.map((e) => e.index));
    const versions = new Map<string, Promise<string>>();
    const pickers = new Map<string, Promise<(at: string) => string>>();
    const resolved: ConsentBatchItem[] = [];
    for (const [index, item] of items.entries()) {
      // An item the schema refused may be anything (null, a string): it is only counted.
      if (bad.has(index)) {
        resolved.push(item as ConsentBatchItem);
        continue;
      }
      const { purpose, policyType, policyVersionId, ...rest } = item;
      if (policyVersionId !== undefined) {
        resolved.push({ ...rest, policyVersionId });
        continue;
      }
      const of = purpose !== undefined ? { purpose } : { policyType: policyType! };
      const name = 'purpose' in of ? `purpose ${of.purpose}` : `type ${of.policyType}`;
      try {
        if (rest.collectedAt !== undefined) {
          // An imported decision: the version in force when it was made.
          if (!pickers.has(name)) pickers.set(name, versionInForceAt(tenantId, of));
          resolved.push({ ...rest, policyVersionId: (await pickers.get(name)!)(rest.collectedAt) });
          continue;
        }
        if (!versions.has(name)) versions.set(name, activeVersion(tenantId, of));
        resolved.push({ ...rest, policyVersionId: await versions.get(name)! });
      } catch (error) {
        // No version in force, or a type alone that names several purposes: this item's error.
        if (!(error instanceof DomainError) || (error.code !== 'NO_ACTIVE_POLICY' && error.code !== 'VALIDATION_ERROR')) throw error;
        errors.push({ index, field: `consents[${index}].${'purpose' in of ? 'purpose' : 'policyType'}`, message: error.message });
        resolved.push({ ...rest, policyVersionId: '' });
      }
    }
    return resolved;
  };

  // Read models know subjects (keyed hashes), never user references.
  app.post(
    '/consent',
    {
      // The one route a publishable key may call, from a browser on an allowed origin (CORS, docs/browser.md).
      config: { scopes: RECORD_SCOPES, browser: true },
      // The schema's errors come to the handler, which adds how the version is named (not a schema rule).
      attachValidation: true,
      schema: {
        tags,
        summary: 'Record a consent decision',
        description:
          "On a policy version by its id, or on the version in force now for a purpose or a policy type (exactly one of policyVersionId, purpose, policyType). A policy type alone names its own purpose, else its only purpose: with versions of several purposes and none of its own it is 400 VALIDATION_ERROR (give the purpose). A publishable key (from a browser on one of its origins) is answered only the record's id and its public verification link; it may not state ipAddress or userAgent (400: they are the request's), and its Idempotency-Keys are its own (a key another API key used records anew). A publishable key issued with a userTokenKey records only with X-User-Token, a JWT your backend signs for the visitor: 401 UNAUTHORIZED without one that verifies, 403 FORBIDDEN when it names another userReference (docs/browser.md).",
        headers: RecordHeadersSchema,
        body: ConsentCreateSchema,
        response: {
          201: EnvelopeSchema(Type.Union([RecordedConsentSchema, CollectedConsentSchema])),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      // Who may be recorded comes before what: a key that needs a user token answers 401 without one.
      const vouched = vouchedUserReference(request);
      if (request.validationError) throw withNamingErrors(request.validationError, request.body);
      if (vouched !== undefined && vouched !== request.body.userReference) {
        throw new HttpError(
          403,
          'FORBIDDEN',
          "X-User-Token was issued for another userReference: a page records only its own user's decisions",
        );
      }
      const errors = [...itemErrors(request.body, ''), ...namingErrors(request.body, '')];
      // From a browser, what the request itself shows is the visitor's: a page does not say it.
      if (request.tenant.scope === 'publishable')
        for (const field of ['ipAddress', 'userAgent'] as const)
          if (request.body[field] !== undefined)
            errors.push({ field, message: 'is taken from the request with a publishable key: leave it out' });
      const { policyVersionId, purpose, policyType, ...rest } = request.body;
      if (errors.length > 0) throw validationError(errors);
      const tenantId = request.tenant.tenantId;
      const versionId =
        policyVersionId ?? (await activeVersion(tenantId, purpose !== undefined ? { purpose } : { policyType: policyType! }));
      const input = toInput({ ...rest, policyVersionId: versionId }, request);
      const { view, replayed } = await commands.record(tenantId, input, idempotencyOf(request));
      if (replayed) void reply.header('idempotent-replayed', 'true');
      if (request.tenant.scope === 'publishable') {
        // It may read nothing back: the id and the public link anyone holding it may check.
        const verifyUrl = await publicLink(tenantId, view.id, view.consentHash);
        return reply.status(201).send(ok({ id: view.id, verifyUrl }, { timestamp: view.timestamp }));
      }
      return reply.status(201).send(ok(view, { timestamp: view.timestamp }));
    },
  );

  app.post(
    '/consent/batch',
    {
      bodyLimit: 24 * 1024 * 1024,
      // Every bad item is named, schema errors and the rest together: the route takes the
      // validation error and the unstorable-value check into its own hands.
      attachValidation: true,
      config: { scopes: WRITE_SCOPES, itemizedBodyChecks: true },
      schema: {
        tags,
        summary: 'Record up to 1,000 decisions, all or nothing',
        description:
          'Each item names its version as a single decision does: policyVersionId, or purpose or policyType for the version in force now (exactly one; for an imported item, with collectedAt, the version that was in force then: the latest effectiveDate at or before it; a policy type alone names its own purpose, else its only one, else the item is refused). Any invalid item refuses the whole batch (400) and error.details.errors lists {index, field, message} for every one.',
        headers: IdempotencyHeadersSchema,
        body: ConsentBatchSchema,
        response: { 201: EnvelopeSchema(BatchResultSchema), ...errorResponses(400, 401, 409, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const errors = request.validationError ? batchSchemaErrors(request.validationError) : [];
      const schemaBad = new Set(errors.map((e) => e.index));
      const now = new Date();
      request.body.consents.forEach((item, index) => {
        if (schemaBad.has(index)) return;
        const prefix = `consents[${index}].`;
        const found = [...itemErrors(item, prefix), ...namingErrors(item, prefix), ...importedErrors(item, prefix, now)];
        errors.push(...found.map((e) => ({ index, ...e })));
      });
      const items = await resolveVersions(request.tenant.tenantId, request.body.consents, errors);
      if (errors.length > 0) {
        // Name the policy problems of the other items too, so one answer lists every bad item.
        const bad = new Set(errors.map((e) => e.index));
        const rest = items.flatMap((item, index) =>
          bad.has(index) ? [] : [{ index, policyVersionId: item.policyVersionId.toLowerCase(), imported: item.collectedAt !== undefined }],
        );
        errors.push(...(await commands.policyErrors(request.tenant.tenantId, rest)));
        errors.sort((a, b) => a.index - b.index);
        throw validationError(
          errors,
          `${new Set(errors.map((e) => e.index)).size} of ${items.length} item(s) are invalid; nothing was recorded`,
        );
      }
      const { view, replayed } = await commands.recordBatch(
        request.tenant.tenantId,
        items.map((item) => toInput(item, request)),
        idempotencyOf(request),
      );
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return reply.status(201).send(ok(view));
    },
  );

  app.get(
    '/consent/stats/versions',
    {
      schema: {
        tags,
        summary: 'Records per policy version, and each version’s acceptance rate',
        description:
          'Every version of the tenant (newest first, deleted ones flagged) with its records by what they stand at now (given, rejected, withdrawn, expired) and its acceptance rate: consents given, whatever became of them since, per 100 decisions. Read from the day counters.',
        response: {
          200: EnvelopeSchema(
            Type.Array(
              Type.Object({
                policyVersionId: Type.String({ format: 'uuid' }),
                policyType: Type.String(),
                purpose: Type.String(),
                version: Type.String(),
                title: Type.String(),
                isActive: Type.Boolean(),
                deleted: Type.Boolean(),
                effectiveDate: Type.String({ format: 'date-time', description: 'when it takes (or took) effect' }),
                requiresReconsent: Type.Boolean(),
                inForce: Type.Boolean({
                  description: 'the version of its purpose in force now (the one GET /policies/active answers): active, effective, latest',
                }),
                given: Type.Integer(),
                rejected: Type.Integer(),
                withdrawn: Type.Integer(),
                expired: Type.Integer(),
                acceptanceRate: Type.Number(),
              }),
            ),
          ),
          ...errorResponses(401),
        },
      },
    },
    async (request) => ok(await queries.byVersion(request.tenant.tenantId)),
  );

  app.get(
    '/consent/stats/daily',
    {
      schema: {
        tags,
        summary: 'Decisions per UTC day, by what they stand at now',
        description:
          "For each day from startDate to endDate (inclusive; at most 366 days; by default the last 30), the decisions made that day split by their status now: given (in force), rejected, withdrawn, expired. An imported record's day is its collectedAt (when the decision was made on the platform it came from), so moved-in history keeps its days; every other record's is its timestamp. Narrowed by purpose or policyType. Read from the day counters: fast at any size.",
        querystring: Type.Object(
          {
            startDate: Type.Optional(Type.String({ format: 'date' })),
            endDate: Type.Optional(Type.String({ format: 'date' })),
            purpose: Type.Optional(PurposeKeySchema),
            policyType: Type.Optional(PolicyTypeSchema),
          },
          { additionalProperties: false },
        ),
        response: {
          200: EnvelopeSchema(
            Type.Array(
              Type.Object({
                day: Type.String({ format: 'date' }),
                given: Type.Integer(),
                rejected: Type.Integer(),
                withdrawn: Type.Integer(),
                expired: Type.Integer(),
              }),
            ),
          ),
          ...errorResponses(400, 401),
        },
      },
    },
    async (request) => {
      const DAY = 86_400_000;
      const to = request.query.endDate ?? new Date().toISOString().slice(0, 10);
      // 30 days by default, never before the first day PostgreSQL dates hold (0001-01-01).
      const from =
        request.query.startDate ??
        new Date(Math.max(Date.parse('0001-01-01T00:00:00Z'), Date.parse(`${to}T00:00:00Z`) - 29 * DAY)).toISOString().slice(0, 10);
      queryBounds({ name: 'startDate', value: from }, { name: 'endDate', value: to });
      const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY + 1;
      if (days > 366) throw validationError([{ field: 'startDate', message: 'must be at most 365 days before endDate (366 days in all)' }]);
      const { purpose, policyType } = request.query;
      return ok(await queries.daily(request.tenant.tenantId, { from, to, purpose, policyType }));
    },
  );

  app.get(
    '/consent/stats',
    {
      schema: {
        tags,
        summary: 'Consent statistics (same filters as search)',
        description: METADATA_FILTERS,
        querystring: ConsentFilterQuerySchema,
        response: { 200: EnvelopeSchema(StatsSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      return ok(await queries.stats(request.tenant.tenantId, toQuery(request.query)));
    },
  );

  for (const url of ['/consent/search', '/consent']) {
    app.get(
      url,
      {
        schema: {
          tags,
          summary: url === '/consent' ? 'Search consent records (alias of /consent/search)' : 'Search consent records',
          description: METADATA_FILTERS,
          querystring: ConsentSearchQuerySchema,
          response: { 200: ListEnvelopeSchema(SearchItemSchema), ...errorResponses(400, 401) },
        },
      },
      async (request) => {
        const { page, limit } = pageOf(request.query);
        const { items, total } = await queries.search(request.tenant.tenantId, toQuery(request.query), page, limit);
        return okList(items, page, limit, total);
      },
    );
  }

  app.get(
    '/consent/export',
    {
      schema: {
        tags,
        summary: 'Export consent records as CSV, or as ISO/IEC TS 27560 records (Starter plan or above)',
        description:
          "format=iso27560: one ISO/IEC TS 27560 JSON-LD record per line (application/x-ndjson, docs/standard-records.md). Otherwise CSV: RFC 4180, header line first, the columns of docs/contract.md (the record's metadata as JSON last). Every value is quoted (an empty cell is null), and text starting with =, +, -, @, tab or CR gets a leading ' so that a spreadsheet opens it as text, whether it splits lines on ',' or on ';'. X-Ledger-Tree-Size, X-Ledger-Root-Hash and X-Ledger-Signed-At name the tenant's newest signed checkpoint whose every event the export reflects (the read models held them when it began, even while they lag behind the ledger; later events may be in it too). `projections verify` checks the read models it is read from. " +
          METADATA_FILTERS,
        querystring: ExportQuerySchema,
        response: {
          200: {
            description: 'CSV, or JSON lines with format=iso27560, streamed',
            content: { 'text/csv': { schema: { type: 'string' } }, 'application/x-ndjson': { schema: { type: 'string' } } },
            headers: {
              'x-ledger-tree-size': {
                type: 'integer',
                description: "the size of the tenant's newest signed checkpoint whose every event the export reflects (0 when none)",
              },
              'x-ledger-root-hash': { type: 'string', description: "that checkpoint's root hash (hex)" },
              'x-ledger-signed-at': { type: 'string', description: "that checkpoint's signed time" },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { format, ...filters } = request.query;
      if (!request.tenant.csvExport) {
        const what = format === 'iso27560' ? 'The export (ISO 27560 records and CSV alike)' : 'CSV export';
        throw new HttpError(403, 'PLAN_RESTRICTED', `${what} needs the Starter plan or above; this tenant is on ${request.tenant.plan}`);
      }
      const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '');
      if (format === 'iso27560') {
        const records = await exportOf(request.tenant.tenantId, reply, () => standard.many(request.tenant, toQuery(filters)));
        return reply
          .header('content-type', 'application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="consents-${stamp}Z.iso27560.jsonl"`)
          .send(jsonLines(records));
      }
      const records = await exportOf(request.tenant.tenantId, reply, () => queries.export(request.tenant.tenantId, toQuery(filters)));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="consents-${stamp}Z.csv"`)
        .send(consentsCsv(records));
    },
  );

  app.get(
    '/consent/verify',
    {
      schema: {
        tags,
        summary: 'Verify a consent record (id in the query)',
        querystring: VerifyQuerySchema,
        response: { 200: EnvelopeSchema(VerificationSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await queries.verify(request.tenant.tenantId, request.query.consentId.toLowerCase())),
  );

  app.get(
    '/consent/user/:userReference',
    {
      schema: {
        tags,
        summary: "A user's consent records",
        params: UserParamsSchema,
        querystring: UserConsentsQuerySchema,
        response: { 200: ListEnvelopeSchema(UserConsentSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const { page, limit } = pageOf(request.query);
      const { items, total } = await queries.byUser(
        request.tenant.tenantId,
        request.params.userReference,
        toQuery(request.query),
        page,
        limit,
      );
      return okList(items, page, limit, total);
    },
  );

  app.get(
    '/consent/user/:userReference/status',
    {
      schema: {
        tags,
        summary: "A user's standing per purpose",
        description:
          "Per purpose (a policy type is its own purpose), the user's latest decision as it stands now: given, rejected, withdrawn, expired or outdated, with the version decided and the version in force; and none for each defined purpose the user has not decided on. With `purpose`, that purpose alone (none when undecided; 400 for a purpose neither defined nor a policy type).",
        params: UserParamsSchema,
        querystring: UserStatusQuerySchema,
        response: { 200: EnvelopeSchema(UserStatusSchema), ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      return ok(await queries.status(request.tenant.tenantId, request.params.userReference, request.query.purpose));
    },
  );

  app.get(
    '/consent/:id/history',
    {
      schema: {
        tags,
        summary: "A record's history as the ledger holds it",
        description:
          "Its events (recorded, withdrawn, expired) and its receipts' issues, in ledger order, each with its time, the actor its metadata names, its eventHash and the hash it chains to (prevHash). The events' data stays sealed: read the record for its fields, or /ledger/events for the events.",
        params: ConsentIdParamsSchema,
        response: {
          200: EnvelopeSchema(
            Type.Array(
              Type.Object({
                id: Type.String({ format: 'uuid' }),
                type: Type.String(),
                recordedAt: Type.String({ format: 'date-time' }),
                actor: Type.Union([Type.Object({ type: Type.String(), id: Type.Optional(Type.String()) }), Type.Null()]),
                stream: Type.String(),
                revision: Type.Integer(),
                eventHash: Type.String(),
                prevHash: Type.Union([Type.String(), Type.Null()]),
              }),
            ),
          ),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => ok(await queries.history(request.tenant.tenantId, request.params.id.toLowerCase())),
  );

  app.get(
    '/consent/:id',
    {
      schema: {
        tags,
        summary: 'Get a consent record',
        description:
          'With format=iso27560 (or Accept: application/ld+json), the record as ISO/IEC TS 27560 structures it: a JSON-LD document in the W3C DPV profile (application/ld+json, no envelope; docs/standard-records.md).',
        params: ConsentIdParamsSchema,
        querystring: RecordFormatQuerySchema,
        response: {
          200: {
            description: 'the record (JSON envelope), or its ISO/IEC TS 27560 record (JSON-LD)',
            content: {
              'application/json': { schema: EnvelopeSchema(ConsentSchema) },
              'application/ld+json': { schema: StandardRecordSchema },
            },
          },
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const id = request.params.id.toLowerCase();
      // format=iso27560, or a client that asks for JSON-LD (Accept: application/ld+json) and not JSON.
      const accept = request.headers.accept ?? '';
      if (request.query.format === 'iso27560' || (/\bapplication\/ld\+json\b/.test(accept) && !/\bapplication\/json\b/.test(accept))) {
        return reply.type('application/ld+json').send((await standard.one(request.tenant, id)) as Static<typeof StandardRecordSchema>);
      }
      return reply.type('application/json').send(ok(await queries.get(request.tenant.tenantId, id)));
    },
  );

  app.get(
    '/consent/:id/verify',
    {
      schema: {
        tags,
        summary: 'Verify a consent record',
        description: 'Recomputes consentHash from the ledger event and checks the event hash chain.',
        params: ConsentIdParamsSchema,
        response: { 200: EnvelopeSchema(VerificationSchema), ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ok(await queries.verify(request.tenant.tenantId, request.params.id.toLowerCase())),
  );

  app.post(
    '/consent/:id/withdraw',
    {
      config: { scopes: WRITE_SCOPES },
      schema: {
        tags,
        summary: 'Withdraw a given consent',
        description:
          'The body is optional: an empty POST withdraws without a reason. An admin key is answered the withdrawn record; a write key, which reads no record back, the withdrawal alone ({id, status, withdrawnAt, withdrawalReason}).',
        'x-optional-body': true,
        headers: IdempotencyHeadersSchema,
        params: ConsentIdParamsSchema,
        body: WithdrawSchema,
        response: { 200: EnvelopeSchema(WithdrawnSchema), ...errorResponses(400, 401, 404, 409, 415, 422) },
      },
      // The body is optional: a bare POST withdraws without a reason (a JSON null is still refused).
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request, reply) => {
      const reason = request.body?.reason ?? null;
      const { view, replayed } = await commands.withdraw(
        request.tenant.tenantId,
        request.params.id.toLowerCase(),
        reason,
        idempotencyOf(request),
      );
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return ok(withdrawnAsSeenBy(request, view));
    },
  );

  // Withdraw by purpose: the path form, and the body form for references a path cannot carry well.
  // Both are one operation for an Idempotency-Key: the request hash covers what is withdrawn, not the form.
  const withdrawStanding = async (
    request: FastifyRequest,
    userReference: string,
    body: { purpose?: string | undefined; policyType?: string | undefined; reason?: string | null | undefined },
  ) => {
    const of = standingOf(body);
    const reason = body.reason ?? null;
    const key = request.headers['idempotency-key'];
    const sent =
      typeof key === 'string'
        ? {
            key: keptIdempotencyKey(request, key),
            requestHash: hashCanonical({ route: '/consent/user/withdraw', params: {}, body: { userReference, ...of, reason } }),
          }
        : undefined;
    const { withdrawn, replayed } = await commands.withdrawStanding(request.tenant.tenantId, userReference, of, reason, sent);
    return { data: { userReference, withdrawn: withdrawn.map((view) => withdrawnAsSeenBy(request, view)) }, replayed };
  };
  const standingDescription =
    "Withdraws the consent the user still stands by on a purpose (purpose), or on every purpose of a policy type (policyType): the latest decision on each, given, not withdrawn, not expired. 409 CONSENT_NOT_WITHDRAWABLE when there is none. 503 SERVICE_UNAVAILABLE (Retry-After: 5) when the read models that list the user's consents lag more than 5 s behind the ledger: nothing is withdrawn. With Idempotency-Key, a repeat answers the first call. A write key is answered each withdrawal alone ({id, status, withdrawnAt, withdrawalReason}), not the records.";
  app.post(
    '/consent/user/:userReference/withdraw',
    {
      config: { scopes: WRITE_SCOPES },
      schema: {
        tags,
        summary: "Withdraw a user's standing consent on a purpose or a policy type",
        description: standingDescription,
        headers: IdempotencyHeadersSchema,
        params: UserParamsSchema,
        body: WithdrawStandingSchema,
        response: { 200: EnvelopeSchema(WithdrawnStandingSchema), ...errorResponses(400, 401, 409, 415, 422) },
      },
    },
    async (request, reply) => {
      const { data, replayed } = await withdrawStanding(request, request.params.userReference, request.body);
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return ok(data);
    },
  );
  app.post(
    '/consent/user/withdraw',
    {
      config: { scopes: WRITE_SCOPES },
      schema: {
        tags,
        summary: "Withdraw a user's standing consent, the reference in the body",
        description: `${standingDescription} The same as POST /consent/user/{userReference}/withdraw, without encoding the reference.`,
        headers: IdempotencyHeadersSchema,
        body: WithdrawStandingBodySchema,
        response: { 200: EnvelopeSchema(WithdrawnStandingSchema), ...errorResponses(400, 401, 409, 415, 422) },
      },
    },
    async (request, reply) => {
      const { userReference, ...rest } = request.body;
      const { data, replayed } = await withdrawStanding(request, userReference, rest);
      if (replayed) void reply.header('idempotent-replayed', 'true');
      return ok(data);
    },
  );

  app.get(
    '/consent/reconsent',
    {
      schema: {
        tags,
        summary: 'The subjects a purpose (or every purpose) must ask for consent again',
        description:
          'Standing decisions (not withdrawn, not expired) on a version before the newest version in force that requires re-consent, oldest version first; without purpose, every purpose in turn, by key. A page as JSON, or every one as CSV with format=csv or Accept: text/csv (Starter plan or above, as the export).',
        querystring: ReconsentQuerySchema,
        response: {
          200: {
            description: 'A page (JSON), or every subject (CSV, streamed)',
            content: {
              'application/json': { schema: ListEnvelopeSchema(ReconsentItemSchema) },
              'text/csv': { schema: { type: 'string' } },
            },
          },
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (request, reply) => {
      const { purpose, format } = request.query;
      const csv = wantsCsv(format, request.headers.accept);
      if (!csv) {
        const { page, limit } = pageOf(request.query);
        const { items, total } = await queries.reconsent(request.tenant.tenantId, purpose, page, limit);
        return okList(items, page, limit, total);
      }
      if (!request.tenant.csvExport) {
        throw new HttpError(403, 'PLAN_RESTRICTED', `CSV export needs the Starter plan or above; this tenant is on ${request.tenant.plan}`);
      }
      const items = await queries.reconsentExport(request.tenant.tenantId, purpose);
      const columns = [
        'userReference',
        'consentId',
        'purpose',
        'consentGiven',
        'decidedAt',
        'policyVersionId',
        'policyVersion',
        'reconsentVersionId',
        'reconsentVersion',
        // true: the subject was erased, so its reference cell is empty (nobody to ask).
        'erased',
      ] as const;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${purpose === undefined ? 'reconsent' : `reconsent-${purpose}`}.csv"`)
        .send(csvStream(columns, items));
    },
  );
};
