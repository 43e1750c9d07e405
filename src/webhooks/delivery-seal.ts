import { timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { onceForTheStore } from '../store/once.js';
import type { Database } from '../store/schema.js';
import { webhooksDb, type DeliveriesTable } from './webhooks.table.js';

/** Seals delivery rows (Privacy.deliverySeal): a keyed hash under a key of the tenant's own that the database does not hold. */
export interface DeliverySealer {
  deliverySeal(tenantId: string, text: string): string;
}

/** The fields of a delivery row its seal covers: what is sent, where, and under which ids. */
export type SealedDelivery = Pick<DeliveriesTable, 'id' | 'tenant_id' | 'webhook_id' | 'event_id' | 'event_type' | 'payload'>;

/**
 * The seal of a delivery row as the service writes it: the row's id, webhook, event, name and
 * body, under the tenant's key. A row a database writer adds, or whose body, webhook or event it
 * changes, has no seal that matches (the key is derived from the lookup secret, which the store
 * holds only wrapped by the master key).
 *
 * @example
 * sealOf(privacy, { id, tenant_id, webhook_id, event_id, event_type: 'consent.created', payload }) // 64 hex
 */
export const sealOf = (sealer: DeliverySealer, d: SealedDelivery): string =>
  sealer.deliverySeal(
    d.tenant_id,
    ['consent-ledger/webhook-delivery/v1', d.id, d.webhook_id, d.event_id, d.event_type, d.payload].join('\n'),
  );

/** Whether a row's seal is the one the service wrote for it. */
export function sealHolds(sealer: DeliverySealer, d: SealedDelivery & { seal: string | null }): boolean {
  if (d.seal === null) return false;
  const want = Buffer.from(sealOf(sealer, d), 'utf8');
  const got = Buffer.from(d.seal, 'utf8');
  return got.length === want.length && timingSafeEqual(got, want);
}

/** Why a delivery whose seal does not hold is not sent (its history and the service's log say it). */
export const NOT_SEALED = 'its body is not the one the service queued (the seal of its row does not match)';

/** The advisory lock of the upgrade's sealing (src/store/migrations.ts holds 7_412_003_001). */
const SEALING_LOCK = 7_412_003_004;

/**
 * Seals, once for the store, the delivery rows an older version wrote without a seal, as they are
 * (`webhooks.deliveries_sealed` marks it done): those pending then, and those a tenant may send
 * again, keep going out. A row written without a seal after that (by a database writer, or by a
 * process of the older version still running) is never sealed, and never sent. Answers how many.
 */
export async function sealEarlierDeliveries(db: Kysely<Database>, sealer: DeliverySealer, shared: boolean): Promise<number> {
  return onceForTheStore(db, { marker: 'webhooks.deliveries_sealed', lock: SEALING_LOCK, shared }, () => sealUnsealed(db, sealer), 0);
}

/** Seals every delivery row that has no seal, as it is: the upgrade's step (and tests' rows written in SQL). Answers how many. */
export async function sealUnsealed(db: Kysely<Database>, sealer: DeliverySealer): Promise<number> {
  const w = webhooksDb(db);
  let sealed = 0;
  for (let after = '00000000-0000-0000-0000-000000000000'; ;) {
    const rows = await w
      .selectFrom('webhooks.deliveries')
      .select(['id', 'tenant_id', 'webhook_id', 'event_id', 'event_type', 'payload'])
      .where('seal', 'is', null)
      .where('id', '>', after)
      .orderBy('id')
      .limit(1000)
      .execute();
    if (rows.length === 0) return sealed;
    const seals = rows.map((r) => sql`(${r.id}::uuid, ${sealOf(sealer, r)})`);
    await sql`UPDATE webhooks.deliveries d SET seal = s.seal FROM (VALUES ${sql.join(seals)}) AS s(id, seal) WHERE d.id = s.id`.execute(db);
    sealed += rows.length;
    after = rows.at(-1)!.id;
  }
}
