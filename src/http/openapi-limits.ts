/**
 * What every route, or every rate-limited or store-backed one, may answer besides its own
 * responses, added to the OpenAPI document in one place (routes declare only what is theirs):
 * - 400 VALIDATION_ERROR on every route, which refuses a query parameter it does not take and a
 *   query or path that is not valid UTF-8 (docs/contract.md);
 * - 431 HEADERS_TOO_LARGE on every route, for headers and URL over Node's limit (16 KiB);
 * - the six X-RateLimit-* headers on every answer of a limited route (docs/limits.md);
 * - 429 RATE_LIMIT_EXCEEDED with Retry-After, when a budget is used up;
 * - 503 SERVICE_UNAVAILABLE with Retry-After, when the ledger or the store cannot be reached
 *   (a write that answers 503 did not happen), and Retry-After on a route's own 503;
 * - 409 CONCURRENCY_CONFLICT with Retry-After on every write of the store (added to a route's own 409);
 * - Content-Disposition on a success answered as a file (CSV, JSON lines, PDF, tar.gz);
 * - X-Read-Models-Behind on a success of the tenant API, sent when it was read from read models
 *   that the read fence could not wait for (docs/contract.md);
 * - Idempotent-Replayed on a success of an operation that takes an Idempotency-Key.
 */

import { STATUS_WORDS } from './openapi-operations.js';

type Operation = { responses?: Record<string, Record<string, unknown>> };
type Paths = Record<string, Record<string, Operation>>;
interface Components {
  headers?: Record<string, unknown>;
}

const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });

/** The headers' definitions, named as they are sent (docs/limits.md). */
export const RATE_LIMIT_HEADERS: Record<string, { description: string; schema: { type: string } }> = {
  'X-RateLimit-Limit': integerHeader('Requests allowed per minute'),
  'X-RateLimit-Remaining': integerHeader('Requests left in the current minute'),
  'X-RateLimit-Reset': integerHeader('Unix time (seconds) at which the minute window resets'),
  'X-RateLimit-Daily-Limit': integerHeader('Requests allowed per UTC day'),
  'X-RateLimit-Daily-Remaining': integerHeader('Requests left in the current UTC day'),
  'X-RateLimit-Daily-Reset': integerHeader('Unix time (seconds) at which the UTC day resets'),
};

const RETRY_AFTER = 'Retry-After';
const READ_MODELS_BEHIND = 'X-Read-Models-Behind';
const CONTENT_DISPOSITION = 'Content-Disposition';
/** What a success answers as a file (an export, a receipt, a backup): sent with Content-Disposition. */
const FILE_TYPES = ['text/csv', 'application/x-ndjson', 'application/pdf', 'application/gzip'];
const IDEMPOTENT_REPLAYED = 'Idempotent-Replayed';

/** Operations a repeat of which is answered as a replay without a key: an erasure, keyed by its subject. */
const REPLAYED_BY_NATURE = new Set(['/api/v1/subjects/{userReference}/erase', '/api/v1/subjects/erase']);

/** Whether an operation takes an Idempotency-Key header (and so may answer a replay). */
const takesIdempotencyKey = (op: Operation & { parameters?: { in?: string; name?: string }[] }): boolean =>
  (op.parameters ?? []).some((p) => p.in === 'header' && p.name?.toLowerCase() === 'idempotency-key');

