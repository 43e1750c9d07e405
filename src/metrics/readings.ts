import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import type { WitnessRelay } from '../transparency/index.js';
import type { LagSource } from './metrics.js';

/** Webhook deliveries still pending (waiting for their next attempt). */
export async function pendingDeliveries(db: Kysely<Database>): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status = 'pending'`.execute(db);
  return r.rows[0]!.n;
}

/**
 * Seconds since the oldest transaction holding an xid in the ledger's database began (0 when
 * none): the ledger's readers do not pass it (ledger.read_horizon()), so while it stays open reads
 * fall behind. Transactions of other databases do not hold them back and are not counted.
 */
export async function oldestTransactionSeconds(db: Kysely<Database>): Promise<number | null> {
  // Other roles' sessions show no xact_start to a role without pg_read_all_stats (`db grant`'s
  // roles): their transactions would read as none, a false 0, so the gauge is left out instead.
  const r = await sql<{ s: number | null; sees: boolean }>`
    SELECT extract(epoch FROM now() - min(xact_start))::float8 AS s,
      (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) OR pg_has_role('pg_read_all_stats', 'USAGE') AS sees
    FROM pg_stat_activity
    WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() AND (datid IS NULL OR datname = current_database())`.execute(db);
  const row = r.rows[0];
  if (!row?.sees) return null;
  return Math.max(0, row.s ?? 0);
}

/** Checkpoints (one per tenant, the newest) still short of the witness quorum, and the age of the oldest. */
export function witnessLag(witnesses: Pick<WitnessRelay, 'status'>, clock: () => number = Date.now): LagSource {
  return {
    follower: 'witnesses',
    async lag() {
      const status = await witnesses.status();
      const below = status?.belowQuorum ?? [];
      const oldest = Math.min(...below.map((b) => Date.parse(b.signedAt)));
      return { events: below.length, seconds: below.length === 0 ? 0 : Math.max(0, (clock() - oldest) / 1000) };
    },
  };
}
