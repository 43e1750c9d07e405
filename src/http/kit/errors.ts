import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type DomainErrorCode } from '../../domain/errors.js';
import { ReadModelsBehindError } from '../../common/read-notes.js';
import {
  ConcurrencyError,
  LedgerAppendTooLargeError,
  AppendKeyRetiredError,
  LedgerUnavailableError,
  WrongExpectedRevisionError,
} from '../../ledger/ledger.port.js';
import { isUnavailableError } from '../../store/database-errors.js';
import { inclusiveBounds, startsAfterEnd } from '../../common/dates.js';
import { now } from './envelope.js';
import { fieldErrors, UNKNOWN_FIELD, UNKNOWN_QUERY_PARAMETER, type FieldError } from './validation.js';

/** An error the HTTP layer answers as is. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export const validationError = (errors: { field: string; message: string; index?: number }[], message?: string) =>
  new HttpError(
    400,
    'VALIDATION_ERROR',
    message ?? `invalid request: ${errors.map((e) => `${e.field} ${e.message}`).join('; ')}`.slice(0, 500),
    { errors },
  );

/**
 * A query's inclusive time bounds (`inclusiveBounds`), named by their parameters: a start after
 * the end is a 400, not an empty answer that would read as "nothing happened then".
 */
export function queryBounds(
  start: { name: string; value: string | undefined },
  end: { name: string; value: string | undefined },
): { from: Date | undefined; before: Date | undefined } {
  if (start.value !== undefined && end.value !== undefined && startsAfterEnd(start.value, end.value))
    throw validationError([{ field: start.name, message: `must not be after ${end.name}` }]);
  return inclusiveBounds(start.value, end.value);
}

/**
 * The value of a field or filter that has two spellings (docs/contract.md, Compatibility
 * surface): either may be given, both only when they say the same.
 */
export function alias<T>(a: { name: string; value: T | undefined }, b: { name: string; value: T | undefined }): T | undefined {
  if (a.value !== undefined && b.value !== undefined && a.value !== b.value) {
    throw validationError([{ field: b.name, message: `is another spelling of ${a.name}, with another value` }]);
  }
  return a.value ?? b.value;
}

const DOMAIN_STATUS = {
  NOT_FOUND: 404,
  NO_ACTIVE_POLICY: 404,
  POLICY_VERSION_EXISTS: 409,
  CONSENT_NOT_WITHDRAWABLE: 409,
  CONSENT_TAMPERED: 409,
  POLICY_TAMPERED: 409,
  ROLLBACK: 409,
  SEALING_HALTED: 409,
  LOG_INCOMPLETE: 409,
  WEBHOOK_INACTIVE: 409,
  DELIVERY_PENDING: 409,
  PURPOSE_EXISTS: 409,
  POLICY_VERSION_INACTIVE: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  RECEIPT_TOO_LARGE: 422,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
} satisfies Record<DomainErrorCode, number>;

export const errorBody = (code: string, message: string, details?: Record<string, unknown>) => ({
  success: false as const,
  error: { code, message, ...(details ? { details } : {}) },
  meta: { timestamp: now() },
});

interface Mapped {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown> | undefined;
  headers?: Record<string, string> | undefined;
}

/** Why a query parameter is refused: a metadata filter's own rule when it looks like one (a nested path, a long key). */
const unknownParameter = (name: string): string =>
  name.startsWith('metadata.')
    ? 'is not a filter: a metadata filter names a top-level key of 1 to 64 characters other than ".", percent-encoded (metadata.source=web) on search, stats and export; nested values are not matched'
    : UNKNOWN_QUERY_PARAMETER;

type Part = 'params' | 'body' | 'querystring';

/** The parts Fastify leaves unchecked once one fails: it validates params, body, querystring in that order and stops. */
const LATER_PARTS: Record<string, readonly Part[]> = { params: ['body', 'querystring'], body: ['querystring'] };

/** Field errors of Ajv's errors in a part of the request; in a query, an unknown name is said as such. */
const partFieldErrors = (part: string | undefined, errors: unknown[]) =>
  fieldErrors(errors as never).map((x) => {
    if (part !== 'querystring') return x;
    if (x.message === UNKNOWN_FIELD) return { ...x, message: unknownParameter(x.field) };
    // The query as a whole (too many parameters): named as such, not as the body.
    if (x.field === '(body)') return { field: '(query)', message: x.message.replace(/properties/, 'query parameters') };
    return x;
  });

/**
 * The schema errors of request parts Fastify has not checked (after one part failed, or before
 * validation), so that one answer names every bad field, not only those of the first part.
 */
