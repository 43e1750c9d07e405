import { sql, type ColumnType, type Kysely } from 'kysely';
import type { Database } from './schema.js';
import { ROLE_NAME } from './role-name.js';

/**
 * The store had to be created, migrated or its read models rebuilt, and the database role the
 * service runs as may not (a role `db grant` made owns nothing and creates nothing): the store's
 * owner runs `db grant` first, which does it.
 */
export class StorePrivilegeError extends Error {
  override readonly name = 'StorePrivilegeError';
}

/** What the owner runs when a start needed DDL the role may not run. */
const grantFirst = (role: string) =>
  `run \`npx consent-ledger db grant --role ${role}\` with the store owner's DATABASE_URL, then start again`;

/**
 * Runs `ddl`; a refusal for want of privilege (PostgreSQL's insufficient_privilege, 42501)
 * becomes a StorePrivilegeError that says `what` had to be done and what the owner runs for it
 * (`remedy`, by default `db grant`). `conn` must still take a query afterwards (not the
 * transaction that failed).
 */
export async function ownerWork<T>(
  conn: Kysely<Database>,
  what: string,
  ddl: () => Promise<T>,
  remedy: (role: string) => string = grantFirst,
): Promise<T> {
  try {
    return await ddl();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== '42501') throw error;
    const role = (await sql<{ role: string }>`SELECT current_user AS role`.execute(conn)).rows[0]?.role ?? 'this role';
    throw new StorePrivilegeError(`${what}, and the database role ${role} may not: ${remedy(role)} (docs/verifying.md, Database roles)`);
  }
}

/** `control.service_roles` (migration 0013): the roles `db grant` gave the service's rights. */
export interface ServiceRolesTable {
  name: string;
  granted_at: ColumnType<Date, string | undefined, string>;
}
type RolesDatabase = { 'control.service_roles': ServiceRolesTable };
const rolesDb = (db: Kysely<Database>) => db.withTables<RolesDatabase>();

/** Schemas a store keeps (every one but the server's own). */
const storeSchemas = (db: Kysely<Database>) =>
  sql<{ name: string }>`
    SELECT nspname AS name FROM pg_namespace
    WHERE nspname NOT LIKE 'pg\\_%' AND nspname NOT IN ('information_schema', 'public')
    ORDER BY nspname`.execute(db);

/**
 * Tables the database itself keeps append-only: those whose triggers call `ledger.refuse_change`
 * (the ledger's events). A service role may read and insert them, never change them.
 */
const appendOnlyTables = (db: Kysely<Database>) =>
  sql<{ name: string }>`
    SELECT DISTINCT format('%I.%I', n.nspname, c.relname) AS name
    FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_proc p ON p.oid = t.tgfoid
    JOIN pg_namespace pn ON pn.oid = p.pronamespace
    WHERE p.proname = 'refuse_change' AND pn.nspname = 'ledger'`.execute(db);

/**
 * Grants `role` what the service needs on every table of the store as it now is, and no more:
 * reading and inserting the ledger's events (no UPDATE, DELETE or TRUNCATE: those would need the
 * table's owner, or a superuser), reading and writing the other tables (operator state, read
 * models, the key store, the transparency log). The role owns nothing and creates nothing, so it
 * cannot disable the ledger's triggers or drop a table. Run by the store's owner; run again after
 * a migration or a read-schema rebuild (the owner's `migrate` and `ensureReadSchema` do it for
 * every role recorded in `control.service_roles`, migration 0013).
 *
 * Raw SQL: GRANT and the catalogs have no Kysely builder, and identifiers here are checked
 * (ROLE_NAME) or formatted by the server (`format('%I')`).
 *
 * @example
 * await grantServiceRole(store.db, 'consent_ledger_service'); // then DATABASE_URL=postgres://consent_ledger_service@…
 */
export async function grantServiceRole(
  db: Kysely<Database>,
  role: string,
  options: { create?: boolean } = {},
): Promise<{ created: boolean }> {
  if (!ROLE_NAME.test(role)) throw new Error(`role: ${JSON.stringify(role)} is not a plain PostgreSQL name (${ROLE_NAME.source})`);
  const r = sql.id(role);
  return db.transaction().execute(async (tx) => {
    let created = false;
    if (options.create) {
      const found = await sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_roles WHERE rolname = ${role}`.execute(tx);
      if (found.rows[0]!.n === 0) {
        await sql`CREATE ROLE ${r} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS`.execute(tx);
        created = true;
      }
    }
    await rolesDb(tx)
      .insertInto('control.service_roles')
      .values({ name: role })
      .onConflict((oc) => oc.column('name').doUpdateSet({ granted_at: sql<string>`now()` }))
      .execute();
    await applyGrants(tx, role);
    return { created };
  });
}

async function applyGrants(db: Kysely<Database>, role: string): Promise<void> {
  const r = sql.id(role);
  const appendOnly = new Set((await appendOnlyTables(db)).rows.map((t) => t.name));
  for (const { name } of (await storeSchemas(db)).rows) {
    const schema = sql.id(name);
    await sql`GRANT USAGE ON SCHEMA ${schema} TO ${r}`.execute(db);
    await sql`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${r}`.execute(db);
    await sql`GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ${schema} TO ${r}`.execute(db);
  }
  for (const table of appendOnly) {
    await sql`REVOKE UPDATE, DELETE, TRUNCATE ON ${sql.raw(table)} FROM ${r}`.execute(db);
  }
}

/** Grants again, to every recorded service role, what the store's tables now are (after DDL by the owner). */
export async function regrantServiceRoles(db: Kysely<Database>): Promise<void> {
  const roles = await rolesDb(db).selectFrom('control.service_roles').select('name').orderBy('name').execute();
  for (const { name } of roles) await applyGrants(db, name);
}
