import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureReadSchema } from '../../projections/read-schema.js';
import { availableEngines, type TestStore } from '../../test/support/stores.js';
import type { LedgerPosition, RecordedEvent } from '../ledger/ledger.port.js';
import { PostgresLedger } from '../ledger/postgres/postgres.ledger.js';
import { TableCheckpointer } from './checkpoints.js';
import { Follower, type Processor } from './follower.js';
import { FollowerHost } from './host.js';

/**
 * The checkpointed-follower core on a real store and ledger: a probe processor with a checkpoint
 * row of its own in read.checkpoints, writing down the events it was given.
 */
describe.each(availableEngines)('follower core ($name)', ({ open }) => {
  let t: TestStore;
  let ledger: PostgresLedger;
  beforeAll(async () => {
    t = await open();
    await ensureReadSchema(t.store.db);
    ledger = new PostgresLedger(t.store.db);
  });
  afterAll(() => t?.dispose());

  const append = async (n: number) => {
    const tenantId = randomUUID();
    const result = await ledger.append(
      [
        {
          tenantId,
          stream: `probe-${tenantId}-${randomUUID()}`,
          expectedRevision: 'no_stream',
          events: Array.from({ length: n }, (_, i) => ({ type: 'Probed', data: { i } })),
        },
      ],
      new Date(),
    );
    return result.events.map((e) => e.id);
  };
  /** A follower of one probe processor; `handle` may refuse an event. */
  const probe = (options: { refuse?: (e: RecordedEvent) => boolean } = {}) => {
    const id = `probe-${randomUUID()}`;
    const given: string[] = [];
    const committed: string[] = [];
    const processor: Processor = {
      processorId: id,
      canHandle: new Set(['Probed']),
      async handle(_tx, events, { afterCommit }) {
        const ids = events.map((e) => e.id);
        given.push(...ids);
        afterCommit(() => committed.push(...ids));
        const bad = events.find((e) => options.refuse?.(e));
        if (bad) throw new Error(`refused ${bad.id}`);
      },
    };
    const follower = new Follower(
      t.store.db,
      ledger,
      { name: 'probe', checkpoints: new TableCheckpointer('read.checkpoints'), processors: [processor] },
      // Every idle read looks whether the checkpoint was reset (the service's look once a second).
      { resetCheckMs: 0 },
    );
    const checkpoint = async (): Promise<LedgerPosition> => {
      const row = (
        await sql<{
          c: string;
          p: string;
        }>`SELECT commit_position::text AS c, prepare_position::text AS p FROM read.checkpoints WHERE name = ${id}`.execute(t.store.db)
      ).rows[0]!;
      return { commit: Number(row.c), prepare: Number(row.p) };
    };
    const setCheckpoint = (at: LedgerPosition) =>
      sql`UPDATE read.checkpoints SET commit_position = ${at.commit}, prepare_position = ${at.prepare} WHERE name = ${id}`.execute(
        t.store.db,
      );
    return { follower, given, committed, checkpoint, setCheckpoint };
  };
  /** The ids after `position`, in ledger order (the whole ledger of this store). */
  const idsAfter = async (position: LedgerPosition) => (await ledger.readAll(position, 100_000)).map((e) => e.id);

  describe('follower › when its checkpoint moved back under it (a rebuild reset it)', () => {
    it('reads again from the stored checkpoint instead of going on past the gap', async () => {
      const p = probe();
      await append(3);
      await p.follower.catchUp();
      const everything = await idsAfter({ commit: 0, prepare: 0 });
      expect(p.given).toEqual(everything);
      // A rebuild puts the checkpoint back to the start while this process still reads on.
      await p.setCheckpoint({ commit: 0, prepare: 0 });
      const later = await append(1);
      expect(await p.follower.runOnce()).toBe(0);
      p.given.length = 0;
      await p.follower.catchUp();
      expect(p.given).toEqual([...everything, ...later]);
      expect(await p.checkpoint()).toEqual((await ledger.headPosition())!);
    });

    it('finds it while idle too (a rebuild stopped midway), and reports the position it went back to', async () => {
      const p = probe();
      await append(2);
      await p.follower.catchUp();
      const head = (await ledger.headPosition())!;
      expect(p.follower.position).toEqual(head);
      // Nothing new is appended: the reset is found on an empty read, not at the next event.
      await p.setCheckpoint({ commit: 0, prepare: 0 });
      expect(await p.follower.runOnce()).toBe(0);
      expect(p.follower.position).toEqual({ commit: 0, prepare: 0 });
      p.given.length = 0;
      await p.follower.catchUp();
      expect(p.given).toEqual(await idsAfter({ commit: 0, prepare: 0 }));
      expect(p.follower.position).toEqual(head);
    });
  });

  describe('follower › when a batch fails', () => {
    it('commits nothing of it, runs no after-commit work, and tries the same events again, skipping none', async () => {
      let refusing = true;
      const p = probe({ refuse: () => refusing });
      await p.follower.ensureCheckpoints();
      const before = await p.checkpoint();
      const ids = await append(4);
      await expect(p.follower.runOnce()).rejects.toThrow(/refused/);
      expect(p.committed).toEqual([]);
      expect(await p.checkpoint()).toEqual(before);
      refusing = false;
      p.given.length = 0;
      await p.follower.catchUp();
      expect(p.given.slice(-4)).toEqual(ids);
      expect(p.committed.slice(-4)).toEqual(ids);
      expect(p.follower.position).toEqual((await ledger.headPosition())!);
    });
  });

  describe('follower host › runs the followers of a process together', () => {
    it('starts them in order, wakes them all with one poke, and stops them in reverse, releasing whoever waits', async () => {
      const a = probe();
      const b = probe();
      const host = new FollowerHost([a.follower, b.follower]);
      await host.start();
      expect([a.follower.started, b.follower.started]).toEqual([true, true]);
      const ids = await append(2);
      host.pokeAll();
      const head = (await ledger.headPosition())!;
      expect(await a.follower.waitFor(head, 10_000)).toBe(true);
      expect(await b.follower.waitFor(head, 10_000)).toBe(true);
      expect(a.committed.slice(-2)).toEqual(ids);
      expect(b.committed.slice(-2)).toEqual(ids);
      const never = a.follower.waitFor({ commit: Number.MAX_SAFE_INTEGER, prepare: 0 }, 60_000);
      await host.stop();
      expect(await never).toBe(false);
      expect([a.follower.started, b.follower.started]).toEqual([false, false]);
    });
  });
});