export function unvalidatedErrors(request: FastifyRequest, parts: readonly Part[]): FieldError[] {
  // The app's compiler answers {value} or {error: {validation}} (kit/validation.ts); plain Ajv, false and .errors.
  type Validate = { (data: unknown): unknown; errors?: unknown[] | null };
  const found: FieldError[] = [];
  for (const part of parts) {
    // A body's validators are kept per media type.
    const compiled = request.getValidationFunction(part) as Validate | Record<string, Validate> | undefined;
    const validate = typeof compiled === 'function' ? compiled : compiled?.[request.mediaType ?? ''];
    if (typeof validate !== 'function') continue;
    const data = part === 'body' ? request.body : part === 'params' ? request.params : request.query;
    try {
      const result = validate(data ?? null);
      const errors = result === false ? validate.errors : (result as { error?: { validation?: unknown[] } } | undefined)?.error?.validation;
      if (errors && errors.length > 0) found.push(...partFieldErrors(part, errors));
    } catch {
      // A validator that throws: the other parts' errors stand alone.
    }
  }
  return found;
}

function map(error: unknown, later: FieldError[] = []): Mapped {
  if (error instanceof HttpError)
    return { status: error.statusCode, code: error.code, message: error.message, details: error.details, headers: error.headers };
  if (error instanceof DomainError)
    return { status: DOMAIN_STATUS[error.code], code: error.code, message: error.message, details: error.details };
  // The ledger takes no append this large (EventStoreDB's MaxAppendSize): nothing was recorded.
  if (error instanceof LedgerAppendTooLargeError) {
    return {
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
      message: 'the ledger takes no write this large at once; nothing was recorded: send fewer items per batch (or a shorter text)',
    };
  }
  // Streams that kept changing for every attempt: nothing was recorded, and a retry may land.
  if (error instanceof ConcurrencyError || error instanceof WrongExpectedRevisionError) {
    return {
      status: 409,
      code: 'CONCURRENCY_CONFLICT',
      message: 'the record changed while we wrote it; nothing was recorded, try again',
      headers: { 'retry-after': '1' },
    };
  }
  if (error instanceof ReadModelsBehindError) {
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: error.message,
      headers: { 'retry-after': '5' },
    };
  }
  // An append sent whose answer was lost: it may have been recorded. A repeat with the same
  // Idempotency-Key answers the first write if it landed, and records it once if it did not.
  if (error instanceof LedgerUnavailableError && error.unconfirmed) {
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message:
        'the ledger did not confirm the write, which may have been recorded: send it again with the same Idempotency-Key, which records it once (without one, look for the record before writing it again)',
      details: { recorded: 'unknown' },
      headers: { 'retry-after': '1' },
    };
  }
  // The ledger's append says so itself; a lost connection anywhere else (the key lookup, an
  // idempotency read, the read fence) is the same outage: nothing happened, try again.
  if (error instanceof LedgerUnavailableError || isUnavailableError(error)) {
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'the ledger is unavailable; nothing was recorded, try again',
      headers: { 'retry-after': '1' },
    };
  }
  // The signing key retired under a running process (keys rotate-signing): it appends nothing until restarted.
  if (error instanceof AppendKeyRetiredError) {
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'this instance cannot sign with its key until its operator restarts it; nothing was recorded, try again',
      headers: { 'retry-after': '5' },
    };
  }
  // The master key rotated away under a running process: it writes and opens nothing until restarted (logged).
  // (By name: the kit imports no feature; src/privacy/master-key.ts.)
  if ((error as { name?: unknown } | null)?.name === 'MasterKeyError') {
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'this instance cannot use its keys until its operator restarts it; nothing was recorded, try again',
      headers: { 'retry-after': '5' },
    };
  }
  // A read model's table gone for a moment: `projections rebuild` drops the read schema and makes it again.
  if (isReadSchemaMissing(error)) {
    return {
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
      message: 'the read models are being rebuilt; nothing was changed, try again',
      headers: { 'retry-after': '1' },
    };
  }
  const e = error as FastifyError & { validation?: unknown[]; validationContext?: string };
  if (Array.isArray(e.validation)) {
    const errors = [...partFieldErrors(e.validationContext, e.validation), ...later];
    return {
      status: 400,
      code: 'VALIDATION_ERROR',
      message: `invalid request: ${errors.map((x) => `${x.field} ${x.message}`).join('; ')}`.slice(0, 500),
      details: { errors },
    };
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'the request body is too large' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, code: 'UNSUPPORTED_MEDIA_TYPE', message: 'send the body as application/json' };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'VALIDATION_ERROR', message: 'the JSON body is empty' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'VALIDATION_ERROR', message: 'the body is not valid JSON' };
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    // Malformed JSON, prototype poisoning, bad content length, and the like.
    const message = e instanceof SyntaxError || /JSON/i.test(e.message) ? 'the body is not valid JSON' : 'the request is malformed';
    return { status: e.statusCode === 413 ? 413 : 400, code: e.statusCode === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR', message };
  }
  return { status: 500, code: 'INTERNAL_ERROR', message: 'something went wrong on our side; it was logged' };
}

/** PostgreSQL's "no such table" (42P01) or "no such schema" (3F000) about the read schema. */
function isReadSchemaMissing(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    (e?.code === '42P01' || e?.code === '3F000') && typeof e.message === 'string' && /"read(\.[a-z_]+)?"|relation "read\./.test(e.message)
  );
}

