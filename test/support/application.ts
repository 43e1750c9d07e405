import { CommandHandler } from '../../src/application/command-handler.js';
import { ConsentCommands } from '../../src/application/consents/consent.commands.js';
import { ConsentQueries } from '../../src/application/consents/consent.queries.js';
import { IdempotencyKeys } from '../../src/application/idempotency.js';
import { PolicyCache } from '../../src/application/policies/policy-cache.js';
import { PolicyCommands } from '../../src/application/policies/policy.commands.js';
import type { Ledger } from '../../src/ledger/ledger.port.js';
import { PersonalFields } from '../../src/privacy/personal-fields.js';
import type { Privacy } from '../../src/privacy/privacy.js';
import type { Store } from '../../src/store/store.js';

/**
 * The production consent and policy commands (and the consent queries' exact reads) on a ledger a
 * test chooses (one that counts reads, interferes, or fixes event ids) and a clock it holds, wired
 * as src/service.ts wires them.
 */
export function applicationOn(ledger: Ledger, privacy: Privacy, store: Store, options: { clock?: () => Date } = {}) {
  const commands = new CommandHandler(ledger, options.clock ? { clock: options.clock } : {});
  const reader = new PersonalFields(privacy);
  return {
    commands,
    policies: new PolicyCommands(commands),
    consents: new ConsentCommands({
      commands,
      ledger,
      policies: new PolicyCache(ledger),
      privacy,
      reader,
      idempotency: new IdempotencyKeys(privacy),
    }),
    /** Reads with no read fence: the test waits for the read models itself. */
    queries: new ConsentQueries({
      ledger,
      db: store.db,
      reader,
      privacy,
      fence: async () => undefined,
      exportPageRows: 1000,
      ...(options.clock ? { clock: options.clock } : {}),
    }),
  };
}
