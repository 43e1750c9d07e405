import { randomBytes, verify } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadSettings, type Settings } from '../../src/config.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { createService, type Service } from '../../src/service.js';
import type { Database } from '../../src/store/schema.js';
import { openStore } from '../../src/store/store.js';
import { PostgresLedger } from '../../src/ledger/postgres/postgres.ledger.js';
import { authenticateAppend } from '../../src/transparency/append-authenticator.js';
import { openNote, parseCheckpoint, parseVerifierKey, signedTime, signerFromSeed } from '../../src/transparency/note.js';
import { assertCurrentKey, openSigningKey, rotateSigningKey } from '../../src/transparency/signing-key.js';
import { seedBytes, SigningKeyError } from '../../src/transparency/signing-seed.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, sealedCheckpoint } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * The checkpoint signing key lives outside the store (issue: a database reader could sign a
 * checkpoint for an invented consent with the seed kept in `transparency.signing_keys`).
 */

const BASE = 'https://keys.example.org';
const KEY_NAME = 'keys.example.org';

/** Every row of every table of the store, as text: where a leaked seed would show. */
async function everyRowAsText(db: Kysely<Database>): Promise<string> {
  const tables = await sql<{ name: string }>`
    SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
    WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')`.execute(db);
  let all = '';
  for (const { name } of tables.rows) {
    const rows = await sql<{ row: string }>`SELECT t::text AS row FROM ${sql.raw(name)} t`.execute(db);
    all += rows.rows.map((r) => r.row).join('\n');
  }
  return all;
}

/** A store for one describe block: a PostgreSQL database when DATABASE_URL is set, else the embedded store in `dir`. */
async function storeSettings(dir: string): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  const masterKey = randomBytes(32).toString('hex');
  if (!serverUrl) return { env: { DATA_DIR: dir, MASTER_KEY: masterKey }, drop: async () => undefined };
  const fresh = await freshDatabase();
  return { env: { DATABASE_URL: fresh.url, DATA_DIR: dir, MASTER_KEY: masterKey }, drop: fresh.drop };
}

const settingsOf = (env: Record<string, string>): Settings => loadSettings({ ...env, PUBLIC_BASE_URL: BASE, LOG_LEVEL: 'silent' });

const keysDocument = async (service: Service, tenant?: string) =>
  (await service.app.inject({ url: `/.well-known/consent-ledger/keys${tenant ? `?tenant=${tenant}` : ''}` })).json().keys as {
    vkey: string;
    keyId: string;
    publicKey: string;
    timestampVkey: string;
    status: string;
    treeSizes?: { from: number; to: number | null } | null;
    successor: { publicKey: string; signature: string; handover: string | null; position: string | null } | null;
  }[];

describe('signing key › on the first start', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-signing-'));
  let store: Awaited<ReturnType<typeof storeSettings>>;
  let service: Service;
  beforeAll(async () => {
    store = await storeSettings(dir);
    service = await createService(settingsOf(store.env), { pollMs: 50 });
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await store?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is generated into DATA_DIR/signing.key (mode 0600) and published', async () => {
    const path = join(dir, 'signing.key');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const signer = signerFromSeed(KEY_NAME, seedBytes(readFileSync(path, 'utf8')));
    const keys = await keysDocument(service);
    expect(keys).toMatchObject([{ vkey: signer.vkey, status: 'current' }]);
  });

  it('is held by no table of the store, so a reader of the database cannot sign with it', async () => {
    const seed = seedBytes(readFileSync(join(dir, 'signing.key'), 'utf8'));
    const api = client(service.app, await service.tenants.create('reader', 'enterprise'));
    await publishPolicy(api);
    const rows = await everyRowAsText(service.store.db);
    expect(rows.length).toBeGreaterThan(0);
    for (const encoding of ['base64', 'hex', 'base64url'] as const) expect(rows).not.toContain(seed.toString(encoding));
  });

  it('signs each checkpoint with the time of signing, which the published key verifies', async () => {
    const api = client(service.app, await service.tenants.create('timed', 'enterprise'));
    const start = Math.floor(Date.now() / 1000) * 1000;
    await publishPolicy(api);
    const cp = await sealedCheckpoint(api, 1);
    const [key] = await keysDocument(service);
    const at = signedTime(cp.checkpoint, parseVerifierKey(key!.vkey));
    expect(at?.toISOString()).toBe(cp.timestamp);
    expect(at!.getTime()).toBeGreaterThanOrEqual(start);
    expect(at!.getTime()).toBeLessThanOrEqual(Date.now());
    // The same line is the log's timestamped cosignature (type 0x04), under the published timestampVkey.
    expect(key!.timestampVkey.split('+')[0]).toBe(KEY_NAME);
    expect(Buffer.from(key!.timestampVkey.split('+')[2]!, 'base64')[0]).toBe(0x04);
  });
});

