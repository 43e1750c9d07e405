import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/migrations.js';
import { openStore } from '../../src/store/store.js';
import { runCommand, startServiceProcess, tenantClient, type CommandRun, type ServiceProcess } from '../support/process.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * Issue 21, "Backups", as an operator runs them: the archive from the running service
 * (POST /admin/v1/backup) and `npx consent-ledger backup --out` with it stopped; `restore` into a
 * new folder; a service started there without the key files refuses (and writes none), with them
 * answers every record, verifying. Wrong keys, an occupied folder and a running store are refused.
 */
const cli = (args: string[], env: Record<string, string> = {}): Promise<CommandRun> =>
  runCommand(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', ...args], env);

const ADMIN_TOKEN = 'backup-e2e-admin-token-0123456789';
const PUBLIC_BASE_URL = 'https://consent.example.org';

describe('backup and restore › the embedded store, from the command line and the admin API', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-backup-e2e-'));
  const dataDir = join(dir, 'data');
  const env = { DATA_DIR: dataDir, ADMIN_TOKEN, PUBLIC_BASE_URL };
  let svc: ServiceProcess | undefined;
  let creds: { tenantId: string; apiKey: string; apiSecret: string };
  const ids: string[] = [];
  let online: string;
  let checkpoint: { treeSize: number; rootHash: string };

  beforeAll(async () => {
    svc = await startServiceProcess(env);
    creds = await svc.credentials();
    const api = tenantClient(svc.url, creds);
    const policy = await api.post('/api/v1/policies', {
      policyType: 'terms_of_service',
      version: '1.0.0',
      title: 'Terms',
      content: 'The terms.',
    });
    expect(policy.status).toBe(201);
    for (let i = 0; i < 12; i++) {
      const res = await api.post('/api/v1/consent', {
        policyVersionId: policy.body.data.id,
        userReference: `user-${i}@example.org`,
        consentGiven: i % 4 !== 0,
        ipAddress: `198.51.100.${i}`,
        metadata: { source: 'signup' },
      });
      expect(res.status).toBe(201);
      ids.push(res.body.data.id);
    }
    expect((await api.post(`/api/v1/consent/${ids[1]}/withdraw`, { reason: 'asked' })).status).toBe(200);
    // The log seals within a second or so: back up once it covers every event.
    for (;;) {
      const res = await api.get('/api/v1/ledger/checkpoint');
      const proof = await api.get(`/api/v1/consent/${ids.at(-1)}/proof`);
      if (res.status === 200 && proof.status === 200) {
        checkpoint = { treeSize: res.body.data.treeSize, rootHash: res.body.data.rootHash };
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // curl -X POST -H 'Authorization: Bearer …' -o backup.tar.gz …/admin/v1/backup
    const res = await fetch(`${svc.url}/admin/v1/backup`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(res.status).toBe(200);
    online = join(dir, 'online.tar.gz');
    writeFileSync(online, Buffer.from(await res.arrayBuffer()));
  }, 180_000);

  afterAll(async () => {
    await svc?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses `backup` while the service holds the store, pointing at the admin API', async () => {
    const run = await cli(['backup', '--out', join(dir, 'refused.tar.gz')], env);
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({ error: { code: 'DATA_DIR_LOCKED' } });
    expect(run.stderr).toMatch(/admin API/);
    expect(existsSync(join(dir, 'refused.tar.gz'))).toBe(false);
  });

  it('restores the online archive; a service there without the key files refuses to start and writes none', async () => {
    const target = join(dir, 'no-keys');
    const run = await cli(['restore', '--from', online, '--data-dir', target], { PUBLIC_BASE_URL });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({
      keys: { master: 'missing', signing: 'missing' },
      restored: { ledger: { events: expect.any(Number) } },
    });
    expect(run.stderr).toMatch(/WARNING: no master key and no signing key was given/);
    expect(run.stderr).toMatch(/holds no key/);
    const started = await startServiceProcess({ DATA_DIR: target, PUBLIC_BASE_URL }).then(
      async (s) => (await s.kill('SIGTERM'), 'started'),
      (error: Error) => error.message,
    );
    // The master key is checked first: what it names is the first file to bring back.
    expect(started).toMatch(/holds data sealed under a master key, and none was found .*a restored backup needs the key files/);
    expect(readdirSync(target).filter((f) => f.endsWith('.key'))).toEqual([]);
  });

  it('refuses a master key that does not open the store, and a folder that holds a store, restoring nothing', async () => {
    const wrongKey = join(dir, 'wrong.key');
    writeFileSync(wrongKey, randomBytes(32).toString('base64'));
    const target = join(dir, 'wrong-key');
    const run = await cli(['restore', '--from', online, '--data-dir', target], { PUBLIC_BASE_URL, MASTER_KEY_FILE: wrongKey });
    expect(run.code).toBe(1);
    expect(run.json).toMatchObject({
      error: { code: 'RESTORE_REFUSED', message: expect.stringMatching(/master key given does not open/) },
    });
    // The folder it made is gone, lock file and all.
    expect(existsSync(target)).toBe(false);

    const occupied = await cli(['restore', '--from', online, '--data-dir', join(dir, 'no-keys')], { PUBLIC_BASE_URL });
    expect(occupied.code).toBe(1);
    expect(occupied.json).toMatchObject({ error: { code: 'RESTORE_REFUSED', message: expect.stringMatching(/holds a store already/) } });
  });

  // Five processes, each opening the embedded store, one after another: over 30 s on a slow machine.
  it('backs up the stopped store with `backup --out`, and the restored store answers every record, verifying, with the same checkpoint', async () => {
    await svc!.kill('SIGTERM');
    svc = undefined;
    const offline = join(dir, 'offline.tar.gz');
    const backup = await cli(['backup', '--out', offline], env);
    expect(backup.code, backup.stderr).toBe(0);
    const printed = backup.json as {
      file: string;
      bytes: number;
      sha256: string;
      contents: { ledger: { events: number }; checkpoints: { tenantId: string; treeSize: number; rootHash: string }[] };
    };
    const sealed = printed.contents.checkpoints.find((c) => c.tenantId === creds.tenantId)!;
    expect(sealed.treeSize).toBeGreaterThanOrEqual(checkpoint.treeSize);
    expect(printed.file).toBe(offline);
    expect(printed.sha256).toBe(createHash('sha256').update(readFileSync(offline)).digest('hex'));
    expect(printed.bytes).toBe(readFileSync(offline).length);
    expect(backup.stderr).toMatch(/holds no key/);
    const again = await cli(['backup', '--out', offline], env);
    expect(again.code).toBe(2);
    // A place it cannot write (under a file): one message naming it, no stack trace.
    const nowhere = await cli(['backup', '--out', join(offline, 'x.tar.gz')], env);
    expect(nowhere.code).toBe(1);
    expect(nowhere.json.error.message).toBe(`backup failed: cannot write ${join(offline, 'x.tar.gz')} (ENOTDIR)`);
    expect(nowhere.stderr).not.toMatch(/Unhandled|\n\s+at /);
    // Recorded in the store it copied (after the copy: not in the archive), for the age metric.
    const copied = await openStore({ dataDir, migrations: MIGRATIONS });
    try {
      const rows = await sql<{ via: string; bytes: string }>`SELECT via, bytes FROM control.backups`.execute(copied.db);
      expect(rows.rows.map((r) => ({ via: r.via, bytes: Number(r.bytes) }))).toContainEqual({ via: 'cli', bytes: printed.bytes });
    } finally {
      await copied.close();
    }

    const target = join(dir, 'restored');
    mkdirSync(target);
    for (const key of ['master.key', 'signing.key']) copyFileSync(join(dataDir, key), join(target, key));
    const restore = await cli(['restore', '--from', offline, '--data-dir', target], { PUBLIC_BASE_URL });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.json).toMatchObject({ keys: { master: 'matches', signing: 'matches' } });
    expect((restore.json as { restored: { ledger: { events: number } } }).restored.ledger.events).toBe(printed.contents.ledger.events);

    svc = await startServiceProcess({ DATA_DIR: target, ADMIN_TOKEN, PUBLIC_BASE_URL });
    const api = tenantClient(svc.url, creds);
    for (const id of ids) {
      const record = await api.get(`/api/v1/consent/${id}`);
      expect(record.status).toBe(200);
      expect(record.body.data.userReference).toMatch(/^user-\d+@example.org$/);
      expect((await api.get(`/api/v1/consent/${id}/verify`)).body.data.valid).toBe(true);
    }
    expect((await api.get(`/api/v1/consent/${ids[1]}`)).body.data.status).toBe('withdrawn');
    const now = await api.get('/api/v1/ledger/checkpoint');
    expect(now.body.data).toMatchObject({ treeSize: sealed.treeSize, rootHash: sealed.rootHash });
  }, 120_000);
});

if (!serverUrl) console.log('[backup.e2e] DATABASE_URL is not set: `backup` on a PostgreSQL server is not tested');

describe.skipIf(!serverUrl)('backup › on a PostgreSQL server', () => {
  it('refuses, and names pg_dump', async () => {
    const db = await freshDatabase();
    const dataDir = mkdtempSync(join(tmpdir(), 'cl-backup-pg-'));
    try {
      // A store on the server (a database with none is refused as such: NO_STORE).
      const env = { DATABASE_URL: db.url, DATA_DIR: dataDir };
      expect((await cli(['tenant', 'create', '--name', 'Pg', '--plan', 'free'], env)).code).toBe(0);
      const run = await cli(['backup', '--out', join(tmpdir(), `cl-never-${process.pid}.tar.gz`)], env);
      expect(run.code).toBe(1);
      expect(run.json).toMatchObject({ error: { code: 'BACKUP_NOT_AVAILABLE', message: expect.stringMatching(/pg_dump/) } });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    }
  });
});
