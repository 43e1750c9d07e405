import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { BoundedInteger, EnvelopeSchema, errorResponses, MetaSchema, now, ok } from '../../kit/envelope.js';
import { HttpError } from '../../kit/errors.js';
import { NotSealedError, type CheckpointView, type TransparencyService } from '../../../transparency/transparency.service.js';

const tags = ['transparency'];
const Hex32 = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const LedgerEventSchema = Type.Object(
  {
    id: Type.String(),
    tenantId: Type.String(),
    stream: Type.String(),
    revision: Type.Integer(),
    type: Type.String(),
    data: Type.Object({}, { additionalProperties: true }),
    metadata: Type.Object({}, { additionalProperties: true }),
    recordedAt: Type.String(),
    prevHash: Type.Union([Hex32, Type.Null()]),
  },
  { description: 'The event envelope: eventHash = hex SHA-256 of its RFC 8785 canonical JSON (docs/hashing.md)' },
);

export const CheckpointSchema = Type.Object({
  checkpoint: Type.String({
    description:
      'C2SP signed note: <origin>\\n<tree size>\\n<base64 root>\\n, a blank line, — <key name> <base64(key id ‖ Ed25519 signature)>',
  }),
  treeSize: Type.Integer(),
  rootHash: Hex32,
  timestamp: Type.String({ format: 'date-time' }),
});

const eventProofFields = {
  event: LedgerEventSchema,
  eventHash: Hex32,
  leafIndex: Type.Integer(),
  treeSize: Type.Integer(),
  inclusionPath: Type.Array(Hex32, { description: 'RFC 9162 §2.1.3 inclusion path, leaf side first' }),
  checkpoint: Type.String(),
  rootHash: Hex32,
};

/** An event's inclusion proof in a signed checkpoint. */
export const EventProofSchema = Type.Object(eventProofFields);

/** A consent record's: its ConsentRecorded event's proof. */
export const ConsentProofSchema = Type.Object({ consentId: Type.String(), ...eventProofFields });

export const ConsistencySchema = Type.Object({
  from: Type.Integer(),
  to: Type.Integer(),
  consistencyPath: Type.Array(Hex32, { description: 'RFC 9162 §2.1.4 consistency proof' }),
});

export const LogEntrySchema = Type.Object({
  leafIndex: Type.Integer(),
  event: LedgerEventSchema,
  eventHash: Hex32,
  authenticator: Type.Union([Type.String(), Type.Null()], {
    description:
      "the appender's signature covering eventHash, v1:<key id>:<index>:<group size>:<base64 signature>:<base64 path> (docs/verifying.md); null for events from before authenticators",
  }),
});

export const PublicKeysSchema = Type.Object({
  keys: Type.Array(
    Type.Object({
      keyName: Type.String(),
      keyId: Type.String({ pattern: '^[0-9a-f]{8}$' }),
      publicKey: Type.String({ description: 'base64 of the 32 raw Ed25519 bytes' }),
      vkey: Type.String({ description: 'signed-note verifier key: <name>+<hex key id>+<base64(0x01 ‖ public key)>' }),
      timestampVkey: Type.String({
        description: "the same key as verifier of each checkpoint's signed time: <name>+<hex key id>+<base64(0x04 ‖ public key)>",
      }),
      status: Type.Union([Type.Literal('current'), Type.Literal('retired')]),
      activatedAt: Type.String({ format: 'date-time' }),
      retiredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      treeSizes: Type.Optional(
        Type.Union([Type.Object({ from: Type.Integer(), to: Type.Union([Type.Integer(), Type.Null()]) }), Type.Null()], {
          description:
            "with ?tenant=: the sizes of that tenant's tree this key signed checkpoints for (to: null while current; null: none)",
        }),
      ),
      successor: Type.Union(
        [
          Type.Object({
            publicKey: Type.String({ description: 'the key that succeeded this one (base64 of the 32 raw Ed25519 bytes)' }),
            signature: Type.String({
              description:
                'the successor\'s Ed25519 signature (base64) of the succession statement "consent-ledger/key-succession/v1\\n<this publicKey>\\n<successor publicKey>\\n"',
            }),
            position: Type.Union([Type.String({ pattern: '^-?[0-9]+\\.-?[0-9]+$' }), Type.Null()], {
              description:
                'the last ledger position (<commit>.<prepare>) this key authenticates, named in the statement (v2: "consent-ledger/key-succession/v2\\n<this publicKey>\\n<successor publicKey>\\n<position>\\n"); null for a key retired before positions were named (v1 statement, no position line)',
            }),
            handover: Type.Union([Type.String(), Type.Null()], {
              description:
                "this key's own signature (base64) of the same statement: what lets an auditor who kept only this key trust its successor; null for a key retired before handovers were signed",
            }),
          }),
          Type.Null(),
        ],
        { description: "a retired key's successor and the signatures naming it (docs/verifying.md, Keys); null for the current key" },
      ),
    }),
    { description: 'the current key first, then the retired ones, newest first' },
  ),
});

