import type { PGlitePool } from './pglite-pool.js';

export interface EmbeddedVacuumOptions {
  /** At most this long between rounds (EMBEDDED_VACUUM_MINUTES); 0: never. */
  everyMs: number;
  /** A round also starts once this much WAL was written since the last one (default 16 MiB). */
  walBytes?: number;
  /** How often to look (default 5 s). */
  checkMs?: number;
}

/** What the last round did: tables vacuumed, and the longest any one held the connection. */
export interface VacuumRound {
  tables: number;
  ms: number;
  longestMs: number;
  longestTable: string;
}

/**
 * PGlite has no autovacuum: the rows updated on every batch (checkpoints, counters, tree sizes,
 * user statuses) leave dead versions that nothing reclaims, so those tables and their indexes
 * grow for as long as the store runs, and nothing freezes old rows, which PostgreSQL needs before
 * its transaction ids wrap around. This vacuums each table in turn, smallest first, each in its
 * own turn of the one connection, so that requests queued meanwhile go between tables rather
 * than waiting for the round. A table vacuumed before skips its pages that did not change since
 * (the visibility map), so a round costs about what changed since the last one: rounds start
 * every `everyMs`, and sooner once `walBytes` of WAL were written, which keeps each table's hold
 * short under a heavy write load (one round per few tens of thousands of records).
 */
export class EmbeddedVacuum {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<VacuumRound | null> | undefined;
  private stopped = false;
  private lastAt = Date.now();
  /** The WAL position at the start of the last round (null: none yet, taken at the first check). */
  private lastLsn: bigint | null = null;
  last: VacuumRound | null = null;

  constructor(
    private readonly pool: PGlitePool,
    private readonly options: EmbeddedVacuumOptions,
  ) {
    if (options.everyMs > 0) {
      this.timer = setInterval(() => void this.check(), options.checkMs ?? 5_000);
      this.timer.unref();
    }
  }

  /** Starts a round when it is time, or enough was written since the last. */
  private async check(): Promise<void> {
    if (this.running || this.stopped) return;
    const lsn = await this.walPosition().catch(() => null);
    if (lsn === null) return;
    this.lastLsn ??= lsn;
    const due = Date.now() - this.lastAt >= this.options.everyMs || lsn - this.lastLsn >= BigInt(this.options.walBytes ?? 16 * 1024 * 1024);
    if (due) await this.round();
  }

  private async walPosition(): Promise<bigint> {
    const rows = await this.pool.run<{ lsn: string }>(`SELECT (pg_current_wal_lsn() - '0/0'::pg_lsn)::text AS lsn`);
    return BigInt(rows[0]!.lsn.split('.')[0]!);
  }

  /** One round now (none while one runs or once stopped: null). */
  async round(): Promise<VacuumRound | null> {
    if (this.running || this.stopped) return null;
    this.running = (async () => {
      const started = performance.now();
      this.lastAt = Date.now();
      this.lastLsn = await this.walPosition();
      const tables = await this.tables();
      let longestMs = 0;
      let longestTable = '';
      let done = 0;
      for (const table of tables) {
        if (this.stopped) break;
        // The hold is timed from when the connection is ours, not from the wait for it.
        const client = await this.pool.connect();
        const t0 = performance.now();
        try {
          await client.query(`VACUUM ${table}`, []);
          done += 1;
        } finally {
          client.release();
        }
        const ms = performance.now() - t0;
        if (ms > longestMs) [longestMs, longestTable] = [ms, table];
        // Let what queued behind this table go first.
        await new Promise((resolve) => setImmediate(resolve));
      }
      this.last = { tables: done, ms: performance.now() - started, longestMs, longestTable };
      return this.last;
    })()
      // A store closing under it: the next round (if any) tries again.
      .catch(() => null)
      .finally(() => (this.running = undefined));
    return this.running;
  }

  private async tables(): Promise<string[]> {
    const rows = await this.pool.run<{ name: string }>(
      `SELECT format('%I.%I', schemaname, relname) AS name FROM pg_stat_user_tables ORDER BY pg_total_relation_size(relid), 1`,
    );
    return rows.map((r) => r.name);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
