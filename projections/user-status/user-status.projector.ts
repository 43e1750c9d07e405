import { userStatusDb } from './user-status.table.js';
import { consentRecordedOf, decodeConsentEvent, type ConsentRecorded } from '../../src/domain/consent/consent.events.js';
import type { RecordedEvent } from '../../src/ledger/ledger.port.js';
import { inRuns, type Projector } from '../../src/followers/projector.js';

/** The row a ConsentRecorded event leaves for its (tenant, subject, purpose). */
function rowOf(recorded: RecordedEvent, d: ConsentRecorded['data']) {
  return {
    tenant_id: recorded.tenantId,
    subject: d.subject,
    purpose: d.purpose ?? d.policyType,
    policy_type: d.policyType,
    consent_id: d.consentId,
    policy_version_id: d.policyVersionId,
    policy_version: d.policyVersion,
    consent_given: d.consentGiven,
    status: d.consentGiven ? 'given' : 'rejected',
    decided_at: d.timestamp,
    expires_at: d.expiresAt ?? null,
    withdrawn_at: null,
  };
}

type Row = ReturnType<typeof rowOf>;

/**
 * Per data subject (the HMAC of the user reference) and purpose, the latest decision in ledger order, and whether that decision was
 * later withdrawn. Withdrawing an older record does not change the current one.
 */
export const userStatusProjector: Projector = {
  name: 'user_policy_status',
  handles: new Set(['ConsentRecorded', 'ConsentWithdrawn']),
  async apply(tx, recorded) {
    const event = decodeConsentEvent(recorded);
    switch (event?.type) {
      case 'ConsentRecorded':
        await upsert(tx, [rowOf(recorded, event.data)]);
        return;
      case 'ConsentWithdrawn':
        await userStatusDb(tx)
          .updateTable('read.user_policy_status')
          .set({ status: 'withdrawn', withdrawn_at: event.data.withdrawnAt })
          .where('tenant_id', '=', recorded.tenantId)
          .where('consent_id', '=', event.data.consentId)
          .execute();
        return;
    }
  },
  // A run of decisions in one upsert: per (tenant, subject, purpose) the last of the run wins,
  // as it would one by one. Withdrawals one by one, in order between the runs.
  async applyBatch(tx, events) {
    await inRuns(
      events,
      (e) => e.type === 'ConsentRecorded',
      async (run) => {
        const last = new Map<string, Row>();
        for (const e of run) {
          const d = consentRecordedOf(e);
          if (!d) continue;
          const row = rowOf(e, d);
          const key = `${row.tenant_id}\u0000${row.subject}\u0000${row.purpose}`;
          last.delete(key);
          last.set(key, row);
        }
        await upsert(tx, [...last.values()]);
      },
      (e) => userStatusProjector.apply(tx, e),
    );
  },
};

async function upsert(tx: Parameters<Projector['apply']>[0], rows: readonly Row[]): Promise<void> {
  await userStatusDb(tx)
    .insertInto('read.user_policy_status')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'subject', 'purpose']).doUpdateSet((eb) => ({
        policy_type: eb.ref('excluded.policy_type'),
        consent_id: eb.ref('excluded.consent_id'),
        policy_version_id: eb.ref('excluded.policy_version_id'),
        policy_version: eb.ref('excluded.policy_version'),
        consent_given: eb.ref('excluded.consent_given'),
        status: eb.ref('excluded.status'),
        decided_at: eb.ref('excluded.decided_at'),
        expires_at: eb.ref('excluded.expires_at'),
        withdrawn_at: eb.ref('excluded.withdrawn_at'),
      })),
    )
    .execute();
}
