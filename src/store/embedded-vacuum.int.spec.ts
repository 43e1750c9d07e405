import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../migrations.js';
import { openStore } from './store.js';

/**
 * Issue 21: PGlite has no autovacuum. A round vacuums every table, smallest first, one table per
 * turn of the one connection: dead row versions are reclaimed (the table stops growing under
 * updates), and queries queued meanwhile are answered between tables, not after the round.
 */
describe('store › embedded vacuum', () => {
  it('reclaims what updates left behind, and lets queries in between tables', async () => {
    const store = await openStore({ migrations: MIGRATIONS, dataDir: 'memory://' });
    try {
      await sql`CREATE TABLE public.churn (id int PRIMARY KEY, v int NOT NULL)`.execute(store.db);
      await sql`INSERT INTO public.churn SELECT g, 0 FROM generate_series(1, 20000) g`.execute(store.db);
      const size = async () =>
        Number((await sql<{ n: string }>`SELECT pg_relation_size('public.churn') AS n`.execute(store.db)).rows[0]!.n);
      const churn = async () => {
        for (let i = 0; i < 3; i++) await sql`UPDATE public.churn SET v = v + 1`.execute(store.db);
      };
      await churn();
      const first = await store.vacuum!.round();
      expect(first!.tables).toBeGreaterThan(20);
      const settled = await size();
      // Vacuumed after each burst of updates, the table reuses its space instead of growing.
      for (let i = 0; i < 3; i++) {
        await churn();
        await store.vacuum!.round();
      }
      expect(await size()).toBeLessThanOrEqual(settled * 1.1);

      // Queries sent while a round runs are answered before it ends.
      await churn();
      let roundDone = 0;
      const answered: number[] = [];
      const round = store.vacuum!.round().then((r) => ((roundDone = performance.now()), r));
      await Promise.all(
        Array.from({ length: 5 }, async () => {
          await sql`SELECT 1`.execute(store.db);
          answered.push(performance.now());
        }),
      );
      const r = await round;
      expect(r!.tables).toBeGreaterThan(20);
      expect(answered.filter((t) => t < roundDone).length).toBe(5);
      const stats = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM pg_stat_user_tables WHERE last_vacuum IS NULL`.execute(store.db);
      expect(stats.rows[0]!.n).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('starts a round once enough WAL was written, long before its time', async () => {
    const store = await openStore({
      migrations: MIGRATIONS,
      dataDir: 'memory://',
      vacuum: { everyMs: 3_600_000, walBytes: 1024 * 1024, checkMs: 50 },
    });
    try {
      await new Promise((r) => setTimeout(r, 200));
      expect(store.vacuum!.last).toBeNull();
      await sql`CREATE TABLE public.bulk (id int PRIMARY KEY, v text NOT NULL)`.execute(store.db);
      await sql`INSERT INTO public.bulk SELECT g, repeat('x', 200) FROM generate_series(1, 20000) g`.execute(store.db);
      const deadline = Date.now() + 10_000;
      while (!store.vacuum!.last && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(store.vacuum!.last?.tables).toBeGreaterThan(20);
    } finally {
      await store.close();
    }
  });
});
