import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sha256Hex } from '../common/hashing.js';
import type { TenantContext, TenantService } from '../tenants/tenants.service.js';
import { ConsoleSessions, type SessionContext } from '../tenants/console-sessions.js';
import { userReferenceOf, UserTokenError } from '../tenants/user-token.js';
import { HttpError } from './kit/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller's tenant (set on every /api/v1 and /v1 route). */
    tenant: TenantContext;
  }
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const v = request.headers[name];
  return typeof v === 'string' ? v : undefined;
};

/** The console session's cookie (docs/console.md). */
export const SESSION_COOKIE = 'cl_session';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A cookie's value from the request's Cookie header, or undefined. */
export function cookie(request: FastifyRequest, name: string): string | undefined {
  const raw = request.headers.cookie;
  if (typeof raw !== 'string') return undefined;
  for (const part of raw.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The request's console session: 401 when there is none (or it is over), 403 when the request
 * changes anything (any method but GET, HEAD, OPTIONS) without the session's CSRF token, or sends
 * a token that is not the session's.
 */
export async function consoleSession(request: FastifyRequest, sessions: ConsoleSessions): Promise<SessionContext & { sessionId: string }> {
  const sessionId = cookie(request, SESSION_COOKIE);
  const session = sessionId === undefined ? null : await sessions.resume(sessionId);
  if (!session) throw new HttpError(401, 'UNAUTHORIZED', 'not signed in to the console, or the session is over: sign in again');
  // A read may carry the token too (the console's do): one that is not this session's means the
  // page holds a session another sign-in replaced, and must not be shown the new one's data.
  const presented = header(request, 'x-csrf-token');
  if ((!SAFE_METHODS.has(request.method) || presented !== undefined) && !ConsoleSessions.csrfMatches(session, presented)) {
    throw new HttpError(403, 'FORBIDDEN', "send the session's CSRF token (X-CSRF-Token) with every call that changes anything");
  }
  return { ...session, sessionId: sessionId! };
}

/**
 * onRequest hook: X-API-Key + X-API-Secret, before the body is even read. A publishable key
 * (`pk_…`) comes without a secret and must come from one of its origins (the `Origin` header a
 * browser sends): from any other, or with none, 403 FORBIDDEN (docs/browser.md).
 */
export const apiKeyAuth = (tenants: TenantService, sessions?: ConsoleSessions) => async (request: FastifyRequest, _reply: FastifyReply) => {
  const apiKey = header(request, 'x-api-key');
  if (apiKey === undefined && sessions && cookie(request, SESSION_COOKIE) !== undefined) {
    // The console (docs/console.md): its session acts as the key that signed in.
    request.tenant = (await consoleSession(request, sessions)).tenant;
    return;
  }
  if (apiKey?.startsWith('pk_')) {
    const origin = header(request, 'origin');
    const tenant = await tenants.authenticatePublishable(apiKey, origin);
    if (!tenant) throw new HttpError(401, 'UNAUTHORIZED', 'send a valid publishable X-API-Key');
    if (tenant === 'origin') {
      throw new HttpError(403, 'FORBIDDEN', 'this publishable key may be used only from the origins its tenant allows', {
        origin: origin ?? null,
      });
    }
    request.tenant = tenant;
    return;
  }
  const tenant = await tenants.authenticate(apiKey, header(request, 'x-api-secret'));
  if (!tenant) throw new HttpError(401, 'UNAUTHORIZED', 'send a valid X-API-Key and X-API-Secret');
  request.tenant = tenant;
};

/**
 * The user reference a publishable key's user token vouches for (docs/browser.md), or undefined
 * when the key needs none. A key given a user-token key answers 401 without a token that verifies.
 */
export function vouchedUserReference(request: FastifyRequest): string | undefined {
  const { userTokenKey, apiKey } = request.tenant;
  if (!userTokenKey) return undefined;
  const token = header(request, 'x-user-token');
  if (token === undefined) {
    throw new HttpError(
      401,
      'UNAUTHORIZED',
      "this publishable key records only with a user token: send X-User-Token, signed by your backend for the visitor's userReference",
    );
  }
  try {
    return userReferenceOf(token.trim(), userTokenKey, { apiKey, now: Date.now() });
  } catch (error) {
    if (error instanceof UserTokenError) throw new HttpError(401, 'UNAUTHORIZED', error.message);
    throw error;
  }
}

/** onRequest hook for the admin API: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export const adminAuth = (token: string) => {
  const expected = Buffer.from(sha256Hex(token), 'hex');
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    // The scheme is case-insensitive (RFC 9110, section 11.1).
    const presented = /^Bearer +(.+)$/i.exec(header(request, 'authorization') ?? '')?.[1] ?? '';
    if (!timingSafeEqual(Buffer.from(sha256Hex(presented), 'hex'), expected)) {
      throw new HttpError(401, 'UNAUTHORIZED', 'send Authorization: Bearer <ADMIN_TOKEN>');
    }
  };
};
