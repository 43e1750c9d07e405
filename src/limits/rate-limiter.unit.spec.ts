import { describe, expect, it } from 'vitest';
import { MemoryCounterStore } from './counter-store.js';
import { addressSubject, rateLimitHeaders, tooManyRequests } from './rate-limit.hooks.js';
import { RateLimiter, windowsAt } from './rate-limiter.js';

/** A limiter on a clock the test moves. */
function limiterAt(iso: string) {
  let now = Date.parse(iso);
  const clock = () => now;
  const limiter = new RateLimiter(new MemoryCounterStore(clock), { clock });
  return { limiter, set: (t: string) => void (now = Date.parse(t)), advance: (ms: number) => void (now += ms) };
}

const unix = (iso: string) => Date.parse(iso) / 1000;

describe('rate limiter › windows', () => {
  it('when asked at any moment › answers the current minute and the current UTC day', () => {
    const w = windowsAt(Date.parse('2031-03-04T05:06:07.890Z'));
    expect(new Date(w.minuteStart).toISOString()).toBe('2031-03-04T05:06:00.000Z');
    expect(new Date(w.minuteEnd).toISOString()).toBe('2031-03-04T05:07:00.000Z');
    expect(new Date(w.dayStart).toISOString()).toBe('2031-03-04T00:00:00.000Z');
    expect(new Date(w.dayEnd).toISOString()).toBe('2031-03-05T00:00:00.000Z');
  });
});

describe('rate limiter › when a subject uses its minute budget', () => {
  it('allows exactly the limit, then refuses with Retry-After up to the next minute, then allows again', async () => {
    const { limiter, set } = limiterAt('2031-03-04T05:06:15Z');
    const limits = { perMinute: 3, perDay: 100 };
    const first = await limiter.take('t1', limits);
    expect(first).toEqual({
      allowed: true,
      minute: { limit: 3, remaining: 2, reset: unix('2031-03-04T05:07:00Z') },
      day: { limit: 100, remaining: 99, reset: unix('2031-03-05T00:00:00Z') },
      retryAfter: 0,
    });
    expect((await limiter.take('t1', limits)).minute.remaining).toBe(1);
    expect((await limiter.take('t1', limits)).minute.remaining).toBe(0);

    const refused = await limiter.take('t1', limits);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfter).toBe(45);
    // A refused request is not counted: the day still shows three.
    expect(refused.day.remaining).toBe(97);
    expect((await limiter.take('t1', limits)).day.remaining).toBe(97);

    set('2031-03-04T05:07:00Z');
    const next = await limiter.take('t1', limits);
    expect(next.allowed).toBe(true);
    expect(next.minute).toEqual({ limit: 3, remaining: 2, reset: unix('2031-03-04T05:08:00Z') });
    expect(next.day.remaining).toBe(96);
  });

  it('keeps subjects apart: one subject out of budget leaves another untouched', async () => {
    const { limiter } = limiterAt('2031-03-04T05:06:15Z');
    const limits = { perMinute: 1, perDay: 100 };
    expect((await limiter.take('a', limits)).allowed).toBe(true);
    expect((await limiter.take('a', limits)).allowed).toBe(false);
    expect((await limiter.take('b', limits)).allowed).toBe(true);
  });

  it('follows a changed limit at once: the same counts, measured against the new numbers', async () => {
    const { limiter } = limiterAt('2031-03-04T05:06:15Z');
    for (let i = 0; i < 5; i++) await limiter.take('t', { perMinute: 10, perDay: 100 });
    expect((await limiter.take('t', { perMinute: 5, perDay: 100 })).allowed).toBe(false);
    expect(await limiter.take('t', { perMinute: 20, perDay: 100 })).toMatchObject({ allowed: true, minute: { limit: 20, remaining: 14 } });
  });
});

