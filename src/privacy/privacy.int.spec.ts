import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { availableEngines, type TestStore } from '../../test/support/stores.js';
import { COMMANDS, UsageError } from '../cli/commands.js';
import { rotateMasterKey } from './key-store.js';
import { loadMasterKey, MasterKeyError } from './master-key.js';
import { Privacy, sealedAad } from './privacy.js';

describe.each(availableEngines)('privacy › key store ($name)', ({ open }) => {
  let t: TestStore;
  // One store, one master key: another key would be refused (the last test shows it).
  const master = randomBytes(32);
  beforeAll(async () => {
    t = await open();
  });
  afterAll(() => t?.dispose());

  it('seals under a fresh key and opens only with that key and the same identity (else tampered); a destroyed key is erased', async () => {
    const privacy = await Privacy.open(t.store.db, master, { cacheMs: 0 });
    const [key] = await privacy.keys.fresh(1);
    const aad = sealedAad('ConsentRecorded', 't', 'c', 's');
    const sealed = privacy.seal(key!, aad, { userReference: 'u-1' });
    expect(JSON.stringify(sealed)).not.toContain('u-1');
    expect(privacy.read(await privacy.keys.byId(sealed.kid), aad, sealed)).toEqual({ state: 'personal', value: { userReference: 'u-1' } });
    expect(privacy.read(key, sealedAad('ConsentRecorded', 't', 'other-consent', 's'), sealed)).toEqual({ state: 'tampered' });
    expect(
      privacy.read(key, aad, {
        ...sealed,
        ct: `A${sealed.ct.slice(1)}` === sealed.ct ? `B${sealed.ct.slice(1)}` : `A${sealed.ct.slice(1)}`,
      }),
    ).toEqual({ state: 'tampered' });
    expect(privacy.read(key, aad, { kid: sealed.kid })).toEqual({ state: 'tampered' });
    expect(await privacy.keys.destroy([sealed.kid])).toBe(1);
    expect(privacy.read(await privacy.keys.byId(sealed.kid), aad, sealed)).toEqual({ state: 'erased' });
    expect(await privacy.keys.destroy([sealed.kid])).toBe(0);
  });

  it('gives each user reference one subject per tenant, never the same across tenants', async () => {
    const privacy = await Privacy.open(t.store.db, master);
    expect(privacy.subjectOf('tenant-a', 'u')).toBe(privacy.subjectOf('tenant-a', 'u'));
    expect(privacy.subjectOf('tenant-a', 'u')).toMatch(/^[0-9a-f]{64}$/);
    expect(privacy.subjectOf('tenant-a', 'u')).not.toBe(privacy.subjectOf('tenant-b', 'u'));
  });

  it('hashes an Idempotency-Key per tenant under a key of its own, never as a subject', async () => {
    const privacy = await Privacy.open(t.store.db, master);
    expect(privacy.idempotencyKeyOf('tenant-a', 'signup-dave@example.com')).toMatch(/^ik_[0-9a-f]{64}$/);
    expect(privacy.idempotencyKeyOf('tenant-a', 'k')).toBe(privacy.idempotencyKeyOf('tenant-a', 'k'));
    expect(privacy.idempotencyKeyOf('tenant-a', 'k')).not.toBe(privacy.idempotencyKeyOf('tenant-b', 'k'));
    expect(privacy.idempotencyKeyOf('tenant-a', 'k').slice(3)).not.toBe(privacy.subjectOf('tenant-a', 'k'));
  });

  it('refuses a master key the store was not created with, and rotation re-wraps every key so that only the new one opens the store', async () => {
    const mine = await open();
    try {
      const oldKey = randomBytes(32);
      const newKey = randomBytes(32);
      const before = await Privacy.open(mine.store.db, oldKey);
      const [key] = await before.keys.fresh(1);
      const aad = sealedAad('ConsentRecorded', 't', 'c', 's');
      const sealed = before.seal(key!, aad, 'kept');
      await expect(Privacy.open(mine.store.db, newKey)).rejects.toThrow(MasterKeyError);
      await expect(rotateMasterKey(mine.store.db, newKey, oldKey)).rejects.toThrow(MasterKeyError);
      const rotated = await rotateMasterKey(mine.store.db, oldKey, newKey);
      expect(rotated.secrets).toBe(1);
      expect(rotated.dataKeys).toBeGreaterThanOrEqual(1);
      await expect(Privacy.open(mine.store.db, oldKey)).rejects.toThrow(MasterKeyError);
      const after = await Privacy.open(mine.store.db, newKey);
      expect(after.read(await after.keys.byId(sealed.kid), aad, sealed)).toEqual({ state: 'personal', value: 'kept' });
      expect(after.subjectOf('t', 'u')).toBe(before.subjectOf('t', 'u'));
      // An Idempotency-Key's hash survives rotation too: a repeat after it is still a repeat.
      expect(after.idempotencyKeyOf('t', 'signup-1')).toBe(before.idempotencyKeyOf('t', 'signup-1'));
    } finally {
      await mine.dispose();
    }
  });
});

