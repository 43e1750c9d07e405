import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { auditLogDb, type AuditLogRow } from './audit-log.table.js';

/** The actors named by kind rather than by a key's id. */
const ACTOR_KINDS = new Set(['operator', 'cli', 'service']);

export interface AuditLogFilter {
  action?: string | undefined;
  /** `operator`, `cli`, `service`, or a key's id. */
  actor?: string | undefined;
  /** Changes at or after `from` and before `before`. */
  from?: Date | undefined;
  before?: Date | undefined;
}

function filtered(db: Kysely<Database>, tenantId: string, f: AuditLogFilter) {
  let q = auditLogDb(db).selectFrom('read.audit_log').where('tenant_id', '=', tenantId);
  if (f.action) q = q.where('action', '=', f.action);
  if (f.actor) q = ACTOR_KINDS.has(f.actor) ? q.where('actor_type', '=', f.actor) : q.where('actor_id', '=', f.actor);
  if (f.from) q = q.where('at', '>=', f.from);
  if (f.before) q = q.where('at', '<', f.before);
  return q;
}

/** A page of a tenant's audit log, newest first, and how many entries match. */
export async function auditLogPage(
  db: Kysely<Database>,
  tenantId: string,
  filter: AuditLogFilter,
  page: number,
  limit: number,
): Promise<{ items: AuditLogRow[]; total: number }> {
  const [items, count] = await Promise.all([
    filtered(db, tenantId, filter)
      .selectAll()
      .orderBy('commit_position', 'desc')
      .orderBy('prepare_position', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    filtered(db, tenantId, filter)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst(),
  ]);
  return { items, total: Number(count?.n ?? 0) };
}

/** Every matching entry, oldest first, read in pages of `pageRows` (keyset: no page is read twice). */
export async function* auditLogRows(
  db: Kysely<Database>,
  tenantId: string,
  filter: AuditLogFilter,
  pageRows = 1000,
): AsyncGenerator<AuditLogRow> {
  let after: { commit: number | string; prepare: number | string } | undefined;
  for (;;) {
    let q = filtered(db, tenantId, filter).selectAll();
    if (after) {
      const { commit, prepare } = after;
      q = q.where((eb) =>
        eb.or([eb('commit_position', '>', commit), eb.and([eb('commit_position', '=', commit), eb('prepare_position', '>', prepare)])]),
      );
    }
    const rows = await q.orderBy('commit_position').orderBy('prepare_position').limit(pageRows).execute();
    yield* rows;
    if (rows.length < pageRows) return;
    const last = rows[rows.length - 1]!;
    after = { commit: last.commit_position, prepare: last.prepare_position };
  }
}

/** One entry of a tenant's audit log, by its event's id. */
export async function auditLogEntry(db: Kysely<Database>, tenantId: string, eventId: string): Promise<AuditLogRow | undefined> {
  return auditLogDb(db)
    .selectFrom('read.audit_log')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('event_id', '=', eventId)
    .executeTakeFirst();
}
