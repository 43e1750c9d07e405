import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type PostgresPool, type PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { isUnavailableError } from './database-errors.js';
import { PGlitePool } from './pglite-pool.js';
import { migrate, type Migrations } from './migrations.js';
import type { Database } from './schema.js';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock.js';
import { EmbeddedVacuum, type EmbeddedVacuumOptions } from './embedded-vacuum.js';
import { EmbeddedBackup, syncPath } from './embedded-backup.js';
import { pgliteVersion, storeTemplate, unpackStoreTemplate, writeStoreTemplate } from './store-template.js';

// Both engines answer the same JS types: bigint as number (our counters stay far below 2^53),
// dates as 'YYYY-MM-DD' strings (pg would otherwise build a local-time Date).
const INT8 = 20;
const DATE = 1082;
const parseInt8 = (v: string) => Number(v);
const parseDate = (v: string) => v;

export type StoreKind = 'postgres' | 'embedded';

/** Connections of the followers' own pool on a server (runner, sealer: one transaction each at a time). */
const FOLLOWER_CONNECTIONS = 4;

export interface Store {
  kind: StoreKind;
  db: Kysely<Database>;
  /**
   * The same database for the background followers (projection runner, sealer), so that their
   * batches do not queue behind the requests: connections of their own on a server, first in
   * line on the embedded store's one connection.
   */
  followerDb: Kysely<Database>;
  /**
   * A transaction on a connection of its own that can also COPY rows in (a PostgreSQL server
   * only): committed when `work` answers, rolled back when it throws.
   */
  bulk?: <T>(work: (tx: BulkTransaction) => Promise<T>) => Promise<T>;
  /** Checks that the database answers. */
  ping(): Promise<void>;
  /** The embedded store's vacuum rounds (none on a server, whose autovacuum does it). */
  vacuum?: EmbeddedVacuum;
  /** Online backups of the embedded store in a folder (none in memory, nor on a server: pg_dump does it). */
  backup?: EmbeddedBackup;
  /** The embedded store's files as one tarball (PGlite's `dumpDataDir`): what a store template holds. */
  dumpDataDir?: () => Promise<Blob>;
  close(): Promise<void>;
}

/** What a `Store.bulk` transaction can do: plain statements, and COPY … FROM STDIN. */
export interface BulkTransaction {
  query<R>(text: string, values?: unknown[]): Promise<R[]>;
  /** Runs `statement` (a COPY … FROM STDIN) with `rows`, each a line of COPY's text format; answers the rows copied. */
  copyIn(statement: string, rows: readonly string[]): Promise<number>;
}

/** Lines sent to COPY per write to the socket (about 1 MB of ledger rows). */
const COPY_LINES_PER_WRITE = 512;

export interface StoreOptions {
  /**
   * Every feature's migrations (src/migrations.ts `MIGRATIONS`): applied before openStore
   * answers, so that no caller gets a store whose schema is behind this build.
   */
  migrations: Migrations;
  /** A PostgreSQL server; when absent, PGlite embedded in `dataDir` (or in memory when dataDir is 'memory://'). */
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  /** Pool size for a PostgreSQL server. */
  maxConnections?: number;
  /**
   * Embedded store: a new one (a folder without its cluster, or memory) starts from the build's
   * migrated template when one fits (src/store/store-template.ts); false runs `initdb` and the
   * migrations (how the build makes the template). Default true.
   */
  template?: boolean;
  /** Where the template is looked for (default: dist/ of this build; tests give one of their own). */
  templateFolder?: string;
  /** Embedded store: when to checkpoint (see EmbeddedCheckpoints; tests make it small). */
  checkpoint?: { walBytes?: number; everyMs?: number };
  /** Embedded store: when to vacuum (EmbeddedVacuum; `everyMs` from EMBEDDED_VACUUM_MINUTES); absent or 0: never. */
  vacuum?: Partial<EmbeddedVacuumOptions>;
}

