import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../migrations.js';
import { openStore } from './store.js';

describe('embedded store › when a store in memory starts from another store’s files › it holds what that one held', () => {
  it('dumpDataDir, then loadDataDir: the rows are there, and the schema is found up to date', async () => {
    const first = await openStore({ migrations: MIGRATIONS, dataDir: 'memory://' });
    let files: Blob;
    try {
      await sql`CREATE TABLE public.kept (v text)`.execute(first.db);
      await sql`INSERT INTO public.kept VALUES ('from the first store')`.execute(first.db);
      files = await first.dumpDataDir!();
    } finally {
      await first.close();
    }
    const second = await openStore({ migrations: MIGRATIONS, dataDir: 'memory://', loadDataDir: files });
    try {
      const kept = await sql<{ v: string }>`SELECT v FROM public.kept`.execute(second.db);
      expect(kept.rows).toEqual([{ v: 'from the first store' }]);
      // Writes go on from there: it is a store, not a copy to read.
      await sql`INSERT INTO public.kept VALUES ('then the second')`.execute(second.db);
      const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM public.kept`.execute(second.db);
      expect(count.rows[0]!.n).toBe(2);
    } finally {
      await second.close();
    }
  });

  it('refuses files to start from for a store in a folder, which keeps its own', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-store-load-'));
    try {
      await expect(openStore({ migrations: MIGRATIONS, dataDir: dir, loadDataDir: new Blob([]) })).rejects.toThrow(
        /loadDataDir is for a store in memory/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
