import { sql, type Kysely } from 'kysely';
import { comparePositions, type Ledger } from '../src/ledger/ledger.port.js';
import type { Database } from '../src/store/schema.js';
import { allProjectors } from './index.js';
import type { Projector } from '../src/followers/projector.js';
import { dropReadSchema, ensureReadSchema } from './read-schema.js';
import { ProjectionRunner, type RunnerLog } from './runner.js';
import { ReadStatistics } from './statistics.js';
import { silentLog } from '../src/common/log.js';
import { ownerWork } from '../src/store/roles.js';

export interface RebuildResult {
  /** Ledger events replayed through the projectors. */
  events: number;
  /** Wall-clock time of the whole rebuild, in seconds (millisecond precision). */
  seconds: number;
}

/** Called after each batch: events applied so far, and the ledger's size when the rebuild began. */
export type RebuildProgress = (applied: number, total: number) => void;

/**
 * Drops every read model, recreates the read schema and replays the whole ledger through
 * `allProjectors`. The ledger is only read. Run it with the service stopped (the embedded store
 * enforces that with its lock); on a PostgreSQL server a running service keeps working, but its
 * lists answer from partly rebuilt tables until the replay ends.
 *
 * @example
 * const store = await openStore({ dataDir: './data' });
 * const { events, seconds } = await rebuildReadModels(store, new PostgresLedger(store.db), (n, total) => bar.update(n, { total }));
 */
export async function rebuildReadModels(
  store: { db: Kysely<Database> },
  ledger: Ledger,
  onProgress?: RebuildProgress,
  options: {
    log?: RunnerLog;
    batchSize?: number;
    /** The projectors to replay into; `allProjectors` by default (EventStoreDB adds its event index). */
    projectors?: readonly Projector[];
    /** How many events the ledger holds, for the progress total; the PostgreSQL ledger's count by default. */
    count?: () => Promise<number>;
  } = {},
): Promise<RebuildResult> {
  const started = performance.now();
  const { db } = store;
  const total = options.count
    ? await options.count()
    : Number((await sql<{ n: number | string }>`SELECT count(*) AS n FROM ledger.events`.execute(db)).rows[0]?.n ?? 0);
  // Dropping needs the schema's owner: a role `db grant` made leaves the rebuild to the owner, whose
  // new tables reach the role again (ensureReadSchema regrants them).
  await ownerWork(
    db,
    'the read models must be dropped to be rebuilt',
    () => dropReadSchema(db),
    () =>
      "run `npx consent-ledger projections rebuild` with the store owner's DATABASE_URL instead (the service's roles keep their rights on the new tables)",
  );
  await ensureReadSchema(db);
  const runner = new ProjectionRunner(db, ledger, options.projectors ?? allProjectors, {
    ...(options.log ? { log: options.log } : {}),
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
  });
  const head = await ledger.headPosition();
  onProgress?.(0, total);
  // Events appended while we replay are replayed too, so `applied` may end above `total`.
  let events = 0;
  let applied = 0;
  // The projectors' own lookups need the planner to know how large the new tables grow: with the
  // statistics of empty tables it scans a tenant's every row per batch (a replay slowing as it goes).
  const statistics = new ReadStatistics(db, () => applied, { log: options.log ?? silentLog });
  for (;;) {
    const done = events;
    events += await runner.catchUp(async (n) => {
      applied = done + n;
      onProgress?.(applied, Math.max(total, applied));
      await statistics.runOnce();
    });
    if (!head || comparePositions(runner.position, head) >= 0) break;
    // The ledger is read only below the oldest transaction still open on the server; one that
    // began before our head was committed holds the rest back until it ends.
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { events, seconds: Math.round(performance.now() - started) / 1000 };
}
