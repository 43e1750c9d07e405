import { sql, type Kysely } from 'kysely';
import type { Log } from '../src/common/log.js';
import { PokeLoop } from '../src/common/poke-loop.js';
import type { Database } from '../src/store/schema.js';

/**
 * The tables whose reads depend on the planner's statistics: the read models' filters, and the
 * ledger's reads of one stream (never analyzed, a stream read is planned as a scan of thousands
 * of rows, in parallel workers on a server: verify at 500,000 records took 20 ms instead of 2).
 */
const TABLES = ['read.consents', 'read.user_policy_status', 'read.policy_versions', 'ledger.events'] as const;

/**
 * Keeps the planner's statistics of the read models and the ledger fresh: once the runner
 * applied more events than a fifth of the rows counted at the last ANALYZE (at least 1,000), it
 * runs ANALYZE on them. Without statistics the planner takes a million-row tenant for a few hundred rows and
 * sorts every match of a filter for a page of 20 (docs/purposes.md, Filters). The embedded store
 * has no autovacuum to do it, and a server's may be off. A small sample (statistics target 10)
 * keeps ANALYZE of a million rows near 70 ms on PGlite, where it holds the event loop.
 *
 * @example
 * const stats = new ReadStatistics(db, () => runner.applied, { log });
 * stats.start();
 */
export class ReadStatistics {
  readonly name = 'read statistics';
  private readonly loop: PokeLoop;
  private analyzedAt: number | undefined;
  private rows = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly applied: () => number,
    options: { log: Log; pollMs?: number },
  ) {
    this.loop = new PokeLoop(
      'read statistics',
      async () => {
        await this.runOnce();
        return { more: false };
      },
      { pollMs: options.pollMs ?? 10_000, log: options.log },
    );
  }

  start(): void {
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Analyzes the tables if enough changed since the last time; answers whether it did. */
  async runOnce(): Promise<boolean> {
    const applied = this.applied();
    if (this.analyzedAt === undefined) {
      // Rows as the last ANALYZE (of any process, any run) counted them; -1 or 0: never analyzed.
      const row = await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'read.consents'::regclass`.execute(
        this.db,
      );
      this.rows = Math.max(0, Number(row.rows[0]?.n ?? 0));
      this.analyzedAt = this.rows > 0 ? 0 : -Infinity;
      if (this.rows === 0 && applied < 1_000) return false;
    }
    if (applied - this.analyzedAt < Math.max(1_000, this.rows / 5)) return false;
    await this.db.connection().execute(async (conn) => {
      await sql`SET default_statistics_target = 10`.execute(conn);
      try {
        for (const table of TABLES) await sql.raw(`ANALYZE ${table}`).execute(conn);
      } finally {
        await sql`RESET default_statistics_target`.execute(conn);
      }
    });
    const row = await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'read.consents'::regclass`.execute(
      this.db,
    );
    this.rows = Math.max(0, Number(row.rows[0]?.n ?? 0));
    this.analyzedAt = applied;
    return true;
  }
}
