import { isPingable } from './ledger-feeds.js';
import type { Ledger } from './ledger.port.js';

/** What `/ready` reports: whether the ledger and the store (read models, operator state) answer. */
export interface Readiness {
  ledger: boolean;
  readStore: boolean;
  /** Tenants whose transparency log stopped sealing at an event that is not the service's own. */
  sealing: {
    halted: { tenantId: string; eventId: string; position: { commit: number; prepare: number }; reason: string; haltedAt: string }[];
  };
}

/**
 * Asks the store, and the ledger when it lives elsewhere and can be asked (EventStoreDB), whether
 * they answer. A ledger in the store is ready when the store is.
 *
 * @example
 * const ready = readiness(store, ledger);
 * await ready(); // { ledger: true, readStore: true, sealing: { halted: [] } }
 */
export function readiness(
  store: { ping(): Promise<void> },
  ledger: Ledger,
  halts: () => Promise<Readiness['sealing']['halted']> = async () => [],
): () => Promise<Readiness> {
  const answers = (ping: () => Promise<void>) =>
    ping().then(
      () => true,
      () => false,
    );
  return async () => {
    const readStore = await answers(() => store.ping());
    const ledgerOk = isPingable(ledger) ? await answers(() => ledger.ping()) : readStore;
    const halted = readStore ? await halts().catch(() => []) : [];
    return { ledger: ledgerOk, readStore, sealing: { halted } };
  };
}
