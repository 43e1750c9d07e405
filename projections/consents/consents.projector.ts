import { consentsDb } from './consents.table.js';
import { consentRecordedOf, decodeConsentEvent } from '../../src/domain/consent/consent.events.js';
import type { Sealed } from '../../src/domain/consent/consent.events.js';
import { decodeSubjectEvent } from '../../src/domain/subject/subject.events.js';
import type { RecordedEvent } from '../../src/ledger/ledger.port.js';
import { inRuns, type Projector } from '../../src/followers/projector.js';
import { consentRuns, recordKey, withdrawalOf } from '../consent-runs.js';
import { applyDeltas, deltasOf, type CountedRecord } from './consent-counts.counters.js';
import { insertRecordset } from '../recordset.js';
import { expiredWhenRecorded } from '../../src/domain/consent/standing.js';

/** The read.consents row of a ConsentRecorded event (none for another event). */
function rowsOf(recorded: RecordedEvent) {
  const d = consentRecordedOf(recorded);
  if (!d) return [];
  const row = {
    id: d.consentId,
    tenant_id: recorded.tenantId,
    subject: d.subject,
    policy_version_id: d.policyVersionId,
    policy_type: d.policyType,
    purpose: d.purpose ?? d.policyType,
    policy_version: d.policyVersion,
    policy_title: d.policyTitle,
    consent_given: d.consentGiven,
    // Imported past its expiry, a consent is expired from its record on (no ConsentExpired follows).
    status: expiredWhenRecorded(d) ? 'expired' : 'active',
    personal: d.personal,
    consent_hash: d.consentHash,
    batch_id: d.batchId,
    created_at: d.timestamp,
    collected_at: d.collectedAt ?? null,
    expires_at: d.expiresAt ?? null,
    withdrawn_at: null as string | null,
    withdrawal_reason: null as Sealed | null,
    metadata_tags: d.metadataTags && d.metadataTags.length > 0 ? d.metadataTags : null,
  };
  return [row];
}

/** What the counters need of a row, and its status. */
const COUNTED = [
  'tenant_id',
  'created_at',
  'collected_at',
  'policy_type',
  'purpose',
  'policy_version_id',
  'consent_given',
  'metadata_tags',
  'status',
] as const;

type Tx = Parameters<Projector['apply']>[0];

/** read.consents' columns a ConsentRecorded fills, with their SQL types. */
const INSERTED = {
  id: 'uuid',
  tenant_id: 'uuid',
  subject: 'text',
  policy_version_id: 'uuid',
  policy_type: 'text',
  purpose: 'text',
  policy_version: 'text',
  policy_title: 'text',
  consent_given: 'boolean',
  status: 'text',
  personal: 'jsonb',
  consent_hash: 'text',
  batch_id: 'uuid',
  created_at: 'timestamptz',
  collected_at: 'timestamptz',
  expires_at: 'timestamptz',
  withdrawn_at: 'timestamptz',
  withdrawal_reason: 'jsonb',
  metadata_tags: 'text[]',
} satisfies Record<keyof ReturnType<typeof rowsOf>[number], string>;

/** Inserts records (none twice) and counts those inserted; answers their ids. */
async function insertRecords(tx: Tx, rows: ReturnType<typeof rowsOf>): Promise<Set<string>> {
  if (rows.length === 0) return new Set();
  const inserted = await insertRecordset<CountedRecord & { status: string; id: string }>(
    tx,
    'read.consents',
    INSERTED,
    rows,
    `ON CONFLICT (id) DO NOTHING RETURNING id, ${COUNTED.join(', ')}`,
  );
  await applyDeltas(
    tx,
    inserted.flatMap((r) => deltasOf(r, r.status, 1)),
  );
  return new Set(inserted.map((r) => r.id));
}

