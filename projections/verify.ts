import { createHash } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { comparePositions, type Ledger, type LedgerPosition, type RecordedEvent } from '../src/ledger/ledger.port.js';
import type { Log } from '../src/common/log.js';
import type { Projector } from '../src/followers/projector.js';
import type { Database } from '../src/store/schema.js';
import { allProjectors } from './index.js';
import { ensureReadSchema, READ_SCHEMA_VERSION, readSchemaState } from './read-schema.js';
import { ProjectionRunner } from './runner.js';

/** One read-model row that is not what the ledger gives. */
export interface RowDifference {
  /** missing: the ledger gives the row, the live read model lacks it; extra: the reverse; changed: both have it, with other values. */
  kind: 'missing' | 'extra' | 'changed';
  /** The row's primary key, column by column. */
  key: Record<string, string>;
  /** changed: the columns whose values differ, with the value the ledger gives and the live one. */
  columns?: { column: string; ledger: unknown; live: unknown }[];
}

export interface TableDrift {
  table: string;
  missing: number;
  extra: number;
  changed: number;
  /** The first differences found (at most 20 per table). */
  examples: RowDifference[];
}

export interface VerifyResult {
  /** Whether every read-model row is what a replay of the ledger gives. */
  consistent: boolean;
  /** Ledger events replayed. */
  events: number;
  /** The ledger position the comparison holds for. */
  position: LedgerPosition | null;
  tables: { table: string; rows: number }[];
  drift: TableDrift[];
  seconds: number;
  verifiedAt: string;
}

/** Rows read per query: each query is short, so a running service is not held up. */
const PAGE = 5_000;
const EXAMPLES = 20;
/** Rounds of re-checking rows that differ while the live read models move on. */
const SETTLE_ROUNDS = 5;

/** A ledger that ends at `bound`: the scratch replay stops where the live read models were. */
function boundedLedger(ledger: Ledger, bound: () => LedgerPosition | null): Pick<Ledger, 'readAll' | 'headPosition'> {
  return {
    async readAll(after, limit): Promise<RecordedEvent[]> {
      const end = bound();
      if (end === null) return [];
      const events = await ledger.readAll(after, limit);
      return events.filter((e) => comparePositions(e.position, end) <= 0);
    },
    async headPosition() {
      return bound();
    },
  };
}

interface TableShape {
  table: string;
  keys: { name: string; type: string }[];
  /** A counter table (its one other column is `count`): a counter at zero is the same as none. */
  counter: boolean;
}

/** The read tables a projector writes (not the runner's own), and their primary keys, from the catalog. */
async function tableShapes(db: Kysely<Database>): Promise<TableShape[]> {
  const rows = await sql<{ table_name: string; column_name: string; data_type: string; position: number }>`
    SELECT tc.table_name, kcu.column_name, c.data_type, kcu.ordinal_position AS position
    FROM information_schema.table_constraints tc
    JOIN information_schema.key_column_usage kcu
      ON kcu.constraint_name = tc.constraint_name AND kcu.table_schema = tc.table_schema AND kcu.table_name = tc.table_name
    JOIN information_schema.columns c
      ON c.table_schema = tc.table_schema AND c.table_name = tc.table_name AND c.column_name = kcu.column_name
    WHERE tc.table_schema = 'read' AND tc.constraint_type = 'PRIMARY KEY'
      AND tc.table_name NOT IN ('meta', 'checkpoints', 'projection_failures')
    ORDER BY tc.table_name, kcu.ordinal_position`.execute(db);
  // Counter tables: those whose only column outside the key is `count`.
  const counters = await sql<{ table_name: string }>`
    SELECT c.table_name FROM information_schema.columns c
    WHERE c.table_schema = 'read' AND NOT EXISTS (
      SELECT 1 FROM information_schema.key_column_usage k
      WHERE k.table_schema = c.table_schema AND k.table_name = c.table_name AND k.column_name = c.column_name)
    GROUP BY c.table_name HAVING array_agg(c.column_name::text) = ARRAY['count']`.execute(db);
  const counter = new Set(counters.rows.map((r) => r.table_name));
  const shapes = new Map<string, TableShape>();
  for (const r of rows.rows) {
    const shape = shapes.get(r.table_name) ?? { table: r.table_name, keys: [], counter: counter.has(r.table_name) };
    shape.keys.push({ name: r.column_name, type: r.data_type });
    shapes.set(r.table_name, shape);
  }
  return [...shapes.values()];
}

const ident = (name: string) => sql.id(name);

/** A key's text values cast back to its columns' types, for comparisons that use the primary key's index. */
const typedKey = (shape: TableShape) => (values: readonly string[]) =>
  sql.join(values.map((v, i) => sql`CAST(${v} AS ${sql.raw(/^[a-z ]+$/.test(shape.keys[i]!.type) ? shape.keys[i]!.type : 'text')})`));

