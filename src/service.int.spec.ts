import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../test/support/process.js';
import { freshDatabase, serverUrl } from '../test/support/stores.js';
import type { Part } from './common/lifecycle.js';
import { loadSettings } from './config.js';
import { Follower } from './followers/follower.js';
import { FollowerHost } from './followers/host.js';
import { acquireDataDirLock } from './store/data-dir-lock.js';
import { createService } from './service.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

/** How many connections the PostgreSQL server holds to `database`. */
async function connectionsTo(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database]);
    return rows[0]!.n;
  } finally {
    await admin.end();
  }
}

const engines: { name: string; env: () => Promise<Record<string, string>>; closed: (env: Record<string, string>) => Promise<void> }[] = [
  {
    name: 'embedded (PGlite)',
    env: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'cl-start-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      return { DATA_DIR: dir };
    },
    // The store's lock is released (taken again without waiting), and another service opens the same folder.
    async closed(env) {
      (await acquireDataDirLock(env.DATA_DIR!, { waitMs: 0 })).release();
      const again = await createService(loadSettings({ ...env, LOG_LEVEL: 'silent' }));
      await again.close();
    },
  },
  ...(serverUrl
    ? [
        {
          name: 'PostgreSQL server',
          env: async () => {
            const fresh = await freshDatabase();
            cleanups.push(() => fresh.drop());
            return fresh.env;
          },
          // Every connection to the database is closed: the pools and the tenant-change listener.
          async closed(env: Record<string, string>) {
            const database = new URL(env.DATABASE_URL!).pathname.slice(1);
            await waitUntil(async () => (await connectionsTo(database)) === 0, {
              timeoutMs: 10_000,
              what: 'the connections of the failed start to close',
            });
          },
        },
      ]
    : []),
];

describe('service › when start-up fails part-way › what started is stopped, in reverse, and the store is closed', () => {
  for (const engine of engines) {
    it(`${engine.name}: the followers are stopped and the store answers no more`, async () => {
      const env: Record<string, string> = { ...(await engine.env()), MASTER_KEY: randomBytes(32).toString('hex') };
      const started: Part[] = [];
      const logged: unknown[] = [];
      const refused = new Error('the app cannot start');
      const starting = createService(loadSettings({ ...env, LOG_LEVEL: 'silent' }), {
        pollMs: 20,
        log: { warn: (o) => logged.push(o), error: (o) => logged.push(o) },
        beforeStart: (part) => {
          if (part.name === 'app') throw refused;
          started.push(part);
        },
      });
      await expect(starting).rejects.toBe(refused);
      expect(started.map((p) => p.name)).toEqual([
        'store',
        'privacy',
        'webhook dispatcher',
        'followers',
        'witness relay',
        'read-model check',
        ...(env.DATABASE_URL ? ['tenant changes'] : []),
        'deadlines',
        'webhook history pruner',
        'read statistics',
        'receipt renderer',
        'limiter',
      ]);
      const host = started.find((p) => p instanceof FollowerHost) as FollowerHost;
      const followers = host.followers.filter((f): f is Follower<unknown> => f instanceof Follower);
      expect(followers.map((f) => [f.name, f.started])).toEqual([
        ['projection runner', false],
        ['webhook subscription', false],
        ['transparency sealer', false],
      ]);
      // A follower asked for a batch now finds the store closed.
      await expect(followers[0]!.runOnce()).rejects.toThrow();
      await engine.closed(env);
      // No follower kept looping against the closed store, failing and logging.
      expect(logged).toEqual([]);
    });
  }
});

describe('service › when a key file the settings name does not read', () => {
  it.each(['MASTER_KEY_FILE', 'TRANSPARENCY_SIGNING_KEY_FILE'])(
    '%s: the start is refused, naming it, before the store or a key is made',
    async (setting) => {
      const dir = mkdtempSync(join(tmpdir(), 'cl-start-keyfile-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      const start = createService(loadSettings({ DATA_DIR: dir, [setting]: join(dir, 'missing.key'), LOG_LEVEL: 'silent' }));
      await expect(start).rejects.toThrow(`${setting}: cannot read`);
      expect(readdirSync(dir)).toEqual([]);
    },
  );
});
