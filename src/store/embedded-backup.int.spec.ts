import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { amcheck } from '@electric-sql/pglite/contrib/amcheck';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TAR_END, tarHeader, tarPadding } from '../common/tar.js';
import { MIGRATIONS } from '../migrations.js';
import { BACKUP_MANIFEST, BackupUnavailableError, restoreArchive, RestoreError, type BackupManifest } from './embedded-backup.js';
import { openStore, type Store } from './store.js';

/**
 * Issue 21: an archive of the embedded store taken while it is written holds every write
 * committed before the copy ended, with tables and indexes that check out, and restores only into
 * an empty folder, from an archive of ours that is whole.
 */
describe('embedded store › online backup', () => {
  let dir: string;
  let store: Store;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cl-backup-'));
    // Checkpoints as often as they can: a backup must hold them off, or the WAL it copies last is gone.
    store = await openStore({ migrations: MIGRATIONS, dataDir: join(dir, 'live'), checkpoint: { walBytes: 1, everyMs: 5 } });
    await sql`CREATE TABLE scratch (id int PRIMARY KEY, pad text NOT NULL, touched int NOT NULL DEFAULT 0)`.execute(store.db);
    await sql`CREATE INDEX scratch_pad ON scratch (pad)`.execute(store.db);
    await sql`INSERT INTO scratch (id, pad) SELECT g, repeat(md5(g::text), 10) FROM generate_series(1, 50000) g`.execute(store.db);
  });
  afterAll(async () => {
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Opens a restored PostgreSQL folder with amcheck, checks every B-tree index and answers what `read` reads. */
  const inspect = async <T>(pgDir: string, read: (db: PGlite) => Promise<T>): Promise<T> => {
    const db = await PGlite.create({ dataDir: pgDir, extensions: { amcheck } });
    try {
      await db.exec('CREATE EXTENSION IF NOT EXISTS amcheck');
      const { rows } = await db.query<{ index: string }>(
        `SELECT c.oid::regclass::text AS index FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
           JOIN pg_am a ON a.oid = c.relam WHERE a.amname = 'btree' AND c.relpersistence = 'p'`,
      );
      expect(rows.length).toBeGreaterThan(50);
      for (const { index } of rows) await db.query(`SELECT bt_index_check($1::regclass, true)`, [index]);
      return await read(db);
    } finally {
      await db.close();
    }
  };

  it('holds every write committed before it ended, taken while writers insert and update, with sound indexes', async () => {
    const backup = store.backup!;
    let next = 50_000;
    let acknowledged = 0;
    let writing = true;
    const writer = (async () => {
      while (writing) {
        const id = ++next;
        // One statement, one transaction: an archive holds both of its writes or neither.
        await sql`WITH inserted AS (INSERT INTO scratch (id, pad) VALUES (${id}, ${'w'.repeat(300)}))
          UPDATE scratch SET touched = touched + 1, pad = ${'u'.repeat(320)} WHERE id = ${id - 40_000}`.execute(store.db);
        acknowledged = id;
        // As requests come: from sockets, each in a turn of the event loop of its own.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const archive = join(dir, 'online.tar.gz');
    const stream = backup.archive({ describe: async () => ({ acknowledged }) });
    expect(backup.inProgress).toBe(true);
    expect(() => backup.archive()).toThrow(BackupUnavailableError);
    let ackedDuring = 0;
    const started = acknowledged;
    await pipeline(stream, createWriteStream(archive));
    ackedDuring = acknowledged - started;
    const ackedAtEnd = acknowledged;
    writing = false;
    await writer;
    expect(backup.inProgress).toBe(false);
    expect(ackedDuring).toBeGreaterThan(100);

    const target = join(dir, 'restored');
    let manifest: BackupManifest | undefined;
    const restored = await restoreArchive(createReadStream(archive), target, async (pgDir, m) => {
      manifest = m;
      const counts = await inspect(pgDir, async (db) => {
        const r = await db.query<{ n: number; max: number; touched: number }>(
          `SELECT count(*)::int AS n, max(id) AS max, count(*) FILTER (WHERE touched > 0)::int AS touched FROM scratch`,
        );
        return r.rows[0]!;
      });
      // No gap: ids are inserted in order, so every id up to the highest is there.
      expect(counts.n).toBe(counts.max);
      expect(counts.max).toBeGreaterThanOrEqual(ackedAtEnd - ackedDuring);
      expect(counts.max).toBeGreaterThanOrEqual((m.contents as { acknowledged: number }).acknowledged);
      expect(counts.touched).toBe(counts.max - 50_000);
    });
    expect(manifest?.format).toBe('consent-ledger-backup/1');
    expect(restored.dir).toBe(join(target, 'pglite'));
    expect(readdirSync(target)).toEqual(['pglite']);
    // The restored folder is a store the service opens (and migrates) as its own.
    const reopened = await openStore({ migrations: MIGRATIONS, dataDir: target });
    try {
      const n = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM scratch`.execute(reopened.db)).rows[0]!.n;
      expect(n).toBeGreaterThanOrEqual(ackedAtEnd - ackedDuring);
    } finally {
      await reopened.close();
    }
  }, 120_000);

  it('leaves backup mode when the reader goes away, so that the next backup is taken', async () => {
    const completed: BackupManifest[] = [];
    const stream = store.backup!.archive({ completed: (m) => completed.push(m) });
    await new Promise<void>((resolve) => stream.once('data', () => resolve()));
    stream.destroy();
    await new Promise((resolve) => stream.once('close', resolve));
    await expect.poll(() => store.backup!.inProgress, { timeout: 10_000 }).toBe(false);
    // An archive cut off has no manifest to tell; one read to its end tells the one it holds.
    expect(completed).toEqual([]);
    const again = join(dir, 'after-abort.tar.gz');
    await pipeline(store.backup!.archive({ completed: (m) => completed.push(m) }), createWriteStream(again));
    let held: BackupManifest | undefined;
    await restoreArchive(createReadStream(again), join(dir, 'after-abort'), async (_pgDir, m) => {
      held = m;
    });
    expect(completed).toEqual([held]);
    // A whole archive and its restore: as long as the first test's on a loaded machine.
  }, 120_000);

  describe('restore refuses, and leaves nothing behind', () => {
    const tarOf = (entries: { name: string; content?: string; type?: 'directory' }[]): Buffer =>
      gzipSync(
        Buffer.concat([
          ...entries.flatMap(({ name, content, type }) => {
            if (type) return [tarHeader({ name, type, size: 0, mode: 0o700, mtime: new Date() })];
            const body = Buffer.from(content ?? '');
            return [tarHeader({ name, type: 'file', size: body.length, mode: 0o600, mtime: new Date() }), body, tarPadding(body.length)];
          }),
          TAR_END,
        ]),
      );
    const manifest = JSON.stringify({ format: 'consent-ledger-backup/1', startLsn: '0/1', stopLsn: '0/2', contents: {} });
    const refused = async (archive: Buffer, message: RegExp) => {
      const target = mkdtempSync(join(dir, 'refused-'));
      await expect(restoreArchive(Readable.from([archive]), target, async () => undefined)).rejects.toThrow(message);
      await expect(restoreArchive(Readable.from([archive]), target, async () => undefined)).rejects.toBeInstanceOf(RestoreError);
      expect(readdirSync(target)).toEqual([]);
    };

    it('a path outside the store', async () => {
      await refused(tarOf([{ name: 'pglite/../../etc/cron.d/x', content: 'boom' }]), /outside a store's files/);
      await refused(tarOf([{ name: '/tmp/x', content: 'boom' }]), /outside a store's files/);
      await refused(tarOf([{ name: 'other/file', content: 'boom' }]), /outside a store's files/);
    });

    it('an archive without its manifest, of another format, or without its backup label', async () => {
      await refused(
        tarOf([
          { name: 'pglite', type: 'directory' },
          { name: 'pglite/PG_VERSION', content: '17\n' },
        ]),
        /no consent-ledger-backup.json/,
      );
      await refused(tarOf([{ name: BACKUP_MANIFEST, content: JSON.stringify({ format: 'other/9' }) }]), /format \(other\/9\)/);
      await refused(tarOf([{ name: BACKUP_MANIFEST, content: manifest }]), /no backup_label/);
    });

    it('a cut or garbled archive', async () => {
      const whole = tarOf([
        { name: 'pglite/base/big', content: 'x'.repeat(100_000) },
        { name: BACKUP_MANIFEST, content: manifest },
      ]);
      await refused(whole.subarray(0, whole.length - 20), /cannot be read/);
      await refused(Buffer.from('not an archive at all'), /cannot be read/);
    });

    it('a folder that holds a store already', async () => {
      const target = join(dir, 'occupied');
      mkdirSync(join(target, 'pglite'), { recursive: true });
      writeFileSync(join(target, 'pglite', 'PG_VERSION'), '17\n');
      const archive = tarOf([{ name: BACKUP_MANIFEST, content: manifest }]);
      await expect(restoreArchive(Readable.from([archive]), target, async () => undefined)).rejects.toThrow(/holds a store already/);
      expect(existsSync(join(target, 'pglite', 'PG_VERSION'))).toBe(true);
    });
  });
});