/**
 * A page of a read table's rows (at most PAGE), in primary-key order: each row's key (its columns
 * as text, as JSON) and its JSON. The JSON is PostgreSQL's own (to_jsonb, with UTC times), so a
 * PGlite and a server agree on it. A counter at zero is left out (an earlier build kept them).
 */
async function readRows(db: Kysely<Database>, shape: TableShape, where: RawBuilder<unknown>): Promise<{ key: string; row: string }[]> {
  const keyText = sql.join(shape.keys.map((k, i) => sql`${ident(k.name)}::text AS ${ident(`k${i}`)}`));
  const read = async (tx: Kysely<Database>) => {
    await sql`SET LOCAL TIME ZONE 'UTC'`.execute(tx);
    return (
      await sql<Record<string, string>>`SELECT ${keyText}, to_jsonb(t)::text AS row FROM ${sql.table(`read.${shape.table}`)} t
        WHERE ${where} ${shape.counter ? sql`AND count <> 0` : sql``} ORDER BY ${keyOrder(shape)} LIMIT ${PAGE}`.execute(tx)
    ).rows;
  };
  // Inside a caller's transaction (a snapshot), in it; else in one of its own for SET LOCAL.
  const rows = db.isTransaction ? await read(db) : await db.transaction().execute(read);
  return rows.map((r) => ({ key: JSON.stringify(shape.keys.map((_, i) => r[`k${i}`])), row: r.row! }));
}

const keyOrder = (shape: TableShape) => sql.join(shape.keys.map((k) => ident(k.name)));

/** The rows with these keys (at most 500 keys: one page holds them all). */
const withKeys = (shape: TableShape, keys: readonly string[][]) =>
  sql`(${keyOrder(shape)}) IN (${sql.join(keys.map((k) => sql`(${typedKey(shape)(k)})`))})`;

/** Every row of a read table as `key → SHA-256 of its JSON`, read in pages; or only the rows with these keys. */
async function rowHashes(db: Kysely<Database>, shape: TableShape, only?: readonly string[][]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const put = (rows: { key: string; row: string }[]) => {
    for (const r of rows) out.set(r.key, createHash('sha256').update(r.row).digest('hex'));
  };
  if (only) {
    for (let i = 0; i < only.length; i += 500) put(await readRows(db, shape, withKeys(shape, only.slice(i, i + 500))));
    return out;
  }
  let after: string[] | null = null;
  for (;;) {
    const rows = await readRows(db, shape, after ? sql`(${keyOrder(shape)}) > (${typedKey(shape)(after)})` : sql`true`);
    put(rows);
    if (rows.length < PAGE) return out;
    after = JSON.parse(rows[rows.length - 1]!.key) as string[];
  }
}

/** The rows of a table with these keys (a few examples), as JSON objects: to name the columns that differ. */
async function rowsByKey(
  db: Kysely<Database>,
  shape: TableShape,
  keys: readonly string[][],
): Promise<Map<string, Record<string, unknown>>> {
  if (keys.length === 0) return new Map();
  const rows = await readRows(db, shape, withKeys(shape, keys));
  return new Map(rows.map((r) => [r.key, JSON.parse(r.row) as Record<string, unknown>]));
}

/** The live read models cannot be compared yet: never built, built by another version, or still being built. */
export class ReadModelsNotReady extends Error {
  override readonly name = 'ReadModelsNotReady';
}

/**
 * Where the live read models stand; throws ReadModelsNotReady unless they are of this version and
 * every projector has a position: else a replay would be compared with nothing, or with tables of
 * another shape.
 */
async function readyPosition(db: Kysely<Database>, projectors: readonly Projector[]): Promise<LedgerPosition> {
  const { exists, version } = await readSchemaState(db);
  const retry = 'start the service (it builds them from the ledger on its first start) or run `projections rebuild`, then verify';
  if (!exists)
    throw new ReadModelsNotReady(
      `this store has no read models yet (a store made by \`ledger copy\` gets them on the service's first start there): ${retry}`,
    );
  if (version !== String(READ_SCHEMA_VERSION))
    throw new ReadModelsNotReady(
      `the read models were built by another version of the service (read schema ${version ?? 'unknown'}, this one ${READ_SCHEMA_VERSION}): ${retry}`,
    );
  const position = await livePosition(db, projectors);
  if (position === null)
    throw new ReadModelsNotReady(
      'the read models are being built (not every projector has a position yet: a rebuild under way, or created by `db grant` and the service not started since): verify once they are',
    );
  return position;
}

