import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGunzip, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { extract as tarExtract, pack as tarPack } from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restoreBackup } from '../../src/backup/backup.js';
import { loadSettings } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { BACKUP_MANIFEST, type BackupManifest } from '../../src/store/embedded-backup.js';
import { parsePrometheus, valueOf } from '../support/prometheus.js';
import { waitUntil } from '../support/process.js';
import { startTestService, type TestService } from '../support/service.js';
import { serverUrl } from '../support/stores.js';

/**
 * Issue 21, "Backups": POST /admin/v1/backup streams an archive of the running embedded store
 * while writers keep recording, none refused; restored (with the key files) into another folder,
 * a service there answers every record acknowledged before the archive's consistency point,
 * each verifying, its ledger is a prefix of the original's, and its checkpoints are the ones the
 * original signed.
 */
const ADMIN_TOKEN = 'backup-test-admin-token-0123456789';
const PUBLIC_BASE_URL = 'https://consent.example.org';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

const startOn = async (dataDir: string): Promise<{ service: Service; url: string }> => {
  const settings = loadSettings({ DATA_DIR: dataDir, ADMIN_TOKEN, PUBLIC_BASE_URL, LOG_LEVEL: 'silent' });
  const service = await createService(settings, { pollMs: 50 });
  await service.app.listen({ port: 0, host: '127.0.0.1' });
  const address = service.app.server.address();
  return { service, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
};

/** The archive again with its manifest changed by `edit`: every other entry as it was. */
async function withManifest(archive: Buffer, edit: (manifest: BackupManifest) => void): Promise<Buffer> {
  const extract = tarExtract();
  const pack = tarPack();
  const out: Buffer[] = [];
  pack.on('data', (chunk) => out.push(chunk as Buffer));
  const ended = new Promise<void>((resolve) => pack.on('end', () => resolve()));
  Readable.from([archive]).pipe(createGunzip()).pipe(extract);
  for await (const entry of extract) {
    const chunks: Buffer[] = [];
    for await (const chunk of entry) chunks.push(chunk as Buffer);
    let body = Buffer.concat(chunks);
    if (entry.header.name === BACKUP_MANIFEST) {
      const manifest = JSON.parse(body.toString('utf8')) as BackupManifest;
      edit(manifest);
      body = Buffer.from(JSON.stringify(manifest));
    }
    pack.entry({ ...entry.header, size: body.length }, body);
  }
  pack.finalize();
  await ended;
  return gzipSync(Buffer.concat(out));
}

describe('backup › of the running embedded store, under concurrent writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-backup-api-'));
  const liveDir = join(dir, 'live');
  const restoredDir = join(dir, 'restored');
  let live: { service: Service; url: string };
  let restored: { service: Service; url: string } | undefined;
  let creds: { apiKey: string; apiSecret: string };
  let policyId: string;
  const acks: { id: string; at: number }[] = [];
  const refused: number[] = [];
  let archive: Buffer;
  let manifest: BackupManifest;
  let backupWindow: { from: number; to: number };
  let concurrentRefusal: { status: number; code: string };

  const tenantHeaders = () => ({ 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret, 'content-type': 'application/json' });
  const record = async (base: string, n: number) => {
    const res = await fetch(`${base}/api/v1/consent`, {
      method: 'POST',
      headers: tenantHeaders(),
      body: JSON.stringify({
        policyVersionId: policyId,
        userReference: `user-${n}@example.org`,
        consentGiven: n % 3 !== 0,
        metadata: { n },
      }),
    });
    if (res.status !== 201) {
      refused.push(res.status);
      return;
    }
    acks.push({ id: ((await res.json()) as { data: { id: string } }).data.id, at: Date.now() });
  };

  beforeAll(async () => {
    live = await startOn(liveDir);
    const created = await live.service.tenants.create('backed up', 'pro');
    await live.service.tenants.update(created.tenantId, { limits: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } });
    creds = created;
    const policy = await fetch(`${live.url}/api/v1/policies`, {
      method: 'POST',
      headers: tenantHeaders(),
      body: JSON.stringify({ policyType: 'privacy_policy', version: '1.0.0', title: 'Privacy', content: 'What we do with your data.' }),
    });
    policyId = ((await policy.json()) as { data: { id: string } }).data.id;
    for (let n = 0; n < 200; n += 10) await Promise.all(Array.from({ length: 10 }, (_, i) => record(live.url, n + i)));

    // Two writers record until the archive has arrived whole, each at a client's pace (a write
    // every 10 ms at most): flat out, from this same process, they starved the copy to 10 s.
    let writing = true;
    let next = 1000;
    const writers = Array.from({ length: 2 }, async () => {
      while (writing) {
        await record(live.url, next++);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    });
    backupWindow = { from: Date.now(), to: 0 };
    const res = await fetch(`${live.url}/admin/v1/backup`, { method: 'POST', headers: admin });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/gzip');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="consent-ledger-backup-.+\.tar\.gz"$/);
    const again = await fetch(`${live.url}/admin/v1/backup`, { method: 'POST', headers: admin });
    concurrentRefusal = { status: again.status, code: ((await again.json()) as { error: { code: string } }).error.code };
    archive = Buffer.from(await res.arrayBuffer());
    backupWindow.to = Date.now();
    writing = false;
    await Promise.all(writers);

    // The key files travel apart from the archive; the restore checks them.
    mkdirSync(restoredDir);
    for (const key of ['master.key', 'signing.key']) copyFileSync(join(liveDir, key), join(restoredDir, key));
    const settings = loadSettings({ DATA_DIR: restoredDir, PUBLIC_BASE_URL });
    const report = await restoreBackup(Readable.from([archive]), restoredDir, settings);
    manifest = report.manifest;
    expect(report.keys).toEqual({ master: 'matches', signing: 'matches' });
    restored = await startOn(restoredDir);
  }, 120_000);

  afterAll(async () => {
    await restored?.service.close();
    await live?.service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answered every write while the backup was taken, and refused a second backup meanwhile', () => {
    expect(refused).toEqual([]);
    const during = acks.filter((a) => a.at > backupWindow.from && a.at < backupWindow.to);
    expect(during.length).toBeGreaterThan(10);
    expect(concurrentRefusal).toEqual({ status: 409, code: 'BACKUP_IN_PROGRESS' });
  });

  it('restores every record acknowledged before its consistency point, each verifying', async () => {
    const point = Date.parse(manifest.consistentAt);
    expect(point).toBeGreaterThan(backupWindow.from);
    const before = acks.filter((a) => a.at < point);
    expect(before.length).toBeGreaterThan(200);
    const body = async (res: Response) => ((await res.json()) as { data: { valid?: boolean } }).data;
    const check = async (id: string) => {
      const res = await fetch(`${restored!.url}/api/v1/consent/${id}`, { headers: tenantHeaders() });
      expect(res.status, id).toBe(200);
      const original = await fetch(`${live.url}/api/v1/consent/${id}`, { headers: tenantHeaders() });
      expect(await body(res)).toEqual(await body(original));
      const verified = await fetch(`${restored!.url}/api/v1/consent/${id}/verify`, { headers: tenantHeaders() });
      expect((await body(verified)).valid, id).toBe(true);
    };
    for (let i = 0; i < before.length; i += 16) await Promise.all(before.slice(i, i + 16).map((a) => check(a.id)));
  }, 120_000);

  it("restores a prefix of the original's ledger, no less than the manifest says", async () => {
    const events = async (service: Service) =>
      (
        await sql<{ id: string }>`SELECT event_id::text AS id FROM ledger.events ORDER BY global_position`.execute(service.store.db)
      ).rows.map((r) => r.id);
    const copy = await events(restored!.service);
    const original = await events(live.service);
    expect(copy.length).toBeGreaterThanOrEqual((manifest.contents as { ledger: { events: number } }).ledger.events);
    expect(copy).toEqual(original.slice(0, copy.length));
  });

  it('holds the checkpoints the original signed, and the restored service signs on from them', async () => {
    const checkpoints = async (service: Service) =>
      (
        await sql<{ size: number; root: string; note: string }>`
          SELECT tree_size AS size, root_hash AS root, note FROM transparency.checkpoints ORDER BY tree_size`.execute(service.store.db)
      ).rows;
    const original = await checkpoints(live.service);
    const inManifest = (manifest.contents as { checkpoints: { treeSize: number; rootHash: string }[] }).checkpoints;
    expect(inManifest).toHaveLength(1);
    const copied = await checkpoints(restored!.service);
    const backedUp = copied.filter((c) => c.size <= inManifest[0]!.treeSize);
    expect(backedUp.at(-1)).toMatchObject({ size: inManifest[0]!.treeSize, root: inManifest[0]!.rootHash });
    for (const c of backedUp) expect(original).toContainEqual(c);
    // Recording on the restored store: its log grows from the restored checkpoint, signed by the same key.
    await record(restored!.url, 99_999);
    const id = acks.at(-1)!.id;
    await expect
      .poll(async () => (await fetch(`${restored!.url}/api/v1/consent/${id}/proof`, { headers: tenantHeaders() })).status, {
        timeout: 10_000,
      })
      .toBe(200);
  });

  it("refuses, restoring nothing, a store whose checkpoint has another root hash than the manifest's", async () => {
    const altered = await withManifest(archive, (m) => {
      const [checkpoint] = (m.contents as { checkpoints: { rootHash: string }[] }).checkpoints;
      checkpoint!.rootHash = checkpoint!.rootHash.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'));
    });
    const target = join(dir, 'altered');
    mkdirSync(target);
    for (const key of ['master.key', 'signing.key']) copyFileSync(join(liveDir, key), join(target, key));
    await expect(restoreBackup(Readable.from([altered]), target, loadSettings({ DATA_DIR: target, PUBLIC_BASE_URL }))).rejects.toThrow(
      /checkpoint at size \d+ has the root hash .+, and the backup recorded .+: the archive is damaged or was altered/,
    );
    expect(existsSync(join(target, 'pglite'))).toBe(false);
  }, 60_000);
});

