import { createApplication } from '../../src/application/index.js';
import type { Ledger } from '../../src/ledger/ledger.port.js';
import type { Privacy } from '../../src/privacy/privacy.js';
import type { Store } from '../../src/store/store.js';

/**
 * The production commands and queries (src/application) on a ledger a test chooses (one that
 * counts reads, interferes, or fixes event ids) and a clock it holds, with no read fence: the
 * test waits for the read models itself.
 */
export function applicationOn(ledger: Ledger, privacy: Privacy, store: Store, options: { clock?: () => Date } = {}) {
  const app = createApplication({ ledger, db: store.db, privacy, fence: async () => true, exportPageRows: 1000, ...options });
  return { commands: app.commands, policies: app.policies.commands, consents: app.consents.commands, queries: app.consents.queries };
}
