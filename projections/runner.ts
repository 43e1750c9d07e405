import { sql, type Kysely } from 'kysely';
import { comparePositions, START, type Ledger, type LedgerPosition, type RecordedEvent } from '../src/ledger/ledger.port.js';
import type { Database } from '../src/store/schema.js';
import type { Projector } from './projector.js';
import { isTransientError } from '../src/store/database-errors.js';
import { PositionWaiters } from '../src/ledger/position-waiters.js';

export interface RunnerLog {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunnerOptions {
  batchSize?: number;
  /** How often to look for events appended by other processes. */
  pollMs?: number;
  log?: RunnerLog;
}

const silent: RunnerLog = { warn: () => undefined, error: () => undefined };

const minPosition = (ps: LedgerPosition[]): LedgerPosition =>
  ps.reduce((a, b) => (comparePositions(a, b) <= 0 ? a : b), ps[0] ?? START);

export { isTransientError };

/**
 * Feeds ledger events to the projectors. Each batch is applied in one transaction that also
 * moves every projector's checkpoint, with the checkpoint rows locked: several processes can run
 * runners on one database and each event is still applied once.
 *
 * @example
 * const runner = new ProjectionRunner(db, ledger, allProjectors);
 * await runner.start();
 * await runner.waitFor(appended.position, 5000);
 */
export class ProjectionRunner {
  private readonly progress = new PositionWaiters();
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private poked = false;
  private readonly batchSize: number;
  private readonly pollMs: number;
  private readonly log: RunnerLog;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ledger: Ledger,
    private readonly projectors: readonly Projector[],
    options: RunnerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 500;
    this.pollMs = options.pollMs ?? 250;
    this.log = options.log ?? silent;
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
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
    this.progress.cancelAll();
  }

  /** Asks the runner to look for new events now. */
  poke(): void {
    this.poked = true;
    this.wake?.();
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
        this.log.warn({ target, at: this.progress.position }, 'catch-up waits for a transaction that is still open before it can read the last events');
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }

  /** One batch: read after the slowest checkpoint, apply, move checkpoints. */
  async runOnce(): Promise<number> {
    const rows = await this.db
      .selectFrom('read.checkpoints')
      .select(['name', 'commit_position', 'prepare_position'])
      .where('name', 'in', this.projectors.map((p) => p.name))
      .execute();
    const from = minPosition(rows.map((r) => ({ commit: Number(r.commit_position), prepare: Number(r.prepare_position) })));
    const events = await this.ledger.readAll(from, this.batchSize);
    if (events.length === 0) {
      this.advance(from);
      return 0;
    }
    try {
      await this.db.transaction().execute(async (tx) => {
        for (const p of this.projectors) await this.applyTo(tx, p, events);
      });
    } catch (error) {
      if (isTransientError(error)) throw error;
      this.log.error({ err: error }, 'projection batch failed; applying its events one by one');
      await this.applyOneByOne(events);
    }
    this.advance(events[events.length - 1]!.position);
    return events.length;
  }

  private async applyTo(tx: Kysely<Database>, p: Projector, events: readonly RecordedEvent[]): Promise<void> {
    const cp = await sql<{ commit_position: number; prepare_position: number }>`
      SELECT commit_position, prepare_position FROM read.checkpoints WHERE name = ${p.name} FOR UPDATE`.execute(tx);
    const row = cp.rows[0];
    const at = row ? { commit: Number(row.commit_position), prepare: Number(row.prepare_position) } : START;
    const fresh = events.filter((e) => comparePositions(e.position, at) > 0);
    if (fresh.length === 0) return;
    for (const e of fresh) if (p.handles.has(e.type)) await p.apply(tx, e);
    const last = fresh[fresh.length - 1]!.position;
    await tx
      .updateTable('read.checkpoints')
      .set({ commit_position: last.commit, prepare_position: last.prepare, updated_at: new Date().toISOString() })
      .where('name', '=', p.name)
      .execute();
  }

  /** A bad event is recorded in read.projection_failures and skipped; it never stops the loop. */
  private async applyOneByOne(events: readonly RecordedEvent[]): Promise<void> {
    for (const e of events) {
      for (const p of this.projectors) {
        try {
          await this.db.transaction().execute((tx) => this.applyTo(tx, p, [e]));
        } catch (error) {
          if (isTransientError(error)) throw error;
          this.log.error({ err: error, projector: p.name, eventId: e.id, eventType: e.type }, 'projector failed on an event; skipped');
          await this.db.transaction().execute(async (tx) => {
            await tx
              .insertInto('read.projection_failures')
              .values({ projector: p.name, event_id: e.id, error: String((error as Error).message).slice(0, 2000) })
              .onConflict((oc) => oc.doNothing())
              .execute();
            await this.applyTo(tx, { ...p, handles: new Set() }, [e]);
          });
        }
      }
    }
  }

  private advance(position: LedgerPosition): void {
    this.progress.advance(position);
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      this.poked = false;
      try {
        const n = await this.runOnce();
        backoff = 0;
        if (n >= this.batchSize) continue;
      } catch (error) {
        backoff = Math.min(5000, backoff === 0 ? 100 : backoff * 2);
        this.log.warn({ err: error, retryInMs: backoff }, 'projection runner could not read or write; retrying');
      }
      if (!this.running) break;
      if (this.poked && backoff === 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, backoff || this.pollMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
