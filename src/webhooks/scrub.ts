import { sql, type Kysely, type Transaction } from 'kysely';
import type { SubjectEventsSource } from '../privacy/subject-events.js';
import type { Database } from '../store/schema.js';
import { erasePayload } from './webhook.events.js';

/**
 * Clears the personal fields of every webhook payload, queued or sent, that came from this
 * subject's consent events (erasePayload). A pending retry then sends the cleared body.
 * Answers how many rows changed.
 */
export async function scrubDeliveries<DB extends Database>(
  db: Kysely<DB> | Transaction<DB>,
  tenantId: string,
  subject: string,
  source: SubjectEventsSource = 'ledger',
): Promise<number> {
  const rows =
    source === 'index'
      ? await sql<{ id: string; payload: string }>`
          SELECT d.id, d.payload FROM webhooks.deliveries d
          WHERE d.tenant_id = ${tenantId} AND d.event_id IN (
            SELECT event_id FROM read.event_index
            WHERE tenant_id = ${tenantId}::uuid AND subject = ${subject} AND event_type IN ('ConsentRecorded', 'ConsentWithdrawn'))`.execute(
          db,
        )
      : await sql<{ id: string; payload: string }>`
          SELECT d.id, d.payload FROM webhooks.deliveries d
          WHERE d.tenant_id = ${tenantId} AND d.event_id IN (
            SELECT event_id FROM ledger.events
            WHERE tenant_id = ${tenantId} AND event_type IN ('ConsentRecorded', 'ConsentWithdrawn') AND data->>'subject' = ${subject})`.execute(
          db,
        );
  let changed = 0;
  for (const r of rows.rows) {
    const cleared = erasePayload(r.payload);
    if (cleared === r.payload) continue;
    await sql`UPDATE webhooks.deliveries SET payload = ${cleared}, updated_at = now() WHERE id = ${r.id}`.execute(db);
    changed++;
  }
  return changed;
}
