import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { MIGRATIONS } from '../../src/migrations.js';
import { makeStoreTemplate, openStore, type Store } from '../../src/store/store.js';
import { oncePerRun, runStamp } from './once-per-run.js';

/** The PostgreSQL server tests use, or undefined when none is configured. */
export const serverUrl = process.env.DATABASE_URL;

/**
 * A fresh, empty database on the PostgreSQL server, for one test file. Returns its URL and a
 * function that drops it.
 */
export async function freshDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!serverUrl) throw new Error('DATABASE_URL is not set');
  const name = `cl_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestStore {
  name: 'pglite' | 'postgres';
  store: Store;
  /** Closes the store and drops its database. */
  dispose(): Promise<void>;
}

/** An embedded store in memory, started from the run's migrated template. */
export async function pgliteStore(): Promise<TestStore> {
  const store = await openStore({ migrations: MIGRATIONS, dataDir: 'memory://', templateFolder: await migratedTemplate() });
  return { name: 'pglite', store, dispose: () => store.close() };
}

let template: Promise<string> | undefined;

/**
 * A folder holding a store template (src/store/store-template.ts) of these sources' migrations,
 * made once per run in the temporary folder (test/global-setup.ts removes it): dist/'s may be of
 * older sources, and a store started from it would run the newer migrations each time.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const folder = join(tmpdir(), `cl-pglite-template-${runStamp() ?? process.pid}`);
    await oncePerRun(
      'pglite-template',
      () => existsSync(join(folder, 'store-template.json')),
      async () => {
        mkdirSync(folder, { recursive: true });
        await makeStoreTemplate(folder, MIGRATIONS);
      },
    );
    return folder;
  })();
  return template;
}

/** A store on a fresh database of the PostgreSQL server. */
export async function postgresStore(): Promise<TestStore> {
  const fresh = await freshDatabase();
  const store = await openStore({ migrations: MIGRATIONS, databaseUrl: fresh.url });
  return {
    name: 'postgres',
    store,
    async dispose() {
      await store.close();
      await fresh.drop();
    },
  };
}

/** Every engine available here: PGlite always, the PostgreSQL server when DATABASE_URL is set. */
export const availableEngines: { name: 'pglite' | 'postgres'; open: () => Promise<TestStore> }[] = [
  { name: 'pglite', open: pgliteStore },
  ...(serverUrl ? [{ name: 'postgres' as const, open: postgresStore }] : []),
];

/** The engine the HTTP and projection tests use: the server when set, else PGlite. */
export const defaultEngine = serverUrl ? postgresStore : pgliteStore;
