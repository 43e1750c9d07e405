import { consentsDb } from './consents.table.js';
import { consentRecordedOf, decodeConsentEvent } from '../../src/domain/consent/consent.events.js';
import { decodeSubjectEvent } from '../../src/domain/subject/subject.events.js';
import type { RecordedEvent } from '../../src/ledger/ledger.port.js';
import { inRuns, type Projector } from '../../src/followers/projector.js';

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
    status: 'active',
    personal: JSON.stringify(d.personal),
    consent_hash: d.consentHash,
    batch_id: d.batchId,
    created_at: d.timestamp,
    expires_at: d.expiresAt ?? null,
    withdrawn_at: null,
    withdrawal_reason: null,
    metadata_tags: d.metadataTags && d.metadataTags.length > 0 ? d.metadataTags : null,
  };
  return [row];
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
        await consentsDb(tx)
          .insertInto('read.consents')
          .values(rowsOf(recorded))
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      case 'ConsentWithdrawn':
        await consentsDb(tx)
          .updateTable('read.consents')
          .set({
            status: 'withdrawn',
            withdrawn_at: event.data.withdrawnAt,
            withdrawal_reason: event.data.reason ? JSON.stringify(event.data.reason) : null,
          })
          .where('id', '=', event.data.consentId)
          .where('tenant_id', '=', recorded.tenantId)
          .execute();
        return;
      case 'ConsentExpired':
        await consentsDb(tx)
          .updateTable('read.consents')
          .set({ status: 'expired' })
          .where('id', '=', event.data.consentId)
          .where('tenant_id', '=', recorded.tenantId)
          .where('status', '=', 'active')
          .execute();
        return;
      case 'SubjectErased':
        // The records the erasure names, and only those: a record reads as erased only when an
        // erasure covers it (one made while the erasure ran is not, and keeps its key).
        if (event.data.consentIds.length === 0) return;
        await consentsDb(tx)
          .updateTable('read.consents')
          .set({ personal: null, withdrawal_reason: null, erased: true, metadata_tags: null })
          .where('tenant_id', '=', recorded.tenantId)
          .where('id', 'in', event.data.consentIds)
          .execute();
        return;
    }
  },
  // Records in one multi-row INSERT per run; withdrawals and erasures one by one, in order.
  async applyBatch(tx, events) {
    await inRuns(
      events,
      (e) => e.type === 'ConsentRecorded',
      async (run) => {
        await consentsDb(tx)
          .insertInto('read.consents')
          .values(run.flatMap(rowsOf))
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
      },
      (e) => consentsProjector.apply(tx, e),
    );
  },
};
