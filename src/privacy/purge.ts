import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import { erasePayload } from '../webhooks/webhook.events.js';

/**
 * A subject's consents (in ledger order) and the data keys their events name (the personal
 * fields' and withdrawal reasons'), read from the ledger itself, never a read model.
 */
export async function subjectRecords(db: Kysely<Database>, tenantId: string, subject: string): Promise<{ consentIds: string[]; kids: string[] }> {
  const rows = await sql<{ event_type: string; consent_id: string; personal_kid: string | null; reason_kid: string | null }>`
    SELECT event_type, data->>'consentId' AS consent_id, data->'personal'->>'kid' AS personal_kid, data->'reason'->>'kid' AS reason_kid
    FROM ledger.events
    WHERE tenant_id = ${tenantId} AND event_type IN ('ConsentRecorded', 'ConsentWithdrawn') AND data->>'subject' = ${subject}
    ORDER BY transaction_id, global_position`.execute(db);
  return {
    consentIds: rows.rows.filter((r) => r.event_type === 'ConsentRecorded').map((r) => r.consent_id),
    kids: [...new Set(rows.rows.flatMap((r) => [r.personal_kid, r.reason_kid].filter((k): k is string => k !== null)))],
  };
}

/**
 * Clears the personal fields of every webhook payload, queued or sent, that came from this
 * subject's consent events (erasePayload). A pending retry then sends the cleared body.
 * Answers how many rows changed.
 */
export async function scrubDeliveries<DB extends Database>(db: Kysely<DB> | Transaction<DB>, tenantId: string, subject: string): Promise<number> {
  const rows = await sql<{ id: string; payload: string }>`
    SELECT d.id, d.payload FROM webhooks.deliveries d
    WHERE d.tenant_id = ${tenantId} AND d.event_id IN (
      SELECT event_id FROM ledger.events
      WHERE tenant_id = ${tenantId} AND event_type IN ('ConsentRecorded', 'ConsentWithdrawn') AND data->>'subject' = ${subject})`.execute(db);
  let changed = 0;
  for (const r of rows.rows) {
    const cleared = erasePayload(r.payload);
    if (cleared === r.payload) continue;
    await sql`UPDATE webhooks.deliveries SET payload = ${cleared}, updated_at = now() WHERE id = ${r.id}`.execute(db);
    changed++;
  }
  return changed;
}
