import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishThrough, runCommand, startServiceProcess, tenantClient, type ServiceProcess } from '../support/process.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * Issue 21, "Backups" on a PostgreSQL server, as docs/operations.md tells the operator: pg_dump
 * (custom format) while the service runs and writers record, pg_restore into an empty database,
 * the service started there with the same key files. Every record acknowledged before the dump
 * began is there and verifies; the checkpoints are the ones the original signed. A database whose
 * ledger carries transaction ids ahead of its server's (a dump restored into another cluster) is
 * refused at start, not run out of order.
 */
const hasPgDump = (() => {
  try {
    execFileSync('pg_dump', ['--version']);
    return true;
  } catch {
    return false;
  }
})();
if (!serverUrl) console.log('[backup-postgres.e2e] DATABASE_URL is not set: the pg_dump procedure is not tested');
else if (!hasPgDump) console.log('[backup-postgres.e2e] pg_dump is not installed: the pg_dump procedure is not tested');

const ADMIN_TOKEN = 'pg-backup-e2e-admin-token-0123456789';
const PUBLIC_BASE_URL = 'https://consent.example.org';

describe.skipIf(!serverUrl || !hasPgDump)('backup › a PostgreSQL server, with pg_dump and pg_restore', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-pgdump-'));
  const keys = { MASTER_KEY_FILE: join(dir, 'master.key'), TRANSPARENCY_SIGNING_KEY_FILE: join(dir, 'signing.key') };
  let source: { url: string; drop(): Promise<void> };
  let target: { url: string; drop(): Promise<void> };
  let svc: ServiceProcess | undefined;
  let restored: ServiceProcess | undefined;
  let creds: { tenantId: string; apiKey: string; apiSecret: string };
  const acks: { id: string; at: number }[] = [];
  let dumpStartedAt = 0;
  let dumpFinishedAt = 0;
  type CheckpointRow = { tree_size: string; root_hash: string };
  const checkpointsSql = 'SELECT tree_size::text, root_hash FROM transparency.checkpoints ORDER BY tree_size';
  // The checkpoints the dump held, read before the restored service can seal more.
  let dumped: CheckpointRow[] = [];

  const query = async <T extends object>(url: string, text: string): Promise<T[]> => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return (await client.query<T>(text)).rows;
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    writeFileSync(keys.MASTER_KEY_FILE, randomBytes(32).toString('base64'), { mode: 0o600 });
    writeFileSync(keys.TRANSPARENCY_SIGNING_KEY_FILE, randomBytes(32).toString('base64'), { mode: 0o600 });
    source = await freshDatabase();
    target = await freshDatabase();
    svc = await startServiceProcess({ DATABASE_URL: source.url, ADMIN_TOKEN, PUBLIC_BASE_URL, ...keys });
    creds = await svc.credentials();
    const raised = await fetch(`${svc.url}/admin/v1/tenants/${creds.tenantId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ limits: { perMinute: 1_000_000, perDay: 1_000_000 } }),
    });
    expect(raised.status).toBe(200);
    const api = tenantClient(svc.url, creds);
    const policyVersionId = await publishThrough(api);
    const record = async (n: number) => {
      const res = await api.post('/api/v1/consent', {
        policyVersionId,
        userReference: `u-${n}`,
        consentGiven: n % 2 === 0,
      });
      expect(res.status).toBe(201);
      acks.push({ id: res.body.data.id, at: Date.now() });
    };
    for (let n = 0; n < 40; n++) await record(n);
    let writing = true;
    let next = 1000;
    const writers = Array.from({ length: 2 }, async () => {
      while (writing) await record(next++);
    });
    // pg_dump --format=custom --file consent-ledger.dump "$DATABASE_URL"
    dumpStartedAt = Date.now();
    const dump = await runCommand('pg_dump', ['--format=custom', '--file', join(dir, 'consent-ledger.dump'), source.url], {});
    dumpFinishedAt = Date.now();
    expect(dump.code, dump.stderr).toBe(0);
    writing = false;
    await Promise.all(writers);
    // pg_restore --exit-on-error --no-owner --no-privileges --dbname "$NEW_DATABASE_URL" consent-ledger.dump
    const restore = await runCommand(
      'pg_restore',
      ['--exit-on-error', '--no-owner', '--no-privileges', '--dbname', target.url, join(dir, 'consent-ledger.dump')],
      {},
    );
    expect(restore.code, restore.stderr).toBe(0);
    dumped = await query<CheckpointRow>(target.url, checkpointsSql);
    restored = await startServiceProcess({ DATABASE_URL: target.url, ADMIN_TOKEN, PUBLIC_BASE_URL, ...keys });
  }, 180_000);

  afterAll(async () => {
    await restored?.kill('SIGTERM');
    await svc?.kill('SIGTERM');
    await target?.drop();
    await source?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes went on while the dump was taken', () => {
    expect(acks.filter((a) => a.at > dumpStartedAt && a.at < dumpFinishedAt).length).toBeGreaterThan(0);
  });

  it('answers every record acknowledged before the dump began, each verifying', async () => {
    const api = tenantClient(restored!.url, creds);
    const before = acks.filter((a) => a.at <= dumpStartedAt);
    expect(before.length).toBeGreaterThanOrEqual(40);
    for (const { id } of before) {
      const res = await api.get(`/api/v1/consent/${id}`);
      expect(res.status, id).toBe(200);
      expect(res.body.data.userReference).toMatch(/^u-\d+$/);
      expect((await api.get(`/api/v1/consent/${id}/verify`)).body.data.valid, id).toBe(true);
    }
  });

  it('holds the checkpoints the original signed, and signs new ones with the same key', async () => {
    // The restored service seals what the dump held unsealed in batches of its own, so only the
    // dump's own checkpoints (read right after pg_restore) must match the original's.
    const original = await query<CheckpointRow>(source.url, checkpointsSql);
    const kept = await query<CheckpointRow>(target.url, checkpointsSql);
    expect(dumped.length).toBeGreaterThan(0);
    for (const c of dumped) expect(original).toContainEqual(c);
    for (const c of dumped) expect(kept).toContainEqual(c);
    const api = tenantClient(restored!.url, creds);
    const policy = await api.get('/api/v1/policies/active/privacy_policy');
    const res = await api.post('/api/v1/consent', {
      policyVersionId: policy.body.data.id,
      userReference: 'after-restore',
      consentGiven: true,
    });
    expect(res.status).toBe(201);
    await expect.poll(async () => (await api.get(`/api/v1/consent/${res.body.data.id}/proof`)).status, { timeout: 10_000 }).toBe(200);
  });

  it('refuses to start on a ledger whose transaction ids are ahead of the server (a dump restored into another cluster)', async () => {
    await restored!.kill('SIGTERM');
    restored = undefined;
    // What a restore into a younger cluster looks like: a committed event with an id the server has not reached.
    await query(
      target.url,
      `SET session_replication_role = replica;
       INSERT INTO ledger.events (transaction_id, event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, event_hash)
       VALUES ((pg_snapshot_xmax(pg_current_snapshot())::text::bigint + 1000000)::text::xid8, gen_random_uuid(), '${creds.tenantId}', 'from-elsewhere', 0, 'Moved', '{}', '{}', now(), 'x')`,
    );
    const started = await startServiceProcess({ DATABASE_URL: target.url, ADMIN_TOKEN, PUBLIC_BASE_URL, ...keys }).then(
      async (s) => (await s.kill('SIGTERM'), 'started'),
      (error: Error) => error.message,
    );
    expect(started).toMatch(/restored from a logical dump \(pg_dump\) into another cluster/);
  });
});