/** Requests whose path the router would refuse, sent down the not-found path instead (rewriteBadUrl). */
const badPaths = new WeakSet<IncomingMessage>();
/** What such a request's URL becomes: no route has it. */
const BAD_URL_PATH = '/.invalid-url';

/**
 * Fastify's `rewriteUrl`: a path with bad percent-encoding or invalid UTF-8, or a segment over
 * `maxSegment` characters once decoded, goes on as an unknown route, so that every hook (security
 * headers, rate limits) runs before the not-found handler answers 400. The router would refuse it
 * before any hook (`frameworkErrors`, which stays for anything else it refuses).
 */
export function rewriteBadUrl(maxSegment: number): (req: IncomingMessage) => string {
  return (req) => {
    const url = req.url ?? '/';
    const end = url.search(/[?#]/);
    const path = end === -1 ? url : url.slice(0, end);
    let bad = false;
    try {
      // As the router counts a parameter: its length once decoded.
      bad = path.split('/').some((segment) => (segment.includes('%') ? decodeURIComponent(segment) : segment).length > maxSegment);
    } catch {
      bad = true;
    }
    if (!bad) return url;
    badPaths.add(req);
    return BAD_URL_PATH;
  };
}

/** The answer to a URL path the router refuses. */
export const badUrlBody = (maxSegment: number) =>
  errorBody(
    'VALIDATION_ERROR',
    `the URL path is not valid: bad percent-encoding, invalid UTF-8, or a path parameter over ${maxSegment} characters encoded`,
  );

/** One place maps every failure to a status and the error envelope. 5xx answers carry no internals. */
export function registerErrorHandling(app: FastifyInstance, maxSegment: number): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const validation = error as { validation?: unknown; validationContext?: string };
    const later = Array.isArray(validation.validation) ? (LATER_PARTS[validation.validationContext ?? ''] ?? []) : [];
    const m = map(error, unvalidatedErrors(request, later));
    // A 5xx the service chose (not ready, draining, a proof not sealed yet) is no failure: said, not stacked.
    if (m.status >= 500 && error instanceof HttpError)
      request.log.warn({ code: m.code, reason: error.message }, `request answered ${m.status}`);
    else if (m.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: m.code, status: m.status }, 'request refused');
    if (m.headers) void reply.headers(m.headers);
    return reply
      .status(m.status)
      .type('application/json; charset=utf-8')
      .send(errorBody(m.code, m.message, m.details));
  });
  // A path served under other methods answers 405 with Allow (RFC 9110), not a 404 that reads as
  // "no such path": the routes are learnt as they are added.
  const routes: { path: RegExp; methods: string[] }[] = [];
  app.addHook('onRoute', ({ url, method }) => {
    const segment = (s: string) => (s.startsWith(':') ? '[^/]+' : s === '*' ? '.*' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    routes.push({ path: new RegExp(`^${url.split('/').map(segment).join('/')}$`), methods: ([] as string[]).concat(method) });
  });
  app.setNotFoundHandler((request, reply) => {
    if (badPaths.has(request.raw)) return reply.status(400).send(badUrlBody(maxSegment));
    const path = request.url.split('?')[0]!;
    const allowed = [...new Set(routes.filter((r) => r.path.test(path)).flatMap((r) => r.methods))].sort();
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return reply
        .status(405)
        .header('allow', allowed.join(', '))
        .send(errorBody('METHOD_NOT_ALLOWED', `${request.method} is not served on ${path}: use ${allowed.join(', ')}`));
    }
    return reply.status(404).send(errorBody('NOT_FOUND', `no route for ${request.method} ${path}`));
  });
}

/** What Node's HTTP parser refuses before any route sees the request, in the envelope. */
function clientErrorAnswer(code: string | undefined): { status: number; reason: string; code: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'HEADERS_TOO_LARGE',
      message: 'the request headers are too large',
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, reason: 'Request Timeout', code: 'REQUEST_TIMEOUT', message: 'the request did not arrive in time' };
  return { status: 400, reason: 'Bad Request', code: 'VALIDATION_ERROR', message: 'the request is not valid HTTP' };
}

/**
 * Fastify's `clientErrorHandler`: a request the HTTP parser refuses (headers too large, a malformed
 * request line, a timeout) is answered with the error envelope, not Node's own body, and the
 * connection closed. A reset connection has no one to answer.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const a = clientErrorAnswer(error.code);
    const body = JSON.stringify(errorBody(a.code, a.message));
    socket.write(
      `HTTP/1.1 ${a.status} ${a.reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * While the service drains (SIGTERM), a request that still arrives is answered 503 in the envelope,
 * with Retry-After and Connection: close, instead of Fastify's own 503 body.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    void reply.header('connection', 'close');
    throw new HttpError(503, 'SERVICE_UNAVAILABLE', 'the service is shutting down; try again', undefined, { 'retry-after': '1' });
  });
}
