import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { PostgresLedger } from '../../src/ledger/postgres/postgres.ledger.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { openStore, type Store } from '../../src/store/store.js';
import { rebuildReadModels } from '../../projections/rebuild.js';
import { httpClient, waitUntil } from '../support/process.js';
import { parsePrometheus, valueOf } from '../support/prometheus.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * Where a fault scenario keeps its data: a data folder for the embedded store, or a fresh
 * database on the PostgreSQL server. `open()` opens the store in this process: on the embedded
 * store only while no service holds the folder (its lock file refuses a second process).
 */
export interface FaultEngine {
  name: 'embedded' | 'postgres';
  /** The service's settings for this store. */
  env: Record<string, string>;
  /** A store on the same data, in this process. */
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

export function embeddedEngine(): FaultEngine {
  const dataDir = mkdtempSync(join(tmpdir(), 'cl-faults-'));
  return {
    name: 'embedded',
    env: { DATA_DIR: dataDir },
    open: () => openStore({ migrations: MIGRATIONS, dataDir }),
    async dispose() {
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function postgresEngine(): Promise<FaultEngine> {
  const fresh = await freshDatabase();
  return {
    name: 'postgres',
    env: fresh.env,
    open: () => openStore({ migrations: MIGRATIONS, databaseUrl: fresh.url, maxConnections: 2 }),
    dispose: () => fresh.drop(),
  };
}

/** The engine a scenario runs on: the PostgreSQL server when DATABASE_URL is set, else embedded. */
export const defaultFaultEngine = (): Promise<FaultEngine> => (serverUrl ? postgresEngine() : Promise.resolve(embeddedEngine()));

/**
 * Waits until a service process's followers have handled every event (their lag in GET /metrics
 * is 0), so that row counts taken next do not move with a follower that is still behind.
 */
export async function followersCaughtUp(baseUrl: string, adminToken: string): Promise<void> {
  const admin = httpClient(baseUrl, { authorization: `Bearer ${adminToken}` });
  await waitUntil(
    async () => {
      const res = await admin.get('/metrics');
      if (res.status !== 200) throw new Error(`GET /metrics: ${res.status}`);
      const e = parsePrometheus(res.body as string);
      return ['projections', 'sealer', 'webhooks', 'expiry'].every(
        (f) => valueOf(e, 'consent_ledger_follower_lag_events', { follower: f }) === 0,
      );
    },
    { timeoutMs: 60_000, what: 'every follower to catch up' },
  );
}

/** Row counts of every table in the schemas a request can write to (the read models and the sealer's tables aside). */
export async function writableRowCounts(store: Store): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    SELECT table_schema || '.' || table_name AS name FROM information_schema.tables
    WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema', 'read', 'transparency')
      AND table_schema NOT LIKE 'pg_%'
    ORDER BY 1`.execute(store.db);
  const out: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const [schema, table] = name.split('.') as [string, string];
    const r = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.id(schema, table)}`.execute(store.db);
    out[name] = r.rows[0]!.n;
  }
  return out;
}

/** Every row of every read model (checkpoints and bookkeeping aside), as sorted JSON text per table. */
export async function readModelRows(store: Store): Promise<Record<string, string[]>> {
  const tables = await sql<{ name: string }>`
    SELECT table_name AS name FROM information_schema.tables
    WHERE table_schema = 'read' AND table_type = 'BASE TABLE' AND table_name NOT IN ('meta', 'checkpoints', 'projection_failures')
    ORDER BY 1`.execute(store.db);
  const out: Record<string, string[]> = {};
  for (const { name } of tables.rows) {
    const r = await sql<{ row: string }>`SELECT to_jsonb(t)::text AS row FROM ${sql.id('read', name)} t`.execute(store.db);
    out[name] = r.rows.map((x) => x.row).sort();
  }
  return out;
}

/**
 * Read models as the live service left them, then rebuilt from the ledger alone (the operator's
 * `projections rebuild`): answers both, and the tables whose rows differ. Run with the service stopped.
 */
export async function rebuildAndCompare(
  store: Store,
): Promise<{ live: Record<string, string[]>; rebuilt: Record<string, string[]>; differing: string[] }> {
  const live = await readModelRows(store);
  await rebuildReadModels(store, new PostgresLedger(store.db));
  const rebuilt = await readModelRows(store);
  const names = new Set([...Object.keys(live), ...Object.keys(rebuilt)]);
  const differing = [...names].filter((n) => JSON.stringify(live[n] ?? []) !== JSON.stringify(rebuilt[n] ?? []));
  return { live, rebuilt, differing };
}

export interface Figures {
  acknowledged: number;
  found: number;
  lost: number;
  duplicated: number;
  fiveHundreds: number;
  [more: string]: number | string;
}

/** One line per scenario, in the shape the issue asks for. */
export function printFigures(scenario: string, f: Figures): void {
  const { acknowledged, found, lost, duplicated, fiveHundreds, ...more } = f;
  const extra = Object.entries(more)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(
    `[faults] ${scenario}: acknowledged ${acknowledged}, found ${found}, lost ${lost}, duplicated ${duplicated}, 5xx ${fiveHundreds}${extra ? `; ${extra}` : ''}`,
  );
}
