import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ServiceMetrics } from '../../../metrics/metrics.js';
import { errorResponses } from '../../kit/envelope.js';

/**
 * `GET /metrics`: the Prometheus text exposition (docs/operations.md). Registered only with an
 * ADMIN_TOKEN, behind it (the caller adds the admin hook): without one the route does not exist.
 */
export const metricsRoutes: FastifyPluginAsyncTypebox<{ metrics: ServiceMetrics }> = async (app, { metrics }) => {
  app.get(
    '/metrics',
    {
      schema: {
        tags: ['admin'],
        summary: 'Metrics in the Prometheus text format (needs ADMIN_TOKEN)',
        description:
          "Requests and latency per route and status, ledger appends and group sizes, each follower's lag, webhook queue and attempts, rate-limit refusals, the oldest transaction on a PostgreSQL server, process and event-loop figures (docs/operations.md).",
        response: {
          200: {
            description: 'Prometheus text format 0.0.4',
            content: { 'text/plain': { schema: Type.String({ example: '# HELP consent_ledger_http_requests_total …' }) } },
          },
          ...errorResponses(401, 429),
        },
      },
    },
    async (_request, reply) => {
      const text = await metrics.text();
      return reply.type(metrics.contentType).send(text);
    },
  );
};
