import { sql, type Kysely } from 'kysely';
import type { LedgerPosition } from '../ledger/ledger.port.js';
import type { Database } from '../store/schema.js';

/**
 * The store state that is not in the ledger and cannot be rebuilt from it, copied with a ledger
 * (`ledger copy`, docs/scaling.md): consent events carry personal fields sealed under data keys
 * that live here, and the keys that let tenants in, the transparency log already published, the
 * webhooks and their delivery history, and the receipts issued live here too.
 *
 * Read models (schema `read`) are not copied: the destination's service rebuilds them from the
 * ledger on its first start, as `projections rebuild` does.
 *
 * Ledger positions kept in this state (where a webhook starts, the webhook subscription's and the
 * sealer's checkpoints) name positions of the source ledger; they are translated to the
 * destination's (the position of the same event there).
 */
export interface StateTable {
  table: string;
  /** Pairs of (commit, prepare) columns holding a ledger position (null: none, left as it is). */
  positions?: readonly (readonly [string, string])[];
}

/** In an order that satisfies the foreign keys (a table after the ones it references). */
export const STATE_TABLES: readonly StateTable[] = [
  { table: 'control.tenants' },
  { table: 'control.api_keys' },
  { table: 'privacy.secrets' },
  { table: 'privacy.data_keys' },
  { table: 'webhooks.endpoints', positions: [['from_commit', 'from_prepare']] },
  { table: 'webhooks.deliveries' },
  { table: 'webhooks.attempts' },
  { table: 'webhooks.checkpoints', positions: [['commit_position', 'prepare_position']] },
  {
    table: 'webhooks.windows',
    positions: [
      ['from_commit', 'from_prepare'],
      ['until_commit', 'until_prepare'],
    ],
  },
  { table: 'receipts.receipts' },
  { table: 'receipts.publicly_verifiable' },
  { table: 'transparency.signing_keys' },
  { table: 'transparency.key_history' },
  { table: 'transparency.key_tree_sizes' },
  { table: 'transparency.trees' },
  { table: 'transparency.nodes' },
  { table: 'transparency.leaves' },
  { table: 'transparency.checkpoints' },
  { table: 'transparency.sealer', positions: [['commit_position', 'prepare_position']] },
  { table: 'transparency.halts', positions: [['commit_position', 'prepare_position']] },
  { table: 'transparency.cosignatures' },
  { table: 'transparency.witness_state' },
];

/** Tables deliberately not copied, and why. Any other table makes the copy refuse (it may be state). */
export const NOT_COPIED: Readonly<Record<string, string>> = {
  'ledger.events': 'the ledger: copied event by event through the Ledger port',
  'control.migrations': 'each store applies its own migrations when it opens',
  'control.service_roles': "roles belong to a PostgreSQL server: run db grant on the destination's",
  'control.console_sessions': 'console sign-ins last hours: after a move, officers sign in again',
  'control.backups': "the source's backups are of the source: the destination's age metric starts with its own",
  'transparency.held':
    "a stopped tenant's events held for the sealer, at the source's positions: clear every halt (docs/verifying.md) before copying",
  'transparency.key_chain_start':
    "recorded by the destination's service on its first start (insert-once); the copied retired keys keep their successors' signatures",
  'control.config_adopted':
    'insert-once: marked at the destination after the state tables when the source is, so that no row the source refused is adopted there',
  'webhooks.deliveries_sealed':
    'insert-once: marked at the destination after the state tables when the source is, so that no delivery row the source refused is sealed there',
  'ledger.authenticated_from':
    "recorded by the copy at the destination's head once the state is copied: the copied events were verified against the source, whose copied checkpoints cover them",
};
/** One-row marks of what an upgrade did once (src/store/once.ts): carried after the state tables. */
const ONCE_MARKERS = ['control.config_adopted', 'webhooks.deliveries_sealed'];

/** Schemas rebuilt from the ledger, never copied. */
export const REBUILT_SCHEMAS = ['read'];

const SYSTEM_SCHEMAS = ['pg_catalog', 'information_schema', 'pg_toast'];

/** Rows read per round trip; receipts hold PDFs, so keep it modest. */
const PAGE = 200;

/** The part of PostgreSQL's `information_schema.tables` read here. */
type InformationSchema = {
  'information_schema.tables': { table_schema: string; table_name: string; table_type: string };
};

/** Every table of a store, as `schema.table`. */
export async function listTables(db: Kysely<Database>): Promise<string[]> {
  const rows = await db
    .withTables<InformationSchema>()
    .selectFrom('information_schema.tables')
    .select(sql<string>`table_schema || '.' || table_name`.as('name'))
    .where('table_type', '=', 'BASE TABLE')
    .where('table_schema', 'not in', SYSTEM_SCHEMAS)
    .where('table_schema', 'not like', 'pg_temp%')
    .orderBy('name')
    .execute();
  return rows.map((row) => row.name);
}

