import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EnvelopeSchema, ok } from '../../kit/envelope.js';
import { VERIFY_PAGE_HELMET } from '../../kit/security-headers.js';
import type { ReceiptService } from '../../../receipts/receipts.service.js';
import { verifyPage } from './verify.page.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * A public route (no API key): the rate limiter limits it per client address (request.ip,
     * which honours TRUST_PROXY), not per tenant.
     */
    publicPerIpLimit?: boolean;
  }
}

export const PublicVerificationSchema = Type.Object(
  {
    valid: Type.Boolean(),
    erased: Type.Boolean({
      description:
        'The ledger holds this record with this hash, but the data subject was erased: the personal fields its hash covers were destroyed, so it cannot be recomputed. The policy, decision, time and log position remain; valid is false.',
    }),
    tampered: Type.Boolean({
      description:
        'The ledger holds this record with this hash (or a receipt of it was issued with this hash), but its events fail their checks (an event the service did not append, an event changed in place so that the events no longer chain, an event the signed log holds removed, or personal fields that no longer open with their key): do not rely on it. Every detail is null; valid is false.',
    }),
    consentId: Type.String({ description: 'The id as asked' }),
    policy: Type.Union([Type.Object({ title: Type.String(), type: Type.String(), version: Type.String() }), Type.Null()]),
    consentGiven: Type.Union([Type.Boolean(), Type.Null()]),
    status: Type.Union([Type.Literal('active'), Type.Literal('withdrawn'), Type.Literal('expired'), Type.Null()]),
    timestamp: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    collectedAt: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'An imported record only: when the decision was made, on the platform it was moved from (timestamp is when it was recorded here)',
      }),
    ),
    withdrawnAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    log: Type.Union(
      [
        Type.Object({
          included: Type.Boolean({ description: "the record's inclusion proof leads to the newest signed checkpoint's root" }),
          leafIndex: Type.Integer(),
          treeSize: Type.Integer(),
          rootHash: Type.String(),
        }),
        Type.Null(),
      ],
      { description: 'Where a valid record sits in the signed transparency log; null when not verified or not sealed yet' },
    ),
    verifiedAt: Type.String({ format: 'date-time' }),
  },
  { description: 'Not verified (unknown id, malformed id or wrong hash): valid, erased and tampered false, every detail null.' },
);

/** Wants JSON only when it asks for it (the QR code opens in a browser, which asks for HTML). */
const wantsJson = (accept: string | undefined): boolean => {
  if (!accept) return false;
  const types = accept.split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  const json = types.findIndex((t) => t === 'application/json' || t.endsWith('+json'));
  const html = types.findIndex((t) => t === 'text/html');
  return json !== -1 && (html === -1 || json < html);
};

/**
 * GET /verify/:consentId?hash=… — public, no key: the page the receipt's QR code opens. Always
 * 200; `valid` (or the page's verdict) says whether the ledger holds that record with that hash.
 */
export const verifyRoutes: FastifyPluginAsyncTypebox<{ receipts: ReceiptService }> = async (app, { receipts }) => {
  app.get(
    '/verify/:consentId',
    {
      // The QR code's link, as messengers and scanner apps hand it on (with fbclid, utm_*…).
      config: { publicPerIpLimit: true, lenientQuery: true },
      // A page with one inline stylesheet: no scripts, no frames (src/http/kit/security-headers.ts).
      helmet: VERIFY_PAGE_HELMET,
      schema: {
        tags: ['consent'],
        summary: 'Public verification of a receipt (no key)',
        description:
          'The address a receipt’s QR code encodes, and the `verifyUrl` a record made with a publishable key is answered. Other records are not public here. HTML by default; JSON with Accept: application/json. Shows the policy, decision, status and time of a valid record; never the user reference, IP address, user agent or metadata. An unknown id, a malformed id, a record not public here and a wrong hash give the same "not verified" answer. Query parameters other than hash (fbclid, utm_*, which apps add to links) are ignored, and a hash given twice is read once. Rate-limited per client address.',
        params: Type.Object({ consentId: Type.String() }),
        querystring: Type.Object({ hash: Type.Optional(Type.String()) }),
        response: {
          200: {
            description: 'The verdict',
            content: {
              'text/html': { schema: Type.String() },
              'application/json': { schema: EnvelopeSchema(PublicVerificationSchema) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const result = await receipts.verifyPublic(request.params.consentId, request.query.hash);
      void reply.header('cache-control', 'no-store').header('vary', 'Accept').header('x-robots-tag', 'noindex');
      if (wantsJson(request.headers.accept)) return reply.type('application/json; charset=utf-8').send(ok(result));
      return reply.type('text/html; charset=utf-8').send(verifyPage(result));
    },
  );
};
