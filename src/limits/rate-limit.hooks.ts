import { networkOf } from '../common/addresses.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http/kit/errors.js';
import type { Limits, RateLimitDecision, RateLimiter } from './rate-limiter.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Where the caller stands after this request was counted; becomes the X-RateLimit-* headers. */
    rateLimit: RateLimitDecision | null;
  }
  interface FastifyContextConfig {
    /** A public route (no API key), limited per client address: see `publicRouteRateLimit`. */
    publicPerIpLimit?: boolean;
    /** A public transparency-log route (checkpoints, proofs, the leaf feed), limited per client address on its own budget. */
    publicLogLimit?: boolean;
    /** Browser collection's public routes (CORS preflight, the SDK), limited per client address on their own budget. */
    browserLimit?: boolean;
  }
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/**
 * Requests without valid credentials, per client address (missing, unknown or revoked key,
 * wrong secret, wrong admin token). Generous for a client that is being set up, far too few for
 * guessing a key: once used up, the address is refused with 429 before any credential is checked.
 */
export const UNAUTHENTICATED_LIMITS: Limits = { perMinute: 100, perDay: 5_000 };

/** The public receipt check (`GET /verify/:consentId`), per client address. */
export const PUBLIC_VERIFY_LIMITS: Limits = { perMinute: 60, perDay: 5_000 };

/**
 * The public transparency-log routes (`/ledger/:tenantId/…`), per client address: a monitor or a
 * witness reading the feed 1,000 leaves a request catches up 600,000 leaves a minute.
 */
export const PUBLIC_LOG_LIMITS: Limits = { perMinute: 600, perDay: 200_000 };

/**
 * Browser collection's preflights and SDK loads, per client address: many visitors behind one
 * NAT, each page load asking once (both are cached by the browser for minutes).
 */
export const BROWSER_LIMITS: Limits = { perMinute: 1_200, perDay: 500_000 };

/**
 * The part of a client address that identifies one client: an IPv4 address, or the /64 network
 * of an IPv6 address (one host usually holds a whole /64, so counting single IPv6 addresses
 * would let it pick a fresh one per request).
 */
export const addressSubject = (ip: string): string => networkOf(ip, { v4: 32, v6: 64 }) ?? ip;

export const rateLimitHeaders = (d: RateLimitDecision): Record<string, string> => ({
  'x-ratelimit-limit': String(d.minute.limit),
  'x-ratelimit-remaining': String(d.minute.remaining),
  'x-ratelimit-reset': String(d.minute.reset),
  'x-ratelimit-daily-limit': String(d.day.limit),
  'x-ratelimit-daily-remaining': String(d.day.remaining),
  'x-ratelimit-daily-reset': String(d.day.reset),
});

/** 429 RATE_LIMIT_EXCEEDED with Retry-After, naming the window that ran out. */
export function tooManyRequests(d: RateLimitDecision): HttpError {
  const window = d.day.remaining === 0 ? 'day' : 'minute';
  const limit = window === 'day' ? d.day.limit : d.minute.limit;
  return new HttpError(
    429,
    'RATE_LIMIT_EXCEEDED',
    `rate limit exceeded: ${limit} requests per ${window === 'day' ? 'UTC day' : 'minute'}; retry in ${d.retryAfter} s`,
    { window, limit, retryAfter: d.retryAfter },
    { 'retry-after': String(d.retryAfter) },
  );
}

/**
 * Every answer of a rate-limited request carries the X-RateLimit-* headers, errors included
 * (401, 404, 415, 429...): they are set when the answer is sent, from `request.rateLimit`.
 * Register on the root instance before the routes.
 */
export function registerRateLimitHeaders(app: FastifyInstance): void {
  app.decorateRequest('rateLimit', null);
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.rateLimit) void reply.headers(rateLimitHeaders(request.rateLimit));
    return payload;
  });
}

async function takeOrRefuse(request: FastifyRequest, limiter: RateLimiter, subject: string, limits: Limits): Promise<void> {
  const d = await limiter.take(subject, limits);
  request.rateLimit = d;
  if (!d.allowed) throw tooManyRequests(d);
}

/**
 * onRequest hook limiting by client address (`request.ip`, which honours TRUST_PROXY). `scope`
 * keeps budgets apart (the verify page's is not the failed-login one).
 *
 * @example
 * app.get('/verify/:consentId', { onRequest: addressRateLimit(limiter, 'verify', PUBLIC_VERIFY_LIMITS) }, handler);
 */
export const addressRateLimit =
  (limiter: RateLimiter, scope: string, limits: Limits): Hook =>
  async (request) =>
    takeOrRefuse(request, limiter, `${scope}:${addressSubject(request.ip)}`, limits);

