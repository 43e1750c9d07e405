import type { FastifyRequest, FastifyServerOptions } from 'fastify';

// A user reference sits in these path segments (/consent/user/:ref, /subjects/:ref/erase) and in
// the userReference query parameter of searches, stats and exports.
const REFERENCE_SEGMENT = /(\/(?:user|subjects)\/)[^/?#]*/g;
const REFERENCE_PARAM = /((?:^|&)userReference=)[^&#]*/g;

/**
 * A request URL as the logs may hold it: user references replaced by `[redacted]`.
 *
 * @example
 * redactUrl('/api/v1/consent/user/alice%40example.com/status') // '/api/v1/consent/user/[redacted]/status'
 * redactUrl('/v1/consent?userReference=alice&page=2')           // '/v1/consent?userReference=[redacted]&page=2'
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(REFERENCE_SEGMENT, '$1[redacted]');
  return q < 0 ? path : `${path}?${url.slice(q + 1).replace(REFERENCE_PARAM, '$1[redacted]')}`;
}

/** The request as logged: Fastify's default fields, with the URL redacted. */
export const redactedRequest = (request: FastifyRequest) => ({
  method: request.method,
  url: redactUrl(request.url),
  host: request.host,
  remoteAddress: request.ip,
  remotePort: request.socket?.remotePort,
});

/**
 * Logger options whose request serializer never writes a user reference (docs/erasure.md: the
 * logs are in the erasure's scope). `false`, `true` and option objects are covered; a logger
 * instance is the caller's to configure.
 */
export function withRedactedRequests(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return logger;
  const options = logger === true ? {} : logger;
  if (typeof (options as { child?: unknown }).child === 'function') return logger;
  const base = options as { serializers?: Record<string, unknown> };
  return { ...base, serializers: { ...base.serializers, req: redactedRequest } } as FastifyServerOptions['logger'];
}
