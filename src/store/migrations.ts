import { sql, type Kysely, type Migration } from 'kysely';
import { ownerWork, regrantServiceRoles } from './roles.js';
import type { Database } from './schema.js';

export type { Migration };

/**
 * Named migrations, in the shape Kysely's `Migrator` takes (`{ [name]: { up(db) } }`). Each
 * feature declares its own in `<feature>.migrations.ts`; the composition root merges them with
 * `collectMigrations` (src/migrations.ts) and hands them to `openStore`.
 */
export type Migrations = Readonly<Record<string, Migration>>;

/**
 * A migration that runs one SQL text (several statements allowed). Released migrations are kept
 * as the SQL they ran, so that every store, old or new, ends with the same schema.
 *
 * @example
 * export const notesMigrations: Migrations = { '0010_notes': sqlMigration(`CREATE TABLE notes.notes (id uuid PRIMARY KEY)`) };
 */
export const sqlMigration = (text: string): Migration => ({
  async up(db) {
    await sql.raw(text).execute(db);
  },
});

/**
 * One list from several features' migrations, in name order: the one order every store applies
 * them in. Names start with a number (`0010_…`), so a new migration takes the next one, whichever
 * feature it belongs to. A name given twice is refused.
 *
 * @example
 * const all = collectMigrations(ledgerMigrations, controlMigrations); // { '0001_ledger': …, '0002_control': … }
 */
export function collectMigrations(...sets: Migrations[]): Migrations {
  const all = new Map<string, Migration>();
  for (const set of sets) {
    for (const [name, migration] of Object.entries(set)) {
      if (all.has(name)) throw new Error(`migration ${name} is declared twice`);
      all.set(name, migration);
    }
  }
  return Object.fromEntries([...all].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const LOCK_KEY = 7_412_003_001;

/**
 * Brings the store up to date: applies, in name order, each migration not recorded in
 * `control.migrations` yet, each in a transaction with its name, all under an advisory lock so
 * that several processes starting together migrate once. Answers the names it applied.
 * Applied migrations only move forward: a name recorded here is never run again.
 *
 * @example
 * await migrate(db, collectMigrations(ledgerMigrations, controlMigrations)); // ['0001_ledger', '0002_control'] on a new store
 */
export async function migrate(db: Kysely<Database>, migrations: Migrations): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    // A session-level advisory lock: Kysely has no builder for it.
    await sql`SELECT pg_advisory_lock(${LOCK_KEY})`.execute(conn);
    try {
      // Only when missing: a service role that may not create (src/store/roles.ts) starts on a
      // store whose migrations the owner applied, and runs no DDL at all.
      const known = await sql<{ found: boolean }>`SELECT to_regclass('control.migrations') IS NOT NULL AS found`.execute(conn);
      const what = known.rows[0]?.found
        ? 'the store must be migrated to this version'
        : 'the store must be created (this database has none yet)';
      return await ownerWork(conn, what, () => applyMigrations(conn, migrations, known.rows[0]?.found === true));
    } finally {
      await sql`SELECT pg_advisory_unlock(${LOCK_KEY})`.execute(conn);
    }
  });
}

/** `migrate`'s work, under its lock: the table of applied names when missing, then each migration not applied yet. */
async function applyMigrations(conn: Kysely<Database>, migrations: Migrations, known: boolean): Promise<string[]> {
  if (!known) {
    await conn.schema.createSchema('control').ifNotExists().execute();
    await conn.schema
      .createTable('control.migrations')
      .ifNotExists()
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('applied_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
  }
  const done = await conn.selectFrom('control.migrations').select('name').execute();
  const applied = new Set(done.map((r) => r.name));
  const ran: string[] = [];
  for (const [name, migration] of Object.entries(collectMigrations(migrations))) {
    if (applied.has(name)) continue;
    await conn.transaction().execute(async (tx) => {
      await migration.up(tx);
      await tx.insertInto('control.migrations').values({ name }).execute();
    });
    ran.push(name);
  }
  // New tables reach the service roles the owner granted before.
  if (ran.length > 0) await regrantServiceRoles(conn);
  return ran;
}
