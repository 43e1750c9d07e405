import type { Kysely } from 'kysely';
import { PokeLoop } from '../common/poke-loop.js';
import { silentLog, type Log } from '../common/log.js';
import { comparePositions, START, type Ledger, type LedgerPosition, type RecordedEvent } from '../ledger/ledger.port.js';
import { isTransientError } from '../store/database-errors.js';
import type { Database } from '../store/schema.js';
import type { Checkpointer, MovedCheckpoint } from './checkpoints.js';
import { minPosition } from './checkpoints.js';
import { PositionWaiters } from './position-waiters.js';

/** What a processor's `handle` gets beside its events. */
export interface BatchContext<P> {
  /** What the follower's `prepare` made of the whole batch, outside the transaction. */
  prepared: P;
  /** Runs `fn` once the batch's transaction has committed (never when it rolls back). */
  afterCommit(fn: () => void): void;
}

/**
 * One consumer of the ledger with a checkpoint of its own (a read model's projector, the sealer,
 * the webhook queue), in the manner of Emmett's processors.
 *
 * @example
 * const counter: Processor = { processorId: 'counts', canHandle: new Set(['ConsentRecorded']), handle: (tx, events) => count(tx, events) };
 */
export interface Processor<P = undefined> {
  /** The name of its checkpoint row; stable. */
  processorId: string;
  /** Event types it handles; the others only move its checkpoint. Every type when absent. */
  canHandle?: ReadonlySet<string>;
  /** Applies `events` (those past its checkpoint it handles, in ledger order), inside the batch's transaction. */
  handle(tx: Kysely<Database>, events: readonly RecordedEvent[], context: BatchContext<P>): Promise<void>;
}

/** Where a processor whose checkpoint row is created begins: the first event, or after the ledger's last. */
export type StartFrom = 'BEGINNING' | 'END';

/** Runs a transaction over `processors` and `events` as a batch does (see `FollowerDefinition.recover`). */
export type ApplyInTransaction<P> = (
  processors: readonly Processor<P>[],
  events: readonly RecordedEvent[],
  before?: (tx: Kysely<Database>) => Promise<void>,
) => Promise<void>;

/** What makes a follower: its processors, where their checkpoints live, and the hooks it needs. */
export interface FollowerDefinition<P = undefined> {
  /** Names it in logs ("projection runner"). */
  name: string;
  checkpoints: Checkpointer;
  /** Applied in this order, in one transaction per batch, each to the events past its own checkpoint. */
  processors: readonly Processor<P>[];
  /** Where a new checkpoint row begins (BEGINNING unless told). */
  startFrom?: StartFrom;
  /** Outside the transaction, before it: what needs no lock and must not hold one (reading streams). */
  prepare?(events: readonly RecordedEvent[]): Promise<P>;
  /**
   * Whether a batch writes nothing (with `checkpointIdleMs`): then no transaction runs, only the
   * in-memory cursor moves, and the checkpoint follows with the next batch that writes, or once
   * `checkpointIdleMs` passed since the last write. Reading such events again after a restart
   * must write nothing either.
   */
  writesNothing?(events: readonly RecordedEvent[], prepared: P): boolean;
  /** The first statement(s) of every batch transaction (a SET LOCAL). */
  begin?(tx: Kysely<Database>): Promise<void>;
  /**
   * A batch that failed for a reason of its own (not the database's): called instead of retrying
   * it. It may run transactions through `apply` (one event at a time, say); when it returns, the
   * batch counts as done. Without it, every failure is retried with back-off.
   */
  recover?(error: unknown, events: readonly RecordedEvent[], apply: ApplyInTransaction<P>): Promise<void>;
  /** The level a failed batch is logged at (warn unless told). */
  levelOf?(error: unknown): 'warn' | 'error';
}

export interface FollowerOptions {
  /** Events read per batch. */
  batchSize?: number;
  /** How often to look for events appended by other processes. */
  pollMs?: number;
  /** Spacing of poked batches unless someone waits (PokeLoopOptions.minIntervalMs). */
  minIntervalMs?: number;
  /** At most this long between checkpoint writes while batches write nothing (see `writesNothing`). */
  checkpointIdleMs?: number;
  /** While idle, how often to look whether the checkpoints were reset under it (1,000 ms). */
  resetCheckMs?: number;
  log?: Log;
}

/** Raised inside a batch when a checkpoint is behind where this process saw it: a rebuild reset it. */
export class CheckpointMovedBack extends Error {
  override readonly name = 'CheckpointMovedBack';
}

