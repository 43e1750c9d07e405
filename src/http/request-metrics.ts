import type { FastifyInstance } from 'fastify';
import type { ServiceMetrics } from '../metrics/metrics.js';

/**
 * Counts every answer into the metrics: by method, route template (`unmatched` for a path no
 * route has, so that scanners cannot grow the label set) and status, with its latency; and each
 * 429 of a rate limit by the window that ran out.
 */
export function countRequests(app: FastifyInstance, metrics: ServiceMetrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
      status: String(reply.statusCode),
    };
    metrics.httpRequests.inc(labels);
    metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
    const limit = request.rateLimit;
    if (reply.statusCode === 429 && limit && !limit.allowed)
      metrics.rateLimited.inc({ window: limit.day.remaining === 0 ? 'day' : 'minute' });
  });
}
