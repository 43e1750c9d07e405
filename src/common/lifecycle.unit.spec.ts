import { describe, expect, it } from 'vitest';
import { Lifecycle, type Part } from './lifecycle.js';

/** A part that writes what happens to it into `journal`; `fails` makes its start (or stop) throw. */
function part(name: string, journal: string[], fails: { start?: boolean; stop?: boolean } = {}): Part {
  return {
    name,
    async start() {
      await Promise.resolve();
      if (fails.start) throw new Error(`${name} cannot start`);
      journal.push(`start ${name}`);
    },
    async stop() {
      await Promise.resolve();
      journal.push(`stop ${name}`);
      if (fails.stop) throw new Error(`${name} cannot stop`);
    },
  };
}

describe('lifecycle › parts start in order and stop in reverse', () => {
  it('stops the started parts in the reverse order of their start, once however often it is asked', async () => {
    const journal: string[] = [];
    const life = new Lifecycle();
    for (const name of ['store', 'followers', 'app']) await life.start(part(name, journal));
    await Promise.all([life.stop(), life.stop()]);
    await life.stop();
    expect(journal).toEqual(['start store', 'start followers', 'start app', 'stop app', 'stop followers', 'stop store']);
  });

  it('when a start fails, stops what already started, in reverse, and rethrows that failure', async () => {
    const journal: string[] = [];
    const life = new Lifecycle();
    await life.start(part('store', journal));
    await life.start(part('followers', journal));
    await expect(life.start(part('app', journal, { start: true }))).rejects.toThrow('app cannot start');
    expect(journal).toEqual(['start store', 'start followers', 'stop followers', 'stop store']);
    await expect(life.start(part('late', journal))).rejects.toThrow(/stopping/);
  });

  it('when a step between starts fails inside build, stops what started and rethrows it', async () => {
    const journal: string[] = [];
    const life = new Lifecycle();
    const failed = life.build(async () => {
      const store = await life.open(
        'store',
        () => ({ open: true }),
        (s) => void journal.push(`close store (open: ${s.open})`),
      );
      await life.start(part('followers', journal));
      if (store.open) throw new Error('the schema check failed');
    });
    await expect(failed).rejects.toThrow('the schema check failed');
    expect(journal).toEqual(['start followers', 'stop followers', 'close store (open: true)']);
  });

  it('a part that fails to stop does not keep the others running: they stop, then its failure is thrown', async () => {
    const journal: string[] = [];
    const life = new Lifecycle();
    await life.start(part('store', journal));
    await life.start(part('followers', journal, { stop: true }));
    await life.start(part('app', journal));
    await expect(life.stop()).rejects.toThrow('followers cannot stop');
    expect(journal.slice(3)).toEqual(['stop app', 'stop followers', 'stop store']);
  });

  it('tells `beforeStart` of each part before it starts; a throw there fails that start', async () => {
    const journal: string[] = [];
    const seen: string[] = [];
    const life = new Lifecycle({
      beforeStart: (p) => {
        seen.push(p.name);
        if (p.name === 'app') throw new Error('refused');
      },
    });
    await life.start(part('store', journal));
    await expect(life.start(part('app', journal))).rejects.toThrow('refused');
    expect(seen).toEqual(['store', 'app']);
    expect(journal).toEqual(['start store', 'stop store']);
  });
});