/** Moves one record to `status` (if it is in one of `from`), with its counters; `set` are the other columns to change. */
async function moveStatus(
  tx: Tx,
  tenantId: string,
  consentId: string,
  from: readonly string[],
  status: string,
  set: { withdrawn_at?: string; withdrawal_reason?: string | null } = {},
): Promise<void> {
  const row = await consentsDb(tx)
    .selectFrom('read.consents')
    .select(COUNTED)
    .where('id', '=', consentId)
    .where('tenant_id', '=', tenantId)
    .forUpdate()
    .executeTakeFirst();
  if (!row || !from.includes(row.status)) return;
  await consentsDb(tx)
    .updateTable('read.consents')
    .set({ status, ...set })
    .where('id', '=', consentId)
    .where('tenant_id', '=', tenantId)
    .execute();
  await applyDeltas(tx, [...deltasOf(row, row.status, -1), ...deltasOf(row, status, 1)]);
}

/**
 * One row per consent record: search, user lists and CSV export read it. Personal fields stay
 * sealed here as in the ledger (the queries open them); an erased subject's rows lose even the
 * ciphertext and say `erased`.
 */
export const consentsProjector: Projector = {
  name: 'consents',
  handles: new Set(['ConsentRecorded', 'ConsentWithdrawn', 'ConsentExpired', 'SubjectErased']),
  async apply(tx, recorded) {
    const event = decodeConsentEvent(recorded) ?? decodeSubjectEvent(recorded);
    switch (event?.type) {
      case 'ConsentRecorded':
        await insertRecords(tx, rowsOf(recorded));
        return;
      case 'ConsentWithdrawn':
        await moveStatus(tx, recorded.tenantId, event.data.consentId, ['active', 'expired'], 'withdrawn', {
          withdrawn_at: event.data.withdrawnAt,
          withdrawal_reason: event.data.reason ? JSON.stringify(event.data.reason) : null,
        });
        return;
      case 'ConsentExpired':
        await moveStatus(tx, recorded.tenantId, event.data.consentId, ['active'], 'expired');
        return;
      case 'SubjectErased':
        // The records the erasure names, and only those: a record reads as erased only when an
        // erasure covers it (one made while the erasure ran is not, and keeps its key).
        if (event.data.consentIds.length === 0) return;
        {
          // Their tags go, and the counters by tag with them (the records stay counted).
          const tagged = await consentsDb(tx)
            .selectFrom('read.consents')
            .select(COUNTED)
            .where('tenant_id', '=', recorded.tenantId)
            .where('id', 'in', event.data.consentIds)
            .where('metadata_tags', 'is not', null)
            .forUpdate()
            .execute();
          await applyDeltas(
            tx,
            tagged.flatMap((r) => deltasOf(r, r.status, -1).filter((d) => d.tag !== '')),
          );
        }
        await consentsDb(tx)
          .updateTable('read.consents')
          .set({ personal: null, withdrawal_reason: null, erased: true, metadata_tags: null })
          .where('tenant_id', '=', recorded.tenantId)
          .where('id', 'in', event.data.consentIds)
          .execute();
        return;
    }
  },
  // Records in one multi-row INSERT per run, each with the withdrawal the run holds for it (an
  // imported history's); other withdrawals, expiries and erasures one by one, in order.
  async applyBatch(tx, events) {
    const runs = consentRuns();
    await inRuns(
      events,
      runs.batched,
      async (run) => {
        runs.flushed();
        const rows = run.flatMap(rowsOf);
        const byKey = new Map(rows.map((r) => [recordKey(r.tenant_id, r.id), r]));
        const withdrawals = run.flatMap((e) => {
          const w = withdrawalOf(e);
          return w ? [{ ...w, event: e, row: byKey.get(recordKey(e.tenantId, w.consentId))! }] : [];
        });
        for (const w of withdrawals) {
          const row = w.row;
          if (row.status !== 'active' && row.status !== 'expired') continue;
          row.status = 'withdrawn';
          row.withdrawn_at = w.withdrawnAt;
          // jsonb in the recordset, as the record's sealed personal fields are.
          row.withdrawal_reason = w.reason;
        }
        const inserted = await insertRecords(tx, rows);
        // A record there before (never, but for a ledger replayed over its own rows) takes its withdrawal as one by one would.
        for (const w of withdrawals) if (!inserted.has(w.consentId)) await consentsProjector.apply(tx, w.event);
      },
      (e) => consentsProjector.apply(tx, e),
    );
  },
};