describe('rate limiter › when a subject uses its day budget', () => {
  it('refuses until the next UTC midnight, whatever the minute window says, and counts again after it', async () => {
    const { limiter, advance, set } = limiterAt('2031-03-04T23:58:30Z');
    const limits = { perMinute: 1_000, perDay: 2 };
    await limiter.take('t', limits);
    advance(61_000);
    await limiter.take('t', limits);
    advance(1_000);
    const refused = await limiter.take('t', limits);
    expect(refused).toMatchObject({ allowed: false, day: { limit: 2, remaining: 0 }, minute: { remaining: 999 } });
    // 23:59:32 → midnight is 28 s away; the minute's reset would be too early.
    expect(refused.retryAfter).toBe(28);
    expect(tooManyRequests(refused).details).toEqual({ window: 'day', limit: 2, retryAfter: 28 });

    set('2031-03-05T00:00:00Z');
    expect(await limiter.take('t', limits)).toMatchObject({ allowed: true, day: { remaining: 1, reset: unix('2031-03-06T00:00:00Z') } });
  });

  it('peek tells where a subject stands and counts nothing', async () => {
    const { limiter } = limiterAt('2031-03-04T05:06:15Z');
    const limits = { perMinute: 2, perDay: 10 };
    expect((await limiter.peek('p', limits)).allowed).toBe(true);
    await limiter.take('p', limits);
    await limiter.take('p', limits);
    const p = await limiter.peek('p', limits);
    expect(p).toMatchObject({ allowed: false, minute: { remaining: 0 }, day: { remaining: 8 }, retryAfter: 45 });
    expect((await limiter.peek('p', limits)).day.remaining).toBe(8);
  });
});

describe('rate limiter › when a request spends several budgets (a publishable key: its own and the shared one)', () => {
  it('counts it against all or none: a refusal by one gives back what the others took', async () => {
    const { limiter } = limiterAt('2026-03-04T05:06:15Z');
    const own = { subject: 'key:a', limits: { perMinute: 2, perDay: 100 } };
    const shared = { subject: 'publishable:t', limits: { perMinute: 3, perDay: 100 } };
    // The shared budget used up by other keys.
    for (let i = 0; i < 3; i++) expect((await limiter.take(shared.subject, shared.limits)).allowed).toBe(true);
    for (let i = 0; i < 5; i++) {
      const decisions = await limiter.takeAll([own, shared]);
      expect(decisions.at(-1)).toMatchObject({ allowed: false, minute: { limit: 3 } });
    }
    // The key's own budget is untouched by those five refusals.
    expect(await limiter.peek(own.subject, own.limits)).toMatchObject({ allowed: true, minute: { remaining: 2 }, day: { remaining: 100 } });
    // The shared budget raised: the key's two go through, the third is its own refusal.
    const raised = { ...shared, limits: { perMinute: 100, perDay: 100 } };
    expect((await limiter.takeAll([own, raised])).every((d) => d.allowed)).toBe(true);
    expect((await limiter.takeAll([own, raised])).every((d) => d.allowed)).toBe(true);
    const third = await limiter.takeAll([own, raised]);
    expect(third).toHaveLength(1);
    expect(third[0]).toMatchObject({ allowed: false, minute: { limit: 2 } });
    expect((await limiter.peek(raised.subject, raised.limits)).minute.remaining).toBe(95);
  });
});

describe('rate limiter › headers', () => {
  it('names the minute window X-RateLimit-* and the day window X-RateLimit-Daily-*, resets as unix seconds', async () => {
    const { limiter } = limiterAt('2031-03-04T05:06:15Z');
    const d = await limiter.take('h', { perMinute: 60, perDay: 1_000 });
    expect(rateLimitHeaders(d)).toEqual({
      'x-ratelimit-limit': '60',
      'x-ratelimit-remaining': '59',
      'x-ratelimit-reset': String(unix('2031-03-04T05:07:00Z')),
      'x-ratelimit-daily-limit': '1000',
      'x-ratelimit-daily-remaining': '999',
      'x-ratelimit-daily-reset': String(unix('2031-03-05T00:00:00Z')),
    });
  });
});

describe('rate limiter › client addresses', () => {
  it.each([
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::99', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
  ])('%s counts as %s (an IPv6 host holds its whole /64)', (ip, subject) => {
    expect(addressSubject(ip)).toBe(subject);
  });
});

describe('memory counters › when windows end', () => {
  it('forgets counters whose time is over, so memory follows the active subjects', async () => {
    let now = Date.parse('2031-03-04T05:06:15Z');
    const store = new MemoryCounterStore(() => now);
    for (let i = 0; i < 500; i++)
      await store.take({ minute: `m${i}`, day: `d${i}` }, { minute: 10, day: 10 }, { minute: 1_000, day: 1_000 });
    now += 2_000;
    for (let i = 0; i < 600; i++) await store.take({ minute: 'm', day: 'd' }, { minute: 1e9, day: 1e9 }, { minute: 60_000, day: 60_000 });
    expect((store as unknown as { counters: Map<string, unknown> }).counters.size).toBe(2);
    expect(await store.peek({ minute: 'm1', day: 'd1' })).toEqual({ minute: 0, day: 0 });
  });
});