describe('backup › the age metric an alert on stale backups reads', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-backup-age-'));
  let live: { service: Service; url: string };
  const lastBackup = async (): Promise<number | undefined> => {
    const res = await fetch(`${live.url}/metrics`, { headers: admin });
    return valueOf(parsePrometheus(await res.text()), 'consent_ledger_backup_last_success_timestamp_seconds');
  };
  const recorded = async () =>
    Number((await sql<{ n: number }>`SELECT count(*)::int AS n FROM control.backups`.execute(live.service.store.db)).rows[0]!.n);
  beforeAll(async () => {
    live = await startOn(dir);
  });
  afterAll(async () => {
    await live?.service.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is 0 before the first backup, and the time the archive was sent whole after it', async () => {
    expect(await lastBackup()).toBe(0);
    const before = Date.now() / 1000;
    const res = await fetch(`${live.url}/admin/v1/backup`, { method: 'POST', headers: admin });
    const bytes = (await res.arrayBuffer()).byteLength;
    const at = await waitUntil(async () => (await lastBackup()) || undefined, { what: 'the backup to be recorded' });
    expect(at).toBeGreaterThanOrEqual(Math.floor(before));
    expect(at).toBeLessThanOrEqual(Date.now() / 1000);
    const rows = await sql<{ via: string; bytes: string }>`SELECT via, bytes FROM control.backups`.execute(live.service.store.db);
    expect(rows.rows.map((r) => ({ via: r.via, bytes: Number(r.bytes) }))).toEqual([{ via: 'api', bytes }]);
  });

  it('does not count a download cut off before its end', async () => {
    const abort = new AbortController();
    const res = await fetch(`${live.url}/admin/v1/backup`, { method: 'POST', headers: admin, signal: abort.signal });
    const reader = res.body!.getReader();
    await reader.read();
    abort.abort();
    await reader.read().catch(() => undefined);
    // The service left backup mode: a new backup is taken (and sent whole, so counted).
    const after = Math.floor(Date.now() / 1000);
    const next = await waitUntil(
      async () => {
        const r = await fetch(`${live.url}/admin/v1/backup`, { method: 'POST', headers: admin });
        if (r.status === 409) return undefined;
        await r.arrayBuffer();
        return r.status;
      },
      { what: 'the cut backup to end' },
    );
    expect(next).toBe(200);
    await waitUntil(async () => ((await lastBackup()) ?? 0) >= after, { what: 'the next whole backup to be recorded' });
    expect(await recorded()).toBe(2);
  });
});

describe('backup › where there is no embedded store on disk', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ ADMIN_TOKEN });
  });
  afterAll(async () => {
    await svc?.close();
  });

  it(`answers 409 BACKUP_NOT_AVAILABLE, naming what to do (${serverUrl ? 'PostgreSQL server: pg_dump' : 'in-memory store'})`, async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/admin/v1/backup', headers: admin });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('BACKUP_NOT_AVAILABLE');
    expect(res.json().error.message).toMatch(serverUrl ? /pg_dump/ : /in memory/);
  });

  it('is the operator’s: 401 without the admin token', async () => {
    const res = await svc.app.inject({ method: 'POST', url: '/admin/v1/backup', headers: { authorization: 'Bearer wrong' } });
    expect(res.statusCode).toBe(401);
  });
});
