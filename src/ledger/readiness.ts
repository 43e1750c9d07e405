import { isPingable } from './ledger-feeds.js';
import type { Ledger } from './ledger.port.js';

/** The witnesses' view (src/transparency/witness-relay.ts WitnessStatus); null when none is configured. */
export interface WitnessReadiness {
  quorum: number;
  quorumReached: boolean;
  witnesses: { name: string; vkey: string; url: string; failing: { tenantId: string; error: string; since: string }[] }[];
  belowQuorum: { tenantId: string; treeSize: number; cosignatures: number; signedAt: string }[];
}

/** What `/ready` reports: whether the ledger and the store (read models, operator state) answer. */
export interface Readiness {
  ledger: boolean;
  readStore: boolean;
  /** Tenants whose transparency log stopped sealing at an event that is not the service's own. */
  sealing: {
    halted: { tenantId: string; eventId: string; position: { commit: number; prepare: number }; reason: string; haltedAt: string }[];
  };
  /** Witnesses that failed and tenants whose newest checkpoint lacks the quorum's cosignatures; null without witnesses. */
  witnesses: WitnessReadiness | null;
  /** The last scheduled comparison of the read models with the ledger; null before one (or when none is scheduled). */
  readModels: ReadModelReadiness | null;
}

/** What the last read-model check found (projections/verify.ts ReadModelCheckStatus). */
export interface ReadModelReadiness {
  verifiedAt: string;
  consistent: boolean;
  position: { commit: number; prepare: number } | null;
  drift: { table: string; missing: number; extra: number; changed: number }[];
}

/**
 * Asks the store, and the ledger when it lives elsewhere and can be asked (EventStoreDB), whether
 * they answer. A ledger in the store is ready when the store is.
 *
 * @example
 * const ready = readiness(store, ledger);
 * await ready(); // { ledger: true, readStore: true, sealing: { halted: [] }, witnesses: null, readModels: null }
 */
export function readiness(
  store: { ping(): Promise<void> },
  ledger: Ledger,
  reports: {
    halts?: () => Promise<Readiness['sealing']['halted']>;
    witnesses?: () => Promise<WitnessReadiness | null>;
    readModels?: () => ReadModelReadiness | null;
  } = {},
): () => Promise<Readiness> {
  const answers = (ping: () => Promise<void>) =>
    ping().then(
      () => true,
      () => false,
    );
  return async () => {
    const readStore = await answers(() => store.ping());
    const ledgerOk = isPingable(ledger) ? await answers(() => ledger.ping()) : readStore;
    const halted = readStore && reports.halts ? await reports.halts().catch(() => []) : [];
    const witnessed = readStore && reports.witnesses ? await reports.witnesses().catch(() => null) : null;
    return { ledger: ledgerOk, readStore, sealing: { halted }, witnesses: witnessed, readModels: reports.readModels?.() ?? null };
  };
}
