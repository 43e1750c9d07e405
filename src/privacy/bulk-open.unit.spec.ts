import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { BulkOpener, openStored, type StoredSeal } from './bulk-open.js';
import { sealBytes, secureRandom, wrapKey } from './envelope.js';
import { dataKeyAad } from './key-store.js';

const master = secureRandom(32);

/** A stored seal as the export reads it: a value sealed under its own data key, wrapped by `master`. */
function stored(value: unknown, options: { plaintext?: string } = {}): StoredSeal {
  const kid = randomUUID();
  const key = secureRandom(32);
  const aad = `consent-ledger/ConsentRecorded/t/${kid}/s`;
  const sealed = sealBytes(key, kid, aad, Buffer.from(options.plaintext ?? JSON.stringify(value), 'utf8'), secureRandom);
  return { wrapped: wrapKey(master, dataKeyAad(kid), key, secureRandom), aad, sealed };
}

const openers: BulkOpener[] = [];
const opener = (threads: number) => {
  const o = new BulkOpener(master, threads);
  openers.push(o);
  return o;
};
afterEach(async () => {
  await Promise.all(openers.splice(0).map((o) => o.close()));
});

describe('privacy › BulkOpener', () => {
  const rows = Array.from({ length: 1_500 }, (_, i) =>
    stored({ userReference: `user-${i}`, ipAddress: null, userAgent: 'ua', metadata: { i } }),
  );
  const expected = rows.map((_, i) => ({
    state: 'personal',
    value: { userReference: `user-${i}`, ipAddress: null, userAgent: 'ua', metadata: { i } },
  }));

  it('opens a batch on worker threads to the same values, in the rows order, as on the calling thread', async () => {
    expect(await opener(0).open(rows)).toEqual(expected);
    const threaded = opener(2);
    expect(await threaded.open(rows)).toEqual(expected);
    // Workers are kept between batches, and a closed opener starts new ones when used again.
    expect(await threaded.open(rows.slice(0, 700))).toEqual(expected.slice(0, 700));
    await threaded.close();
    expect(await threaded.open(rows.slice(300, 1_000))).toEqual(expected.slice(300, 1_000));
  });

  it('answers erased for a destroyed key, and tampered for a seal that does not open with its own identity, on both paths', async () => {
    const erased = { ...rows[1]!, wrapped: null };
    const moved = { ...rows[2]!, aad: 'consent-ledger/ConsentRecorded/other/record/s' };
    const batch = [rows[0]!, erased, moved, ...rows.slice(3, 400)];
    const want = [expected[0], { state: 'erased' }, { state: 'tampered' }, ...expected.slice(3, 400)];
    expect(await opener(0).open(batch)).toEqual(want);
    expect(await opener(2).open(batch)).toEqual(want);
  });

  it('answers tampered for a wrapped key that does not unwrap (a changed key row), and keeps working after', async () => {
    const broken = { ...rows[5]!, wrapped: rows[6]!.wrapped };
    const batch = [...rows.slice(0, 300), broken];
    expect(openStored(master, broken)).toEqual({ state: 'tampered' });
    const threaded = opener(2);
    expect((await threaded.open(batch)).at(-1)).toEqual({ state: 'tampered' });
    expect(await threaded.open(rows.slice(0, 300))).toEqual(expected.slice(0, 300));
  });

  it('opens a batch on the calling thread when its workers end before answering', async () => {
    const threaded = opener(2);
    expect(await threaded.open(rows.slice(0, 300))).toEqual(expected.slice(0, 300));
    const inFlight = threaded.open(rows);
    await threaded.close();
    expect(await inFlight).toEqual(expected);
  });

  it('stops using threads once a worker fails before it ever answered (its script does not load)', async () => {
    const broken = new BulkOpener(master, 2, new URL('./no-such-worker.js', import.meta.url));
    openers.push(broken);
    for (let page = 0; page < 5; page++) expect(await broken.open(rows.slice(0, 400))).toEqual(expected.slice(0, 400));
    expect(broken.started).toBe(2);
    expect(broken.threadsOff).toMatch(/failed before it ever answered/);
  });

  it('starts new workers after ones that had worked end (closed), threads staying on', async () => {
    const threaded = opener(2);
    expect(await threaded.open(rows.slice(0, 300))).toEqual(expected.slice(0, 300));
    await threaded.close();
    expect(await threaded.open(rows.slice(0, 300))).toEqual(expected.slice(0, 300));
    expect(threaded.started).toBe(4);
    expect(threaded.threadsOff).toBeNull();
  });

  it('answers tampered, naming no opened text, for a seal whose bytes are not its JSON', async () => {
    const notJson = stored(null, { plaintext: 'personal-text-of-someone' });
    const batch = [...rows.slice(0, 300), notJson];
    const opened = await opener(2).open(batch);
    expect(opened.at(-1)).toEqual({ state: 'tampered' });
    expect(JSON.stringify(opened.at(-1))).not.toMatch(/personal-text/);
  });
});
