import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * PGlite runs each query synchronously on this thread and answers through promises that settle
 * without I/O, so a long run of queries (a projection batch, a 1,000-item append) is one chain
 * of microtasks: sockets are not read, /health does not answer, and a SIGTERM handler does not
 * run until it ends. Yielding to the event loop before each query lets them in between.
 */
const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * How long queries may follow one another without the event loop turning. A yield per query
 * made every statement of a transaction wait for a whole turn (all the HTTP work queued in it)
 * while holding the only connection; yielding once this long has passed keeps sockets and
 * signals served without that.
 */
const MAX_MS_WITHOUT_A_TURN = 4;

/**
 * A pg-Pool look-alike over one PGlite instance, for Kysely's PostgresDialect.
 * PGlite is a single connection: `connect()` hands it to one caller at a time (a FIFO queue),
 * so a Kysely transaction owns it from BEGIN to COMMIT and nothing interleaves.
 *
 * `priority()` is a view of the same connection whose callers go before everyone waiting on the
 * plain pool: the background followers (projection runner, sealer) use it, so that under a
 * stream of requests each of their few statements per batch waits for the query in progress
 * only, not for every request queued behind it (read-your-writes and proofs wait for them).
 */
export class PGlitePool implements PostgresPool {
  private busy = false;
  private readonly urgent: (() => void)[] = [];
  private readonly waiting: (() => void)[] = [];
  private readonly idle: (() => void)[] = [];
  private ended = false;
  /** A run of queries is on: its check-phase callback has not run yet (the event loop did not turn). */
  private watching = false;
  private runStartedAt = 0;

  constructor(readonly pglite: PGlite) {}

  connect(): Promise<PostgresPoolClient> {
    return this.take(false);
  }

  /**
   * One statement on the connection, taken and handed back around it: the store's own upkeep
   * (checkpoints, vacuum, backups), first in line with `priority`. Answers its rows.
   */
  async run<R>(sql: string, parameters: readonly unknown[] = [], { priority = false } = {}): Promise<R[]> {
    const client = await this.take(priority);
    try {
      return (await client.query<R>(sql, parameters)).rows;
    } finally {
      client.release();
    }
  }

  /** The same connection, first in line (see the class comment). */
  priority(): PostgresPool {
    return { connect: () => this.take(true), end: async () => undefined };
  }

  private async take(first: boolean): Promise<PostgresPoolClient> {
    if (this.ended) throw new Error('the embedded store is closed');
    if (this.busy) await new Promise<void>((resolve) => (first ? this.urgent : this.waiting).push(resolve));
    else this.busy = true;
    const release = () => this.handOn();
    const pglite = this.pglite;
    const pace = () => this.pace();
    let released = false;
    const client = {
      async query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>> {
        await pace();
        // Without parameters, use the simple protocol: it allows several statements (migrations).
        const result =
          parameters.length === 0
            ? ((await pglite.exec(sql)).at(-1) ?? { rows: [], affectedRows: 0 })
            : await pglite.query<R>(sql, parameters as unknown[]);
        const command = (result as { command?: string }).command ?? 'SELECT';
        return {
          command: command as PostgresQueryResult<R>['command'],
          rowCount: (result as { rowCount?: number }).rowCount ?? result.affectedRows ?? result.rows.length,
          rows: result.rows as R[],
        };
      },
      release() {
        if (released) return;
        released = true;
        release();
      },
    };
    return client as unknown as PostgresPoolClient;
  }

  /**
   * Before a query: when queries have followed one another for a while without the event loop
   * turning (the check-phase callback armed at the first of them has not run), let it turn.
   */
  private async pace(): Promise<void> {
    if (this.watching && performance.now() - this.runStartedAt > MAX_MS_WITHOUT_A_TURN) await yieldToEventLoop();
    if (this.watching) return;
    this.watching = true;
    this.runStartedAt = performance.now();
    setImmediate(() => {
      this.watching = false;
    });
  }

  /** Gives the connection to the next caller: a priority one first. */
  private handOn(): void {
    const next = this.urgent.shift() ?? this.waiting.shift();
    if (next) return next();
    this.busy = false;
    for (const done of this.idle.splice(0)) done();
  }

  /** Refuses new callers and waits for those holding or waiting for the connection. */
  async end(): Promise<void> {
    this.ended = true;
    if (this.busy) await new Promise<void>((resolve) => this.idle.push(resolve));
  }
}
