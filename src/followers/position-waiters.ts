import { comparePositions, START, type LedgerPosition } from '../ledger/ledger.port.js';

/**
 * How far a ledger follower (projection runner, sealer) has got, and the callers waiting for it to
 * pass a position. One piece so that every follower answers `waitFor` the same way.
 *
 * @example
 * const progress = new PositionWaiters();
 * const ok = progress.waitFor(appended.position, 5000, () => follower.poke());
 * progress.advance(lastApplied.position); // resolves ok with true
 */
export class PositionWaiters {
  private known: LedgerPosition = START;
  private readonly waiters = new Set<{ target: LedgerPosition; done: (ok: boolean) => void }>();

  /** The position reached, as last seen. */
  get position(): LedgerPosition {
    return this.known;
  }

  /** Whether someone waits for a position not reached yet. */
  get waiting(): boolean {
    return this.waiters.size > 0;
  }

  /** Resolves true once `target` is passed, false after `timeoutMs`; `wake` is called when it must wait. */
  waitFor(target: LedgerPosition, timeoutMs: number, wake: () => void): Promise<boolean> {
    if (comparePositions(this.known, target) >= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        target,
        done: (ok: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(ok);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      this.waiters.add(waiter);
      wake();
    });
  }

  /** Records progress (never backwards) and releases the waiters it satisfies. */
  advance(position: LedgerPosition): void {
    if (comparePositions(position, this.known) > 0) this.known = position;
    for (const w of this.waiters) if (comparePositions(this.known, w.target) >= 0) w.done(true);
  }

  /** Goes back to `position` (the checkpoints were reset under the follower): the waiters wait on. */
  reset(position: LedgerPosition): void {
    this.known = position;
  }

  /** Releases every waiter with false (the follower stops). */
  cancelAll(): void {
    for (const w of this.waiters) w.done(false);
  }
}