/**
 * The checkpointed follower of the ledger, in the manner of Emmett's processors: it reads a batch
 * of events after its processors' slowest checkpoint (through the followers' SharedReads), and in
 * one transaction locks their checkpoint rows, gives each processor the events past its own,
 * and moves the checkpoints that moved. Several processes can follow one ledger into one
 * database and each event is still applied once.
 *
 * It keeps the position it read up to (the cursor), so it does not read its checkpoints before
 * each batch; the locked read inside the transaction decides what is applied. A failed batch, or
 * a checkpoint found behind where this process saw it (a rebuild reset it), sends the cursor back
 * to the stored checkpoints. It runs on a PokeLoop: `poke` after an append, a poll for other
 * processes' appends, spacing of poked batches unless someone `waitFor`s a position.
 *
 * @example
 * const sealer = new Follower(db, reads, { name: 'transparency sealer', checkpoints: new TableCheckpointer('transparency.sealer'), processors: [seal] });
 * await sealer.start();
 * await sealer.waitFor(appended.position, 1000);
 * await sealer.stop();
 */
export class Follower<P = undefined> {
  private readonly progress = new PositionWaiters();
  private readonly loop: PokeLoop;
  /** Where the next read starts. */
  private cursor: LedgerPosition | undefined;
  /** The slowest checkpoint as this process last saw it: a locked one behind it moved back. */
  private seen: LedgerPosition | undefined;
  /** Events this process read and applied (or passed) since it started: how much its rows may have changed. */
  applied = 0;
  /** When this process last committed a batch, or began (ms since the epoch). */
  private savedAt = Date.now();
  /** When an idle read last compared the stored checkpoints with `seen` (ms since the epoch). */
  private checkedAt = 0;
  private readonly ids: readonly string[];
  private readonly batchSize: number;
  private readonly log: Log;
  private readonly checkpointIdleMs: number;
  private readonly resetCheckMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly reads: Pick<Ledger, 'readAll' | 'headPosition'>,
    private readonly definition: FollowerDefinition<P>,
    options: FollowerOptions = {},
  ) {
    this.ids = definition.processors.map((p) => p.processorId);
    this.batchSize = options.batchSize ?? 1000;
    this.log = options.log ?? silentLog;
    this.checkpointIdleMs = options.checkpointIdleMs ?? 0;
    this.resetCheckMs = options.resetCheckMs ?? 1000;
    this.loop = new PokeLoop(definition.name, async () => ({ more: (await this.runOnce()) >= this.batchSize }), {
      pollMs: options.pollMs ?? 250,
      log: this.log,
      minIntervalMs: options.minIntervalMs ?? 0,
      isUrgent: () => this.progress.waiting,
      ...(definition.levelOf ? { levelOf: definition.levelOf } : {}),
    });
  }

  get name(): string {
    return this.definition.name;
  }

  /** The position every processor has passed, as last seen. */
  get position(): LedgerPosition {
    return this.progress.position;
  }

  /**
   * The position every processor has passed as their stored checkpoints say, whichever process
   * moved them: what the followers' tables (read models, deliveries) hold at least.
   */
  storedPosition(): Promise<LedgerPosition> {
    return this.definition.checkpoints.read(this.db, this.ids);
  }

  /** Whether its loop runs. */
  get started(): boolean {
    return this.loop.started;
  }

  /** Creates the checkpoint rows that are missing, where `startFrom` says. */
  async ensureCheckpoints(): Promise<void> {
    const start = this.definition.startFrom === 'END' ? ((await this.reads.headPosition()) ?? START) : START;
    await this.definition.checkpoints.ensure(this.db, this.ids, start);
  }

  async start(): Promise<void> {
    await this.ensureCheckpoints();
    this.loop.start();
  }

  /** Ends the loop after the batch in flight; whoever waits for a position hears false. */
  async stop(): Promise<void> {
    await this.loop.stop();
    this.progress.cancelAll();
  }

  /** Asks for a batch now (after an append). */
  poke(): void {
    this.loop.poke();
  }

  /** Resolves true once every processor has passed `target`, false after `timeoutMs`. */
  waitFor(target: LedgerPosition, timeoutMs: number): Promise<boolean> {
    return this.progress.waitFor(target, timeoutMs, () => this.poke());
  }

  /**
   * Applies every event committed before the call (for rebuilds and tests), and returns how many
   * were read. An empty read does not mean "done": the ledger holds back events behind any
   * transaction still open in its database (ledger.read_horizon()), so this waits until the
   * processors pass the head the ledger showed at the start.
   */
  async catchUp(onProgress?: (applied: number) => void | Promise<void>): Promise<number> {
    await this.ensureCheckpoints();
    const target = await this.reads.headPosition();
    let total = 0;
    let idle = 0;
    let waited = 0;
    let warned = false;
    for (;;) {
      const n = await this.runOnce();
      total += n;
      await onProgress?.(total);
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

  /** One batch: read after the cursor, apply, move the checkpoints. Answers how many events were read. */
  async runOnce(): Promise<number> {
    if (this.cursor === undefined) {
      this.cursor = await this.definition.checkpoints.read(this.db, this.ids);
      this.seen = this.cursor;
    }
    const from = this.cursor;
    const events = await this.reads.readAll(from, this.batchSize);
    if (events.length === 0) {
      // Idle, at most once a second: a reset is found now, not at the next event (a rebuild
      // stopped midway leaves the checkpoints behind with nothing new to read).
      if (await this.resetWhileIdle()) return 0;
      this.advance(from);
      return 0;
    }
    const last = events[events.length - 1]!.position;
    const prepared = this.definition.prepare ? await this.definition.prepare(events) : (undefined as P);
    if (this.definition.writesNothing?.(events, prepared) && Date.now() - this.savedAt < this.checkpointIdleMs) {
      this.advance(last);
      return events.length;
    }
    try {
      const reached = await this.transact(this.definition.processors, events, prepared);
      this.seen = reached;
      this.advance(reached);
    } catch (error) {
      if (error instanceof CheckpointMovedBack) {
        // Reset under us (a rebuild): read again from where the checkpoints are now.
        await this.goBack();
        return 0;
      }
      if (!this.definition.recover || isTransientError(error)) {
        this.forget();
        throw error;
      }
      try {
        await this.definition.recover(error, events, (processors, some, before) =>
          this.transact(processors, some, prepared, before).then(() => undefined),
        );
      } catch (failure) {
        if (failure instanceof CheckpointMovedBack) {
          await this.goBack();
          return 0;
        }
        this.forget();
        throw failure;
      }
      this.seen = last;
      this.advance(last);
    }
    this.applied += events.length;
    return events.length;
  }

  /**
   * One transaction: locks the processors' checkpoints, gives each the events past its own,
   * and stores the ones that moved. Answers the slowest checkpoint after it (at least the last event).
   */
  private async transact(
    processors: readonly Processor<P>[],
    events: readonly RecordedEvent[],
    prepared: P,
    before?: (tx: Kysely<Database>) => Promise<void>,
  ): Promise<LedgerPosition> {
    const committed: (() => void)[] = [];
    const context: BatchContext<P> = { prepared, afterCommit: (fn) => void committed.push(fn) };
    const last = events[events.length - 1]!.position;
    const reached = await this.db.transaction().execute(async (tx) => {
      await this.definition.begin?.(tx);
      await before?.(tx);
      const ids = processors.map((p) => p.processorId);
      const locked = await this.definition.checkpoints.lock(tx, ids);
      const seen = this.seen;
      if (seen && [...locked.values()].some((at) => comparePositions(at, seen) < 0)) throw new CheckpointMovedBack();
      const moved: MovedCheckpoint[] = [];
      const after: LedgerPosition[] = [];
      for (const p of processors) {
        const from = locked.get(p.processorId);
        const fresh = from ? events.filter((e) => comparePositions(e.position, from) > 0) : events;
        if (fresh.length === 0) {
          after.push(from ?? last);
          continue;
        }
        const handled = p.canHandle ? fresh.filter((e) => p.canHandle!.has(e.type)) : fresh;
        if (handled.length > 0) await p.handle(tx, handled, context);
        moved.push({ id: p.processorId, position: last });
        after.push(last);
      }
      await this.definition.checkpoints.store(tx, moved);
      return after.length > 0 ? minPosition(after) : last;
    });
    this.savedAt = Date.now();
    for (const fn of committed) fn();
    return reached;
  }

  private forget(): void {
    this.cursor = undefined;
    this.seen = undefined;
  }

  /**
   * The checkpoints were reset under this process (a rebuild): it reads again from where they are
   * now, and the position it reports goes back with them, so that the read fence and the lag see
   * how far behind the read models are.
   */
  private async goBack(to?: LedgerPosition): Promise<void> {
    const stored = to ?? (await this.definition.checkpoints.read(this.db, this.ids));
    this.cursor = stored;
    this.seen = stored;
    this.progress.reset(stored);
  }

  /** Whether the stored checkpoints are behind what this process saw (reset under it): then it goes back to them. */
  private async resetWhileIdle(): Promise<boolean> {
    const seen = this.seen;
    if (!seen || Date.now() - this.checkedAt < this.resetCheckMs) return false;
    this.checkedAt = Date.now();
    const stored = await this.definition.checkpoints.read(this.db, this.ids);
    if (comparePositions(stored, seen) >= 0) return false;
    await this.goBack(stored);
    return true;
  }

  private advance(position: LedgerPosition): void {
    if (!this.cursor || comparePositions(position, this.cursor) > 0) this.cursor = position;
    this.progress.advance(position);
  }
}
