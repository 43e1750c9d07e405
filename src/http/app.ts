import type { StandardRecords } from '../export/standard-records.js';
import type { BackupTaken } from '../backup/backup.js';
import type { LedgerPosition } from '../ledger/ledger.port.js';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import secureJson from 'secure-json-parse';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { ConsentCommands } from '../application/consents/consent.commands.js';
import type { ConsentQueries } from '../application/consents/consent.queries.js';
import type { PolicyCommands } from '../application/policies/policy.commands.js';
import type { PolicyQueries } from '../application/policies/policy.queries.js';
import type { Purposes } from '../application/purposes/purposes.js';
import { withRedactedRequests } from '../privacy/index.js';
import type { SubjectErasure } from '../application/subjects/erasure.js';
import { erasureRoutes } from './routes/subjects/subjects.routes.js';
import { keysRoutes } from './routes/keys/keys.routes.js';
import { auditLogRoutes } from './routes/audit-log/audit-log.routes.js';
import type { AuditLog } from '../application/config/audit-log.js';
import {
  notFoundRateLimit,
  publicRouteRateLimit,
  rateLimitedAuth,
  registerRateLimitHeaders,
  tenantBudget,
} from '../limits/rate-limit.hooks.js';
import type { RateLimiter } from '../limits/rate-limiter.js';
import { receiptRoutes } from './routes/receipts/receipts.routes.js';
import type { ReceiptService } from '../receipts/receipts.service.js';
import { verifyRoutes } from './routes/verify/verify.routes.js';
import type { TenantContext, TenantService } from '../tenants/tenants.service.js';
import type { TransparencyService } from '../transparency/index.js';
import { publicLogRoutes, transparencyKeysRoute, transparencyRoutes } from './routes/transparency/transparency.routes.js';
import type { WebhookService } from '../webhooks/index.js';
import { webhooksRoutes } from './routes/webhooks/webhooks.routes.js';
import { adminAuth, apiKeyAuth } from './auth.js';
import { ErrorEnvelopeSchema, errorResponses } from './kit/envelope.js';
import { addLimitResponses } from './openapi-limits.js';
import { describeOperations } from './openapi-operations.js';
import {
  badUrlBody,
  clientErrorHandler,
  HttpError,
  refuseWhileClosing,
  registerErrorHandling,
  rewriteBadUrl,
  unvalidatedErrors,
  validationError,
} from './kit/errors.js';
import { adminRoutes } from './routes/admin/admin.routes.js';
import { consentRoutes } from './routes/consent/consent.routes.js';
import { allowOrigin, browserRoutes } from './routes/browser/browser.routes.js';
import { consoleRoutes } from './routes/console/console.routes.js';
import type { ConsoleSessions } from '../tenants/console-sessions.js';
import { requireScope, scopesOf } from './scopes.js';
import { actingAs } from '../common/actor.js';
import { notingReads, type ReadNotes } from '../common/read-notes.js';
import type { KeyScope } from '../tenants/key-scopes.js';
import { MAX_PATH_PARAMETER } from './routes/consent/consent.schemas.js';
import { policiesRoutes } from './routes/policies/policies.routes.js';
import { purposesRoutes } from './routes/purposes/purposes.routes.js';
import { systemRoutes, type ReadyReport } from './routes/system/system.routes.js';
import { registerLingeringClose } from './kit/lingering-close.js';
import { countRequests } from './request-metrics.js';
import { metricsRoutes } from './routes/system/metrics.routes.js';
import type { ServiceMetrics } from '../metrics/metrics.js';
import { isDocsRoute, registerSecurityHeaders } from './kit/security-headers.js';
import { jsonTextProblem } from '../common/json-text.js';
import { findUnstorable, invalidQueryText, UNKNOWN_QUERY_PARAMETER, validatorCompiler } from './kit/validation.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request's reads met (set on every /api/v1 and /v1 route): the X-Read-Models-Behind header. */
    reads: ReadNotes;
  }
  interface FastifyContextConfig {
    /** The route checks its body for unstorable values itself, to name every bad item (batch). */
    itemizedBodyChecks?: boolean;
  }
}

