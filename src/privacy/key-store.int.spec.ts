import { randomBytes } from 'node:crypto';
import {
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngine, type TestStore } from '../../test/support/stores.js';
import { DataKeyStore } from './key-store.js';

/** Counts the statements that insert data keys. */
class KeyInserts implements KyselyPlugin {
  count = 0;
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (/INSERT INTO privacy\.data_keys/.test(JSON.stringify(args.node))) this.count += 1;
    return args.node;
  }
  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

describe('data key store › when requests take keys › the pool is refilled ahead of them', () => {
  let t: TestStore;
  const master = randomBytes(32);
  beforeAll(async () => {
    t = await defaultEngine();
  });
  afterAll(() => t?.dispose());

  const stored = async () => Number((await sql<{ n: string }>`SELECT count(*) AS n FROM privacy.data_keys`.execute(t.store.db)).rows[0]!.n);

  it('refills in the background once half the pool is used, so the next request takes keys already stored, and every key answered is stored', async () => {
    const inserts = new KeyInserts();
    const keys = new DataKeyStore(t.store.db.withPlugin(inserts), master, { poolSize: 8 });
    const before = await stored();
    const first = await keys.fresh(1);
    expect(inserts.count).toBe(1);
    const second = await keys.fresh(4);
    // 3 left of 8: a refill of 5 runs without anyone waiting for it.
    await expect.poll(stored).toBe(before + 13);
    expect(inserts.count).toBe(2);
    const storedBefore = new Set(
      (await sql<{ key_id: string }>`SELECT key_id FROM privacy.data_keys`.execute(t.store.db)).rows.map((r) => r.key_id),
    );
    const third = await keys.fresh(8);
    expect(
      third.every((k) => storedBefore.has(k.kid)),
      'the third request took keys stored before it came',
    ).toBe(true);
    // It took the whole pool: the next refill is under way.
    await expect.poll(() => inserts.count).toBe(3);
    const all = [...first, ...second, ...third];
    expect(new Set(all.map((k) => k.kid)).size).toBe(13);
    // A store without this one's cache finds every key answered, with the same bytes.
    const found = await new DataKeyStore(t.store.db, master).byIds(all.map((k) => k.kid));
    expect(all.every((k) => found.get(k.kid)?.key.equals(k.key))).toBe(true);
    await expect.poll(stored).toBe(before + 21);
  });

  it('makes the keys a request needs beyond the pool before answering it', async () => {
    const keys = new DataKeyStore(t.store.db, master, { poolSize: 4 });
    const many = await keys.fresh(50);
    expect(new Set(many.map((k) => k.kid)).size).toBe(50);
    const found = await new DataKeyStore(t.store.db, master).byIds(many.map((k) => k.kid));
    expect(found.size).toBe(50);
    // The pool it emptied is being refilled in the background: wait for those 4 and drop them,
    // so that the next test counts only its own keys.
    expect(await keys.discardUnused()).toBe(4);
  });

  it('discards the keys it made ahead and never handed out, waiting for a refill under way, and keeps the ones it did', async () => {
    const keys = new DataKeyStore(t.store.db, master, { poolSize: 8 });
    const before = await stored();
    // 5 of 8 taken: a refill of 5 starts in the background; the discard waits for it.
    const taken = await keys.fresh(5);
    expect(await keys.discardUnused()).toBe(8);
    expect(await stored()).toBe(before + 5);
    const found = await new DataKeyStore(t.store.db, master).byIds(taken.map((k) => k.kid));
    expect(found.size).toBe(5);
    // The pool is empty: nothing more to discard, and the next request makes keys again.
    expect(await keys.discardUnused()).toBe(0);
    expect(await keys.fresh(1)).toHaveLength(1);
  });
});
