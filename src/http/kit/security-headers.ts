import helmet, { type FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/** The policy of an answer that is not a page (JSON, CSV, PDF): it loads nothing, and nothing may frame it. */
const API_CSP = {
  useDefaults: false,
  directives: { defaultSrc: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"], frameAncestors: ["'none'"] },
};

/** The public verification page: its one inline stylesheet and nothing else (src/http/routes/verify/verify.page.ts). */
export const VERIFY_PAGE_HELMET = {
  contentSecurityPolicy: { useDefaults: false, directives: { ...API_CSP.directives, styleSrc: ["'unsafe-inline'"] } },
} satisfies FastifyHelmetOptions;

/**
 * Swagger UI (/docs): helmet's default policy (scripts, styles, data: images and /docs/json from
 * this origin) less `upgrade-insecure-requests`: the service is often reached over plain HTTP
 * (localhost, behind a TLS-terminating proxy), where it would break the page's own requests.
 */
const DOCS_HELMET = {
  contentSecurityPolicy: { useDefaults: true, directives: { upgradeInsecureRequests: null, frameAncestors: ["'none'"] } },
} satisfies FastifyHelmetOptions;

/** Swagger UI's own routes (its page, assets and the document), which are not the API. */
export const isDocsRoute = (url: string | undefined): boolean => url === '/docs' || (url?.startsWith('/docs/') ?? false);

/**
 * Security headers on every answer, from @fastify/helmet (X-Content-Type-Options: nosniff, a
 * Content-Security-Policy, X-Frame-Options: DENY, Referrer-Policy: no-referrer, HSTS and the rest);
 * and `Cache-Control: no-store` on every answer whose route did not set its own: API answers,
 * errors, receipts and exports hold tenant or personal data that no cache should keep.
 * Register it before any hook that may answer early (rate limits, auth), so their answers get the
 * headers too.
 */
export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  // Routes registered from now on under /docs get the policy Swagger UI needs.
  app.addHook('onRoute', (route) => {
    if (isDocsRoute(route.url)) route.helmet ??= DOCS_HELMET;
  });
  await app.register(helmet, {
    contentSecurityPolicy: API_CSP,
    frameguard: { action: 'deny' },
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    return payload;
  });
}