/** The settings the HTTP app reads (a part of the service's settings). */
export interface AppSettings {
  /** Enables the admin API at /admin/v1 when set. */
  adminToken: string | undefined;
  /** Fastify's `trustProxy`: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  publicBaseUrl: string;
  webhookAllowHttp: boolean;
  webhookAllowPrivateNetworks: boolean;
  /** Seconds a request, its body included, may take to arrive (REQUEST_TIMEOUT). */
  requestTimeoutSeconds: number;
}

/** The services the routes use (each route plugin gets only its own), and the app's settings. */
export interface AppDeps {
  settings: AppSettings;
  tenants: TenantService;
  /** Policy versions (src/application/policies). */
  policies: { commands: PolicyCommands; queries: PolicyQueries };
  /** Purposes (src/application/purposes). */
  purposes: Purposes;
  /** Consent records (src/application/consents). */
  consents: { commands: ConsentCommands; queries: ConsentQueries; standard: StandardRecords };
  /** PDF receipts and the public verification page (src/receipts). */
  receipts: ReceiptService;
  /** Erasure on request (docs/erasure.md). */
  erasure: SubjectErasure;
  /** Webhook configurations, history and test deliveries (src/webhooks). */
  webhooks: WebhookService;
  /** Signed checkpoints, inclusion and consistency proofs (src/transparency, docs/verifying.md). */
  transparency: TransparencyService;
  /** Where the read models stand: the ledger position every projector has passed (stored). */
  readModelsAt(): Promise<LedgerPosition>;
  /** The operator audit trail: configuration changes in the tenant's log (docs/audit-log.md). */
  auditLog: AuditLog;
  /** Console sign-ins: sessions that act as the key that opened them (docs/console.md). */
  sessions: ConsoleSessions;
  /** The service's metrics: the app counts requests into it and serves it at /metrics. */
  metrics: ServiceMetrics;
  /** Per-minute and per-day budgets (tenants, client addresses); see docs/limits.md. */
  limiter: RateLimiter;
  /** A backup of the running store: a tar.gz stream, recorded once sent (src/backup; throws BackupNotAvailableError). */
  backup(): BackupTaken;
  ready(): Promise<ReadyReport>;
}

/** Refuses bytes that are not UTF-8 (TextDecoder's default replaces them with U+FFFD). */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Bodies up to 2 MiB; publishing a policy and a batch set limits of their own (docs/contract.md). */
const BODY_LIMIT = 2 * 1024 * 1024;

/**
 * Fastify's own response serializers, each compiled on its route's first answer rather than at
 * start: compiling them all up front took ~0.3 s of every start.
 */
const lazySerializers: SerializerSelector.SerializerFactory = (externalSchemas, options) => {
  const build = SerializerSelector()(externalSchemas, options);
  return (route) => {
    let serialize: SerializerSelector.Serializer | undefined;
    return (doc: unknown) => (serialize ??= build(route))(doc);
  };
};

/** A hop count becomes "trust the nearest n proxies". */
const trustProxyOption = (t: AppSettings['trustProxy']) => (typeof t === 'number' ? (_address: string, hop: number) => hop < t : t);

export const API_PREFIXES = ['/api/v1', '/v1'] as const;

/**
 * Builds the HTTP app: routes, schemas, auth, error mapping and OpenAPI. It does not listen.
 *
 * @example
 * const app = await buildApp(deps, { logger: false });
 * const res = await app.inject({ method: 'GET', url: '/health' });
 */
