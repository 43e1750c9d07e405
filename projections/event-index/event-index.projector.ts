import type { Projector } from '../../src/followers/projector.js';
import { eventIndexDb } from './event-index.table.js';

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

/**
 * Every event; consent events with their subject, consent id and the data keys they name. Run
 * only when the ledger is not in the store's database (EventStoreDB): with the PostgreSQL ledger
 * the same questions go to `ledger.events` itself (docs/decisions/0005-eventstoredb-ledger.md).
 */
export const eventIndexProjector: Projector = {
  name: 'event_index',
  handles: new EveryType(),
  async apply(tx, e) {
    const consentEvent = e.type === 'ConsentRecorded' || e.type === 'ConsentWithdrawn';
    const subject = consentEvent && typeof e.data.subject === 'string' ? e.data.subject : null;
    const consentId = consentEvent && typeof e.data.consentId === 'string' ? e.data.consentId : null;
    const kids = consentEvent ? [kidOf(e.data.personal), kidOf(e.data.reason)].filter((k): k is string => k !== null) : [];
    await eventIndexDb(tx)
      .insertInto('read.event_index')
      .values({
        event_id: e.id,
        tenant_id: e.tenantId,
        stream_id: e.stream,
        stream_revision: e.revision,
        event_type: e.type,
        commit_position: e.position.commit,
        prepare_position: e.position.prepare,
        subject,
        consent_id: consentId,
        kids,
      })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  },
};
