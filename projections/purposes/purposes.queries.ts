import type { Kysely } from 'kysely';
import { isPolicyType } from '../../src/domain/policy/policy.events.js';
import type { Database } from '../../src/store/schema.js';
import { purposesDb, type PurposeRow } from './purposes.table.js';

/** A tenant's purposes by key, a page of them, and how many there are. */
export async function listPurposes(
  db: Kysely<Database>,
  tenantId: string,
  page: number,
  limit: number,
): Promise<{ items: PurposeRow[]; total: number }> {
  const p = purposesDb(db);
  const [items, count] = await Promise.all([
    p
      .selectFrom('read.purposes')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .orderBy('key')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    p
      .selectFrom('read.purposes')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('tenant_id', '=', tenantId)
      .executeTakeFirst(),
  ]);
  return { items, total: Number(count?.n ?? 0) };
}

/** Whether a purpose is known: a policy type (its own purpose), or one the tenant defined (as far as the read model got). */
export async function purposeKnown(db: Kysely<Database>, tenantId: string, key: string): Promise<boolean> {
  if (isPolicyType(key)) return true;
  const row = await purposesDb(db)
    .selectFrom('read.purposes')
    .select('key')
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .executeTakeFirst();
  return row !== undefined;
}
