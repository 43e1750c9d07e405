import type { CounterStore } from './counter-store.js';

/** A budget: requests per minute and per UTC day. */
export interface Limits {
  perMinute: number;
  perDay: number;
}

/** Where a subject stands in one window. `reset` is the unix time (seconds) the window ends. */
export interface WindowState {
  limit: number;
  remaining: number;
  reset: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  minute: WindowState;
  day: WindowState;
  /** Seconds until a refused request may succeed (0 when allowed). */
  retryAfter: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
/** Counters outlive their window a little, so a process whose clock runs behind still finds them. */
const KEEP_AFTER_MS = 60_000;

/**
 * The two fixed windows at a moment: the current minute and the current UTC day. Unix time has
 * no leap seconds, so a UTC day always starts at a multiple of 86,400 s.
 */
export function windowsAt(nowMs: number): { minuteStart: number; minuteEnd: number; dayStart: number; dayEnd: number } {
  const minuteStart = Math.floor(nowMs / MINUTE_MS) * MINUTE_MS;
  const dayStart = Math.floor(nowMs / DAY_MS) * DAY_MS;
  return { minuteStart, minuteEnd: minuteStart + MINUTE_MS, dayStart, dayEnd: dayStart + DAY_MS };
}

/**
 * Per-subject budgets over two fixed windows (per minute, per UTC day), counted in a
 * CounterStore. A request is counted only when both windows have room, atomically.
 *
 * @example
 * const limiter = new RateLimiter(new MemoryCounterStore());
 * const d = await limiter.take('tenant:42', { perMinute: 60, perDay: 1_000 });
 * if (!d.allowed) answer429(d.retryAfter);
 */
export class RateLimiter {
  private readonly prefix: string;
  private readonly clock: () => number;

  constructor(
    private readonly store: CounterStore,
    options: { prefix?: string; clock?: () => number } = {},
  ) {
    this.prefix = options.prefix ?? 'consent-ledger:rl:';
    this.clock = options.clock ?? Date.now;
  }

  private keys(subject: string, w: ReturnType<typeof windowsAt>) {
    // The hash tag `{subject}` keeps both keys in one Redis Cluster slot, so one script can touch both.
    const base = `${this.prefix}{${subject}}`;
    return { minute: `${base}:m:${w.minuteStart / 1000}`, day: `${base}:d:${w.dayStart / 1000}` };
  }

  private decide(
    now: number,
    w: ReturnType<typeof windowsAt>,
    limits: Limits,
    counts: { minute: number; day: number },
    allowed: boolean,
  ): RateLimitDecision {
    const minute = { limit: limits.perMinute, remaining: Math.max(0, limits.perMinute - counts.minute), reset: w.minuteEnd / 1000 };
    const day = { limit: limits.perDay, remaining: Math.max(0, limits.perDay - counts.day), reset: w.dayEnd / 1000 };
    let retryAfter = 0;
    if (!allowed) {
      // When the day is used up, the next minute does not help.
      const until = counts.day >= limits.perDay ? w.dayEnd : w.minuteEnd;
      retryAfter = Math.max(1, Math.ceil((until - now) / 1000));
    }
    return { allowed, minute, day, retryAfter };
  }

  /** Counts one request of `subject` when both windows have room; answers where it stands after. */
  async take(subject: string, limits: Limits): Promise<RateLimitDecision> {
    const now = this.clock();
    return this.takeAt(subject, limits, now, windowsAt(now));
  }

  private async takeAt(subject: string, limits: Limits, now: number, w: ReturnType<typeof windowsAt>): Promise<RateLimitDecision> {
    const r = await this.store.take(
      this.keys(subject, w),
      { minute: limits.perMinute, day: limits.perDay },
      { minute: w.minuteEnd - now + KEEP_AFTER_MS, day: w.dayEnd - now + KEEP_AFTER_MS },
    );
    return this.decide(now, w, limits, r, r.taken);
  }

  /**
   * Counts one request against every budget, or against none: when one refuses, what the budgets
   * before it took is given back (in the windows they were taken in). Answers each decision made,
   * the refusal last.
   */
  async takeAll(budgets: readonly { subject: string; limits: Limits }[]): Promise<RateLimitDecision[]> {
    const now = this.clock();
    const w = windowsAt(now);
    const decisions: RateLimitDecision[] = [];
    for (const { subject, limits } of budgets) {
      const d = await this.takeAt(subject, limits, now, w);
      decisions.push(d);
      if (!d.allowed) {
        for (const taken of budgets.slice(0, decisions.length - 1)) await this.store.give(this.keys(taken.subject, w));
        break;
      }
    }
    return decisions;
  }

  /** Where `subject` stands, counting nothing; `allowed` says whether a take would succeed. */
  async peek(subject: string, limits: Limits): Promise<RateLimitDecision> {
    const now = this.clock();
    const w = windowsAt(now);
    const c = await this.store.peek(this.keys(subject, w));
    return this.decide(now, w, limits, c, c.minute < limits.perMinute && c.day < limits.perDay);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
