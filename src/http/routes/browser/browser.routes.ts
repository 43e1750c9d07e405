import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TenantService } from '../../../tenants/tenants.service.js';
import { errorBody } from '../../kit/errors.js';
import { SDK_SOURCE } from './sdk.js';

const ALLOWED_HEADERS = 'content-type, x-api-key, idempotency-key, x-user-token';
/** What the SDK may read of an answer besides its body: the budget left, when to retry, a replay. */
const EXPOSED_HEADERS =
  'x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset, x-ratelimit-daily-limit, x-ratelimit-daily-remaining, x-ratelimit-daily-reset, retry-after, idempotent-replayed';

const originOf = (request: FastifyRequest): string | undefined => {
  const origin = request.headers.origin;
  return typeof origin === 'string' ? origin.toLowerCase() : undefined;
};

/** The CORS headers of an answer to an allowed origin (never `*`: each answer names the one origin it is for). */
export function allowOrigin(reply: FastifyReply, origin: string): void {
  void reply.header('access-control-allow-origin', origin).header('access-control-expose-headers', EXPOSED_HEADERS);
  const vary = reply.getHeader('vary');
  if (
    !String(vary ?? '')
      .toLowerCase()
      .includes('origin')
  )
    void reply.header('vary', vary ? `${String(vary)}, Origin` : 'Origin');
}

/**
 * Browser collection (docs/browser.md), outside the authenticated API: CORS preflight for the
 * routes a publishable key may call (`paths`), answered only for origins some live publishable key
 * allows; and the SDK, an ES module a page on such an origin imports. Every other route sends no
 * CORS header.
 */
export const browserRoutes: FastifyPluginAsyncTypebox<{ tenants: TenantService; paths: readonly string[] }> = async (
  app,
  { tenants, paths },
) => {
  for (const path of paths) {
    app.options(path, { config: { browserLimit: true }, schema: { hide: true } }, async (request, reply) => {
      const origin = originOf(request);
      const method = request.headers['access-control-request-method'];
      if (method !== 'POST' || !origin || !(await tenants.originAllowed(origin))) {
        // No CORS header: the browser refuses the call it asked about.
        return reply.status(403).send(errorBody('FORBIDDEN', 'this origin may not call this route from a browser'));
      }
      allowOrigin(reply, origin);
      return reply
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .status(204)
        .send();
    });
  }

  app.get(
    '/sdk/consent-ledger.js',
    {
      config: { browserLimit: true },
      schema: {
        tags: ['browser'],
        summary: 'The browser SDK: an ES module that records decisions with a publishable key',
        description:
          'Dependency-free, under 4 KB gzipped: `import { consentLedger } from "https://ledger.example.com/sdk/consent-ledger.js"; await consentLedger({ publishableKey }).record({ purpose, userReference, consentGiven, metadata })` answers `{ id, verifyUrl }` (docs/browser.md). Loadable cross-origin from the origins a publishable key allows.',
        response: { 200: { description: 'The module', content: { 'text/javascript': { schema: { type: 'string' } } } } },
      },
    },
    async (request, reply) => {
      const origin = originOf(request);
      if (origin && (await tenants.originAllowed(origin))) allowOrigin(reply, origin);
      else void reply.header('vary', 'Origin');
      return reply.header('content-type', 'text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(SDK_SOURCE);
    },
  );
};
