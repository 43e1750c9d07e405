import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { LEGACY_MIGRATIONS, legacyMigrate } from '../../test/fixtures/legacy-migrations.js';
import { freshDatabase, serverUrl } from '../../test/support/stores.js';
import { MIGRATIONS } from '../migrations.js';
import { collectMigrations, migrate, sqlMigration } from './migrations.js';
import { PGlitePool } from './pglite-pool.js';
import type { Database } from './schema.js';
import { openStore, type Store, type StoreOptions } from './store.js';

/** What the migrations make: schemas, columns, indexes, constraints, triggers, functions, and the names recorded. */
async function schemaDump(db: Kysely<Database>) {
  const rows = async (text: string) => (await sql.raw<Record<string, unknown>>(text).execute(db)).rows;
  // The user's schemas only: not the catalog's, nor pg_toast, pg_temp_….
  const where = (column: string) => `${column} NOT IN ('pg_catalog', 'information_schema') AND ${column} NOT LIKE 'pg\\_%'`;
  return {
    schemas: await rows(`SELECT nspname FROM pg_namespace WHERE ${where('nspname')} ORDER BY 1`),
    columns: await rows(`
      SELECT table_schema, table_name, column_name, ordinal_position, data_type, udt_name, is_nullable, column_default,
             is_identity, identity_generation, identity_start, identity_increment
      FROM information_schema.columns WHERE ${where('table_schema')} ORDER BY 1, 2, 4`),
    indexes: await rows(`SELECT schemaname, tablename, indexname, indexdef FROM pg_indexes WHERE ${where('schemaname')} ORDER BY 1, 2, 3`),
    constraints: await rows(`
      SELECT n.nspname, c.conrelid::regclass::text AS rel, c.conname, c.contype, pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE ${where('n.nspname')} ORDER BY 1, 2, 3`),
    triggers: await rows(`
      SELECT t.tgrelid::regclass::text AS rel, t.tgname, pg_get_triggerdef(t.oid) AS def
      FROM pg_trigger t WHERE NOT t.tgisinternal ORDER BY 1, 2`),
    functions: await rows(`
      SELECT n.nspname, p.proname, pg_get_functiondef(p.oid) AS def
      FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE ${where('n.nspname')} ORDER BY 1, 2`),
    migrations: (await db.selectFrom('control.migrations').select('name').orderBy('name').execute()).map((r) => r.name),
  };
}

/** Every name recorded and when: a migration run again would add a name or fail on its CREATE. */
const recorded = (db: Kysely<Database>) => db.selectFrom('control.migrations').selectAll().orderBy('name').execute();

/** A database as an earlier version left it, opened without openStore (which would migrate it). */
interface LegacyDatabase {
  /** Migrates it with the old list and migrator (the first `count` migrations), then closes it. */
  migrateWithOldCode(count?: number): Promise<{ dump: Awaited<ReturnType<typeof schemaDump>>; recorded: unknown[] }>;
  storeOptions: Omit<StoreOptions, 'migrations'>;
  dispose(): Promise<void>;
}

const engines: { name: string; create(): Promise<LegacyDatabase> }[] = [
  {
    name: 'pglite',
    async create() {
      const dir = mkdtempSync(join(tmpdir(), 'cl-migrations-'));
      return {
        async migrateWithOldCode(count) {
          const pglite = await PGlite.create({ dataDir: join(dir, 'pglite') });
          const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
          try {
            await legacyMigrate(db, count);
            return { dump: await schemaDump(db), recorded: await recorded(db) };
          } finally {
            await db.destroy();
            await pglite.close();
          }
        },
        storeOptions: { dataDir: dir },
        dispose: async () => rmSync(dir, { recursive: true, force: true }),
      };
    },
  },
  ...(serverUrl
    ? [
        {
          name: 'postgres',
          async create(): Promise<LegacyDatabase> {
            const fresh = await freshDatabase();
            return {
              async migrateWithOldCode(count) {
                const db = new Kysely<Database>({
                  dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: fresh.url, max: 2 }) }),
                });
                try {
                  await legacyMigrate(db, count);
                  return { dump: await schemaDump(db), recorded: await recorded(db) };
                } finally {
                  await db.destroy();
                }
              },
              storeOptions: { databaseUrl: fresh.url },
              dispose: () => fresh.drop(),
            };
          },
        },
      ]
    : []),
];

