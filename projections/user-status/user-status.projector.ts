import { addToCounters } from '../counters.js';
import { insertRecordset } from '../recordset.js';
import { userStatusDb } from './user-status.table.js';
import { consentRecordedOf, decodeConsentEvent, type ConsentRecorded } from '../../src/domain/consent/consent.events.js';
import type { RecordedEvent } from '../../src/ledger/ledger.port.js';
import { inRuns, type Projector } from '../../src/followers/projector.js';
import { consentRuns, recordKey, withdrawalOf } from '../consent-runs.js';

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
    // An imported decision stands by its original time, so that history moved in later never
    // overrides what the user decided since.
    decided_at: d.collectedAt ?? d.timestamp,
    expires_at: d.expiresAt ?? null,
    withdrawn_at: null as string | null,
  };
}

type Row = ReturnType<typeof rowOf>;

/**
 * Per data subject (the HMAC of the user reference) and purpose, the latest decision (by when it was
 * made: `collectedAt` of an imported one, else its ledger time; ties in ledger order), and whether
 * that decision was later withdrawn. Withdrawing an older record does not change the current one.
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
      case 'ConsentWithdrawn': {
        const moved = await userStatusDb(tx)
          .updateTable('read.user_policy_status')
          .set({ status: 'withdrawn', withdrawn_at: event.data.withdrawnAt })
          .where('tenant_id', '=', recorded.tenantId)
          .where('consent_id', '=', event.data.consentId)
          .where('withdrawn_at', 'is', null)
          .returning(['tenant_id', 'purpose', 'policy_version_id'])
          .execute();
        await countStanding(
          tx,
          moved.map((r) => ({ ...r, d: -1 })),
        );
        return;
      }
    }
  },
  // A run of decisions in one upsert: per (tenant, subject, purpose) the last of the run wins,
  // as it would one by one, and a withdrawal of a record of the run withdraws it there if it is
  // still that key's decision. Other withdrawals one by one, in order between the runs.
  async applyBatch(tx, events) {
    const runs = consentRuns();
    await inRuns(
      events,
      runs.batched,
      async (run) => {
        runs.flushed();
        const last = new Map<string, Row>();
        const keyOfConsent = new Map<string, string>();
        for (const e of run) {
          const withdrawal = withdrawalOf(e);
          if (withdrawal) {
            const row = last.get(keyOfConsent.get(recordKey(e.tenantId, withdrawal.consentId)) ?? '');
            if (row && row.consent_id === withdrawal.consentId && row.withdrawn_at === null) {
              row.status = 'withdrawn';
              row.withdrawn_at = withdrawal.withdrawnAt;
            }
            continue;
          }
          const d = consentRecordedOf(e);
          if (!d) continue;
          const row = rowOf(e, d);
          const key = `${row.tenant_id}\u0000${row.subject}\u0000${row.purpose}`;
          keyOfConsent.set(recordKey(row.tenant_id, row.consent_id), key);
          const kept = last.get(key);
          if (kept && kept.decided_at > row.decided_at) continue;
          last.delete(key);
          last.set(key, row);
        }
        await upsert(tx, [...last.values()]);
      },
      (e) => userStatusProjector.apply(tx, e),
    );
  },
};

type Tx = Parameters<Projector['apply']>[0];

/** Moves the standing counters (read.standing_counts), in the transaction that changes the rows. */
const countStanding = (tx: Tx, deltas: readonly { tenant_id: string; purpose: string; policy_version_id: string; d: number }[]) =>
  addToCounters(tx, 'read.standing_counts', { tenant_id: 'uuid', purpose: 'text', policy_version_id: 'uuid' }, deltas);

async function upsert(tx: Tx, all: readonly Row[]): Promise<void> {
  if (all.length === 0) return;
  // The decisions these replace: each stops standing where it stood (if not withdrawn), each new one stands.
  const existing = await userStatusDb(tx)
    .selectFrom('read.user_policy_status')
    .select(['tenant_id', 'subject', 'purpose', 'policy_version_id', 'withdrawn_at', 'decided_at'])
    .where('tenant_id', 'in', [...new Set(all.map((r) => r.tenant_id))])
    .where('subject', 'in', [...new Set(all.map((r) => r.subject))])
    .forUpdate()
    .execute();
  const keyOf = (r: { tenant_id: string; subject: string; purpose: string }) => `${r.tenant_id}\u0000${r.subject}\u0000${r.purpose}`;
  const standing = new Map(existing.map((o) => [keyOf(o), o]));
  // A decision made before the one standing (an import of older history) changes nothing.
  const rows = all.filter((r) => {
    const o = standing.get(keyOf(r));
    return !o || o.decided_at.getTime() <= Date.parse(r.decided_at);
  });
  if (rows.length === 0) return;
  await countStanding(tx, [
    ...rows.flatMap((r) => {
      const o = standing.get(keyOf(r));
      return o && o.withdrawn_at === null
        ? [{ tenant_id: o.tenant_id, purpose: o.purpose, policy_version_id: o.policy_version_id, d: -1 }]
        : [];
    }),
    // A row withdrawn in the run that recorded it never stood.
    ...rows.flatMap((r) =>
      r.withdrawn_at === null ? [{ tenant_id: r.tenant_id, purpose: r.purpose, policy_version_id: r.policy_version_id, d: 1 }] : [],
    ),
  ]);
  await insertRecordset(tx, 'read.user_policy_status', COLUMNS, rows, UPSERT);
}

/** read.user_policy_status' columns, with their SQL types. */
const COLUMNS = {
  tenant_id: 'uuid',
  subject: 'text',
  purpose: 'text',
  policy_type: 'text',
  consent_id: 'uuid',
  policy_version_id: 'uuid',
  policy_version: 'text',
  consent_given: 'boolean',
  status: 'text',
  decided_at: 'timestamptz',
  expires_at: 'timestamptz',
  withdrawn_at: 'timestamptz',
} satisfies Record<keyof Row, string>;

/** A (tenant, subject, purpose) decided on before takes the new decision in every other column. */
const UPSERT = `ON CONFLICT (tenant_id, subject, purpose) DO UPDATE SET ${Object.keys(COLUMNS)
  .filter((c) => !['tenant_id', 'subject', 'purpose'].includes(c))
  .map((c) => `${c} = EXCLUDED.${c}`)
  .join(', ')}`;