/**
 * PGlite runs PostgreSQL without its background processes: no checkpointer, so nothing ever
 * checkpoints while the store is open. The WAL then grows without bound (1.3 GB for 1.2 million
 * small rows, past max_wal_size), and after a crash recovery replays all of it. This checks every
 * `everyMs` (5 s) how much WAL was written since the last checkpoint and, past `walBytes`
 * (64 MiB), runs CHECKPOINT: about 40 ms of the one connection on this machine, the WAL stays
 * near 80 MB and its segments are recycled instead of created.
 */
class EmbeddedCheckpoints {
  private readonly timer: NodeJS.Timeout;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Backups in progress: no checkpoint while any is, for it recycles the WAL they copy last. */
  private holds = 0;

  constructor(
    private readonly pool: PGlitePool,
    private readonly options: { walBytes?: number; everyMs?: number } = {},
  ) {
    this.timer = setInterval(() => void this.tick(), options.everyMs ?? 5_000);
    this.timer.unref();
  }

  /** Checkpoints when the WAL since the last one passed the threshold. Answers whether it did. */
  async tick(): Promise<boolean> {
    if (this.running || this.stopped || this.holds > 0) return false;
    let done = false;
    this.running = (async () => {
      const rows = await this.pool.run<{ behind: number }>(
        `SELECT (pg_current_wal_lsn() - (SELECT redo_lsn FROM pg_control_checkpoint()))::float8 AS behind`,
      );
      if ((rows[0]?.behind ?? 0) >= (this.options.walBytes ?? 64 * 1024 * 1024)) {
        await this.pool.run('CHECKPOINT');
        done = true;
      }
    })()
      // A store closing under it, or a disk that refuses: the writes themselves fail and say so;
      // the next tick tries again.
      .catch(() => undefined)
      .finally(() => (this.running = undefined));
    await this.running;
    return done;
  }

