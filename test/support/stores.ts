import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { MIGRATIONS } from '../../src/migrations.js';
import { openStore, type Store } from '../../src/store/store.js';
import { testKeysDir } from './process.js';

/** The PostgreSQL server tests use, or undefined when none is configured. */
export const serverUrl = process.env.DATABASE_URL;

/**
 * A fresh, empty database on the PostgreSQL server, for one test file. Returns its URL, the
 * settings that put a service or command on it (`env`: with the key files' DATA_DIR in
 * `testKeysDir()`, never the checkout's ./data), and a function that drops it.
 */
export async function freshDatabase(): Promise<{
  url: string;
  env: { DATABASE_URL: string; DATA_DIR: string };
  drop: () => Promise<void>;
}> {
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
    env: { DATABASE_URL: url.toString(), DATA_DIR: testKeysDir() },
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** `url` connecting as `role` instead of its own user: how a service or command runs as a role `db grant` made. */
export function connectingAs(url: string, role: string): string {
  const u = new URL(url);
  u.username = role;
  return u.toString();
}

/**
 * Drops a role of the PostgreSQL server, once the databases it was granted rights in are dropped
 * (the grants go with them; the role itself belongs to the server).
 */
export async function dropServerRole(role: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
  } finally {
    await admin.end();
  }
}

export interface TestStore {
  name: 'pglite' | 'postgres';
  store: Store;
  /** Closes the store and drops its database. */
  dispose(): Promise<void>;
}

/**
 * An embedded store in memory. It starts from dist/'s store template, as the product's new stores
 * do: test/global-setup.ts built dist/ from these sources before any file that opens one ran.
 */
export async function pgliteStore(): Promise<TestStore> {
  const store = await openStore({ migrations: MIGRATIONS, dataDir: 'memory://' });
  return { name: 'pglite', store, dispose: () => store.close() };
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

/**
 * How many tables the database at `url` holds outside PostgreSQL's own catalogs: 0 for one that
 * nothing has written to (a command refused before it migrated anything).
 *
 * @example
 * expect(await tablesIn(fresh.url)).toBe(0);
 */
export async function tablesIn(url: string): Promise<number> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    return rows[0]!.n;
  } finally {
    await db.end();
  }
}
