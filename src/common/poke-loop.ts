import type { Log } from './log.js';

/** Where a background loop reports its failures (the service's logger). */
export type LoopLog = Log;

export interface PokeLoopOptions {
  /** How long to sleep when idle: the fallback for work that arrives without a poke (another process). */
  pollMs: number;
  log: LoopLog;
  /** Which level a failed step is logged at; warn unless told. */
  levelOf?: (error: unknown) => 'warn' | 'error';
  /**
   * A step started by a poke begins at least this long after the previous step began (default 0):
   * under a stream of appends, each step then takes the events of this long instead of one
   * append's, and its fixed cost (a transaction, a few statements) is paid that much less often.
   * Not while the previous step reported more work, nor while `isUrgent` says someone waits.
   */
  minIntervalMs?: number;
  /** Whether a caller waits for this loop (a read fence, a proof): then it runs at once. */
  isUrgent?: () => boolean;
}

/**
 * The background loop of every ledger follower (src/followers/follower.ts) and of the webhook
 * dispatcher: `step` again at once while it reports more work or was poked while it ran, after
 * `pollMs` (or the step's `waitMs`) when idle, and with a growing back-off (100 ms doubling to
 * 5 s) while it fails. A failing step is logged and retried; it never ends the loop.
 *
 * @example
 * const loop = new PokeLoop('projection runner', async () => ({ more: (await runOnce()) >= 500 }), { pollMs: 250, log });
 * loop.start();
 * ledgerAppended(() => loop.poke());
 * await loop.stop();
 */
export class PokeLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private poked = false;

  constructor(
    private readonly name: string,
    private readonly step: () => Promise<{ more: boolean; waitMs?: number }>,
    private readonly options: PokeLoopOptions,
  ) {}

  get started(): boolean {
    return this.running;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Ends the loop after the step in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
  }

  /** Runs the step again as soon as the one in flight ends (at once when idle, or after the spacing). */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    let backoff = 0;
    /** Whether the next step is spaced from the previous one's start (it was not asked for by `more`). */
    let spaced = false;
    let startedAt = 0;
    const minInterval = this.options.minIntervalMs ?? 0;
    while (this.running) {
      if (spaced && minInterval > 0 && !this.options.isUrgent?.()) {
        const rest = startedAt + minInterval - performance.now();
        if (rest > 0) await this.pause(rest, true);
        if (!this.running) break;
      }
      this.poked = false;
      startedAt = performance.now();
      spaced = true;
      let waitMs = this.options.pollMs;
      try {
        const r = await this.step();
        backoff = 0;
        if (r.more) {
          spaced = false;
          continue;
        }
        if (r.waitMs !== undefined) waitMs = Math.max(0, Math.min(waitMs, r.waitMs));
      } catch (error) {
        backoff = Math.min(5000, backoff === 0 ? 100 : backoff * 2);
        waitMs = backoff;
        const level = this.options.levelOf?.(error) ?? 'warn';
        this.options.log[level]({ err: error, retryInMs: backoff }, `${this.name}: could not read or write; retrying`);
      }
      if (!this.running) break;
      if (this.poked && backoff === 0) continue;
      await this.pause(waitMs, false);
    }
  }

  /** Sleeps `ms`; a poke ends it early (with `urgentOnly`, only while `isUrgent` holds), and so does stop. */
  private pause(ms: number, urgentOnly: boolean): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = () => {
        if (!urgentOnly || !this.running || this.options.isUrgent?.()) done();
      };
    });
  }
}