describe('signing key › named again before anything was signed', () => {
  it('takes the new name quietly: no auditor can hold a checkpoint under the old one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-signing-renamed-'));
    const store = await storeSettings(dir);
    const opened = await openStore({ databaseUrl: store.env.DATABASE_URL, dataDir: dir, migrations: MIGRATIONS });
    try {
      // As a CLI command run with the default PUBLIC_BASE_URL leaves a new store, then the service's first start.
      const first = await openSigningKey(opened.db, loadSettings({ ...store.env, LOG_LEVEL: 'silent' }));
      expect(first.signer.name).toBe('localhost:3000');
      const started = await openSigningKey(opened.db, settingsOf(store.env));
      expect(started.notices).toEqual([]);
      const named = await sql<{ vkey: string }>`SELECT vkey FROM transparency.key_history`.execute(opened.db);
      expect(named.rows.map((r) => r.vkey)).toEqual([started.signer.vkey]);
    } finally {
      await opened.close();
      await store.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('signing key › when an older version kept the seed in the store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-signing-legacy-'));
  const legacySeed = randomBytes(32);
  let store: Awaited<ReturnType<typeof storeSettings>>;
  let service: Service;
  let notices: string[];
  beforeAll(async () => {
    store = await storeSettings(join(dir, 'data'));
    // The store as an older version left it: migrated, with the seed in transparency.signing_keys.
    const old = await openStore({ databaseUrl: store.env.DATABASE_URL, dataDir: store.env.DATA_DIR!, migrations: MIGRATIONS });
    await sql`INSERT INTO transparency.signing_keys (purpose, seed, public_key)
      VALUES ('checkpoint', ${legacySeed.toString('base64')}, ${signerFromSeed(KEY_NAME, legacySeed).publicKey.toString('base64')})`.execute(
      old.db,
    );
    await old.close();
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      service = await createService(settingsOf(store.env), { pollMs: 50 });
      notices = write.mock.calls.map((c) => String(c[0]));
    } finally {
      write.mockRestore();
    }
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await store?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves it to DATA_DIR/signing.key, deletes it from the store, and says so', async () => {
    expect(seedBytes(readFileSync(join(dir, 'data', 'signing.key'), 'utf8')).equals(legacySeed)).toBe(true);
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM transparency.signing_keys`.execute(service.store.db);
    expect(left.rows[0]!.n).toBe(0);
    expect(await everyRowAsText(service.store.db)).not.toContain(legacySeed.toString('base64'));
    expect(notices.join('')).toMatch(/kept in the database by an older version; it is now in .*signing\.key.*rotate it/);
  });

  it('keeps signing as the same key, so the vkey auditors pinned still verifies', async () => {
    const vkey = signerFromSeed(KEY_NAME, legacySeed).vkey;
    expect((await keysDocument(service))[0]!.vkey).toBe(vkey);
    const api = client(service.app, await service.tenants.create('legacy', 'enterprise'));
    await publishPolicy(api);
    // TenantCreated, the first key's ApiKeyIssued, the policy.
    const cp = await sealedCheckpoint(api, 3);
    expect(parseCheckpoint(openNote(cp.checkpoint, parseVerifierKey(vkey))).treeSize).toBe(3);
  });
});

describe('signing key › rotation, and a process holding another key', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-signing-rotate-'));
  let store: Awaited<ReturnType<typeof storeSettings>>;
  let service: Service | undefined;
  beforeAll(async () => {
    store = await storeSettings(dir);
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await store?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to start a process whose key is not the log’s current key, naming both', async () => {
    service = await createService(settingsOf(store.env), { pollMs: 50 });
    const current = (await keysDocument(service))[0]!.vkey;
    await service.close();
    service = undefined;
    const stranger = randomBytes(32).toString('hex');
    const start = createService(settingsOf({ ...store.env, TRANSPARENCY_SIGNING_KEY: stranger }), { pollMs: 50 });
    await expect(start).rejects.toThrow(SigningKeyError);
    await expect(start).rejects.toThrow(current);
    await expect(start).rejects.toThrow(signerFromSeed(KEY_NAME, Buffer.from(stranger, 'hex')).vkey);
  }, 60_000);

  it('retires the old key at each tree’s size: a process still holding it stops sealing, the new key signs on', async () => {
    service = await createService(settingsOf(store.env), { pollMs: 50 });
    const creds = await service.tenants.create('rotating', 'enterprise');
    let api = client(service.app, creds);
    await publishPolicy(api);
    // TenantCreated, the first key's ApiKeyIssued, the policy.
    const before = await sealedCheckpoint(api, 3);
    const oldVkey = (await keysDocument(service))[0]!.vkey;
    const oldSeed = readFileSync(join(dir, 'signing.key'), 'utf8').trim();

    const rotated = await rotateSigningKey(service.store.db, settingsOf(store.env), undefined);
    expect(rotated).toMatchObject({ retired: oldVkey, path: join(dir, 'signing.key') });
    const newVkey = rotated.current;
    expect(signerFromSeed(KEY_NAME, seedBytes(readFileSync(join(dir, 'signing.key'), 'utf8'))).vkey).toBe(newVkey);

    // This process still holds the retired key: it records nothing with it (503), and says why.
    const head = async () => (await service!.ledger.headPosition()) ?? null;
    const headBefore = await head();
    const refused = await api.post('/api/v1/policies', {
      policyType: 'privacy_policy',
      version: '9.9.9',
      title: 'Privacy policy',
      content: 'Written by a process holding a retired key.',
    });
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(refused.json().error.message).toMatch(/cannot sign with its key until its operator restarts it; nothing was recorded/);
    expect(await head()).toEqual(headBefore);
    // A forger holding the old seed appends past the rotation (ignoring the key history): this
    // process's sealer refuses to sign on, nothing is signed with the retired key. The ledger may
    // hold the event back behind a transaction open elsewhere on the server, so a batch can read
    // nothing at first: run batches until one reads it and refuses.
    const forger = new PostgresLedger(service.store.db, {
      authenticate: (hashes) => authenticateAppend(signerFromSeed(KEY_NAME, seedBytes(oldSeed)), hashes),
    });
    await forger.append(
      [
        {
          tenantId: creds.tenantId,
          stream: `forged-${creds.tenantId}`,
          expectedRevision: 'no_stream',
          events: [{ type: 'Forged', data: {} }],
        },
      ],
      new Date(),
    );
    await service.sealer.stop();
    const refusal = await waitUntil(
      () =>
        service!.sealer.runOnce().then(
          () => undefined,
          (error: unknown) => error,
        ),
      { what: 'the sealer to refuse the batch' },
    );
    expect(String(refusal)).toMatch(/was retired by keys rotate-signing/);
    expect((await api.get('/api/v1/ledger/checkpoint')).json().data.treeSize).toBe(before.treeSize);
    // Out of rotation, saying why, rather than ready with proofs that never come.
    const ready = await service.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error).toMatchObject({ code: 'NOT_READY', details: { signingKeyRetired: true } });
    expect(ready.json().error.message).toMatch(
      /checkpoint signing key .* is no longer the log's current key: restart it with the current key/,
    );
    // A key the log never had is not called retired.
    const stranger = signerFromSeed(KEY_NAME, randomBytes(32));
    const told = await service.store.db
      .transaction()
      .execute((tx) => assertCurrentKey(tx, stranger))
      .catch((e: unknown) => String(e));
    expect(told).toMatch(/is not the log's current key/);
    expect(told).not.toMatch(/retired/);
    // A command given no key on a store whose log has one names the key it needs.
    if (store.env.DATABASE_URL) {
      const keyless = mkdtempSync(join(tmpdir(), 'cl-signing-none-'));
      const without = loadSettings({ ...store.env, DATA_DIR: keyless, PUBLIC_BASE_URL: BASE, LOG_LEVEL: 'silent' });
      await expect(rotateSigningKey(service.store.db, without, undefined)).rejects.toThrow(/signed by .* no signing key was found/);
      rmSync(keyless, { recursive: true, force: true });
    }
    await service.close();

    service = await createService(settingsOf(store.env), { pollMs: 50 });
    api = client(service.app, creds);
    // What the forger appended after the rotation carries the retired key's authenticator: the
    // new key's sealer refuses it, and the operator removes it (docs/verifying.md) before the
    // tenant's log goes on.
    const halted = await waitUntil(
      async () =>
        (
          (await service!.app.inject({ url: '/ready' })).json().data.sealing.halted as {
            tenantId: string;
            eventId: string;
            reason: string;
          }[]
        ).find((h) => h.tenantId === creds.tenantId),
      { what: 'the retired key’s append refused' },
    );
    expect(halted.reason).toBe('the authenticator is by a key retired before the event was appended');
    const owner = service.store.db;
    await sql`ALTER TABLE ledger.events DISABLE TRIGGER ALL`.execute(owner);
    await sql`DELETE FROM ledger.events WHERE event_id = ${halted.eventId}::uuid`.execute(owner);
    await sql`ALTER TABLE ledger.events ENABLE TRIGGER ALL`.execute(owner);
    await sql`DELETE FROM transparency.halts WHERE tenant_id = ${creds.tenantId}::uuid`.execute(owner);
    const consent = await api.post('/api/v1/consent', {
      policyVersionId: await publishPolicy(api),
      userReference: 'u',
      consentGiven: true,
    });
    const proof = (await api.get(`/api/v1/consent/${consent.json().data.id}/proof`)).json().data;
    expect(parseCheckpoint(openNote(proof.checkpoint, parseVerifierKey(newVkey))).treeSize).toBe(before.treeSize + 2);
    expect(() => openNote(proof.checkpoint, parseVerifierKey(oldVkey))).toThrow(/no signature/);
    expect(parseCheckpoint(openNote(before.checkpoint, parseVerifierKey(oldVkey))).treeSize).toBe(before.treeSize);

    const keys = await keysDocument(service, creds.tenantId);
    expect(keys).toMatchObject([
      { vkey: newVkey, status: 'current', treeSizes: { from: before.treeSize + 1, to: null } },
      { vkey: oldVkey, status: 'retired', treeSizes: { from: 0, to: before.treeSize } },
    ]);
    // The succession statement, signed by both keys: the new one vouches for the old, the old hands over to the new.
    expect(keys[0]!.successor).toBeNull();
    const { successor } = keys[1]!;
    const newKey = parseVerifierKey(newVkey);
    const oldKey = parseVerifierKey(oldVkey);
    expect(successor!.publicKey).toBe(newKey.publicKeyRaw.toString('base64'));
    // It names the last ledger position the old key authenticates: the policy before the rotation.
    expect(successor!.position).toMatch(/^[0-9]+\.[0-9]+$/);
    const statement = Buffer.from(
      `consent-ledger/key-succession/v2\n${keys[1]!.publicKey}\n${successor!.publicKey}\n${successor!.position}\n`,
    );
    expect(verify(null, statement, newKey.publicKey, Buffer.from(successor!.signature, 'base64'))).toBe(true);
    expect(verify(null, statement, oldKey.publicKey, Buffer.from(successor!.handover!, 'base64'))).toBe(true);
    // A vkey rewritten in the history names another key: the document gives the one the row's public key makes.
    await sql`UPDATE transparency.key_history SET vkey = ${stranger.vkey} WHERE public_key = ${keys[1]!.publicKey}`.execute(
      service.store.db,
    );
    expect((await keysDocument(service))[1]).toMatchObject({ vkey: oldVkey, keyId: oldVkey.split('+')[1] });
    // The retired key is never current again.
    await service.close();
    service = undefined;
    const back = createService(settingsOf({ ...store.env, TRANSPARENCY_SIGNING_KEY: oldSeed }), { pollMs: 50 });
    await expect(back).rejects.toThrow(SigningKeyError);
  }, 120_000);

  it('vouches, on the first start that signs successions, for keys retired before it, and for none written after', async () => {
    // The rotation above signed its succession. A store rotated by an older version has none:
    // made so here, as the owner (the start marker is insert-once).
    const owner = await openStore({ databaseUrl: store.env.DATABASE_URL, dataDir: dir, migrations: MIGRATIONS });
    try {
      const signed = await sql<{ n: number }>`
        SELECT count(*)::int AS n FROM transparency.key_history WHERE successor_signature IS NOT NULL`.execute(owner.db);
      expect(signed.rows[0]!.n).toBe(1);
      await sql`UPDATE transparency.key_history
        SET successor_key = NULL, successor_signature = NULL, handover_signature = NULL, retired_position = NULL`.execute(owner.db);
      await sql`ALTER TABLE transparency.key_chain_start DISABLE TRIGGER ALL`.execute(owner.db);
      await sql`DELETE FROM transparency.key_chain_start`.execute(owner.db);
      await sql`ALTER TABLE transparency.key_chain_start ENABLE TRIGGER ALL`.execute(owner.db);
    } finally {
      await owner.close();
    }
    service = await createService(settingsOf(store.env), { pollMs: 50 });
    expect((await keysDocument(service)).map((k) => k.status)).toEqual(['current', 'retired']);
    // A row written into the history after that start is vouched for by no successor: not a key of the log's.
    const planted = signerFromSeed(KEY_NAME, randomBytes(32));
    await sql`INSERT INTO transparency.key_history (public_key, vkey, activated_at, retired_at)
      VALUES (${planted.publicKey.toString('base64')}, ${planted.vkey}, '2026-01-01', '2026-01-02')`.execute(service.store.db);
    await service.close();
    // The start says so, naming it.
    const reopened = await openStore({ databaseUrl: store.env.DATABASE_URL, dataDir: dir, migrations: MIGRATIONS });
    try {
      const { notices } = await openSigningKey(reopened.db, settingsOf(store.env));
      expect(notices.join('\n')).toContain(`no successor vouches for: ${planted.vkey}`);
    } finally {
      await reopened.close();
    }
    service = await createService(settingsOf(store.env), { pollMs: 50 });
    const keys = await keysDocument(service);
    expect(keys.map((k) => k.status)).toEqual(['current', 'retired']);
    expect(keys.map((k) => k.vkey)).not.toContain(planted.vkey);
    await sql`DELETE FROM transparency.key_history WHERE public_key = ${planted.publicKey.toString('base64')}`.execute(service.store.db);
    // Left stopped, as the tests after it open the store themselves.
    await service.close();
    service = undefined;
  }, 120_000);

  it('keeps DATA_DIR/signing.key as it was when the rotation’s commit fails, and the store starts again', async () => {
    service = await createService(settingsOf(store.env), { pollMs: 50 });
    const published = (await keysDocument(service))[0]!.vkey;
    await service.close();
    service = undefined;
    const file = join(dir, 'signing.key');
    const seed = readFileSync(file, 'utf8');
    // The commit refused, as a lost connection or a full disk would leave it, after every statement ran.
    const owner = await openStore({
      migrations: MIGRATIONS,
      ...(store.env.DATABASE_URL ? { databaseUrl: store.env.DATABASE_URL } : { dataDir: dir }),
    });
    try {
      await sql`CREATE FUNCTION public.refuse_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the commit failed'; END $$`.execute(
        owner.db,
      );
      await sql`CREATE CONSTRAINT TRIGGER refuse_commit AFTER INSERT OR UPDATE ON transparency.key_history DEFERRABLE INITIALLY DEFERRED
        FOR EACH ROW EXECUTE FUNCTION public.refuse_commit()`.execute(owner.db);
      await expect(rotateSigningKey(owner.db, settingsOf(store.env), undefined)).rejects.toThrow('the commit failed');
      expect(readFileSync(file, 'utf8')).toBe(seed);
      expect(readdirSync(dir).filter((f) => f.startsWith('signing.key'))).toEqual(['signing.key']);
      await sql`DROP TRIGGER refuse_commit ON transparency.key_history`.execute(owner.db);
      await sql`DROP FUNCTION public.refuse_commit()`.execute(owner.db);
    } finally {
      await owner.close();
    }
    service = await createService(settingsOf(store.env), { pollMs: 50 });
    expect((await keysDocument(service))[0]).toMatchObject({ vkey: published, status: 'current' });
    await service.close();
    service = undefined;
  }, 120_000);

  it('names the new key as the log names its key, whatever PUBLIC_BASE_URL the command runs with', async () => {
    service = await createService(settingsOf(store.env), { pollMs: 50 });
    const published = (await keysDocument(service))[0]!.vkey;
    // The operator's shell lacks the service's PUBLIC_BASE_URL: its default names localhost:3000.
    const shell = loadSettings({ ...store.env, LOG_LEVEL: 'silent' });
    const rotated = await rotateSigningKey(service.store.db, shell, undefined);
    expect(rotated.retired).toBe(published);
    expect(rotated.current.split('+')[0]).toBe(KEY_NAME);
    await service.close();
    service = await createService(settingsOf(store.env), { pollMs: 50 });
    expect((await keysDocument(service))[0]).toMatchObject({ vkey: rotated.current, status: 'current' });
  }, 120_000);

  it('is not renamed by a start refused for its master key', async () => {
    service ??= await createService(settingsOf(store.env), { pollMs: 50 });
    const published = (await keysDocument(service))[0]!.vkey;
    await service.close();
    service = undefined;
    const wrong = randomBytes(32).toString('hex');
    const moved = loadSettings({ ...store.env, MASTER_KEY: wrong, PUBLIC_BASE_URL: 'https://moved.example.org', LOG_LEVEL: 'silent' });
    await expect(createService(moved, { pollMs: 50 })).rejects.toThrow(/master key/i);
    // The store as the refused start left it (a start would name the key again as it signs).
    const opened = await openStore({ databaseUrl: moved.databaseUrl, dataDir: moved.dataDir, migrations: MIGRATIONS });
    try {
      const named = await sql<{ vkey: string }>`SELECT vkey FROM transparency.key_history`.execute(opened.db);
      expect(named.rows.map((r) => r.vkey)).toContain(published);
      expect(named.rows.map((r) => r.vkey).join()).not.toMatch(/moved\.example\.org/);
    } finally {
      await opened.close();
    }
  }, 120_000);

  it('says so when PUBLIC_BASE_URL renames the log, and what auditors lose', async () => {
    await service?.close();
    service = undefined;
    const moved = loadSettings({ ...store.env, PUBLIC_BASE_URL: 'https://moved.example.org', LOG_LEVEL: 'silent' });
    const opened0 = await openStore({ databaseUrl: moved.databaseUrl, dataDir: moved.dataDir, migrations: MIGRATIONS });
    const { db } = opened0;
    const close = () => opened0.close();
    try {
      const opened = await openSigningKey(db, moved);
      expect(opened.signer.name).toBe('moved.example.org');
      expect(opened.notices.join('\n')).toMatch(
        new RegExp(
          `names this service moved\\.example\\.org, but its transparency log was signed as ${KEY_NAME.replace(/\./g, '\\.')} until now`,
        ),
      );
      // Said once: the history now names the key as it signs.
      expect((await openSigningKey(db, moved)).notices).toEqual([]);
      // A process still running with the old name signs no more: one log, one origin.
      const stale = signerFromSeed(KEY_NAME, seedBytes(readFileSync(opened.path!, 'utf8')));
      await expect(db.transaction().execute((tx) => assertCurrentKey(tx, stale, { sameName: true }))).rejects.toThrow(
        /names the log keys\.example\.org.*signed as moved\.example\.org.*same PUBLIC_BASE_URL/,
      );
    } finally {
      await close();
    }
  }, 60_000);
});