/** Where the live read models stand: their projectors' common position, or null when they disagree (a rebuild runs). */
async function livePosition(db: Kysely<Database>, projectors: readonly Projector[]): Promise<LedgerPosition | null> {
  const rows = await sql<{ name: string; commit_position: number | string; prepare_position: number | string }>`
    SELECT name, commit_position, prepare_position FROM read.checkpoints`.execute(db);
  const positions = projectors.map((p) => rows.rows.find((r) => r.name === p.name));
  if (positions.some((p) => p === undefined)) return null;
  const all = positions.map((p) => ({ commit: Number(p!.commit_position), prepare: Number(p!.prepare_position) }));
  return all.reduce((min, p) => (comparePositions(p, min) < 0 ? p : min));
}

/**
 * Replays the ledger into the read schema of `scratch` (a store of its own, an in-memory PGlite:
 * nothing of the live store is written) up to where the live read models stand, and compares
 * every row of every read model with the live one, by primary key. Rows that differ while the
 * live read models move on are compared again after the scratch replay catches up with them; what
 * still differs is drift, named row by row.
 *
 * @example
 * const scratch = await openStore({ dataDir: 'memory://', migrations: MIGRATIONS });
 * const result = await verifyReadModels(store, new PostgresLedger(store.db), scratch);
 */
export async function verifyReadModels(
  live: { db: Kysely<Database> },
  ledger: Ledger,
  scratch: { db: Kysely<Database> },
  options: { projectors?: readonly Projector[]; onProgress?: (events: number) => void } = {},
): Promise<VerifyResult> {
  const started = performance.now();
  const projectors = options.projectors ?? allProjectors;
  let bound: LedgerPosition | null = await readyPosition(live.db, projectors);
  await ensureReadSchema(scratch.db);
  const runner = new ProjectionRunner(scratch.db, boundedLedger(ledger, () => bound) as Ledger, projectors);
  await runner.ensureCheckpoints();
  let events = 0;
  // Every event up to the bound was applied by the live runner, so it is visible: an empty read is the end.
  const replay = async () => {
    for (let n = await runner.runOnce(); n > 0; n = await runner.runOnce()) {
      events += n;
      options.onProgress?.(events);
    }
  };
  await replay();

  const shapes = await tableShapes(scratch.db);
  const liveShapes = new Set((await tableShapes(live.db)).map((s) => s.table));
  const tables: VerifyResult['tables'] = [];
  const drift: TableDrift[] = [];
  for (const shape of shapes) {
    if (!liveShapes.has(shape.table)) continue;
    const expected = await rowHashes(scratch.db, shape);
    const actual = await rowHashes(live.db, shape);
    tables.push({ table: shape.table, rows: expected.size });
    let differing = [...new Set([...expected.keys(), ...actual.keys()])].filter((k) => expected.get(k) !== actual.get(k));
    // The live read models may have moved on while they were read: read those rows again with
    // the position they stand at, in one snapshot (a batch moves rows and checkpoints in one
    // transaction), catch the scratch replay up to it and compare, until they agree or stop moving.
    for (let round = 0; round < SETTLE_ROUNDS && differing.length > 0; round++) {
      const keys = differing.map((k) => JSON.parse(k) as string[]);
      const seen = await live.db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (tx) => ({ at: await livePosition(tx, projectors), rows: await rowHashes(tx, shape, keys) }));
      if (seen.at === null || bound === null) break;
      const moved = comparePositions(seen.at, bound) > 0;
      if (moved) {
        bound = seen.at;
        await replay();
      }
      const [e2, a2] = [await rowHashes(scratch.db, shape, keys), seen.rows];
      for (const k of differing) {
        if (e2.has(k)) expected.set(k, e2.get(k)!);
        else expected.delete(k);
        if (a2.has(k)) actual.set(k, a2.get(k)!);
        else actual.delete(k);
      }
      differing = differing.filter((k) => expected.get(k) !== actual.get(k));
      // Compared at one position on both sides: what still differs is drift.
      if (!moved) break;
    }
    if (differing.length === 0) continue;
    const count = { missing: 0, extra: 0, changed: 0 };
    const kinds = differing.map((k) => {
      const kind: RowDifference['kind'] = !actual.has(k) ? 'missing' : !expected.has(k) ? 'extra' : 'changed';
      count[kind]++;
      return { k, kind };
    });
    const sample = kinds.slice(0, EXAMPLES);
    const sampleKeys = sample.map((s) => JSON.parse(s.k) as string[]);
    const [e3, a3] = [await rowsByKey(scratch.db, shape, sampleKeys), await rowsByKey(live.db, shape, sampleKeys)];
    const examples = sample.map(({ k, kind }): RowDifference => {
      const values = JSON.parse(k) as string[];
      const key = Object.fromEntries(shape.keys.map((c, i) => [c.name, values[i]!]));
      if (kind !== 'changed') return { kind, key };
      const [want, got] = [e3.get(k) ?? {}, a3.get(k) ?? {}];
      const columns = [...new Set([...Object.keys(want), ...Object.keys(got)])]
        .filter((c) => JSON.stringify(want[c]) !== JSON.stringify(got[c]))
        .map((column) => ({ column, ledger: want[column] ?? null, live: got[column] ?? null }));
      return { kind, key, columns };
    });
    drift.push({ table: `read.${shape.table}`, ...count, examples });
  }
  return {
    consistent: drift.length === 0,
    events,
    position: bound,
    tables: tables.map((t) => ({ ...t, table: `read.${t.table}` })),
    drift,
    seconds: Math.round(performance.now() - started) / 1000,
    verifiedAt: new Date().toISOString(),
  };
}

