import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RateLimiter } from '../../../limits/rate-limiter.js';
import { addressRateLimit, guardedCredentials } from '../../../limits/rate-limit.hooks.js';
import type { ConsoleSessions } from '../../../tenants/console-sessions.js';
import { consoleSession, cookie, SESSION_COOKIE } from '../../auth.js';
import { EnvelopeSchema, errorResponses, ok } from '../../kit/envelope.js';
import { HttpError } from '../../kit/errors.js';

/** The console's own policy: its scripts, styles and API calls from this origin, nothing inline, nothing framed. */
export const CONSOLE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data: blob:; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Sign-ins per client address: enough for a team, too few to guess secrets. */
const SIGN_IN_LIMITS = { perMinute: 20, perDay: 1_000 };

/** Where `npm run build` puts the console (dist/console), found from this module in src/ or dist/src/. */
function consoleDir(): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    if (existsSync(join(dir, 'package.json'))) return join(dir, 'dist', 'console');
    dir = dirname(dir);
  }
  return undefined;
}

const ASSETS: Record<string, string> = {
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

const SessionSchema = Type.Object({
  csrfToken: Type.String({ description: 'send it as X-CSRF-Token with every call that changes anything' }),
  expiresAt: Type.String({ format: 'date-time' }),
  scope: Type.String(),
  tenantId: Type.String({ format: 'uuid' }),
  tenantName: Type.String(),
  apiKey: Type.String(),
});

const sessionView = (s: {
  csrfToken: string;
  expiresAt: string;
  tenant: { scope: string; tenantId: string; name: string; apiKey: string };
}) => ({
  csrfToken: s.csrfToken,
  expiresAt: s.expiresAt,
  scope: s.tenant.scope,
  tenantId: s.tenant.tenantId,
  tenantName: s.tenant.name,
  apiKey: s.tenant.apiKey,
});

/** Secure when the request came over HTTPS (behind a proxy too, with TRUST_PROXY) or the service says it is served so. */
const secure = (request: FastifyRequest, publicBaseUrl: string) => request.protocol === 'https' || publicBaseUrl.startsWith('https:');

function setSessionCookie(reply: FastifyReply, value: string, maxAgeSeconds: number, isSecure: boolean): void {
  const attributes = [`${SESSION_COOKIE}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Strict', `Max-Age=${maxAgeSeconds}`];
  if (isSecure) attributes.push('Secure');
  void reply.header('set-cookie', attributes.join('; '));
}

/**
 * The console (docs/console.md): its page and assets, built by `npm run build` into dist/console,
 * under a strict Content Security Policy; and its session, an API key and secret exchanged for an
 * HttpOnly, SameSite=Strict cookie. The pages read and change data only through /api/v1.
 */
export const consoleRoutes: FastifyPluginAsyncTypebox<{ sessions: ConsoleSessions; limiter: RateLimiter; publicBaseUrl: string }> = async (
  app,
  { sessions, limiter, publicBaseUrl },
) => {
  const dir = consoleDir();
  const read = (file: string): Buffer | undefined => {
    const path = dir && join(dir, file);
    return path && existsSync(path) ? readFileSync(path) : undefined;
  };
  const page = (reply: FastifyReply) => {
    const html = read('index.html');
    if (!html) throw new HttpError(503, 'SERVICE_UNAVAILABLE', 'the console is not built: run `npm run build`');
    return reply.header('content-type', 'text/html; charset=utf-8').header('content-security-policy', CONSOLE_CSP).send(html);
  };

  app.get('/console', { schema: { hide: true } }, async (_request, reply) => page(reply));
  app.get<{ Params: { file: string } }>('/console/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const type = ASSETS[request.params.file];
    const body = type ? read(request.params.file) : undefined;
    if (!type || !body) throw new HttpError(404, 'NOT_FOUND', 'no such console asset');
    return reply.header('content-type', type).header('cache-control', 'no-cache').send(body);
  });

  const signInLimit = addressRateLimit(limiter, 'console', SIGN_IN_LIMITS);
  app.post(
    '/console/session',
    {
      onRequest: signInLimit,
      schema: {
        tags: ['console'],
        summary: 'Sign in to the console with an API key and secret (scope read or admin)',
        description:
          'Sets an HttpOnly, SameSite=Strict session cookie (Secure over HTTPS) lasting 8 hours; the session then acts as the key on /api/v1, and every call that changes anything must send X-CSRF-Token.',
        body: Type.Object(
          { apiKey: Type.String({ maxLength: 64 }), apiSecret: Type.String({ maxLength: 128 }) },
          { additionalProperties: false },
        ),
        response: { 201: EnvelopeSchema(SessionSchema), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request, reply) => {
      const opened = await guardedCredentials(request, limiter, () => sessions.open(request.body.apiKey, request.body.apiSecret));
      setSessionCookie(
        reply,
        opened.sessionId,
        Math.round((Date.parse(opened.expiresAt) - Date.now()) / 1000),
        secure(request, publicBaseUrl),
      );
      return reply.status(201).send(ok(sessionView(opened)));
    },
  );

  app.get(
    '/console/session',
    {
      schema: {
        tags: ['console'],
        summary: 'The console session: its key, scope, tenant and CSRF token',
        response: { 200: EnvelopeSchema(SessionSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const sent = cookie(request, SESSION_COOKIE);
      if (!sent) throw new HttpError(401, 'UNAUTHORIZED', 'not signed in to the console');
      // A cookie sent is credentials: looked at, and guessed at, as a key is.
      const session = await guardedCredentials(request, limiter, async () => {
        const found = await sessions.resume(sent);
        if (!found) throw new HttpError(401, 'UNAUTHORIZED', 'not signed in to the console');
        return found;
      });
      return ok(sessionView(session));
    },
  );

  app.delete(
    '/console/session',
    {
      schema: {
        tags: ['console'],
        summary: 'Sign out of the console (send X-CSRF-Token)',
        response: { 200: EnvelopeSchema(Type.Object({ message: Type.String() })), ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const { sessionId } = await consoleSession(request, sessions);
      await sessions.close(sessionId);
      setSessionCookie(reply, '', 0, secure(request, publicBaseUrl));
      return ok({ message: 'signed out' });
    },
  );
};