describe.skipIf(!serverUrl)('signing key › rotation while a transaction is open', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-signing-open-'));
  let store: Awaited<ReturnType<typeof storeSettings>>;
  let service: Service | undefined;
  beforeAll(async () => {
    store = await storeSettings(dir);
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await store?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses to rotate while a transaction that may append is open, naming it', async () => {
    const owner = await openStore({ databaseUrl: store.env.DATABASE_URL, dataDir: dir, migrations: MIGRATIONS });
    const held = new pg.Client({ connectionString: store.env.DATABASE_URL });
    await held.connect();
    try {
      service = await createService(settingsOf(store.env), { pollMs: 50 });
      const current = (await keysDocument(service))[0]!.vkey;
      await service.close();
      service = undefined;
      // A forger's transaction kept open: its rows would land before the position a rotation names.
      await held.query('BEGIN');
      const xid = (await held.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid')).rows[0]!.xid;
      await expect(rotateSigningKey(owner.db, settingsOf(store.env), undefined)).rejects.toThrow(
        `a transaction that may append to the ledger is open on the database (transaction ${xid})`,
      );
      // Nothing rotated.
      service = await createService(settingsOf(store.env), { pollMs: 50 });
      expect((await keysDocument(service))[0]!.vkey).toBe(current);
      await service.close();
      service = undefined;
      // Ended while the rotation waits for it (holding the key history's lock): the rotation goes on.
      const rotation = rotateSigningKey(owner.db, settingsOf(store.env), undefined);
      await waitUntil(async () => {
        const { rows } = await held.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'transparency.key_history'::regclass AND mode = 'ShareRowExclusiveLock' AND granted`,
        );
        return rows[0]!.n === 1;
      });
      await held.query('ROLLBACK');
      expect((await rotation).retired).toBe(current);
    } finally {
      await held.end();
      await service?.close();
      service = undefined;
      await owner.close();
    }
  }, 60_000);

  it('makes a write that waited for a rotation record nothing: it finds its key retired when the rotation commits', async () => {
    const racingDir = mkdtempSync(join(tmpdir(), 'cl-signing-race-'));
    const db = await storeSettings(racingDir);
    const rotating = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await rotating.connect();
    try {
      service = await createService(settingsOf(db.env), { pollMs: 50 });
      const api = client(service.app, await service.tenants.create('racing', 'enterprise'));
      const policyVersionId = await publishPolicy(api);
      const headBefore = await service.ledger.headPosition();
      // A rotation's first steps, held: the key history's lock, then the current key's row.
      await rotating.query('BEGIN');
      await rotating.query('LOCK TABLE transparency.key_history IN SHARE ROW EXCLUSIVE MODE');
      await rotating.query('SELECT 1 FROM transparency.key_history WHERE retired_at IS NULL FOR UPDATE');
      const write = api.post('/api/v1/consent', { policyVersionId, userReference: 'u-racing', consentGiven: true });
      await waitUntil(
        async () => {
          const { rows } = await rotating.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
             WHERE NOT l.granted AND a.datname = current_database() AND l.pid <> pg_backend_pid()`,
          );
          return rows[0]!.n > 0;
        },
        { what: 'the write to wait for the rotation' },
      );
      await rotating.query('UPDATE transparency.key_history SET retired_at = clock_timestamp() WHERE retired_at IS NULL');
      await rotating.query('COMMIT');
      const answer = await write;
      expect(answer.statusCode).toBe(503);
      expect(answer.json().error.message).toMatch(/nothing was recorded/);
      expect(await service.ledger.headPosition()).toEqual(headBefore);
    } finally {
      await rotating.end();
      await service?.close();
      service = undefined;
      await db.drop();
      rmSync(racingDir, { recursive: true, force: true });
    }
  }, 60_000);
});
