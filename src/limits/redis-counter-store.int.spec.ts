import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';
import { RedisCounterStore } from './redis-counter-store.js';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('[test] REDIS_URL is not set: the Redis counter-store tests are skipped (CI sets it)');
const describeRedis = redisUrl ? describe : describe.skip;

const quiet = { warn: () => {} };

describeRedis('redis counters › when several processes take at once › never more than the limit', () => {
  const prefix = `cl-int:${randomBytes(6).toString('hex')}:`;
  let one: RateLimiter;
  let two: RateLimiter;
  let probe: Redis;
  beforeAll(() => {
    // Two stores, two connections: as two processes would be.
    // A fixed clock: a minute boundary in the middle of a race would make two windows.
    const clock = () => Date.parse('2031-03-04T05:06:15Z');
    one = new RateLimiter(new RedisCounterStore(redisUrl!, quiet), { prefix, clock });
    two = new RateLimiter(new RedisCounterStore(redisUrl!, quiet), { prefix, clock });
    probe = new Redis(redisUrl!);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    probe?.disconnect();
  });

  it('300 concurrent takes against a budget of 50 per minute: exactly 50 pass, and both windows count 50', async () => {
    const limits = { perMinute: 50, perDay: 1_000 };
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? one : two).take('race', limits)));
    expect(results.filter((r) => r.allowed)).toHaveLength(50);
    const remaining = results
      .filter((r) => r.allowed)
      .map((r) => r.minute.remaining)
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect((await one.peek('race', limits)).day.remaining).toBe(950);
  });

  it('when the day budget is the one used up › the minute counter is not spent either', async () => {
    const limits = { perMinute: 100, perDay: 3 };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).take('daily-race', limits)));
    expect(results.filter((r) => r.allowed)).toHaveLength(3);
    expect(await one.peek('daily-race', limits)).toMatchObject({ minute: { remaining: 97 }, day: { remaining: 0 } });
  });

  it('when a second budget refuses › the first gives back its take, in Redis too', async () => {
    const own = { subject: 'give-own', limits: { perMinute: 5, perDay: 5 } };
    const shared = { subject: 'give-shared', limits: { perMinute: 1, perDay: 100 } };
    expect((await two.take(shared.subject, shared.limits)).allowed).toBe(true);
    const decisions = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? one : two).takeAll([own, shared])));
    expect(decisions.every((d) => d.at(-1)!.allowed === false)).toBe(true);
    expect(await one.peek(own.subject, own.limits)).toMatchObject({ minute: { remaining: 5 }, day: { remaining: 5 } });
  });

  it('when Redis has forgotten the script (restart, SCRIPT FLUSH) › the next take loads it again', async () => {
    const limits = { perMinute: 10, perDay: 10 };
    expect((await one.take('flushed', limits)).minute.remaining).toBe(9);
    await probe.script('FLUSH');
    expect((await one.take('flushed', limits)).minute.remaining).toBe(8);
  });

  it('counters expire after their window, so Redis does not fill up', async () => {
    await one.take('expiring', { perMinute: 10, perDay: 10 });
    const keys = await probe.keys(`${prefix}{expiring}:*`);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      const ttl = await probe.pttl(key);
      // At most the rest of the window plus one minute.
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual((key.includes(':m:') ? 120 : 86_400 + 60) * 1000);
    }
  });
});