export async function buildApp(deps: AppDeps, options: { logger?: FastifyServerOptions['logger'] } = {}): Promise<FastifyInstance> {
  const requestTimeoutMs = deps.settings.requestTimeoutSeconds * 1000;
  const app = Fastify({
    // Request logs never hold a user reference (docs/erasure.md).
    logger: withRedactedRequests(options.logger ?? false),
    bodyLimit: BODY_LIMIT,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers } },
    // A user reference in a path may be 255 characters, each up to 12 once percent-encoded. A
    // trailing slash names the same route (`/policies/` lists, rather than read as an empty id).
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER, ignoreTrailingSlash: true },
    trustProxy: trustProxyOption(deps.settings.trustProxy),
    // A request that arrives while the service drains is refused in the envelope (refuseWhileClosing).
    return503OnClosing: false,
    clientErrorHandler,
    // A request, its body included, has REQUEST_TIMEOUT to arrive: then 408 and the connection
    // closed (clientErrorHandler), so a client dripping a body cannot hold a connection for ever.
    // Checked every second (Node's default, 30 s, would let it run that much longer). Given to
    // the server at its creation too: Node 20 ignores a requestTimeout set on it afterwards.
    requestTimeout: requestTimeoutMs,
    http: { connectionsCheckingInterval: 1_000, requestTimeout: requestTimeoutMs },
    forceCloseConnections: 'idle',
    // A path the router refuses (bad percent-encoding, invalid UTF-8, a parameter over its limit) answers the envelope too.
    // Such paths are sent on as unknown routes first, so that every hook runs (rewriteBadUrl).
    rewriteUrl: rewriteBadUrl(MAX_PATH_PARAMETER),
    frameworkErrors: (_error, _request, reply: FastifyReply) => {
      void reply.status(400).type('application/json; charset=utf-8').send(badUrlBody(MAX_PATH_PARAMETER));
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  registerErrorHandling(app, MAX_PATH_PARAMETER);
  registerLingeringClose(app);
  countRequests(app, deps.metrics);
  // Helmet's headers and Cache-Control: no-store, before any hook that may answer early.
  await registerSecurityHeaders(app);
  refuseWhileClosing(app);

  // An empty body with a JSON content type is an empty object (withdraw takes an optional body;
  // elsewhere the schema then names the missing fields).
  // JSON only: any other body (text/plain included) is a 415.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    // A compressed body is refused as such, not read as bytes that are not UTF-8 (identity is none).
    const encodings = (request.headers['content-encoding'] ?? '').split(',').map((e) => e.trim().toLowerCase());
    if (encodings.some((e) => e !== '' && e !== 'identity')) {
      return done(
        new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body uncompressed: no Content-Encoding is taken (gzip, deflate, br)'),
        undefined,
      );
    }
    // A body declared in another charset is not read as UTF-8: its bytes would say something else.
    // Every charset parameter: one saying UTF-8 does not hide a second saying something else.
    const charsets = [...(request.headers['content-type'] ?? '').matchAll(/;\s*charset\s*=\s*"?([^";\s]*)/gi)].map((m) =>
      m[1]!.toLowerCase(),
    );
    if (charsets.some((c) => c !== 'utf-8' && c !== 'utf8')) {
      return done(new HttpError(415, 'UNSUPPORTED_MEDIA_TYPE', 'send the body as application/json in UTF-8'), undefined);
    }
    // Bytes that are not UTF-8 are refused, not stored as U+FFFD: a record keeps what was sent.
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      return done(new HttpError(400, 'VALIDATION_ERROR', 'the body is not valid UTF-8: send JSON encoded as UTF-8'), undefined);
    }
    if (text.trim() === '') return done(null, {});
    let parsed: unknown;
    try {
      parsed = secureJson.parse(text, { protoAction: 'error', constructorAction: 'error' });
    } catch (error) {
      // A "__proto__" key (or "constructor" with "prototype") is refused, named as such.
      const poisoned = /forbidden prototype property/.test((error as Error).message);
      done(
        new HttpError(
          400,
          'VALIDATION_ERROR',
          poisoned
            ? 'the body has a "__proto__" key, or a "constructor" key holding "prototype": neither is accepted'
            : 'the body is not valid JSON',
        ),
        undefined,
      );
      return;
    }
    // A key given twice, an integer JSON.parse would round: refused, not recorded as the last or rounded value.
    const problem = jsonTextProblem(text);
    if (problem) return done(validationError([problem]), undefined);
    done(null, parsed);
  });

  // NUL characters, lone surrogates and non-finite numbers, wherever they come (query, path or
  // body, on every route): a 400 naming the field, before any of it reaches a query or the ledger.
  app.addHook('preValidation', async (request) => {
    const undecodable = invalidQueryText(request.url);
    if (undecodable) throw validationError([undecodable]);
    // No query parameter takes a list: one given twice is named so, not "must be integer".
    const repeated = Object.entries(request.query as object).filter(([, v]) => Array.isArray(v));
    if (request.routeOptions.config?.lenientQuery) {
      // A public page's link: its first value of a repeated parameter, and only the parameters it names.
      const named = Object.keys((request.routeOptions.schema?.querystring as { properties?: object } | undefined)?.properties ?? {});
      const query = request.query as Record<string, unknown>;
      for (const key of Object.keys(query)) {
        if (!named.includes(key)) delete query[key];
        else if (Array.isArray(query[key])) query[key] = (query[key] as unknown[])[0];
      }
    } else if (repeated.length > 0) {
      throw validationError(repeated.map(([field]) => ({ field, message: 'is given more than once' })));
    }
    // A route that documents no query parameter takes none (its schema refuses the unknown ones).
    if (!request.is404 && !request.routeOptions.schema?.querystring && !isDocsRoute(request.routeOptions.url)) {
      const names = Object.keys(request.query as object);
      // Named with the path's and the body's own errors, which Fastify would check next.
      if (names.length > 0) {
        throw validationError([
          ...unvalidatedErrors(request, ['params', 'body']),
          ...names.map((field) => ({ field, message: UNKNOWN_QUERY_PARAMETER })),
        ]);
      }
    }
    const parts: [unknown, string][] = [
      [request.query, '(query)'],
      [request.params, '(path)'],
    ];
    if (!request.routeOptions.config?.itemizedBodyChecks) parts.push([request.body, '(body)']);
    for (const [value, root] of parts) {
      const bad = findUnstorable(value, root);
      if (bad) throw validationError([bad]);
    }
  });

  // Rate limits: X-RateLimit-* on every limited answer; API keys count against their tenant,
  // failed credentials against the client address; an unknown route counts too.
  registerRateLimitHeaders(app);
  const apiAuth = rateLimitedAuth(apiKeyAuth(deps.tenants, deps.sessions), deps.limiter, tenantBudget);
  app.addHook('onRequest', notFoundRateLimit(apiAuth));
  // Routes marked `config.publicPerIpLimit` (the receipt check) count against the client address.
  app.addHook('onRequest', publicRouteRateLimit(deps.limiter));

  app.addSchema(ErrorEnvelopeSchema);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'consent-ledger',
        version: '1.0.0',
        description:
          'Consent-proof service. Every route under /api/v1 also answers under /v1. Authenticate with X-API-Key and X-API-Secret. A query parameter a route does not list is refused (400 VALIDATION_ERROR naming it); integer parameters are decimal digits within their bounds.',
      },
      components: {
        securitySchemes: {
          apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          apiSecret: { type: 'apiKey', in: 'header', name: 'X-API-Secret' },
          admin: { type: 'http', scheme: 'bearer' },
        },
      },
      tags: [
        { name: 'policies', description: 'Versioned policy documents' },
        { name: 'purposes', description: 'What consent is asked for: each purpose with its legal basis, validity and DPV term' },
        { name: 'consent', description: 'Consent records' },
        { name: 'webhooks', description: 'Signed notifications of ledger events' },
        { name: 'keys', description: "The tenant's own API keys, with their scopes (admin keys only)" },
        { name: 'transparency', description: 'Signed checkpoints and Merkle proofs of each tenant’s log (docs/verifying.md)' },
        { name: 'browser', description: 'Collecting consent from a web page with a publishable key (docs/browser.md)' },
        { name: 'audit-log', description: "Every change to the tenant's configuration, who made it, and its proof (docs/audit-log.md)" },
        { name: 'console', description: 'The console’s sign-in (docs/console.md)' },
        { name: 'admin', description: 'Operator API (needs ADMIN_TOKEN)' },
        { name: 'system', description: 'Health' },
      ],
    },
    // Shared schemas keep their own names (`ErrorEnvelope`), not `def-0`.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    // Fastify's body schema makes every request body "required" in the document; a route whose
    // body may be left out says so with `x-optional-body`.
    // Limited routes list the X-RateLimit-* headers, 429 and 503 (src/http/openapi-limits.ts).
    transformObject: (documentObject) => {
      const doc = (
        documentObject as {
          openapiObject: { paths?: Record<string, Record<string, Record<string, unknown>>>; components?: Record<string, unknown> };
        }
      ).openapiObject;
      addLimitResponses(doc.paths ?? {}, (doc.components ??= {}));
      // Ids, tags, response descriptions and examples: what a generated client needs (docs/client.md).
      describeOperations(doc.paths ?? {}, (doc.components.schemas ?? {}) as Record<string, Record<string, unknown>>);
      for (const operations of Object.values(doc.paths ?? {})) {
        for (const op of Object.values(operations)) {
          if (op['x-optional-body']) {
            delete op['x-optional-body'];
            (op.requestBody as { required: boolean }).required = false;
          }
        }
      }
      return doc as never;
    },
    transform: ({ schema, url, route }) => {
      const s = (schema ?? {}) as Record<string, unknown>;
      if (url.startsWith('/v1/')) return { schema: { ...s, hide: true } as never, url };
      if (url.startsWith('/api/v1/')) {
        // Each operation states the key scopes that may call it; any other key gets 403 FORBIDDEN.
        const method = [route.method].flat()[0]!;
        const scopes = scopesOf(method, route.config as { scopes?: readonly KeyScope[] } | undefined);
        const said = typeof s.description === 'string' ? `${s.description} ` : '';
        return {
          schema: {
            ...s,
            // A publishable key sends no secret: the route a browser may call says so (docs/browser.md).
            security: scopes.includes('publishable') ? [{ apiKey: [], apiSecret: [] }, { apiKey: [] }] : [{ apiKey: [], apiSecret: [] }],
            description: `${said}Key scope: ${scopes.join(' or ')}.`,
            'x-scopes': scopes,
            response: { ...(s.response as object), ...errorResponses(403) },
          } as never,
          url,
        };
      }
      // The operator's routes: the admin API and the metrics.
      if (url.startsWith('/admin/') || url === '/metrics') return { schema: { ...s, security: [{ admin: [] }] } as never, url };
      return { schema: s as never, url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(systemRoutes, { ready: deps.ready });
  // Public, no key: the page a receipt's QR code opens (config.publicPerIpLimit: limited per client address).
  await app.register(verifyRoutes, { receipts: deps.receipts });
  // Public, no key: the keys that sign the transparency log's checkpoints.
  await app.register(transparencyKeysRoute, { transparency: deps.transparency });
  await app.register(publicLogRoutes, { transparency: deps.transparency });

  // A write that takes no body refuses one with fields, rather than acting on its path alone and
  // ignoring them (an erasure by path with another reference in the body erased the path's).
  // No body, an empty one or {} is taken; JSON's null is a body, and refused like the others.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.schema?.body || !methods.some((m) => m === 'POST' || m === 'PUT' || m === 'PATCH' || m === 'DELETE')) return;
    const noBody = async (request: FastifyRequest) => {
      const body: unknown = request.body;
      const empty =
        body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
      if (!empty) throw validationError([{ field: 'body', message: 'must be empty: this route takes no body' }]);
    };
    route.preValidation = [...[route.preValidation ?? []].flat(), noBody];
  });

  // The routes a publishable key may call from a browser (config.browser): they answer CORS.
  const browserPaths: string[] = [];
  app.addHook('onRoute', (route) => {
    if (route.config?.browser && !browserPaths.includes(route.url)) browserPaths.push(route.url);
  });
  for (const prefix of API_PREFIXES) {
    await app.register(
      async (api) => {
        api.decorateRequest('tenant', null as never);
        api.addHook('onRequest', apiAuth);
        // The key's scope is checked before the body is read (docs/contract.md, Keys and scopes).
        api.addHook('onRequest', requireScope);
        // The key acts: the events the request appends name it (`actor` in their metadata); its
        // reads note whether one was answered from read models behind the ledger.
        api.decorateRequest('reads', null as never);
        api.addHook('preHandler', (request, _reply, done) => {
          request.reads = { behind: false };
          actingAs({ type: 'key', id: request.tenant.apiKey }, () => notingReads(request.reads, done));
        });
        api.addHook('onSend', async (request, reply, payload) => {
          // The read fence gave up waiting: the answer may miss writes made before the request (docs/contract.md).
          if (request.reads?.behind) reply.header('x-read-models-behind', 'true');
          // A publishable key's answers on its routes, errors too, are readable by the page on its
          // origin; so are those refused before any key was known (401, an address's 429), when a
          // live publishable key allows that origin.
          const origin = typeof request.headers.origin === 'string' ? request.headers.origin.toLowerCase() : undefined;
          if (request.routeOptions.config?.browser && origin) {
            const tenant = request.tenant as TenantContext | null;
            if (tenant ? tenant.scope === 'publishable' : await deps.tenants.originAllowed(origin)) allowOrigin(reply, origin);
          }
          return payload;
        });
        await api.register(policiesRoutes, deps.policies);
        await api.register(purposesRoutes, { purposes: deps.purposes });
        await api.register(consentRoutes, {
          ...deps.consents,
          ledgerState: {
            readModelsAt: () => deps.readModelsAt(),
            within: (tenantId, at) => deps.transparency.publishedWithin(tenantId, at),
          },
          activeVersion: (tenantId, of) => deps.policies.queries.recordableNow(tenantId, of),
          versionInForceAt: (tenantId, of) => deps.policies.queries.inForceAt(tenantId, of),
          publicLink: (tenantId, consentId, consentHash) => deps.receipts.publicLink(tenantId, consentId, consentHash),
        });
        await api.register(receiptRoutes, { receipts: deps.receipts });
        await api.register(erasureRoutes, { erasure: deps.erasure });
        await api.register(keysRoutes, { tenants: deps.tenants });
        await api.register(webhooksRoutes, {
          webhooks: deps.webhooks,
          allowHttp: deps.settings.webhookAllowHttp,
          allowPrivateNetworks: deps.settings.webhookAllowPrivateNetworks,
        });
        await api.register(transparencyRoutes, { transparency: deps.transparency });
        await api.register(auditLogRoutes, { auditLog: deps.auditLog, transparency: deps.transparency });
      },
      { prefix },
    );
  }

  await app.register(browserRoutes, { tenants: deps.tenants, paths: browserPaths });
  // The console's page, assets and session; its data comes from /api/v1 like any client's.
  await app.register(consoleRoutes, { sessions: deps.sessions, limiter: deps.limiter, publicBaseUrl: deps.settings.publicBaseUrl });

  if (deps.settings.adminToken) {
    const token = deps.settings.adminToken;
    await app.register(
      async (admin) => {
        // A wrong admin token counts against the client address, like a wrong API key.
        admin.addHook(
          'onRequest',
          rateLimitedAuth(adminAuth(token), deps.limiter, () => []),
        );
        admin.addHook('preHandler', (_request, _reply, done) => actingAs({ type: 'operator' }, done));
        await admin.register(adminRoutes, { tenants: deps.tenants, backup: deps.backup });
      },
      { prefix: '/admin/v1' },
    );
    // Metrics for the operator's Prometheus, behind the same token.
    await app.register(async (operator) => {
      operator.addHook(
        'onRequest',
        rateLimitedAuth(adminAuth(token), deps.limiter, () => []),
      );
      await operator.register(metricsRoutes, { metrics: deps.metrics });
    });
  }

  return app;
}
