import { AUDITED_EVENT_TYPES, auditFacts } from '../../src/domain/config/audit-entry.js';
import type { Projector } from '../../src/followers/projector.js';
import { auditLogDb } from './audit-log.table.js';

/** Who the event's metadata names: a key by its id, the operator, the CLI or the service itself. */
const actorOf = (metadata: Record<string, unknown>): { type: string | null; id: string | null } => {
  const actor = metadata.actor as { type?: unknown; id?: unknown } | undefined;
  return {
    type: typeof actor?.type === 'string' ? actor.type : null,
    id: typeof actor?.id === 'string' ? actor.id : null,
  };
};

/** Each tenant's configuration changes, for `GET /api/v1/audit-log`; the events themselves stay in the ledger. */
export const auditLogProjector: Projector = {
  name: 'audit_log',
  handles: new Set(AUDITED_EVENT_TYPES),
  async apply(tx, e) {
    const facts = auditFacts(e, e.tenantId);
    if (!facts) return;
    const actor = actorOf(e.metadata);
    await auditLogDb(tx)
      .insertInto('read.audit_log')
      .values({
        event_id: e.id,
        tenant_id: e.tenantId,
        action: facts.action,
        actor_type: actor.type,
        actor_id: actor.id,
        target_type: facts.target.type,
        target_id: facts.target.id,
        details: JSON.stringify(facts.details),
        at: e.recordedAt,
        stream_id: e.stream,
        stream_revision: e.revision,
        event_hash: e.hash,
        commit_position: e.position.commit,
        prepare_position: e.position.prepare,
      })
      .onConflict((oc) => oc.column('event_id').doNothing())
      .execute();
  },
};