/** The newest signed checkpoint of a public log, or 404: an unknown tenant's log is not an empty one. */
async function publishedCheckpoint(transparency: TransparencyService, tenantId: string): Promise<CheckpointView> {
  const cp = await transparency.published(tenantId);
  if (!cp) throw new HttpError(404, 'NOT_FOUND', 'no signed checkpoint for this log: no such tenant, or no event sealed yet');
  return cp;
}

/** A proof, or 503 PROOF_NOT_READY (Retry-After: 1) while its event is not sealed yet. */
export async function proofOrNotReady<T>(proof: Promise<T>): Promise<T> {
  try {
    return await proof;
  } catch (error) {
    if (error instanceof NotSealedError) throw new HttpError(503, 'PROOF_NOT_READY', error.message, undefined, { 'retry-after': '1' });
    throw error;
  }
}

/** A tree size or leaf index: a bigint in the store, a safe integer in JavaScript. */
const LeafCount = (minimum: number, options: { default?: number } = {}) => BoundedInteger(minimum, Number.MAX_SAFE_INTEGER, options);

/** GET /ledger/checkpoint, /consent/:id/proof, /ledger/consistency, /ledger/events; tenant-scoped. */
export const transparencyRoutes: FastifyPluginAsyncTypebox<{ transparency: TransparencyService }> = async (app, { transparency }) => {
  app.get(
    '/ledger/checkpoint',
    {
      schema: {
        tags,
        summary: "The newest signed checkpoint of the tenant's log",
        response: { 200: EnvelopeSchema(CheckpointSchema), ...errorResponses(401) },
      },
    },
    async (request) => ok(await transparency.checkpoint(request.tenant.tenantId)),
  );

  app.get(
    '/consent/:id/proof',
    {
      schema: {
        tags,
        summary:
          "Inclusion proof of a consent record in the newest signed checkpoint (the newest the witnesses' quorum cosigned, with WITNESSES)",
        description:
          'The record’s ConsentRecorded event, its eventHash and leaf index, and the RFC 9162 inclusion path to the root the signed checkpoint states. A record is provable within a second of its write; 503 PROOF_NOT_READY (with Retry-After) if the log lags more. 409 ROLLBACK when the newest checkpoint no longer covers the record’s sealed leaf (checkpoints deleted); 409 SEALING_HALTED when the tenant’s sealing stopped at a foreign event before it; 409 LOG_INCOMPLETE when the sealer read past the record but the log holds no leaf of it and no halt holds it back (the transparency tables were changed).',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: EnvelopeSchema(ConsentProofSchema), ...errorResponses(400, 401, 404, 409, 503) },
      },
    },
    async (request) => ok(await proofOrNotReady(transparency.proofForConsent(request.tenant.tenantId, request.params.id))),
  );

  app.get(
    '/ledger/consistency',
    {
      schema: {
        tags,
        summary: 'Consistency proof between two tree sizes',
        description:
          'RFC 9162 §2.1.4: proves the tree of `from` leaves is a prefix of the tree of `to` leaves. 1 ≤ from ≤ to ≤ the newest checkpoint’s size; a `to` beyond it answers 409 ROLLBACK (its message gives the size): a log that signed that size and holds fewer leaves now was rolled back.',
        querystring: Type.Object({ from: LeafCount(1), to: LeafCount(1) }),
        response: { 200: EnvelopeSchema(ConsistencySchema), ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => ok(await transparency.consistency(request.tenant.tenantId, request.query.from, request.query.to)),
  );

  app.get(
    '/ledger/events',
    {
      schema: {
        tags,
        summary: "The auditor's gap-free feed of the tenant's log",
        description:
          'Sealed leaves with leafIndex > after, in order (after = -1, the default, starts at leaf 0). Ask again with the last leafIndex until the answer is empty.',
        querystring: Type.Object({
          after: Type.Optional(LeafCount(-1, { default: -1 })),
          limit: Type.Optional(BoundedInteger(1, 1000, { default: 100 })),
        }),
        response: { 200: EnvelopeSchema(Type.Array(LogEntrySchema)), ...errorResponses(400, 401) },
      },
    },
    async (request) => ok(await transparency.events(request.tenant.tenantId, request.query.after ?? -1, request.query.limit ?? 100)),
  );
};

/** GET /.well-known/consent-ledger/keys — public: the keys checkpoints are signed with. */
export const transparencyKeysRoute: FastifyPluginAsyncTypebox<{ transparency: TransparencyService }> = async (app, { transparency }) => {
  app.get(
    '/.well-known/consent-ledger/keys',
    {
      schema: {
        tags,
        summary: 'Public keys that sign the checkpoints, current and retired (no key needed)',
        description:
          "Every key that signed checkpoints, with when it was current. With `tenant`, each key also names the sizes of that tenant's tree it signed: a checkpoint signed by a key outside its sizes is not ours.",
        querystring: Type.Object({
          tenant: Type.Optional(Type.String({ format: 'uuid', description: "a tenant id: add each key's signed tree sizes of its log" })),
        }),
        response: { 200: Type.Composite([PublicKeysSchema, Type.Object({ meta: MetaSchema })]), ...errorResponses(400) },
      },
    },
    async (request) => ({ keys: await transparency.keys(request.query.tenant?.toLowerCase()), meta: { timestamp: now() } }),
  );
};

/**
 * The public view of each tenant's log, under its origin (`<host>/ledger/<tenantId>`), no key
 * needed: what witnesses, monitors and receipt holders check the log with. It carries what the
 * tenant-scoped routes do: checkpoints, consistency proofs and the sealed leaves (personal fields
 * are sealed ciphertext; docs/verifying.md says what a leaf shows).
 */
export const publicLogRoutes: FastifyPluginAsyncTypebox<{ transparency: TransparencyService }> = async (app, { transparency }) => {
  const params = Type.Object({ tenantId: Type.String({ format: 'uuid' }) });
  app.get(
    '/ledger/:tenantId/checkpoint',
    {
      config: { publicLogLimit: true },
      schema: {
        tags,
        summary: "The newest signed checkpoint of a tenant's log, with its witnesses' cosignatures (no key needed)",
        params,
        response: { 200: EnvelopeSchema(CheckpointSchema), ...errorResponses(400, 404) },
      },
    },
    async (request) => ok(await publishedCheckpoint(transparency, request.params.tenantId.toLowerCase())),
  );
  app.get(
    '/ledger/:tenantId/consistency',
    {
      config: { publicLogLimit: true },
      schema: {
        tags,
        summary: "Consistency proof between two sizes of a tenant's log (no key needed)",
        description:
          'RFC 9162 §2.1.4, as GET /api/v1/ledger/consistency. A `to` beyond the newest checkpoint answers 409 ROLLBACK: a log that signed that size and holds fewer leaves now was rolled back. 404 as the checkpoint route, for a log with no signed checkpoint.',
        params,
        querystring: Type.Object({ from: LeafCount(1), to: LeafCount(1) }),
        response: { 200: EnvelopeSchema(ConsistencySchema), ...errorResponses(400, 404, 409) },
      },
    },
    async (request) => {
      const tenantId = request.params.tenantId.toLowerCase();
      const cp = await publishedCheckpoint(transparency, tenantId);
      return ok(await transparency.consistency(tenantId, request.query.from, request.query.to, cp));
    },
  );
  app.get(
    '/ledger/:tenantId/consents/:consentId/receipts/:receiptId',
    {
      config: { publicLogLimit: true },
      schema: {
        tags,
        summary: "Inclusion proof of a receipt's issue (its ReceiptIssued event, holding the PDF's SHA-256), no key needed",
        description:
          'What `npx consent-ledger audit receipt FILE.pdf --url` checks a receipt against: the PDF bytes must hash to `event.data.sha256`, and the event must be in the signed log. 404 for a receipt never issued; 409 ROLLBACK when the newest checkpoint no longer covers its sealed leaf.',
        params: Type.Object({
          tenantId: Type.String({ format: 'uuid' }),
          consentId: Type.String({ format: 'uuid' }),
          receiptId: Type.String({ format: 'uuid' }),
        }),
        response: { 200: EnvelopeSchema(EventProofSchema), ...errorResponses(400, 404, 409, 503) },
      },
    },
    async (request) => {
      const { tenantId, consentId, receiptId } = request.params;
      return ok(await proofOrNotReady(transparency.proofForReceipt(tenantId.toLowerCase(), consentId, receiptId)));
    },
  );
  app.get(
    '/ledger/:tenantId/events',
    {
      config: { publicLogLimit: true },
      schema: {
        tags,
        summary: "The gap-free feed of a tenant's sealed leaves (no key needed): what `audit monitor` follows",
        params,
        querystring: Type.Object({
          after: Type.Optional(LeafCount(-1, { default: -1 })),
          limit: Type.Optional(BoundedInteger(1, 1000, { default: 100 })),
        }),
        response: { 200: EnvelopeSchema(Type.Array(LogEntrySchema)), ...errorResponses(400) },
      },
    },
    async (request) =>
      ok(await transparency.events(request.params.tenantId.toLowerCase(), request.query.after ?? -1, request.query.limit ?? 100)),
  );
};
