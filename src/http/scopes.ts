import type { FastifyRequest } from 'fastify';
import type { KeyScope } from '../tenants/key-scopes.js';
import { HttpError } from './kit/errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The key scopes that may call the route (docs/contract.md, Keys and scopes); absent: by method (`scopesOf`). */
    scopes?: readonly KeyScope[];
    /** A route a browser may call with a publishable key: it answers CORS preflight and sends CORS headers (docs/browser.md). */
    browser?: boolean;
    /**
     * A public page whose link travels through apps that add parameters (`fbclid`, `utm_*`):
     * query parameters its schema does not name are ignored, and one given twice is read once.
     */
    lenientQuery?: boolean;
  }
}

/** Reads records, proofs, exports, receipts. */
export const READ_SCOPES: readonly KeyScope[] = ['admin', 'read'];
/** Records and withdraws decisions. */
export const WRITE_SCOPES: readonly KeyScope[] = ['admin', 'write'];
/** Records one decision: a publishable key too, from a browser (docs/browser.md). */
export const RECORD_SCOPES: readonly KeyScope[] = ['admin', 'write', 'publishable'];
/** What every key may read: the policies and purposes a decision is recorded against. */
export const ANY_SCOPE: readonly KeyScope[] = ['admin', 'write', 'read'];
/** The tenant's configuration: policies, purposes, webhooks, erasure. */
export const ADMIN_SCOPES: readonly KeyScope[] = ['admin'];

/** The scopes a route allows: its own (`config.scopes`), else reading for GET and admin for any other method. */
export const scopesOf = (method: string, config: { scopes?: readonly KeyScope[] | undefined } | undefined): readonly KeyScope[] =>
  config?.scopes ?? (method === 'GET' || method === 'HEAD' ? READ_SCOPES : ADMIN_SCOPES);

/**
 * onRequest hook after authentication: 403 FORBIDDEN, naming the scope the operation needs, for a
 * key whose scope it does not allow. Before the body is read.
 */
export async function requireScope(request: FastifyRequest): Promise<void> {
  const allowed = scopesOf(request.method, request.routeOptions.config);
  const scope = request.tenant.scope;
  if (!allowed.includes(scope)) {
    throw new HttpError(403, 'FORBIDDEN', `this operation needs a key with scope ${allowed.join(' or ')}; this key's scope is ${scope}`, {
      requiredScopes: allowed,
      keyScope: scope,
    });
  }
}
