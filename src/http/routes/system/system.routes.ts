import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { EnvelopeSchema, errorResponses, ok } from '../../kit/envelope.js';
import { HttpError } from '../../kit/errors.js';

const tags = ['system'];

export const SealingSchema = Type.Object(
  {
    halted: Type.Array(
      Type.Object({
        tenantId: Type.String(),
        eventId: Type.String(),
        position: Type.Object({ commit: Type.Integer(), prepare: Type.Integer() }),
        reason: Type.String(),
        haltedAt: Type.String({ format: 'date-time' }),
      }),
    ),
  },
  {
    description:
      "Tenants whose transparency log stopped sealing at an event the service did not append (or whose time goes back), or because its tree or held events in the transparency tables were changed outside the service: the event's id, ledger position and why (docs/verifying.md). The service stays ready for the others.",
  },
);

export const WitnessesSchema = Type.Union(
  [
    Type.Object({
      quorum: Type.Integer({ description: 'how many witnesses must cosign each checkpoint (WITNESS_QUORUM)' }),
      quorumReached: Type.Boolean({
        description: "false while some tenant's newest checkpoint (signed more than 5 s ago) lacks the quorum's cosignatures",
      }),
      witnesses: Type.Array(
        Type.Object({
          name: Type.String(),
          vkey: Type.String(),
          url: Type.String(),
          failing: Type.Array(Type.Object({ tenantId: Type.String(), error: Type.String(), since: Type.String({ format: 'date-time' }) }), {
            description: 'tenants this witness last refused or could not be reached for; a ROLLBACK error means it cosigned a larger tree',
          }),
        }),
      ),
      belowQuorum: Type.Array(
        Type.Object({
          tenantId: Type.String(),
          treeSize: Type.Integer(),
          cosignatures: Type.Integer(),
          signedAt: Type.String({ format: 'date-time' }),
        }),
        { description: 'tenants whose newest checkpoint, signed more than 5 s ago, has fewer cosignatures than the quorum' },
      ),
    }),
    Type.Null(),
  ],
  { description: 'The witnesses (WITNESSES) that cosign checkpoints; null when none is configured. The service stays ready without them.' },
);

export const ReadModelsSchema = Type.Union(
  [
    Type.Object({
      verifiedAt: Type.String({ format: 'date-time' }),
      consistent: Type.Boolean(),
      position: Type.Union([Type.Object({ commit: Type.Integer(), prepare: Type.Integer() }), Type.Null()]),
      drift: Type.Array(Type.Object({ table: Type.String(), missing: Type.Integer(), extra: Type.Integer(), changed: Type.Integer() }), {
        description: 'per read table, the rows that are not what a replay of the ledger gives',
      }),
    }),
    Type.Null(),
  ],
  {
    description:
      'The last scheduled comparison of the read models with a replay of the ledger (PROJECTIONS_VERIFY_MINUTES); null before the first or when none is scheduled. `npx consent-ledger projections verify` names the rows.',
  },
);

/** What /ready reports (src/ledger/readiness.ts). */
export type ReadyReport = {
  /** A SIGTERM drain began: the instance is leaving, and says so before it stops answering. */
  draining?: boolean;
  /** This process's master key no longer opens the store (keys rotate-master ran while it ran). */
  masterKeyRotated?: boolean;
  /** This process's checkpoint signing key is no longer the log's current key (keys rotate-signing, a rename). */
  signingKeyRetired?: boolean;
  ledger: boolean;
  readStore: boolean;
  sealing: Static<typeof SealingSchema>;
  witnesses: Static<typeof WitnessesSchema>;
  readModels: Static<typeof ReadModelsSchema>;
};

/** Liveness and readiness, no key needed. */
export const systemRoutes: FastifyPluginAsyncTypebox<{ ready: () => Promise<ReadyReport> }> = async (app, { ready }) => {
  app.get(
    '/health',
    { schema: { tags, summary: 'Liveness', response: { 200: EnvelopeSchema(Type.Object({ status: Type.Literal('ok') })) } } },
    async () => ok({ status: 'ok' as const }),
  );
  app.get(
    '/ready',
    {
      schema: {
        tags,
        summary: 'Readiness: the ledger and the read store answer; any tenant whose log stopped sealing; the witnesses',
        description:
          '503 NOT_READY when the ledger or the read store does not answer, from the start of a SIGTERM drain (details.draining: true) while the last requests are still served, when keys rotate-master ran while this process ran (details.masterKeyRotated: true; restart it with the new key), and when its checkpoint signing key is no longer the log’s current key, after keys rotate-signing or a process started with another PUBLIC_BASE_URL (details.signingKeyRetired: true; it can seal nothing: restart it with the current key and name).',
        response: {
          200: EnvelopeSchema(
            Type.Object({
              status: Type.Literal('ready'),
              ledger: Type.Boolean(),
              readStore: Type.Boolean(),
              sealing: SealingSchema,
              witnesses: WitnessesSchema,
              readModels: ReadModelsSchema,
            }),
          ),
          ...errorResponses(503),
        },
      },
    },
    async () => {
      const { draining = false, ...r } = await ready();
      // A load balancer takes a draining instance out while its last requests are still answered.
      if (draining) throw new HttpError(503, 'NOT_READY', 'draining: the service is shutting down', { ...r, draining });
      if (r.masterKeyRotated) {
        throw new HttpError(503, 'NOT_READY', 'the master key was rotated while this process ran: restart it with the new key', r);
      }
      if (r.signingKeyRetired) {
        throw new HttpError(
          503,
          'NOT_READY',
          "this process's checkpoint signing key (or the name PUBLIC_BASE_URL gives it) is no longer the log's current key: restart it with the current key",
          r,
        );
      }
      if (!r.ledger || !r.readStore) throw new HttpError(503, 'NOT_READY', 'not ready', r);
      return ok({ status: 'ready' as const, ...r });
    },
  );
};