describe.each(availableEngines)('privacy › a process left running across keys rotate-master ($name)', ({ open }) => {
  it('wraps no key under the old master key, and reads say why, rather than tampered', async () => {
    const mine = await open();
    try {
      const oldKey = randomBytes(32);
      const newKey = randomBytes(32);
      // A small pool, so that the next record needs keys made after the rotation.
      const stale = await Privacy.open(mine.store.db, oldKey, { poolSize: 2 });
      const [kept] = await stale.keys.fresh(2);
      const aad = sealedAad('ConsentRecorded', 't', 'c', 's');
      const sealed = stale.seal(kept!, aad, 'kept');
      await rotateMasterKey(mine.store.db, oldKey, newKey);
      const rows = async () =>
        Number((await sql<{ n: string }>`SELECT count(*) AS n FROM privacy.data_keys`.execute(mine.store.db)).rows[0]!.n);
      const before = await rows();
      await expect(stale.keys.fresh(4)).rejects.toThrow(/rotated.*restart it with the new key/);
      expect(await rows()).toBe(before);
      // A key it never unwrapped (the cache holds the ones it made) is not taken for a broken seal.
      const fresh = await Privacy.open(mine.store.db, newKey);
      const [other] = await fresh.keys.fresh(1);
      await expect(stale.keys.byId(other!.kid)).rejects.toThrow(/rotated.*restart it with the new key/);
      // Every key it made before the rotation opens with the new one.
      expect(fresh.read(await fresh.keys.byId(sealed.kid), aad, sealed)).toEqual({ state: 'personal', value: 'kept' });
    } finally {
      await mine.dispose();
    }
  });
});

describe.each(availableEngines)('privacy › keys rotate-master ($name)', ({ open }) => {
  it('re-wraps the keys from the key files it is given, and refuses a missing or malformed file before opening anything', async () => {
    const command = COMMANDS.find((c) => c.name === 'keys rotate-master')!;
    const dir = mkdtempSync(join(tmpdir(), 'cl-rotate-'));
    const t = await open();
    try {
      const oldKey = randomBytes(32);
      const newKey = randomBytes(32);
      writeFileSync(join(dir, 'old'), oldKey.toString('base64'));
      writeFileSync(join(dir, 'new'), `${newKey.toString('hex')}\n`);
      writeFileSync(join(dir, 'bad'), 'not a key');
      const privacy = await Privacy.open(t.store.db, oldKey);
      await privacy.keys.fresh(3);
      expect(() => command.parse({ 'old-key-file': join(dir, 'old') }, [])).toThrow(UsageError);
      expect(() => command.parse({ 'old-key-file': join(dir, 'old'), 'new-key-file': join(dir, 'bad') }, [])).toThrow(
        /--new-key-file: invalid value/,
      );
      expect(() => command.parse({ 'old-key-file': join(dir, 'old'), 'new-key-file': join(dir, 'old') }, [])).toThrow(/same key/);
      const input = command.parse({ 'old-key-file': join(dir, 'old'), 'new-key-file': join(dir, 'new') }, []);
      const info: string[] = [];
      const result = await (
        await command.load()
      ).run!(t.store, input as never, { info: (m) => info.push(m), progressStream: process.stderr });
      expect(result).toMatchObject({ secrets: 1 });
      expect((result as { dataKeys: number }).dataKeys).toBeGreaterThanOrEqual(3);
      expect(info.join('')).toMatch(/Re-wrapped/);
      await expect(Privacy.open(t.store.db, oldKey)).rejects.toThrow(MasterKeyError);
      await Privacy.open(t.store.db, newKey);
    } finally {
      await t.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('privacy › master key › when none is configured', () => {
  it('generates DATA_DIR/master.key once (mode 0600) and reads the same key on the next start', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-master-'));
    try {
      const settings = { masterKey: undefined, masterKeyFile: undefined, dataDir: dir, databaseUrl: undefined };
      const first = loadMasterKey(settings);
      expect(first.source).toBe('generated');
      expect(statSync(join(dir, 'master.key')).mode & 0o777).toBe(0o600);
      const second = loadMasterKey(settings);
      expect(second.source).toBe('DATA_DIR');
      expect(second.key.equals(first.key)).toBe(true);
      expect(loadMasterKey({ ...settings, masterKeyFile: join(dir, 'master.key') }).key.equals(first.key)).toBe(true);
      expect(readFileSync(join(dir, 'master.key'), 'utf8').trim()).toBe(first.key.toString('base64'));
      expect(() => loadMasterKey({ ...settings, masterKeyFile: join(dir, 'missing') })).toThrow(/MASTER_KEY_FILE: cannot read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
