import type { Kysely } from 'kysely';
import { auditLogEntry, auditLogPage, auditLogRows, type AuditLogFilter } from '../../../projections/audit-log/audit-log.queries.js';
import type { AuditLogRow } from '../../../projections/audit-log/audit-log.table.js';
import type { AuditAction, AuditTargetType } from '../../domain/config/audit-entry.js';
import { DomainError } from '../../domain/errors.js';
import type { Database } from '../../store/schema.js';
import type { ReadFence } from '../read-fence.js';

export type { AuditLogFilter } from '../../../projections/audit-log/audit-log.queries.js';

/** One change to a tenant's configuration, as `GET /api/v1/audit-log` shows it. */
export interface AuditEntryView {
  /** The ledger event's id: its inclusion proof is at `/api/v1/audit-log/{id}/proof`. */
  id: string;
  action: AuditAction;
  at: string;
  /** Who made it: a key (its public id), the operator (admin API), the CLI, or the service itself (an expiry); null before actors were recorded. */
  actor: { type: string; id: string | null } | null;
  target: { type: AuditTargetType; id: string | null };
  details: Record<string, unknown>;
  stream: string;
  revision: number;
  eventHash: string;
}

/** The CSV columns of the audit log, one row per entry. */
export const AUDIT_CSV_COLUMNS = [
  'id',
  'at',
  'action',
  'actorType',
  'actorId',
  'targetType',
  'targetId',
  'details',
  'eventHash',
  'stream',
  'revision',
] as const;
export type AuditCsvRow = Record<(typeof AUDIT_CSV_COLUMNS)[number], unknown>;

const view = (r: AuditLogRow): AuditEntryView => ({
  id: r.event_id,
  action: r.action as AuditAction,
  at: new Date(r.at).toISOString(),
  actor: r.actor_type === null ? null : { type: r.actor_type, id: r.actor_id },
  target: { type: r.target_type as AuditTargetType, id: r.target_id },
  details: r.details,
  stream: r.stream_id,
  revision: r.stream_revision,
  eventHash: r.event_hash,
});

export const auditCsvRow = (e: AuditEntryView): AuditCsvRow => ({
  id: e.id,
  at: e.at,
  action: e.action,
  actorType: e.actor?.type ?? null,
  actorId: e.actor?.id ?? null,
  targetType: e.target.type,
  targetId: e.target.id,
  details: JSON.stringify(e.details),
  eventHash: e.eventHash,
  stream: e.stream,
  revision: e.revision,
});

/**
 * The operator audit trail (docs/audit-log.md): every configuration change in a tenant's log, read
 * from its read model after the read fence, so a change is listed as soon as its call answered.
 *
 * @example
 * const { items } = await auditLog.page(tenantId, { action: 'key.revoked' }, 1, 50);
 */
export class AuditLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly fence: ReadFence,
  ) {}

  async page(tenantId: string, filter: AuditLogFilter, page: number, limit: number): Promise<{ items: AuditEntryView[]; total: number }> {
    await this.fence(tenantId);
    const { items, total } = await auditLogPage(this.db, tenantId, filter, page, limit);
    return { items: items.map(view), total };
  }

  /** Every matching entry, oldest first, streamed (the CSV export). */
  async all(tenantId: string, filter: AuditLogFilter): Promise<AsyncIterable<AuditEntryView>> {
    await this.fence(tenantId);
    const rows = auditLogRows(this.db, tenantId, filter);
    return (async function* () {
      for await (const r of rows) yield view(r);
    })();
  }

  async entry(tenantId: string, id: string): Promise<AuditEntryView> {
    await this.fence(tenantId);
    const row = await auditLogEntry(this.db, tenantId, id);
    if (!row) throw new DomainError('NOT_FOUND', 'audit log entry not found');
    return view(row);
  }
}