/**
 * onRequest hook for the root: a route whose config says `publicPerIpLimit: true` (the public
 * receipt check, `GET /verify/:consentId`) counts against the client address's verify budget;
 * one that says `publicLogLimit: true` (the public log routes) against its log budget, and one that
 * says `browserLimit: true` (preflight, SDK) against its browser budget.
 */
export function publicRouteRateLimit(limiter: RateLimiter): Hook {
  const verify = addressRateLimit(limiter, 'verify', PUBLIC_VERIFY_LIMITS);
  const log = addressRateLimit(limiter, 'log', PUBLIC_LOG_LIMITS);
  const browser = addressRateLimit(limiter, 'browser', BROWSER_LIMITS);
  return async (request, reply) => {
    const config = request.routeOptions.config;
    if (config?.publicPerIpLimit) await verify(request, reply);
    else if (config?.publicLogLimit) await log(request, reply);
    else if (config?.browserLimit) await browser(request, reply);
  };
}

/**
 * Runs `check`, which looks at credentials (throwing a 401 or 403 HttpError when they are
 * refused), as every credential check must run: an address whose unauthenticated budget is used
 * up gets 429 before they are looked at, valid or not (so a guess cannot be told right or wrong
 * by the answer), and a refusal counts against the address. The API's keys, the admin token and
 * the console's sign-in and session cookie all go through it.
 */
export async function guardedCredentials<T>(request: FastifyRequest, limiter: RateLimiter, check: () => Promise<T>): Promise<T> {
  const address = `auth:${addressSubject(request.ip)}`;
  const standing = await limiter.peek(address, UNAUTHENTICATED_LIMITS);
  if (!standing.allowed) {
    request.rateLimit = standing;
    throw tooManyRequests(standing);
  }
  try {
    return await check();
  } catch (error) {
    // Credentials refused: a wrong key, or a publishable key sent from an origin it does not allow (403).
    if (error instanceof HttpError && (error.statusCode === 401 || error.statusCode === 403)) {
      await takeOrRefuse(request, limiter, address, UNAUTHENTICATED_LIMITS);
    }
    throw error;
  }
}

/**
 * Wraps an authentication hook (one that throws a 401 HttpError):
 * - an address whose unauthenticated budget is used up gets 429 before its credentials are
 *   even looked at (so a guess cannot be told right or wrong by the answer);
 * - a 401 counts against the client address;
 * - an authenticated request counts against each budget `subjectOf` names (the tenant's), if any.
 */
export function rateLimitedAuth(
  authenticate: Hook,
  limiter: RateLimiter,
  subjectOf: (request: FastifyRequest) => readonly { subject: string; limits: Limits }[],
): Hook {
  return async (request, reply) => {
    await guardedCredentials(request, limiter, () => authenticate(request, reply));
    // Each budget the request spends, or none when one refuses it; the headers name the one with
    // the least left this minute.
    let tightest: RateLimitDecision | undefined;
    for (const d of await limiter.takeAll(subjectOf(request))) {
      if (!d.allowed) {
        request.rateLimit = d;
        throw tooManyRequests(d);
      }
      if (!tightest || d.minute.remaining < tightest.minute.remaining) tightest = d;
    }
    if (tightest) request.rateLimit = tightest;
  };
}

/**
 * The budgets of an authenticated API request: its tenant's limits (the plan's, or its own). A
 * publishable key spends its own budget and one all the tenant's publishable keys share, the
 * tenant's size, both apart from the tenant's keys' (a public form cannot spend the backend's,
 * and more keys buy no more than the plan).
 */
export const tenantBudget = (request: FastifyRequest): { subject: string; limits: Limits }[] =>
  request.tenant.scope === 'publishable'
    ? [
        { subject: `key:${request.tenant.apiKey}`, limits: request.tenant.limits },
        { subject: `publishable:${request.tenant.tenantId}`, limits: request.tenant.sharedLimits ?? request.tenant.limits },
      ]
    : [{ subject: `tenant:${request.tenant.tenantId}`, limits: request.tenant.limits }];

/**
 * onRequest hook for the root: a request no route matches is counted too (against its tenant when
 * its credentials are valid, else its address), so its 404 carries the headers as well.
 */
export function notFoundRateLimit(authenticated: Hook): Hook {
  return async (request, reply) => {
    if (!request.is404) return;
    try {
      await authenticated(request, reply);
    } catch (error) {
      // Unknown route without valid credentials: counted against the address; answer the 404.
      if (error instanceof HttpError && error.statusCode === 401) return;
      throw error;
    }
  };
}
