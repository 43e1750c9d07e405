import { sql } from 'kysely';
import { consentRecordedOf } from '../../src/domain/consent/consent.events.js';
import type { Projector } from '../../src/followers/projector.js';

/**
 * Counters per (tenant, UTC day, policy type, purpose, version, decision), so that stats add up a few counters
 * instead of counting rows. The runner's checkpoint makes each event count once.
 */
export const consentCountsProjector: Projector = {
  name: 'consent_counts',
  handles: new Set(['ConsentRecorded']),
  async apply(tx, recorded) {
    await consentCountsProjector.applyBatch!(tx, [recorded]);
  },
  // Counting commutes: a batch adds up its events per counter first, then one upsert adds them.
  async applyBatch(tx, events) {
    const rows = events.flatMap((e) => {
      const d = consentRecordedOf(e);
      return d
        ? [{ t: e.tenantId, ts: d.timestamp, p: d.policyType, u: d.purpose ?? d.policyType, v: d.policyVersionId, g: d.consentGiven }]
        : [];
    });
    if (rows.length === 0) return;
    // The UTC day of the instant, computed as read.consents.created_at is stored, so counters and
    // rows always put a record on the same day. Raw SQL: the batch is one JSON parameter
    // (json_to_recordset), grouped in the statement; Kysely has no builder for that form.
    await sql`
      INSERT INTO read.consent_counts (tenant_id, day, policy_type, purpose, policy_version_id, consent_given, count)
      SELECT r.t, (r.ts AT TIME ZONE 'UTC')::date, r.p, r.u, r.v, r.g, count(*)
      FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(t uuid, ts timestamptz, p text, u text, v uuid, g boolean)
      GROUP BY 1, 2, 3, 4, 5, 6
      ON CONFLICT (tenant_id, day, policy_type, purpose, policy_version_id, consent_given) DO UPDATE SET count = read.consent_counts.count + EXCLUDED.count`.execute(
      tx,
    );
  },
};
