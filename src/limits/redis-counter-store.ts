import { Redis } from 'ioredis';
import { MemoryCounterStore, type CounterStore, type Counts, type Take, type WindowKeys } from './counter-store.js';

/**
 * Both windows in one script, so two processes never both take the last request of a window.
 * KEYS: minute counter, day counter. ARGV: minute limit, day limit, minute TTL ms, day TTL ms.
 * Answers {minute, day, taken}.
 */
const TAKE_SCRIPT = `
local m = tonumber(redis.call('GET', KEYS[1]) or '0')
local d = tonumber(redis.call('GET', KEYS[2]) or '0')
if m >= tonumber(ARGV[1]) or d >= tonumber(ARGV[2]) then
  return {m, d, 0}
end
m = redis.call('INCR', KEYS[1])
if m == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
d = redis.call('INCR', KEYS[2])
if d == 1 then redis.call('PEXPIRE', KEYS[2], ARGV[4]) end
return {m, d, 1}
`;

/** Takes back one take of both counters, never below zero (a counter gone stays gone). KEYS as TAKE_SCRIPT's. */
const GIVE_SCRIPT = `
for i = 1, 2 do
  local c = tonumber(redis.call('GET', KEYS[i]) or '0')
  if c > 0 then redis.call('DECR', KEYS[i]) end
end
return 1
`;

type LimiterRedis = Redis & {
  rateLimitTake(minuteKey: string, dayKey: string, ...args: number[]): Promise<[number, number, number]>;
  rateLimitGive(minuteKey: string, dayKey: string): Promise<number>;
};

/** Both the outage and the recovery are warnings, so an operator sees them as a pair. */
export interface StoreLog {
  warn(obj: object, msg: string): void;
}

/**
 * Counters in Redis, shared by every process that uses the same Redis. Redis is not allowed to
 * stop the service: while it is unreachable, requests are counted in this process's memory
 * (fail open: the budget becomes per process, never smaller), a warning is logged once per
 * outage, and Redis is used again as soon as it answers.
 *
 * @example
 * const limiter = new RateLimiter(new RedisCounterStore('redis://127.0.0.1:6379', app.log));
 */
export class RedisCounterStore implements CounterStore {
  private readonly redis: LimiterRedis;
  private readonly fallback: MemoryCounterStore;
  private down = false;
  /** Resolves on the first connection, or after a bound: requests sent while the service starts wait for it. */
  private readonly started: Promise<void>;

  constructor(
    url: string,
    private readonly log: StoreLog,
    options: { commandTimeoutMs?: number; startupWaitMs?: number; clock?: () => number } = {},
  ) {
    this.fallback = new MemoryCounterStore(options.clock);
    this.redis = new Redis(url, {
      // A request never waits for Redis to come back: a command fails at once while disconnected,
      // and after commandTimeoutMs when Redis hangs.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 500,
      connectTimeout: 2_000,
      // Reconnect forever, at most a second apart, so recovery follows Redis's return closely.
      retryStrategy: (times) => Math.min(times * 100, 1_000),
    }) as LimiterRedis;
    // EVALSHA, falling back to EVAL when a restarted Redis has forgotten the script.
    this.redis.defineCommand('rateLimitTake', { numberOfKeys: 2, lua: TAKE_SCRIPT });
    this.redis.defineCommand('rateLimitGive', { numberOfKeys: 2, lua: GIVE_SCRIPT });
    this.redis.on('error', (error: Error) => this.outage(error));
    this.redis.on('ready', () => this.recovered());
    this.started = new Promise((resolve) => {
      const timer = setTimeout(resolve, options.startupWaitMs ?? 2_000);
      timer.unref();
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Whether counting happens in Redis right now (false during an outage). */
  get shared(): boolean {
    return !this.down && this.redis.status === 'ready';
  }

  private outage(error: unknown): void {
    if (this.down) return;
    this.down = true;
    this.log.warn(
      { err: { message: (error as Error)?.message ?? String(error) } },
      'rate limits: Redis is unreachable; counting in this process until it returns (each process allows the full budget meanwhile)',
    );
  }

  private recovered(): void {
    if (!this.down) return;
    this.down = false;
    this.log.warn({}, 'rate limits: Redis is back; counters are shared again');
  }

  async take(keys: WindowKeys, limits: Counts, ttlMs: Counts): Promise<Take> {
    await this.started;
    try {
      const [minute, day, taken] = await this.redis.rateLimitTake(
        keys.minute,
        keys.day,
        limits.minute,
        limits.day,
        Math.ceil(ttlMs.minute),
        Math.ceil(ttlMs.day),
      );
      this.recovered();
      return { minute: Number(minute), day: Number(day), taken: Number(taken) === 1 };
    } catch (error) {
      this.outage(error);
      return this.fallback.take(keys, limits, ttlMs);
    }
  }

  async peek(keys: WindowKeys): Promise<Counts> {
    await this.started;
    try {
      const [minute, day] = await this.redis.mget(keys.minute, keys.day);
      this.recovered();
      return { minute: Number(minute ?? 0), day: Number(day ?? 0) };
    } catch (error) {
      this.outage(error);
      return this.fallback.peek(keys);
    }
  }

  async give(keys: WindowKeys): Promise<void> {
    await this.started;
    try {
      await this.redis.rateLimitGive(keys.minute, keys.day);
      this.recovered();
    } catch (error) {
      this.outage(error);
      await this.fallback.give(keys);
    }
  }

  async close(): Promise<void> {
    this.redis.removeAllListeners('error');
    // Swallow errors raised while closing (Redis may be gone already).
    this.redis.on('error', () => {});
    this.redis.disconnect();
    await this.fallback.close();
  }
}
