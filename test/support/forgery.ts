import { sql, type Kysely } from 'kysely';
import { eventHash, type EventEnvelope } from '../../src/ledger/event-hash.js';
import type { Database } from '../../src/store/schema.js';

/**
 * INSERT into ledger.events, as a database writer would: a well-formed, correctly hashed and
 * chained row, without the service. Answers the event's hash.
 */
export async function insertBehindTheService(
  db: Kysely<Database>,
  envelope: EventEnvelope,
  authenticator: string | null = null,
): Promise<string> {
  const hash = eventHash(envelope);
  await sql`INSERT INTO ledger.events (event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash, authenticator)
    VALUES (${envelope.id}, ${envelope.tenantId}, ${envelope.stream}, ${envelope.revision}, ${envelope.type}, ${JSON.stringify(envelope.data)}::json,
      ${JSON.stringify(envelope.metadata)}::json, ${envelope.recordedAt}, ${envelope.prevHash}, ${hash}, ${authenticator})`.execute(db);
  return hash;
}