/** Tables of the source that the copy neither copies nor knows to leave: it refuses them. */
export async function unknownTables(db: Kysely<Database>): Promise<string[]> {
  const known = new Set([...STATE_TABLES.map((t) => t.table), ...Object.keys(NOT_COPIED)]);
  return (await listTables(db)).filter((t) => !known.has(t) && !REBUILT_SCHEMAS.includes(t.split('.')[0]!));
}

const ident = (table: string) => sql.id(...(table.split('.') as [string, string]));

/** Every ledger position the source's state names (to give `verifyCopy`, which translates them). */
export async function statePositions(db: Kysely<Database>): Promise<LedgerPosition[]> {
  const out: LedgerPosition[] = [];
  for (const t of STATE_TABLES) {
    for (const [c, p] of t.positions ?? []) {
      // Tables and columns named at run time, from STATE_TABLES: no table type to check them against.
      const r = await sql<{
        c: string | number;
        p: string | number;
      }>`SELECT DISTINCT ${sql.ref(c)} AS c, ${sql.ref(p)} AS p FROM ${ident(t.table)} WHERE ${sql.ref(c)} IS NOT NULL`.execute(db);
      for (const row of r.rows) out.push({ commit: Number(row.c), prepare: Number(row.p) });
    }
  }
  return out;
}

export class StateCopyError extends Error {
  override readonly name = 'StateCopyError';
}

/**
 * Makes the destination's state tables equal to the source's, in one destination transaction:
 * they are emptied, then filled with the source's rows (so a key destroyed by an erasure since an
 * earlier copy is gone at the destination too), positions translated. Values travel as
 * PostgreSQL's own JSON of the rows (`row_to_json` → `json_populate_recordset`), so bytes,
 * arrays, times and JSON keep their exact values between PGlite and a server.
 *
 * @example
 * const check = await verifyCopy(source, destination, { positions: await statePositions(from.db) });
 * await copyState(from.db, to.db, check.translate);
 */
export async function copyState(
  from: Kysely<Database>,
  to: Kysely<Database>,
  translate: (p: LedgerPosition) => LedgerPosition,
  onTable?: (table: string, rows: number) => void,
): Promise<Record<string, number>> {
  const unknown = await unknownTables(from);
  if (unknown.length > 0) {
    throw new StateCopyError(
      `the source store has tables this copy does not know (${unknown.join(', ')}): it cannot tell whether they are state; update the copy (src/cli/state-copy.ts)`,
    );
  }
  const counts: Record<string, number> = {};
  // Raw SQL below: TRUNCATE, cursors and json_populate_recordset over tables named at run time
  // have no Kysely builder.
  await to.transaction().execute(async (tx) => {
    await sql`TRUNCATE ${sql.join(STATE_TABLES.map((t) => ident(t.table)))}`.execute(tx);
    for (const t of STATE_TABLES) {
      let copied = 0;
      await from.transaction().execute(async (stx) => {
        // A cursor: one pass over the table, whatever its size, without OFFSET.
        await sql`DECLARE state_copy NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${ident(t.table)} AS t`.execute(stx);
        for (;;) {
          const page = await sql<{ j: string }>`FETCH ${sql.raw(String(PAGE))} FROM state_copy`.execute(stx);
          if (page.rows.length === 0) break;
          const rows = page.rows.map((r) => {
            const row = JSON.parse(r.j) as Record<string, unknown>;
            for (const [c, p] of t.positions ?? []) {
              if (row[c] === null || row[c] === undefined) continue;
              const to = translate({ commit: Number(row[c]), prepare: Number(row[p]) });
              row[c] = to.commit;
              row[p] = to.prepare;
            }
            return row;
          });
          await sql`INSERT INTO ${ident(t.table)} SELECT * FROM json_populate_recordset(NULL::${ident(t.table)}, ${JSON.stringify(rows)}::json)`.execute(
            tx,
          );
          copied += rows.length;
        }
        await sql`CLOSE state_copy`.execute(stx);
      });
      counts[t.table] = copied;
      onTable?.(t.table, copied);
    }
    // Whether the source vouched, once, for the rows an older version left (src/store/once.ts): marked
    // at the destination too, whose first start then vouches for nothing the source refused.
    // Insert-once: added, never truncated.
    for (const marker of ONCE_MARKERS) {
      if ((await sql`SELECT 1 AS one FROM ${ident(marker)}`.execute(from)).rows.length > 0)
        await sql`INSERT INTO ${ident(marker)} DEFAULT VALUES ON CONFLICT (only_row) DO NOTHING`.execute(tx);
    }
  });
  return counts;
}
