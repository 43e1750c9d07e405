import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/support/process.js';
import { MIGRATIONS } from '../migrations.js';
import { openStore, type Store } from './store.js';

/** PGlite has no checkpointer: the store checkpoints itself once enough WAL was written. */
describe('embedded store › WAL', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cl-wal-'));
    store = await openStore({ migrations: MIGRATIONS, dataDir: dir, checkpoint: { walBytes: 4 * 1024 * 1024, everyMs: 20 } });
    await sql`CREATE TABLE scratch (v text)`.execute(store.db);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const redo = async () =>
    (await sql<{ redo: string }>`SELECT redo_lsn::text AS redo FROM pg_control_checkpoint()`.execute(store.db)).rows[0]!.redo;
  const behind = async () =>
    (
      await sql<{ b: number }>`SELECT (pg_current_wal_lsn() - (SELECT redo_lsn FROM pg_control_checkpoint()))::float8 AS b`.execute(
        store.db,
      )
    ).rows[0]!.b;

  it('checkpoints once the WAL since the last checkpoint passes the threshold, so that it does not grow without bound', async () => {
    const before = await redo();
    // About 12 MiB of WAL: three times the threshold.
    for (let i = 0; i < 6; i++) await sql`INSERT INTO scratch SELECT repeat('x', 1000) FROM generate_series(1, 2000)`.execute(store.db);
    await waitUntil(async () => (await behind()) < 4 * 1024 * 1024, {
      timeoutMs: 10_000,
      intervalMs: 20,
      what: `a checkpoint after ${before}`,
    });
    expect(await redo()).not.toBe(before);
  });

  it('writes new WAL segments without filling them with zeros first', async () => {
    expect((await sql<{ v: string }>`SELECT current_setting('wal_init_zero') AS v`.execute(store.db)).rows[0]!.v).toBe('off');
  });
});
