import { describe, expect, it } from 'vitest';
import { PokeLoop } from './poke-loop.js';

const quiet = { warn: () => undefined, error: () => undefined };
/** Resolves once `condition` holds, checking at every macrotask turn (no fixed sleep). */
async function until(condition: () => boolean, what: string, limitMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('PokeLoop', () => {
  it('runs again at once while the step reports more work, then sleeps until poked', async () => {
    let runs = 0;
    const loop = new PokeLoop('test', async () => ({ more: ++runs < 3 }), { pollMs: 60_000, log: quiet });
    loop.start();
    await until(() => runs === 3, 'three runs');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(3);
    loop.poke();
    await until(() => runs === 4, 'the poked run');
    await loop.stop();
  });

  it('runs once more when poked while a step runs, so an append during a read is not left for the poll', async () => {
    let runs = 0;
    let release!: () => void;
    const loop = new PokeLoop(
      'test',
      async () => {
        runs += 1;
        if (runs === 1) await new Promise<void>((resolve) => (release = resolve));
        return { more: false };
      },
      { pollMs: 60_000, log: quiet },
    );
    loop.start();
    await until(() => release !== undefined, 'the first step');
    loop.poke();
    release();
    await until(() => runs === 2, 'the run the poke asked for');
    await loop.stop();
  });

  it('logs a failing step at the level asked for and retries it after a back-off, never ending', async () => {
    let runs = 0;
    const logged: [string, object][] = [];
    const loop = new PokeLoop(
      'test',
      async () => {
        runs += 1;
        if (runs <= 2) throw new Error(runs === 1 ? 'transient' : 'bug');
        return { more: false };
      },
      {
        pollMs: 60_000,
        log: { warn: (o) => logged.push(['warn', o]), error: (o) => logged.push(['error', o]) },
        levelOf: (e) => ((e as Error).message === 'bug' ? 'error' : 'warn'),
      },
    );
    const started = performance.now();
    loop.start();
    await until(() => runs === 3, 'the third run');
    // 100 ms, then 200 ms of back-off: a poke does not cut a back-off short.
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(logged.map(([level, o]) => [level, (o as { retryInMs: number }).retryInMs])).toEqual([
      ['warn', 100],
      ['error', 200],
    ]);
    await loop.stop();
  });

  it('stops after the step in flight and runs no more', async () => {
    let runs = 0;
    const loop = new PokeLoop(
      'test',
      async () => {
        runs += 1;
        await new Promise((resolve) => setImmediate(resolve)); // a step does I/O
        return { more: true };
      },
      { pollMs: 60_000, log: quiet },
    );
    loop.start();
    await until(() => runs > 5, 'a few runs');
    await loop.stop();
    const after = runs;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(runs).toBe(after);
  });

  describe('with minIntervalMs', () => {
    it('starts a poked step no sooner than the spacing after the previous one began, taking the pokes between together', async () => {
      const starts: number[] = [];
      const loop = new PokeLoop(
        'test',
        async () => {
          starts.push(performance.now());
          return { more: false };
        },
        { pollMs: 60_000, log: quiet, minIntervalMs: 80 },
      );
      loop.start();
      await until(() => starts.length === 1, 'the first step');
      // Ten pokes right after it: one step for all of them, after the spacing.
      for (let i = 0; i < 10; i++) loop.poke();
      await until(() => starts.length === 2, 'the poked step');
      // (timers may fire a millisecond or two early by performance.now)
      expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(70);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(starts).toHaveLength(2);
      await loop.stop();
    });

    it('runs at once when someone waits for it, and while the step reports more work', async () => {
      let urgent = false;
      let more = 0;
      const starts: number[] = [];
      const loop = new PokeLoop(
        'test',
        async () => {
          starts.push(performance.now());
          return { more: more-- > 0 };
        },
        { pollMs: 60_000, log: quiet, minIntervalMs: 60_000, isUrgent: () => urgent },
      );
      loop.start();
      await until(() => starts.length === 1, 'the first step');
      loop.poke();
      await new Promise((resolve) => setTimeout(resolve, 30));
      expect(starts, 'a plain poke waits for the spacing').toHaveLength(1);
      // A reader waits: the spacing is cut short; then a backlog runs step after step.
      more = 3;
      urgent = true;
      loop.poke();
      await until(() => starts.length === 5, 'the urgent step and the backlog');
      urgent = false;
      await loop.stop();
    });
  });
});
