import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../store/schema.js';
import { erasePayload } from '../webhooks/webhook.events.js';

/**
 * Where the store finds a subject's events: `ledger` reads the PostgreSQL ledger's own table;
 * `index` reads read.event_index, fed from a ledger that lives elsewhere (EventStoreDB). Callers
 * of the index wait for the projections to pass the tenant's head first.
 */
export type SubjectEventsSource = 'ledger' | 'index';

/**
 * A subject's consents (in ledger order) and the data keys their events name (the personal
 * fields' and withdrawal reasons'), read from the ledger itself (or its index), never a read model.
 */
export async function subjectRecords(
  db: Kysely<Database>,
  tenantId: string,
  subject: string,
  source: SubjectEventsSource = 'ledger',
): Promise<{ consentIds: string[]; kids: string[] }> {
  if (source === 'index') {
    const indexed = await sql<{ event_type: string; consent_id: string; kids: string[] }>`
      SELECT event_type, consent_id, kids FROM read.event_index
      WHERE tenant_id = ${tenantId}::uuid AND subject = ${subject} AND event_type IN ('ConsentRecorded', 'ConsentWithdrawn')
      ORDER BY commit_position, prepare_position`.execute(db);
    return {
      consentIds: indexed.rows.filter((r) => r.event_type === 'ConsentRecorded').map((r) => r.consent_id),
      kids: [...new Set(indexed.rows.flatMap((r) => r.kids))],
    };
  }
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
