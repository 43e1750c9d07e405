import type { Kysely } from 'kysely';
import type { Ledger } from '../ledger/ledger.port.js';
import { PersonalFields } from '../privacy/personal-fields.js';
import type { Privacy } from '../privacy/privacy.js';
import type { Database } from '../store/schema.js';
import { AuditLog } from './config/audit-log.js';
import { CommandHandler } from './command-handler.js';
import { ConsentCommands } from './consents/consent.commands.js';
import { ConsentQueries, type ConsentQueriesDeps } from './consents/consent.queries.js';
import { IdempotencyKeys } from './idempotency.js';
import { PolicyCache } from './policies/policy-cache.js';
import { PolicyCommands } from './policies/policy.commands.js';
import { Purposes } from './purposes/purposes.js';
import { standingConsentIds } from '../../projections/user-status/user-status.queries.js';
import { PolicyQueries } from './policies/policy.queries.js';
import type { ReadFence } from './read-fence.js';
import { ReadModelsBehindError } from '../common/read-notes.js';

export interface ApplicationDeps {
  ledger: Ledger;
  db: Kysely<Database>;
  privacy: Privacy;
  /** Read-your-writes before every read-model read. */
  fence: ReadFence;
  /** Rows per keyset page of the CSV export. */
  exportPageRows: number;
  /** The commands' and queries' time (tests hold it). */
  clock?: () => Date;
  /** Verification calls a record tampered when one of its events is not the service's own (ConsentQueriesDeps). */
  authenticity?: ConsentQueriesDeps['authenticity'];
}

/**
 * The consent and policy commands and queries, on one command handler and one reader of
 * personal fields. The service wires them (src/service.ts); tests wire them on a ledger of their own.
 *
 * @example
 * const { commands, consents, policies } = createApplication({ ledger, db, privacy, fence, exportPageRows: 5000 });
 * await consents.commands.record(tenantId, { policyVersionId, userReference: 'user-42', consentGiven: true });
 */
export function createApplication(deps: ApplicationDeps) {
  const { ledger, db, privacy, fence, clock } = deps;
  const commands = new CommandHandler(ledger, clock ? { clock } : {});
  const reader = new PersonalFields(privacy, ledger);
  const purposes = new Purposes(commands, ledger, db, fence);
  const consentQueries = new ConsentQueries({
    ledger,
    db,
    reader,
    privacy,
    fence,
    exportPageRows: deps.exportPageRows,
    ...(clock ? { clock } : {}),
    ...(deps.authenticity ? { authenticity: deps.authenticity } : {}),
  });
  return {
    /** The one command handler every command runs through. */
    commands,
    reader,
    policies: {
      commands: new PolicyCommands(commands),
      queries: new PolicyQueries(ledger, db, fence, clock, deps.authenticity),
    },
    purposes,
    auditLog: new AuditLog(db, fence),
    consents: {
      commands: new ConsentCommands({
        commands,
        ledger,
        policies: new PolicyCache(ledger, deps.authenticity),
        privacy,
        reader,
        idempotency: new IdempotencyKeys(privacy),
        standing: async (tenantId, subject, of, now) => {
          // A withdrawal decided on a lagging read model could miss a consent just given: refuse instead.
          if (!(await fence(tenantId))) {
            throw new ReadModelsBehindError(
              'the read models lag behind the ledger, so the consents the user stands by are not known yet; nothing was withdrawn, try again',
            );
          }
          return standingConsentIds(db, tenantId, subject, of, now);
        },
      }),
      queries: consentQueries,
    },
  };
}

export type Application = ReturnType<typeof createApplication>;
