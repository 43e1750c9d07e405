import { isPingable } from './ledger-feeds.js';
import type { Ledger } from './ledger.port.js';

/** What `/ready` reports: whether the ledger and the store (read models, operator state) answer. */
export interface Readiness {
  ledger: boolean;
  readStore: boolean;
}

/**
 * Asks the store, and the ledger when it lives elsewhere and can be asked (EventStoreDB), whether
 * they answer. A ledger in the store is ready when the store is.
 *
 * @example
 * const ready = readiness(store, ledger);
 * await ready(); // { ledger: true, readStore: true }
 */
export function readiness(store: { ping(): Promise<void> }, ledger: Ledger): () => Promise<Readiness> {
  const answers = (ping: () => Promise<void>) =>
    ping().then(
      () => true,
      () => false,
    );
  return async () => {
    const readStore = await answers(() => store.ping());
    const ledgerOk = isPingable(ledger) ? await answers(() => ledger.ping()) : readStore;
    return { ledger: ledgerOk, readStore };
  };
}
