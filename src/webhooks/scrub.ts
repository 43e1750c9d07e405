import { sql, type Kysely, type Transaction } from 'kysely';
import { consentStreamSql } from '../ledger/postgres/ledger.table.js';
import { subjectConsentEvents, type SubjectEventsSource } from '../privacy/subject-events.js';
import type { Database } from '../store/schema.js';
import { sealHolds, sealOf, type DeliverySealer } from './delivery-seal.js';
import { erasePayload } from './webhook.events.js';
import { webhooksDb } from './webhooks.table.js';

/**
 * Clears the personal fields of every webhook payload, queued or sent, that came from this
 * subject's consent events (erasePayload). A pending retry then sends the cleared body, sealed
 * anew; a row whose seal did not hold keeps it, so that clearing it never makes it sendable.
 * Answers how many rows changed.
 */
export async function scrubDeliveries<DB extends Database>(
  db: Kysely<DB> | Transaction<DB>,
  sealer: DeliverySealer,
  tenantId: string,
  subject: string,
  source: SubjectEventsSource = 'ledger',
): Promise<number> {
  // Inside the caller's transaction when it passes one: withTables keeps the connection.
  const w = webhooksDb(db as unknown as Kysely<Database>);
  // The subject's records, withdrawals and expiries (each payload names the user reference).
  const events =
    source === 'index'
      ? // read.event_index is a projection's table (projections/event-index): src/ does not import its types.
        sql<string>`(SELECT event_id FROM read.event_index
          WHERE tenant_id = ${tenantId}::uuid AND subject = ${subject} AND event_type IN ('ConsentRecorded', 'ConsentWithdrawn', 'ConsentExpired'))`
      : sql<string>`(
          SELECT event_id FROM ledger.events WHERE ${subjectConsentEvents(tenantId, subject)}
          UNION ALL
          -- Expiries, found by their records' streams (the subject index holds records and withdrawals).
          SELECT x.event_id FROM ledger.events x
          WHERE x.event_type = 'ConsentExpired' AND x.stream_id IN (
            SELECT ${consentStreamSql(sql.ref('r.tenant_id'), sql`(r.data->>'consentId')`)} FROM ledger.events r
            WHERE ${subjectConsentEvents(tenantId, subject)} AND r.event_type = 'ConsentRecorded'))`;
  const rows = await w
    .selectFrom('webhooks.deliveries as d')
    .select(['d.id', 'd.tenant_id', 'd.webhook_id', 'd.event_id', 'd.event_type', 'd.payload', 'd.seal'])
    .where('d.tenant_id', '=', tenantId)
    .where('d.event_id', 'in', events)
    .execute();
  let changed = 0;
  for (const r of rows) {
    const cleared = erasePayload(r.payload);
    if (cleared === r.payload) continue;
    await w
      .updateTable('webhooks.deliveries')
      .set({
        payload: cleared,
        seal: sealHolds(sealer, r) ? sealOf(sealer, { ...r, payload: cleared }) : r.seal,
        updated_at: sql<string>`now()`,
      })
      .where('id', '=', r.id)
      .execute();
    changed++;
  }
  return changed;
}
