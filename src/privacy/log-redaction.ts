import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { networkOf } from '../common/addresses.js';

const REDACTED = '[redacted]';

/** Path parameters whose values are record ids or enums: logged as they are. Any other (userReference, apiKey, `*`) is redacted. */
const SHOWN_PARAMS = new Set(['id', 'consentId', 'policyType']);

/** Query parameters whose values carry no personal data and no credential: logged as they are. */
const SHOWN_QUERY = new Set([
  'page',
  'limit',
  'after',
  'from',
  'to',
  'policyType',
  'consent_type',
  'type',
  'status',
  'consentGiven',
  'granted',
  'isActive',
  'is_active',
  'startDate',
  'endDate',
  'consentId',
]);

/** Query parameters the service knows whose values may be personal (a user reference, a consent hash): the name is logged, not the value. */
const NAMED_QUERY = new Set(['userReference', 'hash']);

const API_PREFIX = /^\/(?:api\/v1|v1|admin\/v1)(?=\/|$)/;

/**
 * A request URL as the logs may hold it, built from what the router decoded, never from the raw
 * text (so `%75serReference` or `%73ubjects` cannot slip past): the route's pattern with its
 * parameters filled in, user references and unknown values replaced by `[redacted]`; query
 * parameters by their decoded names, only harmless values kept, and a parameter the service does
 * not know (a credential sent in the query, say) dropped to a bare `[redacted]`. A request no
 * route matched keeps only its API prefix: its path may hold anything.
 *
 * @example
 * // GET /api/v1/consent/user/al%69ce/status?page=2
 * loggedUrl(request) // '/api/v1/consent/user/[redacted]/status?page=2'
 * // GET /api/v1/consent/search?%75serReference=alice&apiSecret=cs_x
 * loggedUrl(request) // '/api/v1/consent/search?userReference=[redacted]&[redacted]'
 */
export function loggedUrl(request: FastifyRequest): string {
  let pattern: string | undefined;
  try {
    pattern = request.routeOptions.url;
  } catch {
    // A request refused before routing (a path that does not decode) has no route context.
  }
  if (pattern === undefined) {
    const path = request.url.split('?', 1)[0]!;
    const prefix = API_PREFIX.exec(path)?.[0] ?? '';
    return path === prefix || path === '/' ? path : `${prefix}/${REDACTED}`;
  }
  const params = (request.params ?? {}) as Record<string, unknown>;
  const path = pattern.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    const key = name ?? '*';
    const value = params[key];
    if (value === undefined) return whole;
    return SHOWN_PARAMS.has(key) ? encodeURIComponent(String(value)) : REDACTED;
  });
  const query = loggedQuery(request.query);
  return query ? `${path}?${query}` : path;
}

function loggedQuery(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const parts: string[] = [];
  for (const [name, raw] of Object.entries(query as Record<string, unknown>)) {
    for (const value of Array.isArray(raw) ? raw : [raw]) {
      if (SHOWN_QUERY.has(name)) parts.push(`${name}=${encodeURIComponent(String(value))}`);
      else if (NAMED_QUERY.has(name)) parts.push(`${name}=${REDACTED}`);
      else parts.push(REDACTED);
    }
  }
  return parts.join('&');
}

/**
 * A client address as the logs keep it: its network, not the host (IPv4 /24, IPv6 /48), enough to
 * tell where traffic comes from without naming a data subject's device, since a browser's
 * address is personal data that the subject's erasure could not reach in the logs.
 *
 * @example
 * loggedAddress('203.0.113.211') // '203.0.113.0/24'
 * loggedAddress('2001:db8:1234:5678::9') // '2001:db8:1234::/48'
 */
export const loggedAddress = (ip: string | undefined): string | undefined =>
  ip === undefined ? undefined : (networkOf(ip, { v4: 24, v6: 48 }) ?? REDACTED);

/** The request as logged: Fastify's default fields, with the URL built by loggedUrl and the address by loggedAddress. */
export const redactedRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: loggedUrl(request),
  host: request.host,
  remoteAddress: loggedAddress(request.ip),
  // The connection's port: it tells connections apart (a proxy's logs, a test), and without the
  // host's address it names nobody.
  remotePort: request.socket?.remotePort,
});

/**
 * Logger options whose request serializer never writes a user reference or a client's full
 * address (docs/erasure.md: the logs are in the erasure's scope) nor a credential sent in the
 * query string. `false`, `true` and
 * option objects are covered; a logger instance is the caller's to configure.
 */
export function withRedactedRequests(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return logger;
  const options = logger === true ? {} : logger;
  if (typeof (options as { child?: unknown }).child === 'function') return logger;
  const base = options as { serializers?: Record<string, unknown> };
  return { ...base, serializers: { ...base.serializers, req: redactedRequest } } as FastifyServerOptions['logger'];
}
