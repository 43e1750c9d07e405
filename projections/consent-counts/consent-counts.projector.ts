import { sql } from 'kysely';
import type { ConsentRecorded } from '../../src/domain/consent/consent.events.js';
import type { Projector } from '../projector.js';

/**
 * Counters per (tenant, UTC day, policy type, decision), so that stats add up a few counters
 * instead of counting rows. The runner's checkpoint makes each event count once.
 */
export const consentCountsProjector: Projector = {
  name: 'consent_counts',
  handles: new Set(['ConsentRecorded']),
  async apply(tx, recorded) {
    const d = recorded.data as ConsentRecorded['data'];
    await tx
      .insertInto('read.consent_counts')
      .values({
        tenant_id: recorded.tenantId,
        // The UTC day of the instant, computed as read.consents.created_at is stored, so counters and
        // rows always put a record on the same day.
        day: sql<string>`(${d.timestamp}::timestamptz AT TIME ZONE 'UTC')::date`,
        policy_type: d.policyType,
        consent_given: d.consentGiven,
        count: 1,
      })
      .onConflict((oc) =>
        oc.columns(['tenant_id', 'day', 'policy_type', 'consent_given']).doUpdateSet({ count: sql`read.consent_counts.count + 1` }),
      )
      .execute();
  },
};
