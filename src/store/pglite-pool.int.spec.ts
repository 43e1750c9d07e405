import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../migrations.js';
import { openStore, type Store } from './store.js';

describe('PGlite pool › when a transaction runs a long chain of queries › the event loop still turns, but not once per query', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ migrations: MIGRATIONS, dataDir: 'memory://' });
  });
  afterAll(() => store?.close());

  it('turns the event loop every few milliseconds of queries, and lets many queries run between two turns', async () => {
    let turns = 0;
    let running = true;
    const tick = () => {
      turns += 1;
      if (running) setImmediate(tick);
    };
    const queries = 3_000;
    let elapsed = 0;
    await store.db.transaction().execute(async (tx) => {
      setImmediate(tick);
      const started = performance.now();
      for (let i = 0; i < queries; i++) await sql`SELECT ${i}::int AS i`.execute(tx);
      elapsed = performance.now() - started;
      running = false;
    });
    // A run of queries on microtasks alone would starve the loop: 0 or 1 turn in all that time.
    expect(elapsed, 'the chain must be long enough to judge').toBeGreaterThan(20);
    expect(turns, `${turns} turns in ${elapsed.toFixed(0)} ms of queries`).toBeGreaterThanOrEqual(Math.floor(elapsed / 20));
    expect(turns, 'a turn per query makes each statement wait for all the other work queued').toBeLessThan(queries / 5);
  });
});

describe('PGlite pool › when callers queue for the connection › the followers’ handle goes first', () => {
  let store: Store;
  beforeAll(async () => {
    store = await openStore({ migrations: MIGRATIONS, dataDir: 'memory://' });
  });
  afterAll(() => store?.close());

  it('serves a followerDb caller before the plain callers already waiting, and the plain ones in order', async () => {
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    // One transaction holds the connection while the others queue.
    const holder = store.db.transaction().execute(async (tx) => {
      await sql`SELECT 1`.execute(tx);
      await gate;
      order.push('holder');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const plain = [1, 2, 3].map((i) => sql`SELECT ${i}::int`.execute(store.db).then(() => order.push(`plain-${i}`)));
    await new Promise((resolve) => setImmediate(resolve));
    const follower = sql`SELECT 0`.execute(store.followerDb).then(() => order.push('follower'));
    open();
    await Promise.all([holder, follower, ...plain]);
    expect(order).toEqual(['holder', 'follower', 'plain-1', 'plain-2', 'plain-3']);
  });
});
