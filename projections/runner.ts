import { sql, type Kysely } from 'kysely';
import { comparePositions, START, type Ledger, type LedgerPosition, type RecordedEvent } from '../src/ledger/ledger.port.js';
import type { Database } from '../src/store/schema.js';
import type { Projector } from '../src/followers/projector.js';
import { isTransientError } from '../src/store/database-errors.js';
import { PositionWaiters } from '../src/followers/position-waiters.js';
import { PokeLoop } from '../src/common/poke-loop.js';
import type { Log } from '../src/common/log.js';

export type RunnerLog = Log;

export interface RunnerOptions {
  batchSize?: number;
  /** How often to look for events appended by other processes. */
  pollMs?: number;
  /** Spacing of poked batches unless a reader waits (PokeLoopOptions.minIntervalMs). */
  minIntervalMs?: number;
  log?: RunnerLog;
}

const silent: RunnerLog = { warn: () => undefined, error: () => undefined };

const minPosition = (ps: LedgerPosition[]): LedgerPosition => ps.reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b), ps[0] ?? START);

const positionOf = (r: { commit_position: number | string; prepare_position: number | string }): LedgerPosition => ({
  commit: Number(r.commit_position),
  prepare: Number(r.prepare_position),
});

/**
 * Feeds ledger events to the projectors. Each batch is applied in one transaction that also
 * moves every projector's checkpoint, with the checkpoint rows locked: several processes can run
 * runners on one database and each event is still applied once.
 *
 * Cost per batch, whatever its size: one ledger read, and one transaction of two checkpoint
 * statements plus a few statements per projector (they write a batch's rows together). The
 * runner remembers where it read up to, so it does not read its checkpoints before each batch;
 * the locked read inside the transaction still decides what is applied.
 *
 * @example
 * const runner = new ProjectionRunner(db, ledger, allProjectors);
 * await runner.start();
 * await runner.waitFor(appended.position, 5000);
 */
