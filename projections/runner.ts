import { sql, type Kysely } from 'kysely';
import type { Log } from '../src/common/log.js';
import { TableCheckpointer } from '../src/followers/checkpoints.js';
import { CheckpointMovedBack, Follower, type ApplyInTransaction, type Processor } from '../src/followers/follower.js';
import type { Projector } from '../src/followers/projector.js';
import type { Ledger, RecordedEvent } from '../src/ledger/ledger.port.js';
import { isTransientError } from '../src/store/database-errors.js';
import type { Database } from '../src/store/schema.js';
import { READ_SCHEMA_VERSION, readDb } from './read-schema.js';

export type RunnerLog = Log;

export interface RunnerOptions {
  batchSize?: number;
  /** How often to look for events appended by other processes. */
  pollMs?: number;
  /** Spacing of poked batches unless a reader waits (PokeLoopOptions.minIntervalMs). */
  minIntervalMs?: number;
  log?: RunnerLog;
}

/** A projector as a processor of the follower core: its checkpoint row is its name. */
const processorOf = (p: Projector): Processor => ({
  processorId: p.name,
  canHandle: p.handles,
  async handle(tx, events) {
    if (p.applyBatch) await p.applyBatch(tx, events);
    else for (const e of events) await p.apply(tx, e);
  },
});

/**
 * Feeds ledger events to the projectors: a follower (src/followers/follower.ts) whose processors
 * are the projectors, each with its own row in read.checkpoints, locked together in name order.
 * Each batch is applied in one transaction that also moves every projector's checkpoint, so
 * several processes can run runners on one database and each event is still applied once.
 *
 * Cost per batch, whatever its size: one ledger read, and one transaction of two checkpoint
 * statements plus a few statements per projector (they write a batch's rows together). A batch
 * that fails for a reason of its own is applied one event at a time: a projector that fails on an
 * event records it in read.projection_failures and skips it; the others go on.
 *
 * @example
 * const runner = new ProjectionRunner(db, ledger, allProjectors);
 * await runner.start();
 * await runner.waitFor(appended.position, 5000);
 */
export class ProjectionRunner extends Follower {
  constructor(db: Kysely<Database>, ledger: Ledger, projectors: readonly Projector[], options: RunnerOptions = {}) {
    const processors = projectors.map(processorOf);
    const log = options.log;
    super(
      db,
      ledger,
      {
        name: 'projection runner',
        checkpoints: new TableCheckpointer('read.checkpoints'),
        processors,
        begin: (tx) => beginBatch(tx),
        recover: (error, events, apply) => applyOneByOne(error, events, processors, apply, log),
      },
      { ...options, batchSize: options.batchSize ?? 2000 },
    );
  }
}

/**
 * The read models were dropped and rebuilt by a process of another version (an upgrade that
 * changed their shape, or its rollback): this process's projectors would write rows of its own
 * shape into them, or skip as failures the events they could not write. It stops projecting.
 */
export class ReadSchemaReplaced extends Error {
  override readonly name = 'ReadSchemaReplaced';
}

/**
 * Each batch's first statement. The read models are rebuilt from the ledger at will: their
 * commit need not wait for the WAL flush (a server crash loses the last batches and their
 * checkpoints together, and they are applied again). And it reads the read schema's version,
 * which also holds off another version's DROP of the schema until the batch commits.
 */
async function beginBatch(tx: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ version: string | null }>`
    SELECT set_config('synchronous_commit', 'off', true) AS off,
      (SELECT value FROM read.meta WHERE key = 'version') AS version`.execute(tx);
  const version = rows[0]?.version ?? null;
  if (version !== String(READ_SCHEMA_VERSION))
    throw new ReadSchemaReplaced(
      `the read models are of read schema ${version ?? 'none'}, built by another version of the service; this one (read schema ${READ_SCHEMA_VERSION}) stops projecting into them: run every process on one version`,
    );
}

/**
 * A batch that failed for a reason of its own, applied one event and one projector at a time: a
 * projector that fails on an event records it in read.projection_failures and moves its
 * checkpoint past it; the others apply it. A transient failure is thrown (the batch is retried).
 */
async function applyOneByOne(
  error: unknown,
  events: readonly RecordedEvent[],
  processors: readonly Processor[],
  apply: ApplyInTransaction<undefined>,
  log: RunnerLog | undefined,
): Promise<void> {
  if (error instanceof ReadSchemaReplaced) throw error;
  log?.error({ err: error }, 'projection batch failed; applying its events one by one');
  for (const e of events) {
    for (const p of processors) {
      try {
        await apply([p], [e]);
      } catch (failure) {
        if (isTransientError(failure) || failure instanceof CheckpointMovedBack || failure instanceof ReadSchemaReplaced) throw failure;
        log?.error({ err: failure, projector: p.processorId, eventId: e.id, eventType: e.type }, 'projector failed on an event; skipped');
        await apply([{ ...p, canHandle: new Set() }], [e], async (tx) => {
          await readDb(tx)
            .insertInto('read.projection_failures')
            .values({ projector: p.processorId, event_id: e.id, error: String((failure as Error).message).slice(0, 2000) })
            .onConflict((oc) => oc.doNothing())
            .execute();
        });
      }
    }
  }
}
