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
 */
export class PGlitePool implements PostgresPool {
  private tail: Promise<void> = Promise.resolve();
  private ended = false;
  /** A run of queries is on: its check-phase callback has not run yet (the event loop did not turn). */
  private watching = false;
  private runStartedAt = 0;

  constructor(readonly pglite: PGlite) {}

  async connect(): Promise<PostgresPoolClient> {
    if (this.ended) throw new Error('the embedded store is closed');
    let release!: () => void;
    const turn = new Promise<void>((resolve) => (release = resolve));
    const previous = this.tail;
    this.tail = previous.then(() => turn);
    await previous;
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

  async end(): Promise<void> {
    this.ended = true;
    await this.tail;
  }
}
