import type { RunnerLog } from '../../projections/runner.js';

/**
 * A background loop that runs `step` again at once while it reports more work, after `pollMs`
 * when idle, when poked, and with a growing back-off while it fails. A failing step is logged and
 * retried; it never ends the loop.
 */
export class PokeLoop {
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private poked = false;

  constructor(
    private readonly name: string,
    private readonly step: () => Promise<{ more: boolean; waitMs?: number }>,
    private readonly pollMs: number,
    private readonly log: RunnerLog,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.poke();
    await this.loop;
  }

  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    let backoff = 0;
    while (this.running) {
      this.poked = false;
      let waitMs = this.pollMs;
      try {
        const r = await this.step();
        backoff = 0;
        if (r.more) continue;
        if (r.waitMs !== undefined) waitMs = Math.max(0, Math.min(waitMs, r.waitMs));
      } catch (error) {
        backoff = Math.min(5000, backoff === 0 ? 100 : backoff * 2);
        waitMs = backoff;
        this.log.warn({ err: error, retryInMs: backoff }, `${this.name}: could not read or write; retrying`);
      }
      if (!this.running) break;
      if (this.poked && backoff === 0) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, waitMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
    }
  }
}
