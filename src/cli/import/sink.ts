import { CommandHandler } from '../../application/command-handler.js';
import { ConsentCommands, type ImportOutcome, type ImportRow, type ItemError } from '../../application/consents/consent.commands.js';
import { IdempotencyKeys } from '../../application/idempotency.js';
import { PolicyCache } from '../../application/policies/policy-cache.js';
import { canonicalJson, sha256Hex } from '../../common/hashing.js';
import type { Settings } from '../../config.js';
import { batchItemErrors } from '../../http/routes/consent/consent.checks.js';
import { readStreams, type Ledger } from '../../ledger/ledger.port.js';
import { consentAggregate, standsGiven } from '../../domain/consent/consent.decider.js';
import { consentStream } from '../../domain/consent/consent.events.js';
import { fold } from '../../domain/events.js';
import { addDuration } from '../../domain/purpose/purpose.events.js';
import { PersonalFields } from '../../privacy/personal-fields.js';
import type { Store } from '../../store/store.js';
import { serviceLedger } from '../service-ledger.js';
import { servicePrivacy } from '../service-privacy.js';

/** A row read from the file with its policy version found: a batch item, and the file's own id of the row. */
export interface ImportItem {
  item: {
    policyVersionId: string;
    userReference: string;
    consentGiven: boolean;
    ipAddress: string | null;
    userAgent: string | null;
    metadata: Record<string, unknown>;
    collectedAt: string;
    withdrawnAt?: string;
  };
  /** The row's `id` column, when the file has one. */
  sourceId?: string;
}

/** How the rows are recorded: `webhooks: false` (`--no-webhooks`) leaves them out of every webhook. */
export interface SinkOptions {
  webhooks: boolean;
}

/** Where an import's rows go: the tenant's consent commands over the service's ledger and keys. */
export interface ImportSink {
  ledger: Ledger;
  /** Checks the items as the batch route would, then records those that pass; errors by the items' indexes. */
  append(items: readonly ImportItem[], expectNew: boolean, now: Date): Promise<ImportOutcome>;
  /**
   * What `append` would do, recording nothing (`--dry-run`): the items it would refuse, those it
   * would find recorded (by an earlier run, or earlier in this one: a row repeated), and the rest.
   */
  check(items: readonly ImportItem[], now: Date): Promise<ImportOutcome>;
  close(): Promise<void>;
}

/**
 * The items to record, under the ids their rows derive, with each one's index among the items;
 * and the items refused by the checks a batch item gets over HTTP (sizes, formats, the times'
 * bounds, before `now`). Done where the rows are recorded, so that the reading thread only reads.
 */
function checkItems(
  items: readonly ImportItem[],
  now: Date,
  rowId: ((key: string) => string) | undefined,
): { rows: ImportRow[]; indexes: number[]; errors: ItemError[] } {
  const rows: ImportRow[] = [];
  const indexes: number[] = [];
  const errors: ItemError[] = [];
  items.forEach(({ item, sourceId }, index) => {
    const problems = batchItemErrors(item, now);
    if (problems.length > 0) {
      for (const p of problems) errors.push({ index, ...p });
      return;
    }
    indexes.push(index);
    if (!rowId) return;
    // A row is one decision for good: its source id when the file has one, else what it says.
    const key =
      sourceId !== undefined
        ? `id\u0000${sourceId}`
        : `row\u0000${sha256Hex(canonicalJson([item.userReference, item.policyVersionId, item.consentGiven, item.collectedAt]))}`;
    const { ipAddress, userAgent, ...rest } = item;
    rows.push({ consentId: rowId(key), input: { ...rest, ipAddress: ipAddress ?? undefined, userAgent: userAgent ?? undefined } });
  });
  return { rows, indexes, errors };
}

/**
 * The import's sink for one tenant, as the service would record its decisions (sealed under data
 * keys of their own, signed appends). Each import thread opens its own.
 */
export async function openImportSink(store: Store, settings: Settings, tenantId: string, options: SinkOptions): Promise<ImportSink> {
  const privacy = await servicePrivacy(store, settings);
  try {
    const { ledger, close } = await serviceLedger(store, settings, { appends: true });
    const keys = new IdempotencyKeys(privacy);
    const policies = new PolicyCache(ledger);
    const consents = new ConsentCommands({
      commands: new CommandHandler(ledger),
      ledger,
      policies,
      privacy,
      reader: new PersonalFields(privacy, ledger),
      idempotency: keys,
      standing: () => Promise.resolve([]),
    });
    // The id a row is recorded under, from its key: the same on every run, so a run again records nothing twice.
    const rowId = (key: string) => keys.consentId(tenantId, keys.keyed(tenantId, { key: `import\u0000${key}`, requestHash: '' })!);
    // A dry run's records so far, and whether each would stand given: a row repeated later in the
    // file would be found recorded by a run, and its withdrawal would end the record once.
    const standingOf = new Map<string, boolean>();
    return {
      ledger,
      async append(items, expectNew, now) {
        const checked = checkItems(items, now, rowId);
        if (checked.rows.length === 0) return { recorded: 0, existing: 0, withdrawn: 0, errors: checked.errors };
        const outcome = await consents.importRecords(tenantId, checked.rows, { expectNew, webhooks: options.webhooks });
        const refused = outcome.errors.map((e) => ({ ...e, index: checked.indexes[e.index]! }));
        return { ...outcome, errors: [...checked.errors, ...refused] };
      },
      async check(items, now) {
        const checked = checkItems(items, now, rowId);
        const streams = checked.rows.map((r) => consentStream(tenantId, r.consentId));
        const [found, versions] = await Promise.all([
          readStreams(ledger, streams),
          policies.getMany(
            tenantId,
            checked.rows.map((r) => r.input.policyVersionId),
          ),
        ]);
        const at = now.toISOString();
        let existing = 0;
        let withdrawn = 0;
        checked.rows.forEach(({ input }, n) => {
          const stream = streams[n]!;
          const events = found.get(stream) ?? [];
          if (events.length === 0 && !standingOf.has(stream)) {
            // A record this run would make: given, not withdrawn by its row, not past its validity.
            const policy = versions.get(input.policyVersionId)?.state;
            const validFor = policy && policy.status !== 'none' ? policy.consentValidFor : null;
            const expired = validFor !== null && addDuration(input.collectedAt ?? at, validFor) <= at;
            standingOf.set(stream, input.consentGiven && input.withdrawnAt === undefined && !expired);
            return;
          }
          existing += 1;
          // Found recorded (before, or earlier in this run) and standing, with a withdrawal in the file: a run would append it, once.
          const stands = standingOf.get(stream) ?? standsGiven(fold(consentAggregate, events), at);
          if (input.withdrawnAt !== undefined && stands) withdrawn += 1;
          standingOf.set(stream, stands && input.withdrawnAt === undefined);
        });
        return { recorded: streams.length - existing, existing, withdrawn, errors: checked.errors };
      },
      async close() {
        // Keys made ahead for rows that never came (up to 1,024 a thread) would stay as rows that
        // nothing names; when the store is gone they stay, as they did before.
        await privacy.keys.discardUnused().catch(() => undefined);
        await close();
        await privacy.close();
      },
    };
  } catch (error) {
    await privacy.close();
    throw error;
  }
}