const errorResponse = (description: string, retryAfter = true) => ({
  description,
  ...(retryAfter ? { headers: { [RETRY_AFTER]: { $ref: `#/components/headers/${RETRY_AFTER}` } } } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});

/**
 * Routes whose every answer counts against a budget and carries the headers: the tenant API, and
 * those limited per client address (the receipt check, the public log, the browser SDK).
 */
const limited = (path: string): boolean => ['/api/v1/', '/verify/', '/ledger/', '/sdk/'].some((p) => path.startsWith(p));
const WRITES = new Set(['post', 'put', 'patch', 'delete']);
const CONFLICT =
  'The record changed under every attempt to write it (CONCURRENCY_CONFLICT, with Retry-After); nothing was written, try again';

/** Routes that read or write the store (and so may answer 503). */
const storeBacked = (path: string): boolean => (limited(path) && !path.startsWith('/sdk/')) || path.startsWith('/admin/');

/**
 * Adds the headers, 429 and 503 to the document's operations, in place.
 *
 * @example
 * addLimitResponses(doc.paths, doc.components) // every /api/v1 operation now lists 429 and 503
 */
export function addLimitResponses(paths: Paths, components: Components): void {
  components.headers = {
    ...components.headers,
    ...RATE_LIMIT_HEADERS,
    [RETRY_AFTER]: integerHeader('Seconds to wait before trying again'),
    [IDEMPOTENT_REPLAYED]: {
      description:
        'Sent, as `true`, when the answer is a replay: an earlier request with the same Idempotency-Key and body was answered this, and nothing was written again',
      schema: { type: 'string', enum: ['true'] },
    },
    [CONTENT_DISPOSITION]: {
      description: 'A file to save (attachment), or a receipt to show (inline), with its file name',
      schema: { type: 'string' },
    },
    [READ_MODELS_BEHIND]: {
      description:
        'Sent, as `true`, only when the answer was read from read models that did not yet hold every write the tenant made before the request (the read fence waited 5 s for them and gave up): a write just made may be missing from it; read again shortly',
      schema: { type: 'string', enum: ['true'] },
    },
  };
  const headerRefs = Object.fromEntries(Object.keys(RATE_LIMIT_HEADERS).map((h) => [h, { $ref: `#/components/headers/${h}` }]));
  for (const [path, operations] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const responses = (op.responses ??= {});
      responses['400'] ??= errorResponse(
        'Invalid input (VALIDATION_ERROR): a query parameter the route does not take, or a URL that is not valid',
        false,
      );
      // Every route a body may be sent to reads it as JSON, up to the body limit, whether it takes one or not.
      if (method === 'post' || method === 'put' || method === 'patch') {
        responses['413'] ??= errorResponse('Body too large (PAYLOAD_TOO_LARGE)', false);
        responses['415'] ??= errorResponse('A body not application/json in UTF-8 (UNSUPPORTED_MEDIA_TYPE)', false);
      }
      responses['431'] ??= errorResponse('Request headers and URL too large (HEADERS_TOO_LARGE); the connection is closed', false);
      // Failed credentials count against the client address, on the admin API too.
      if (limited(path) || storeBacked(path))
        responses['429'] ??= errorResponse(
          'Rate limit exceeded (RATE_LIMIT_EXCEEDED): the body names the window; wait Retry-After seconds',
        );
      if (storeBacked(path))
        responses['503'] ??= errorResponse(
          'The ledger or the store is unreachable, or this instance cannot use its keys until its operator restarts it (SERVICE_UNAVAILABLE); nothing was written; retry after Retry-After seconds. With details.recorded "unknown", a write was sent and its answer lost: it may have been recorded; send it again with the same Idempotency-Key, which records it once',
        );
      for (const [status, response] of Object.entries(responses)) {
        const types = Object.keys((response.content as Record<string, unknown> | undefined) ?? {});
        if (status.startsWith('2') && types.some((t) => FILE_TYPES.includes(t)))
          response.headers = {
            [CONTENT_DISPOSITION]: { $ref: `#/components/headers/${CONTENT_DISPOSITION}` },
            ...(response.headers as Record<string, unknown> | undefined),
          };
      }
      // A route's own 503 (PROOF_NOT_READY, NOT_READY) is sent with Retry-After too.
      const unavailable = responses['503'];
      if (unavailable && !unavailable.headers) unavailable.headers = { [RETRY_AFTER]: { $ref: `#/components/headers/${RETRY_AFTER}` } };
      // Every write goes through the command handler, which gives up on streams that changed under each attempt.
      if (storeBacked(path) && WRITES.has(method)) {
        const own = responses['409'];
        if (!own) responses['409'] = errorResponse(CONFLICT);
        else if (!String(own.description).includes('CONCURRENCY_CONFLICT')) {
          const base = own.description === 'Default Response' ? STATUS_WORDS['409']! : String(own.description).replace(/\.?$/, '');
          own.description = `${base}; or ${CONFLICT.charAt(0).toLowerCase()}${CONFLICT.slice(1)}`;
          own.headers = {
            [RETRY_AFTER]: { $ref: `#/components/headers/${RETRY_AFTER}` },
            ...(own.headers as Record<string, unknown> | undefined),
          };
        }
      }
      if (!limited(path)) continue;
      for (const [status, response] of Object.entries(responses)) {
        const success = path.startsWith('/api/v1/') && status.startsWith('2');
        const behind = success ? { [READ_MODELS_BEHIND]: { $ref: `#/components/headers/${READ_MODELS_BEHIND}` } } : {};
        const replayed =
          success && (takesIdempotencyKey(op) || REPLAYED_BY_NATURE.has(path))
            ? { [IDEMPOTENT_REPLAYED]: { $ref: `#/components/headers/${IDEMPOTENT_REPLAYED}` } }
            : {};
        response.headers = { ...headerRefs, ...behind, ...replayed, ...(response.headers as Record<string, unknown> | undefined) };
      }
    }
  }
}