export class ProjectionRunner {
  private readonly progress = new PositionWaiters();
  private readonly loop: PokeLoop;
  /** Where the next read starts: the slowest checkpoint, as this runner last saw it. */
  private cursor: LedgerPosition | undefined;
  private readonly batchSize: number;
  private readonly log: RunnerLog;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ledger: Ledger,
    private readonly projectors: readonly Projector[],
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 2000;
    this.log = options.log ?? silent;
    this.loop = new PokeLoop('projection runner', async () => ({ more: (await this.runOnce()) >= this.batchSize }), {
      pollMs: options.pollMs ?? 250,
      log: this.log,
      minIntervalMs: options.minIntervalMs ?? 0,
      isUrgent: () => this.progress.waiting,
    });
  }

  /** The position every projector has reached, as last seen. */
  get position(): LedgerPosition {
    return this.progress.position;
  }

  async ensureCheckpoints(): Promise<void> {
    await this.db
      .insertInto('read.checkpoints')
      .values(this.projectors.map((p) => ({ name: p.name, commit_position: 0, prepare_position: 0 })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }

  async start(): Promise<void> {
    await this.ensureCheckpoints();
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.progress.cancelAll();
  }

  /** Asks the runner to look for new events now. */
  poke(): void {
    this.loop.poke();
  }

  /** Resolves true once every projector has passed `target`, false after `timeoutMs`. */
  waitFor(target: LedgerPosition, timeoutMs: number): Promise<boolean> {
    return this.progress.waitFor(target, timeoutMs, () => this.poke());
  }

  /**
   * Applies every event committed before the call (for rebuilds and tests), and returns how many
   * were read. An empty read does not mean "done": the ledger holds back events behind any
   * transaction still open on the server (pg_snapshot_xmin, even one in another database), so
   * this waits until the projectors pass the head the ledger showed at the start.
   */
  async catchUp(onProgress?: (applied: number) => void): Promise<number> {
    await this.ensureCheckpoints();
    const target = await this.ledger.headPosition();
    let total = 0;
    let idle = 0;
    let waited = 0;
    let warned = false;
    for (;;) {
      const n = await this.runOnce();
      total += n;
      onProgress?.(total);
      if (n > 0) {
        idle = 0;
        continue;
      }
      if (target === null || comparePositions(this.progress.position, target) >= 0) return total;
      const pause = Math.min(250, 5 * 2 ** idle++);
      waited += pause;
      if (waited > 5000 && !warned) {
        warned = true;
        this.log.warn(
          { target, at: this.progress.position },
          'catch-up waits for a transaction that is still open before it can read the last events',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** One batch: read after the slowest checkpoint, apply, move checkpoints. Answers how many events were read. */
  async runOnce(): Promise<number> {
    if (this.cursor === undefined) {
      const rows = await this.db
        .selectFrom('read.checkpoints')
        .select(['commit_position', 'prepare_position'])
        .where(
          'name',
          'in',
          this.projectors.map((p) => p.name),
        )
        .execute();
      this.cursor = minPosition(rows.map(positionOf));
    }
    const from = this.cursor;
    const events = await this.ledger.readAll(from, this.batchSize);
    if (events.length === 0) {
      this.advance(from);
      return 0;
    }
    try {
      await this.db.transaction().execute(async (tx) => {
        // The read models are rebuilt from the ledger at will: their commit need not wait for the
        // WAL flush. A server crash loses the last batches and their checkpoints together (the
        // WAL is applied in order), and they are applied again.
        await sql`SET LOCAL synchronous_commit TO OFF`.execute(tx);
        await this.applyTo(tx, this.projectors, events);
      });
    } catch (error) {
      if (isTransientError(error)) {
        this.cursor = undefined;
        throw error;
      }
      if (error instanceof CheckpointMovedBack) {
        // The read models were reset under us (a rebuild): read again from where they are now.
        this.cursor = undefined;
        return 0;
      }
      this.log.error({ err: error }, 'projection batch failed; applying its events one by one');
      await this.applyOneByOne(events);
    }
    this.advance(events[events.length - 1]!.position);
    return events.length;
  }

  /**
   * Locks the projectors' checkpoints (in name order, as every runner does), applies to each the
   * events past its own checkpoint, and moves the checkpoints that moved, in one statement.
   */
  private async applyTo(tx: Kysely<Database>, projectors: readonly Projector[], events: readonly RecordedEvent[]): Promise<void> {
    const locked = await sql<{ name: string; commit_position: number | string; prepare_position: number | string }>`
      SELECT name, commit_position, prepare_position FROM read.checkpoints
      WHERE name IN (SELECT json_array_elements_text(${JSON.stringify(projectors.map((p) => p.name))}::json))
      ORDER BY name FOR UPDATE`.execute(tx);
    const at = new Map(locked.rows.map((r) => [r.name, positionOf(r)]));
    if (this.cursor && locked.rows.some((r) => comparePositions(positionOf(r), this.cursor!) < 0)) {
      throw new CheckpointMovedBack();
    }
    const moved: { name: string; commit: number; prepare: number }[] = [];
    for (const p of projectors) {
      const from = at.get(p.name) ?? START;
      const fresh = events.filter((e) => comparePositions(e.position, from) > 0);
      if (fresh.length === 0) continue;
      const handled = fresh.filter((e) => p.handles.has(e.type));
      if (handled.length > 0) {
        if (p.applyBatch) await p.applyBatch(tx, handled);
        else for (const e of handled) await p.apply(tx, e);
      }
      const last = fresh[fresh.length - 1]!.position;
      moved.push({ name: p.name, commit: last.commit, prepare: last.prepare });
    }
    if (moved.length === 0) return;
    await sql`
      UPDATE read.checkpoints AS c SET commit_position = m.commit, prepare_position = m.prepare, updated_at = now()
      FROM json_to_recordset(${JSON.stringify(moved)}::json) AS m(name text, commit bigint, prepare bigint)
      WHERE c.name = m.name`.execute(tx);
  }

  /** A bad event is recorded in read.projection_failures and skipped; it never stops the loop. */
  private async applyOneByOne(events: readonly RecordedEvent[]): Promise<void> {
    for (const e of events) {
      for (const p of this.projectors) {
        try {
          await this.db.transaction().execute((tx) => this.applyTo(tx, [p], [e]));
        } catch (error) {
          if (isTransientError(error)) throw error;
          this.log.error({ err: error, projector: p.name, eventId: e.id, eventType: e.type }, 'projector failed on an event; skipped');
          await this.db.transaction().execute(async (tx) => {
            await tx
              .insertInto('read.projection_failures')
              .values({ projector: p.name, event_id: e.id, error: String((error as Error).message).slice(0, 2000) })
              .onConflict((oc) => oc.doNothing())
              .execute();
            await this.applyTo(tx, [{ ...p, handles: new Set() }], [e]);
          });
        }
      }
    }
  }

  private advance(position: LedgerPosition): void {
    if (!this.cursor || comparePositions(position, this.cursor) > 0) this.cursor = position;
    this.progress.advance(position);
  }
}

/** Raised inside a batch when a checkpoint is behind where this runner read from. */
class CheckpointMovedBack extends Error {
  override readonly name = 'CheckpointMovedBack';
}