/** What /ready reports of the last scheduled check (null before the first, or when none is scheduled). */
export interface ReadModelCheckStatus {
  verifiedAt: string;
  consistent: boolean;
  position: LedgerPosition | null;
  drift: { table: string; missing: number; extra: number; changed: number }[];
}

/**
 * `verifyReadModels` on a schedule (PROJECTIONS_VERIFY_MINUTES): the first run one interval after
 * start, then every interval; drift is logged at error level and reported by /ready. `exclusive`
 * runs a check only where no other process runs one (an advisory lock on a PostgreSQL server).
 *
 * @example
 * const check = new ReadModelCheck(store, ledger, () => openStore({ dataDir: 'memory://', migrations: MIGRATIONS }), { intervalMs: 3_600_000, log });
 * check.start();
 */
export class ReadModelCheck {
  readonly name = 'read-model check';
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private last: ReadModelCheckStatus | null = null;

  constructor(
    private readonly live: { db: Kysely<Database> },
    private readonly ledger: Ledger,
    private readonly openScratch: () => Promise<{ db: Kysely<Database>; close(): Promise<void> }>,
    private readonly options: {
      intervalMs: number;
      projectors?: readonly Projector[];
      log?: Log;
      exclusive?: <T>(run: () => Promise<T>) => Promise<T | null>;
    },
  ) {}

  start(): void {
    if (this.options.intervalMs <= 0) return;
    const schedule = () => {
      this.timer = setTimeout(() => {
        this.running = this.runOnce()
          .catch((error: unknown) => this.options.log?.error({ err: error }, 'the scheduled read-model check failed'))
          .finally(schedule);
      }, this.options.intervalMs);
      this.timer.unref();
    };
    schedule();
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.options.intervalMs = 0;
    await this.running;
  }

  /** Runs one check now (unless another process is running one, or the read models are not ready); answers it, or null when skipped. */
  async runOnce(): Promise<VerifyResult | null> {
    const run = async () => {
      const scratch = await this.openScratch();
      try {
        return await verifyReadModels(
          this.live,
          this.ledger,
          scratch,
          this.options.projectors ? { projectors: this.options.projectors } : {},
        );
      } catch (error) {
        // Nothing to compare yet (none built, another version's, or still being built): the next round checks.
        if (!(error instanceof ReadModelsNotReady)) throw error;
        this.options.log?.warn({}, `read-model check skipped: ${error.message}`);
        return null;
      } finally {
        await scratch.close();
      }
    };
    const result = this.options.exclusive ? await this.options.exclusive(run) : await run();
    if (!result) return null;
    this.last = {
      verifiedAt: result.verifiedAt,
      consistent: result.consistent,
      position: result.position,
      drift: result.drift.map(({ table, missing, extra, changed }) => ({ table, missing, extra, changed })),
    };
    if (!result.consistent)
      this.options.log?.error(
        { drift: result.drift },
        'read models differ from the ledger: run `projections verify` for the rows, then `projections rebuild`',
      );
    return result;
  }

  status(): ReadModelCheckStatus | null {
    return this.last;
  }
}

const CHECK_LOCK = 7_412_003_017;
/** The deadlines follower's lock (src/application/deadlines.ts), beside the check's. */
export const DEADLINES_LOCK = 7_412_003_018;
/** The webhook history pruner's lock (src/webhooks/retention.ts). */
export const WEBHOOK_HISTORY_LOCK = 7_412_003_019;

/**
 * Runs `run` only while holding a session advisory lock on a connection of its own: of several
 * processes on one PostgreSQL server, one checks at a time and the others skip (null).
 */
export const advisoryExclusive =
  (db: Kysely<Database>, lock: number = CHECK_LOCK) =>
  <T>(run: () => Promise<T>): Promise<T | null> =>
    db.connection().execute(async (conn) => {
      const got = (await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(${lock}) AS ok`.execute(conn)).rows[0]?.ok;
      if (!got) return null;
      try {
        return await run();
      } finally {
        await sql`SELECT pg_advisory_unlock(${lock})`.execute(conn);
      }
    });