/** Migrations declared since the one-list migrator: a store it left gets these, and only these. */
const NEWER = Object.keys(MIGRATIONS).slice(LEGACY_MIGRATIONS.length);

describe('migrations › every feature declares its own, applied in one order', () => {
  it('keeps the names, and the order, of the one list they came from, and adds later ones after them', () => {
    expect(Object.keys(MIGRATIONS).slice(0, LEGACY_MIGRATIONS.length)).toEqual(LEGACY_MIGRATIONS.map((m) => m.name));
    expect(NEWER.length).toBeGreaterThan(0);
  });

  it('refuses a name declared twice, and orders the rest by name whatever the feature', () => {
    const a = sqlMigration('SELECT 1');
    expect(() => collectMigrations({ '0002_b': a }, { '0002_b': a })).toThrow(/0002_b is declared twice/);
    expect(Object.keys(collectMigrations({ '0003_c': a, '0001_a': a }, { '0002_b': a }))).toEqual(['0001_a', '0002_b', '0003_c']);
  });

  it('refuses to open a store with no migrations', async () => {
    await expect(openStore({ dataDir: 'memory://', migrations: {} })).rejects.toThrow(/no migrations given/);
  });
});

for (const engine of engines) {
  describe(`migrations › ${engine.name} › a store migrated by the earlier one-list migrator`, () => {
    const made: LegacyDatabase[] = [];
    const stores: Store[] = [];
    const create = async () => {
      const legacy = await engine.create();
      made.push(legacy);
      return legacy;
    };
    const open = async (options: Omit<StoreOptions, 'migrations'>) => {
      const store = await openStore({ ...options, migrations: MIGRATIONS });
      stores.push(store);
      return store;
    };
    afterAll(async () => {
      for (const s of stores.splice(0)) await s.close().catch(() => undefined);
      for (const m of made.splice(0)) await m.dispose();
    });

    it('is recognised as up to date: only the newer migrations run, once', { timeout: 60_000 }, async () => {
      const legacy = await create();
      const before = await legacy.migrateWithOldCode();
      expect(before.dump.migrations).toEqual(LEGACY_MIGRATIONS.map((m) => m.name));

      const store = await open(legacy.storeOptions);
      const after = await recorded(store.db);
      expect(after.slice(0, before.recorded.length)).toEqual(before.recorded);
      expect(after.slice(before.recorded.length).map((r) => r.name)).toEqual(NEWER);
      expect(await migrate(store.db, MIGRATIONS)).toEqual([]);
    });

    it('gets only the migrations it lacks, from an earlier version', { timeout: 60_000 }, async () => {
      const legacy = await create();
      const before = await legacy.migrateWithOldCode(LEGACY_MIGRATIONS.length - 1);
      const store = await open(legacy.storeOptions);
      const after = await recorded(store.db);
      expect(after.slice(0, before.recorded.length)).toEqual(before.recorded);
      expect(after.map((r) => r.name).slice(before.recorded.length)).toEqual(['0009_webhook_secrets_wrapped', ...NEWER]);
    });

    it('is the same schema, column for column, as a new store gets', { timeout: 60_000 }, async () => {
      const legacy = await create();
      await legacy.migrateWithOldCode();
      const old = await schemaDump((await open(legacy.storeOptions)).db);
      const fresh = await create();
      const store = await open(fresh.storeOptions);
      const now = await schemaDump(store.db);
      // Not vacuous: the ledger's columns, its two append-only triggers and the webhook secrets' column are there.
      expect(now.columns).toContainEqual(
        expect.objectContaining({ table_schema: 'ledger', table_name: 'events', column_name: 'transaction_id' }),
      );
      expect(now.triggers.map((t) => t.tgname)).toEqual(expect.arrayContaining(['events_refuse_truncate', 'events_refuse_update_delete']));
      expect(now.columns).toContainEqual(expect.objectContaining({ table_name: 'endpoints', column_name: 'secret_wrapped' }));
      expect(now).toEqual(old);
    });
  });
}
