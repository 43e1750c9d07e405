import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../migrations.js';
import { makeStoreTemplate, openStore, type Store, type StoreOptions } from './store.js';
import { pgliteVersion, storeTemplate, writeStoreTemplate, type StoreTemplateInfo } from './store-template.js';
import { freshDatabase, serverUrl } from '../../test/support/stores.js';

// Each test makes a template and opens stores with initdb, about 4 s each and more beside another
// file: one of them took over 30 s in CI.
describe('embedded store › when a new store starts › it starts from the build’s migrated template when one fits', () => {
  /**
   * A template made as the build makes it, in a folder of the test's own: its files, and its
   * cluster's identity as a store in memory started from it has it.
   */
  const makeTemplate = async (folder: string): Promise<{ id: string; files: Buffer }> => {
    await makeStoreTemplate(folder, MIGRATIONS);
    return {
      id: await opened({ dataDir: 'memory://', templateFolder: folder }, systemId),
      files: readFileSync(join(folder, 'store-template.tar')),
    };
  };
  /** The cluster's identity, which initdb draws anew and a template's files carry along. */
  const systemId = async (store: Store): Promise<string> =>
    (await sql<{ id: string }>`SELECT system_identifier::text AS id FROM pg_control_system()`.execute(store.db)).rows[0]!.id;
  /** Runs `body` with a folder of its own holding a fresh template, removed afterwards. */
  const withTemplate = async (body: (root: string, template: { id: string; files: Buffer }) => Promise<void>): Promise<void> => {
    const root = mkdtempSync(join(tmpdir(), 'cl-store-template-'));
    try {
      await body(root, await makeTemplate(root));
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  };
  const opened = async <T>(options: Partial<StoreOptions>, use: (store: Store) => Promise<T>): Promise<T> => {
    const store = await openStore({ migrations: MIGRATIONS, ...options });
    try {
      return await use(store);
    } finally {
      await store.close();
    }
  };

  it('a new folder takes the template’s cluster, every migration applied, and later opens keep it', { timeout: 120_000 }, () =>
    withTemplate(async (root, { id: template }) => {
      const dataDir = join(root, 'data');
      const first = await opened({ dataDir, templateFolder: root }, async (store) => {
        await sql`CREATE TABLE public.kept (v text)`.execute(store.db);
        await sql`INSERT INTO public.kept VALUES ('written')`.execute(store.db);
        const applied = await sql<{ n: number }>`SELECT count(*)::int AS n FROM control.migrations`.execute(store.db);
        return { id: await systemId(store), applied: applied.rows[0]!.n };
      });
      expect(first).toEqual({ id: template, applied: Object.keys(MIGRATIONS).length });
      expect(readdirSync(dataDir).sort()).toEqual(['consent-ledger.lock', 'pglite']);
      // Opened again, it is the same store: the template only makes new ones.
      await opened({ dataDir, templateFolder: root }, async (store) => {
        expect((await sql<{ v: string }>`SELECT v FROM public.kept`.execute(store.db)).rows).toEqual([{ v: 'written' }]);
      });
    }),
  );

  it(
    'runs initdb instead when the template was made by another PGlite, holds a migration the store was not given, or is not wanted',
    { timeout: 120_000 },
    () =>
      withTemplate(async (root, { id: template, files }) => {
        const made: StoreTemplateInfo = { pglite: pgliteVersion(), migrations: Object.keys(MIGRATIONS) };
        const { migrations } = made;
        // Which template a new store takes is storeTemplate's answer; each refusal is checked there,
        // and one start without a template runs initdb (about 10 s each on a slow machine).
        for (const info of [{ pglite: '0.0.1' }, { migrations: [...made.migrations, '9999_from_a_newer_version'] }]) {
          writeStoreTemplate(root, files, { ...made, ...info });
          expect(storeTemplate(migrations, root), JSON.stringify(info)).toBeUndefined();
        }
        writeStoreTemplate(root, files, made);
        expect(storeTemplate(migrations, root)).toBeDefined();
        expect(storeTemplate(migrations.slice(0, -1), root), 'a migration the store was not given').toBeUndefined();
        // No template at all: initdb, as before there was one.
        expect(storeTemplate(migrations, join(root, 'nowhere'))).toBeUndefined();
        expect(await opened({ dataDir: join(root, 'unwanted'), templateFolder: root, template: false }, systemId)).not.toBe(template);
      }),
  );

  it('a first start killed while it made the cluster left pglite.new behind: the next start makes it again', { timeout: 120_000 }, () =>
    withTemplate(async (root, { id: template }) => {
      const dataDir = join(root, 'data');
      mkdirSync(join(dataDir, 'pglite.new', 'base'), { recursive: true });
      writeFileSync(join(dataDir, 'pglite.new', 'PG_VERSION'), 'half');
      expect(await opened({ dataDir, templateFolder: root }, systemId)).toBe(template);
      expect(readdirSync(dataDir).sort()).toEqual(['consent-ledger.lock', 'pglite']);
    }),
  );
});

describe.skipIf(!serverUrl)('server store › a connection the server terminates', () => {
  it('is not handed to the next query: that query runs on a new connection', async () => {
    const fresh = await freshDatabase();
    const store = await openStore({ databaseUrl: fresh.url, maxConnections: 1, migrations: MIGRATIONS });
    try {
      const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(store.db)).rows[0]!.pid;
      // The only connection is cut by the server while its query runs.
      const cut = sql`SELECT pg_terminate_backend(pg_backend_pid())`.execute(store.db);
      await expect(cut).rejects.toThrow(/terminat/);
      const next = await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(store.db);
      expect(next.rows[0]!.pid).not.toBe(pid);
    } finally {
      await store.close();
      await fresh.drop();
    }
  });
});
