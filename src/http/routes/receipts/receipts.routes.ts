import { createHash } from 'node:crypto';
import { READ_SCOPES } from '../../scopes.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { errorResponses } from '../../kit/envelope.js';
import { HttpError } from '../../kit/errors.js';
import type { ReceiptService } from '../../../receipts/receipts.service.js';
import type { StoredReceipt } from '../../../receipts/receipt.store.js';

const tags = ['consent'];
const Params = Type.Object({ id: Type.String({ format: 'uuid' }) });
const Pdf = Type.String({ description: 'The receipt (application/pdf)', format: 'binary' });
const headers = {
  'x-receipt-sha256': {
    type: 'string',
    description: 'Hex SHA-256 of the PDF bytes as sent (computed from them; the ledger records the issued one in ReceiptIssued)',
  },
};

const sendPdf = (reply: FastifyReply, r: StoredReceipt, status: number) =>
  reply
    .status(status)
    .type('application/pdf')
    // Hashed from the bytes sent, so a changed stored PDF cannot be served with its old hash.
    .header('x-receipt-sha256', createHash('sha256').update(r.pdf).digest('hex'))
    .header('content-disposition', `inline; filename="consent-receipt-${r.receiptId}.pdf"`)
    .header('cache-control', 'no-store')
    .send(r.pdf);

/** POST/GET /consent/:id/pdf, tenant-scoped (registered inside each API prefix). */
export const receiptRoutes: FastifyPluginAsyncTypebox<{ receipts: ReceiptService }> = async (app, { receipts }) => {
  app.post(
    '/consent/:id/pdf',
    {
      config: { scopes: READ_SCOPES },
      schema: {
        tags,
        summary: 'Generate a PDF receipt of a consent record',
        description:
          'Renders the record as the ledger holds it now (a withdrawn consent says so), stores the PDF, records the issue in the ledger (ReceiptIssued) and answers the PDF. Each call issues a new receipt; GET answers the latest. A record that fails the checks GET /consent/:id/verify runs (personal fields that do not open, an event the service did not append, a broken chain) gets none: 409 CONSENT_TAMPERED. Laid out on a thread of its own; a layout that takes over 20 s is given up: 422 RECEIPT_TOO_LARGE, nothing issued.',
        params: Params,
        response: {
          200: { description: 'The receipt', content: { 'application/pdf': { schema: Pdf } }, headers },
          ...errorResponses(400, 401, 404, 409, 422),
        },
      },
    },
    async (request, reply) => sendPdf(reply, await receipts.issue(request.tenant.tenantId, request.params.id.toLowerCase()), 200),
  );

  app.get(
    '/consent/:id/pdf',
    {
      schema: {
        tags,
        summary: 'The latest PDF receipt of a consent record',
        description: 'The stored bytes of the latest receipt; 404 RECEIPT_NOT_FOUND when none was generated.',
        params: Params,
        response: {
          200: { description: 'The receipt', content: { 'application/pdf': { schema: Pdf } }, headers },
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request, reply) => {
      const found = await receipts.latest(request.tenant.tenantId, request.params.id.toLowerCase());
      if (!found) throw new HttpError(404, 'RECEIPT_NOT_FOUND', 'no receipt was generated for this consent record');
      return sendPdf(reply, found, 200);
    },
  );
};
