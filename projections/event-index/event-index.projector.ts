import { sql } from 'kysely';
import type { Projector } from '../../src/followers/projector.js';

/**
 * Where the store finds ledger events by id or by subject when the ledger is not in the store's
 * own database (EventStoreDB): one row per event, with the subject and data-key ids of consent
 * events. With the PostgreSQL ledger the same questions go to `ledger.events` itself, and this
 * projector is not run (docs/decisions/0005-eventstoredb-ledger.md).
 */
export const EVENT_INDEX_DDL = `
  CREATE TABLE IF NOT EXISTS read.event_index (
    event_id uuid PRIMARY KEY,
    tenant_id uuid NOT NULL,
    stream_id text NOT NULL,
    stream_revision integer NOT NULL,
    event_type text NOT NULL,
    commit_position bigint NOT NULL,
    prepare_position bigint NOT NULL,
    subject text,
    consent_id text,
    kids text[] NOT NULL DEFAULT '{}'
  );
  CREATE INDEX IF NOT EXISTS event_index_subject ON read.event_index (tenant_id, subject) WHERE subject IS NOT NULL;
`;

const kidOf = (v: unknown): string | null => {
  const kid = (v as { kid?: unknown } | null | undefined)?.kid;
  return typeof kid === 'string' ? kid : null;
};

/** Says yes to every event type: this projector indexes them all. */
class EveryType extends Set<string> {
  override has(): boolean {
    return true;
  }
}

/** Every event; consent events with their subject, consent id and the data keys they name. */
export const eventIndexProjector: Projector = {
  name: 'event_index',
  handles: new EveryType(),
  async apply(tx, e) {
    const consentEvent = e.type === 'ConsentRecorded' || e.type === 'ConsentWithdrawn';
    const subject = consentEvent && typeof e.data.subject === 'string' ? e.data.subject : null;
    const consentId = consentEvent && typeof e.data.consentId === 'string' ? e.data.consentId : null;
    const kids = consentEvent ? [kidOf(e.data.personal), kidOf(e.data.reason)].filter((k): k is string => k !== null) : [];
    await sql`
      INSERT INTO read.event_index (event_id, tenant_id, stream_id, stream_revision, event_type, commit_position, prepare_position, subject, consent_id, kids)
      VALUES (${e.id}::uuid, ${e.tenantId}::uuid, ${e.stream}, ${e.revision}, ${e.type}, ${e.position.commit}, ${e.position.prepare}, ${subject}, ${consentId},
              ARRAY(SELECT json_array_elements_text(${JSON.stringify(kids)}::json)))
      ON CONFLICT (event_id) DO NOTHING`.execute(tx);
  },
};
