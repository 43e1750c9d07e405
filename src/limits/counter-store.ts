/** The two counters of one subject (a tenant, or a client address) for the current windows. */
export interface WindowKeys {
  minute: string;
  day: string;
}

export interface Counts {
  minute: number;
  day: number;
}

/** What a take did: whether it counted the request, and both counts after it. */
export interface Take extends Counts {
  taken: boolean;
}

/**
 * Where the fixed-window counters live: this process's memory, or Redis for several processes.
 *
 * @example
 * const r = await store.take({ minute: 'k:m:1', day: 'k:d:1' }, { minute: 60, day: 1000 }, { minute: 120_000, day: 86_460_000 });
 * if (!r.taken) refuse(); // one of the windows is used up; nothing was counted
 */
export interface CounterStore {
  /**
   * Atomically: when both counters are below their limits, adds one to each; otherwise changes
   * nothing (a refused request does not use up the other window). `ttlMs` bounds how long a
   * counter is kept once its window has begun.
   */
  take(keys: WindowKeys, limits: Counts, ttlMs: Counts): Promise<Take>;
  /** Both counts, changing nothing. */
  peek(keys: WindowKeys): Promise<Counts>;
  /** Takes back one `take` of these counters (a request another budget refused), never below zero. */
  give(keys: WindowKeys): Promise<void>;
  close(): Promise<void>;
}

interface Counter {
  count: number;
  expiresAt: number;
}

/** Counters in this process's memory: the embedded default, and the fallback while Redis is away. */
export class MemoryCounterStore implements CounterStore {
  private readonly counters = new Map<string, Counter>();
  private takesSinceSweep = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  private count(key: string, now: number): number {
    const c = this.counters.get(key);
    return c && c.expiresAt > now ? c.count : 0;
  }

  private bump(key: string, ttlMs: number, now: number): number {
    const c = this.counters.get(key);
    if (c && c.expiresAt > now) return ++c.count;
    this.counters.set(key, { count: 1, expiresAt: now + ttlMs });
    return 1;
  }

  /** Drops the counters of windows that have ended, so memory follows the active subjects only. */
  private sweep(now: number): void {
    if (++this.takesSinceSweep < 1_000) return;
    this.takesSinceSweep = 0;
    for (const [key, c] of this.counters) if (c.expiresAt <= now) this.counters.delete(key);
  }

  async take(keys: WindowKeys, limits: Counts, ttlMs: Counts): Promise<Take> {
    const now = this.clock();
    this.sweep(now);
    const minute = this.count(keys.minute, now);
    const day = this.count(keys.day, now);
    if (minute >= limits.minute || day >= limits.day) return { minute, day, taken: false };
    return { minute: this.bump(keys.minute, ttlMs.minute, now), day: this.bump(keys.day, ttlMs.day, now), taken: true };
  }

  async peek(keys: WindowKeys): Promise<Counts> {
    const now = this.clock();
    return { minute: this.count(keys.minute, now), day: this.count(keys.day, now) };
  }

  async give(keys: WindowKeys): Promise<void> {
    const now = this.clock();
    for (const key of [keys.minute, keys.day]) {
      const c = this.counters.get(key);
      if (c && c.expiresAt > now && c.count > 0) c.count -= 1;
    }
  }

  async close(): Promise<void> {
    this.counters.clear();
  }
}