  /** Keeps checkpoints from running (after the one running, if any) until the answer is called. */
  async hold(): Promise<() => void> {
    this.holds += 1;
    await this.running;
    let released = false;
    return () => {
      if (!released) this.holds -= 1;
      released = true;
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }
}

/**
 * Opens the store (PostgreSQL server or embedded PGlite) and brings the schemas up to date with
 * the migrations given (all of them: a store opened with none is refused).
 *
 * @example
 * import { MIGRATIONS } from '../migrations.js';
 * const store = await openStore({ dataDir: './data', migrations: MIGRATIONS }); // embedded
 * const store = await openStore({ databaseUrl: 'postgres://postgres@127.0.0.1/test', migrations: MIGRATIONS });
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  if (Object.keys(options.migrations ?? {}).length === 0) {
    throw new Error('openStore: no migrations given; pass MIGRATIONS (src/migrations.ts) so that the schema is up to date');
  }
  const store = options.databaseUrl
    ? openPostgres(options.databaseUrl, options.maxConnections ?? 20)
    : await openEmbedded(options.dataDir ?? './data', {
        checkpoint: options.checkpoint,
        vacuum: options.vacuum,
        template: () => (options.template === false ? undefined : storeTemplate(Object.keys(options.migrations), options.templateFolder)),
      });
  try {
    await migrate(store.db, options.migrations);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}

/**
 * `pool` as kysely takes it, where a client whose query failed because its connection is gone
 * (terminated by the server, a failover) is destroyed at release. Kysely releases without the
 * error, and the socket's end can come after the release: the pool would hand the dead client to
 * the next request, which then fails too.
 */
function droppingLostClients(pool: pg.Pool): PostgresPool {
  const wrapped = new WeakMap<pg.PoolClient, { client: PostgresPoolClient; lost: boolean }>();
  return {
    async connect() {
      const raw = await pool.connect();
      let entry = wrapped.get(raw);
      if (!entry) {
        const state = { lost: false } as { client: PostgresPoolClient; lost: boolean };
        state.client = {
          query: ((...args: Parameters<pg.PoolClient['query']>) => {
            const result = (raw.query as (...a: unknown[]) => unknown)(...args);
            if (result instanceof Promise)
              return result.catch((error: unknown) => {
                if (isUnavailableError(error)) state.lost = true;
                throw error;
              });
            return result;
          }) as PostgresPoolClient['query'],
          release: () => {
            const lost = state.lost;
            state.lost = false;
            raw.release(lost ? new Error('the connection was lost') : undefined);
          },
        };
        entry = state;
        wrapped.set(raw, entry);
      }
      return entry.client;
    },
    end: () => pool.end(),
  };
}

/**
 * Writes a store template into `folder` (src/store/store-template.ts): a new embedded cluster made
 * by initdb, `migrations` applied, checkpointed so that a store started from it has no WAL to
 * replay. The build writes dist/'s this way; the store's own tests write theirs in folders of their own.
 */
export async function makeStoreTemplate(folder: string, migrations: Migrations): Promise<void> {
  const store = await openStore({ dataDir: 'memory://', migrations, template: false });
  try {
    await sql`CHECKPOINT`.execute(store.db);
    const files = await store.dumpDataDir!();
    writeStoreTemplate(folder, Buffer.from(await files.arrayBuffer()), { pglite: pgliteVersion(), migrations: Object.keys(migrations) });
  } finally {
    await store.close();
  }
}

function openPostgres(url: string, max: number): Store {
  const types = {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
      if (oid === INT8) return parseInt8;
      if (oid === DATE) return parseDate;
      return pg.types.getTypeParser(oid, format as 'text');
    }) as typeof pg.types.getTypeParser,
  };
  const pool = new pg.Pool({ connectionString: url, max, types, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 });
  // An idle client losing its server must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  // Likewise a client in use: a termination between two queries of a transaction is emitted on
  // the client, and an 'error' event nobody listens to would end the process. The query in
  // flight fails on its own and the request answers 503.
  pool.on('connect', (client) => client.on('error', () => undefined));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: droppingLostClients(pool) }) });
  const followerPool = new pg.Pool({
    connectionString: url,
    max: FOLLOWER_CONNECTIONS,
    types,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  followerPool.on('error', () => undefined);
  followerPool.on('connect', (client) => client.on('error', () => undefined));
  const followerDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: droppingLostClients(followerPool) }) });
  return {
    kind: 'postgres',
    db,
    followerDb,
    async bulk(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const answer = await work({
          query: async (text, values) => (await client.query(text, values)).rows,
          copyIn: (statement, rows) => copyInto(client, statement, rows),
        });
        await client.query('COMMIT');
        return answer;
      } catch (error) {
        await client.query('ROLLBACK').catch((e: Error) => (broken = e));
        throw error;
      } finally {
        // A connection whose ROLLBACK failed is closed, not handed to the next caller.
        client.release(broken);
      }
    },
    async ping() {
      const client = await pool.connect();
      try {
        await client.query('SELECT 1');
      } finally {
        client.release();
      }
    },
    async close() {
      await followerDb.destroy();
      await db.destroy();
    },
  };
}

/** COPY … FROM STDIN on `client`, the lines joined into writes of a few hundred each. */
async function copyInto(client: pg.PoolClient, statement: string, rows: readonly string[]): Promise<number> {
  const stream = client.query(copyFrom(statement));
  const done = new Promise<void>((resolve, reject) => {
    stream.on('finish', resolve);
    stream.on('error', reject);
  });
  for (let i = 0; i < rows.length; i += COPY_LINES_PER_WRITE) {
    stream.write(rows.slice(i, i + COPY_LINES_PER_WRITE).join(''));
  }
  stream.end();
  await done;
  return stream.rowCount;
}

/**
 * Makes the cluster of a new embedded store in `dir`, from a template's tarball or by `initdb`:
 * in a folder beside it first, renamed into place once whole, so that a first start killed midway
 * leaves no half-made cluster for the next start to fail on.
 */
