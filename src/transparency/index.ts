import type { Kysely } from 'kysely';
import type { Log } from '../common/log.js';
import type { Ledger } from '../ledger/ledger.port.js';
import type { Database } from '../store/schema.js';
import { Sealer } from './sealer.js';
import type { NoteSigner } from './note.js';
import type { EventAuthenticity } from './event-authenticity.js';
import { originOf } from './signing-key.js';
import { TransparencyService } from './transparency.service.js';
import { TransparencyStore } from './transparency.store.js';
import { WitnessRelay, type WitnessSpec } from './witness-relay.js';

export { proofIncludes, TransparencyService, type ConsentProof } from './transparency.service.js';
export { Sealer } from './sealer.js';
export { configuredSigningKey, openSigningKey, signsForLog } from './signing-key.js';
export type { NoteSigner } from './note.js';
export { SigningKeyError } from './signing-seed.js';
export { authenticateAppend } from './append-authenticator.js';
export { authenticatedFrom, EventAuthenticity } from './event-authenticity.js';
export { WitnessRelay, type WitnessSpec, type WitnessStatus } from './witness-relay.js';

/**
 * Wires the transparency log: the sealer and the
 * service the routes and receipts use. Start the sealer after the store is migrated.
 *
 * @example
 * const { transparency, sealer } = await createTransparency({ db, ledger, publicBaseUrl });
 * await sealer.start();
 */
export async function createTransparency(deps: {
  db: Kysely<Database>;
  ledger: Ledger;
  publicBaseUrl: string;
  /** The checkpoint signing key, opened from outside the store (openSigningKey). */
  signer: NoteSigner;
  /** Events the sealer refuses: those the service did not append. */
  authenticity?: EventAuthenticity;
  log?: Log;
  /** The sealer's tuning (SealerOptions): events per batch, poll and spacing. */
  batchSize?: number;
  pollMs?: number;
  minIntervalMs?: number;
  /** When the ledger is not in the store's database: waits for read.event_index (see TransparencyStore). */
  indexFence?: (tenantId: string) => Promise<void>;
  /** What the sealer reads and writes with (Store.followerDb and a ledger on it); `db` and `ledger` when absent. */
  follower?: { db: Kysely<Database>; ledger: Ledger };
  /** Witnesses asked to cosign each new checkpoint, and how many must. */
  witnesses?: readonly WitnessSpec[];
  witnessQuorum?: number;
}): Promise<{ transparency: TransparencyService; sealer: Sealer; witnesses: WitnessRelay }> {
  const signer = deps.signer;
  const store = new TransparencyStore(deps.db, deps.indexFence ? { ledger: deps.ledger, fence: deps.indexFence } : undefined);
  const origin = (tenantId: string) => originOf(deps.publicBaseUrl, tenantId);
  const witnesses = new WitnessRelay(deps.db, store, deps.witnesses ?? [], {
    ...(deps.witnessQuorum === undefined ? {} : { quorum: deps.witnessQuorum }),
    ...(deps.log ? { log: deps.log } : {}),
  });
  store.cosigning = { check: witnesses.check, quorum: witnesses.quorum };
  const sealer = new Sealer(deps.follower?.db ?? deps.db, deps.follower?.ledger ?? deps.ledger, store, signer, origin, {
    log: deps.log,
    ...(deps.authenticity ? { authenticity: deps.authenticity } : {}),
    batchSize: deps.batchSize,
    pollMs: deps.pollMs,
    minIntervalMs: deps.minIntervalMs,
    onSealed: () => witnesses.poke(),
  });
  return { transparency: new TransparencyService(deps.ledger, store, sealer, signer, origin), sealer, witnesses };
}
