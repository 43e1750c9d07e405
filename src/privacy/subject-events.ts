import { setTimeout as delay } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { LedgerPosition } from '../ledger/ledger.port.js';
import { ledgerDb } from '../ledger/postgres/ledger.table.js';
import type { Database } from '../store/schema.js';

/**
 * A subject's consent events in the ledger's own table, as its partial index states them
 * (`events_consent_subject`, the literal types so that the planner can use it).
 */
export const subjectConsentEvents = (tenantId: string, subject: string) =>
  sql<boolean>`tenant_id = ${tenantId}::uuid AND event_type IN ('ConsentRecorded', 'ConsentWithdrawn') AND data->>'subject' = ${subject}`;

/**
 * Where the store finds a subject's events: `ledger` reads the PostgreSQL ledger's own table;
 * `index` reads read.event_index, fed from a ledger that lives elsewhere (EventStoreDB). Callers
 * of the index wait for the projections to pass the tenant's head first.
 */
export type SubjectEventsSource = 'ledger' | 'index';

/**
 * A subject's consents (in ledger order) and the data keys their events name (the personal
 * fields' and withdrawal reasons'), read from the ledger itself (or its index), never a read model;
 * with `before`, only those of events before that position.
 */
export async function subjectRecords(
  db: Kysely<Database>,
  tenantId: string,
  subject: string,
  source: SubjectEventsSource = 'ledger',
  before?: LedgerPosition,
): Promise<{ consentIds: string[]; kids: string[] }> {
  if (source === 'index') {
    // read.event_index is a projection's table (projections/event-index): src/ does not import its types.
    const indexed = await sql<{ event_type: string; consent_id: string; kids: string[] }>`
      SELECT event_type, consent_id, kids FROM read.event_index
      WHERE tenant_id = ${tenantId}::uuid AND subject = ${subject} AND event_type IN ('ConsentRecorded', 'ConsentWithdrawn')
        ${before ? sql`AND (commit_position, prepare_position) < (${before.commit}, ${before.prepare})` : sql``}
      ORDER BY commit_position, prepare_position`.execute(db);
    return {
      consentIds: indexed.rows.filter((r) => r.event_type === 'ConsentRecorded').map((r) => r.consent_id),
      kids: [...new Set(indexed.rows.flatMap((r) => r.kids))],
    };
  }
  const rows = await ledgerDb(db)
    .selectFrom('ledger.events')
    .select([
      'event_type',
      sql<string>`data->>'consentId'`.as('consent_id'),
      sql<string | null>`data->'personal'->>'kid'`.as('personal_kid'),
      sql<string | null>`data->'reason'->>'kid'`.as('reason_kid'),
    ])
    .where(subjectConsentEvents(tenantId, subject))
    .$if(before !== undefined, (q) =>
      q.where(sql<boolean>`(transaction_id, global_position) < (${String(before!.commit)}::xid8, ${before!.prepare}::bigint)`),
    )
    .orderBy('transaction_id')
    .orderBy('global_position')
    .execute();
  return {
    consentIds: rows.filter((r) => r.event_type === 'ConsentRecorded').map((r) => r.consent_id),
    kids: [...new Set(rows.flatMap((r) => [r.personal_kid, r.reason_kid].filter((k): k is string => k !== null)))],
  };
}

/**
 * Waits until no transaction that could still append an event before `position` to the ledger's
 * own table is running: the read horizon (migration 0025) has passed it. A transaction that began
 * before an append and commits after it sits before it in the ledger's order.
 */
export async function ledgerFinalThrough(db: Kysely<Database>, position: LedgerPosition, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await sql<{ past: boolean }>`SELECT ledger.read_horizon() > ${String(position.commit)}::xid8 AS past`.execute(db);
    if (rows[0]?.past) return;
    if (Date.now() > deadline)
      throw new Error(`a transaction before ledger position ${position.commit} is still running after ${timeoutMs} ms`);
    await delay(5);
  }
}