async function createCluster(dir: string, template: string | undefined): Promise<void> {
  const part = `${dir}.new`;
  rmSync(part, { recursive: true, force: true });
  if (template) {
    mkdirSync(part, { mode: 0o700 });
    await unpackStoreTemplate(template, part);
  } else {
    const pglite = await PGlite.create({ dataDir: part });
    await pglite.close();
  }
  await syncTree(part);
  renameSync(part, dir);
  await syncPath(dirname(dir));
}

/** Flushes every file and folder under `path` to disk (PGlite's own fsync does not reach it), 16 at a time. */
async function syncTree(path: string): Promise<void> {
  const paths: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const child = join(folder, entry.name);
      if (entry.isDirectory()) await walk(child);
      else if (entry.isFile()) paths.push(child);
    }
    paths.push(folder);
  };
  await walk(path);
  // One at a time they took 0.7-0.9 s for a template's 1,127 files here; 16 at a time, 0.3 s.
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < paths.length) await syncPath(paths[next++]!);
    }),
  );
}

/** The folder of a DATA_DIR that holds the embedded store's cluster. */
export const embeddedClusterDir = (dataDir: string): string => join(resolve(dataDir), 'pglite');

/** Whether a DATA_DIR holds the embedded store (`memory://`, made fresh each time, always does). */
export const holdsEmbeddedStore = (dataDir: string): boolean => dataDir === 'memory://' || existsSync(embeddedClusterDir(dataDir));

/**
 * Whether the server database at `url` holds a store (its ledger table); true when it cannot be
 * asked, so that opening it says why. Asked before a command migrates it: a DATABASE_URL naming the
 * wrong database would otherwise be given the schema and answer as an empty store.
 */
export async function holdsServerStore(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ held: boolean }>(`SELECT to_regclass('ledger.events') IS NOT NULL AS held`);
    return rows[0]!.held;
  } catch {
    return true;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function openEmbedded(
  dataDir: string,
  options: Pick<StoreOptions, 'checkpoint' | 'vacuum'> & { template: () => string | undefined },
): Promise<Store> {
  let lock: DataDirLock | undefined;
  let dir: string | undefined;
  if (dataDir !== 'memory://') {
    mkdirSync(dataDir, { recursive: true });
    lock = await acquireDataDirLock(resolve(dataDir));
    dir = embeddedClusterDir(dataDir);
  }
  try {
    if (dir && !existsSync(dir)) await createCluster(dir, options.template());
    const template = dir ? undefined : options.template();
    const files = template ? new Blob([readFileSync(template)]) : undefined;
    const pglite = await PGlite.create({
      dataDir: dir,
      parsers: { [INT8]: parseInt8, [DATE]: parseDate },
      ...(files ? { loadDataDir: files } : {}),
    });
    // A new WAL segment is 16 MiB: filled with zeros first, as PostgreSQL does by default, it held
    // this thread ~50 ms every few seconds under load (PGlite writes synchronously). Only its last
    // byte is written now; segments are recycled after each checkpoint below anyway.
    await pglite.exec('SET wal_init_zero = off');
    const pool = new PGlitePool(pglite);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    const followerDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool.priority() }) });
    const checkpoints = new EmbeddedCheckpoints(pool, options.checkpoint);
    const vacuum = new EmbeddedVacuum(pool, { everyMs: 0, ...options.vacuum });
    const backup = dir ? new EmbeddedBackup({ pool, dir, holdCheckpoints: () => checkpoints.hold() }) : undefined;
    return {
      kind: 'embedded',
      vacuum,
      ...(backup ? { backup } : {}),
      async dumpDataDir() {
        const client = await pool.connect(); // nothing runs on the one connection meanwhile
        try {
          return await pglite.dumpDataDir('none');
        } finally {
          client.release();
        }
      },
      db,
      followerDb,
      async ping() {
        await pool.run('SELECT 1');
      },
      async close() {
        backup?.close();
        await vacuum.stop();
        await checkpoints.stop();
        await followerDb.destroy();
        await db.destroy();
        await pglite.close();
        lock?.release();
      },
    };
  } catch (error) {
    lock?.release();
    throw error;
  }
}
