import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { cosignerVkey, signerFromSeed } from '../../src/transparency/note.js';
import { childEnvironment, freePort, repoRoot, runCommand, waitUntil } from '../support/process.js';
import { client, publishPolicy, type Client } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

// The bin runs dist/: built once per run, never while another file's CLI loads it.

/** A tenant's log opens with TenantCreated and its first key's ApiKeyIssued (docs/audit-log.md). */
const SETUP = 2;

/**
 * Proof that survives the operator: a witness run as its own process (`npx consent-ledger
 * witness`) cosigns an honest log, and the auditor's tools hold the log to what was seen before.
 * Then a superuser rolls the ledger back (deletes its tail behind the append-only trigger, wipes
 * the transparency tables, lets the service seal again) and grows it: the witness refuses every
 * rewritten checkpoint, /ready says so, and `audit consistency`, `audit monitor`, `audit prove
 * --state` and `audit verify --since/--witness` each name the rollback or the rewrite.
 */

const bin = join(repoRoot, 'bin', 'consent-ledger.js');
const cli = (args: string[], env: Record<string, string> = {}) => runCommand(process.execPath, [bin, ...args], env);

if (!serverUrl) console.log('[test] witness.e2e: DATABASE_URL is not set, the rollback attack needs a PostgreSQL server: skipped');

describe.skipIf(!serverUrl)('witnesses and the auditor tools › a rollback by the database superuser', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-witness-'));
  const seed = randomBytes(32);
  let db: { url: string; drop: () => Promise<void> };
  let port: number;
  let base: string;
  let logVkey: string;
  let witness: ChildProcess;
  let witnessVkey: string;
  let service: Service | undefined;
  let api: Client;
  let creds: { tenantId: string; apiKey: string; apiSecret: string };
  let tenantId: string;
  let policyVersionId: string;
  let env: Record<string, string>;

  const start = async () => {
    service = await createService(loadSettings(env), { pollMs: 50 });
    await service.app.listen({ port, host: '127.0.0.1' });
  };
  const stop = async () => {
    await service?.close();
    service = undefined;
  };
  const record = async () => {
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: `u-${randomUUID()}`, consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const json = async (url: string): Promise<any> => ((await (await fetch(url)).json()) as { data: unknown }).data;
  const checkpoint = async () => (await json(`${base}/ledger/${tenantId}/checkpoint`)) as { checkpoint: string; treeSize: number };
  const witnessedAt = async (size: number) =>
    waitUntil(
      async () => {
        const cp = await checkpoint();
        return cp.treeSize === size && cp.checkpoint.includes(`\u2014 ${witnessVkey.split('+')[0]} `) ? cp : undefined;
      },
      { timeoutMs: 15_000, what: `a checkpoint of ${size} leaves cosigned by the witness` },
    );
  const ready = () => json(`${base}/ready`);
  /** One pass of `audit monitor`, on the state the first pass saved. */
  const monitorOnce = (...more: string[]) =>
    cli(['audit', 'monitor', '--url', base, '--tenant', tenantId, '--key', logVkey, '--state', join(dir, 'monitor'), '--once', ...more]);
  const file = (name: string, content: string) => {
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  };

  beforeAll(async () => {
    db = await freshDatabase();
    port = await freePort();
    base = `http://127.0.0.1:${port}`;
    logVkey = signerFromSeed(`127.0.0.1:${port}`, seed).vkey;
    witness = spawn(process.execPath, [bin, 'witness', '--listen', '127.0.0.1:0', '--state', join(dir, 'witness'), '--log', logVkey], {
      cwd: repoRoot,
      env: childEnvironment({}),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    witness.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c));
    const announced = await waitUntil(
      async () => {
        try {
          return JSON.parse(out) as { vkey: string; url: string };
        } catch {
          return undefined;
        }
      },
      { timeoutMs: 30_000, what: 'the witness to print its vkey' },
    );
    witnessVkey = announced.vkey;
    env = {
      DATABASE_URL: db.url,
      MASTER_KEY: randomBytes(32).toString('hex'),
      TRANSPARENCY_SIGNING_KEY: seed.toString('hex'),
      PUBLIC_BASE_URL: base,
      WITNESSES: `${witnessVkey}@${announced.url}`,
      LOG_LEVEL: 'silent',
    };
    await start();
    creds = await service!.tenants.create('acme', 'enterprise');
    tenantId = creds.tenantId;
    api = client(service!.app, creds);
    policyVersionId = await publishPolicy(api);
    for (let i = 0; i < 3; i++) await record();
  }, 120_000);

  afterAll(async () => {
    witness?.kill('SIGTERM');
    await stop();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  let kept: string;
  let proofFile: string;

  it('the witness cosigns the honest log; the monitor, a stateful proof check and a witnessed export all pass', async () => {
    const cp = await witnessedAt(SETUP + 4);
    kept = file('kept.json', JSON.stringify({ checkpoint: cp.checkpoint }));
    expect((await ready()).witnesses).toMatchObject({ quorum: 1, quorumReached: true, belowQuorum: [] });

    const monitor = await monitorOnce('--witness', witnessVkey);
    expect(monitor.code, monitor.stderr).toBe(0);
    expect(monitor.json).toMatchObject({ valid: true, treeSize: SETUP + 4, newLeaves: SETUP + 4, authenticated: SETUP + 4 });

    const consentId = (await api.get('/api/v1/consent/search?limit=1')).json().data[0].id as string;
    proofFile = file('proof.json', (await api.get(`/api/v1/consent/${consentId}/proof`)).body);
    const prove = await cli([
      'audit',
      'prove',
      proofFile,
      '--key',
      logVkey,
      '--state',
      join(dir, 'prove-state.json'),
      '--witness',
      witnessVkey,
    ]);
    expect(prove.code, prove.stderr).toBe(0);
    expect(prove.json.cosignedBy).toHaveLength(1);

    const exported = await cli(['audit', 'export', '--tenant', tenantId, '--out', join(dir, 'honest.jsonl')], {
      DATABASE_URL: db.url,
      MASTER_KEY: env.MASTER_KEY!,
    });
    expect(exported.code, exported.stderr).toBe(0);
    const verified = await cli([
      'audit',
      'verify',
      join(dir, 'honest.jsonl'),
      '--key',
      logVkey,
      '--since',
      kept,
      '--witness',
      witnessVkey,
      '--quorum',
      '1',
    ]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.json).toMatchObject({ valid: true, consistentWith: { treeSize: SETUP + 4 } });
    // A quorum of two needs a second witness's cosignature, which this checkpoint does not carry.
    const otherVkey = cosignerVkey(signerFromSeed('other/witness', randomBytes(32)));
    const verifyWitnessed = (...more: string[]) =>
      cli(['audit', 'verify', join(dir, 'honest.jsonl'), '--key', logVkey, '--witness', witnessVkey, '--witness', otherVkey, ...more]);
    const quorum = await verifyWitnessed();
    expect(quorum.code).toBe(1);
    expect(quorum.json.error.code).toBe('QUORUM_NOT_REACHED');
    const one = await verifyWitnessed('--quorum', '1');
    expect(one.code, one.stdout).toBe(0);
  }, 120_000);

  it('after the superuser deletes the tail and the service seals again, the witness refuses and every tool names the rollback', async () => {
    await stop();
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    await admin.query('BEGIN');
    await admin.query("SET LOCAL session_replication_role = 'replica'");
    await admin.query(
      `DELETE FROM ledger.events WHERE global_position IN (SELECT global_position FROM ledger.events WHERE tenant_id = $1 ORDER BY global_position DESC LIMIT 2)`,
      [tenantId],
    );
    for (const table of ['trees', 'nodes', 'leaves', 'checkpoints', 'cosignatures', 'witness_state']) {
      await admin.query(`DELETE FROM transparency.${table} WHERE tenant_id = $1`, [tenantId]);
    }
    await admin.query('DELETE FROM transparency.sealer');
    await admin.query('COMMIT');
    await admin.end();
    await start();
    api = client(service!.app, creds);

    await waitUntil(async () => ((await checkpoint()).treeSize === SETUP + 2 ? true : undefined), {
      timeoutMs: 15_000,
      what: 'the log sealed again',
    });
    const failing = await waitUntil(
      async () => (await ready()).witnesses?.witnesses[0]?.failing.find((f: { tenantId: string }) => f.tenantId === tenantId),
      { timeoutMs: 15_000, what: '/ready to report the witness refusing' },
    );
    expect(failing.error).toMatch(
      new RegExp(`^ROLLBACK: the witness cosigned ${SETUP + 4} leaves of this log; the log now holds ${SETUP + 2}`),
    );
    expect((await checkpoint()).checkpoint).not.toContain(`\u2014 ${witnessVkey.split('+')[0]} `);

    const consistency = await cli(['audit', 'consistency', '--old', kept, '--url', base, '--key', logVkey]);
    expect(consistency.code).toBe(1);
    expect(consistency.json.error.code).toBe('ROLLBACK');
    const monitor = await monitorOnce();
    expect(monitor.code).toBe(1);
    expect(monitor.json.error).toMatchObject({ code: 'ROLLBACK' });
    expect(monitor.json.error.message).toContain('rolled back');
  }, 120_000);

  it('when the rewritten log grows past what the witness saw, the witness refuses its proof and the tools name the rewrite', async () => {
    for (let i = 0; i < 3; i++) await record();
    await waitUntil(async () => ((await checkpoint()).treeSize === SETUP + 5 ? true : undefined), {
      timeoutMs: 15_000,
      what: `the log to grow to ${SETUP + 5}`,
    });
    await waitUntil(
      async () =>
        (await ready()).witnesses?.witnesses[0]?.failing.find(
          (f: { tenantId: string; error: string }) => f.tenantId === tenantId && f.error.includes('422'),
        ),
      { timeoutMs: 15_000, what: '/ready to report the witness refusing the consistency proof' },
    );
    expect((await checkpoint()).checkpoint).not.toContain(`\u2014 ${witnessVkey.split('+')[0]} `);

    // Without --url the tool finds the log at its origin's host (here plain http).
    const consistency = await cli(['audit', 'consistency', '--old', kept, '--key', logVkey]);
    expect(consistency.json.error?.code, consistency.stdout).toBe('INCONSISTENT');
    const below = await waitUntil(
      async () => {
        const w = (await ready()).witnesses;
        return w && !w.quorumReached ? w : undefined;
      },
      { timeoutMs: 15_000, what: '/ready to say the quorum is not reached' },
    );
    expect(below.belowQuorum).toEqual([expect.objectContaining({ tenantId, treeSize: SETUP + 5, cosignatures: 0 })]);
    const monitor = await monitorOnce();
    expect(monitor.code).toBe(1);
    expect(monitor.json.error.code).toBe('INCONSISTENT');

    const consentId = (await api.get('/api/v1/consent/search?limit=1')).json().data[0].id as string;
    const newer = file('newer-proof.json', (await api.get(`/api/v1/consent/${consentId}/proof`)).body);
    const prove = await cli(['audit', 'prove', newer, '--key', logVkey, '--state', join(dir, 'prove-state.json'), '--url', base]);
    expect(prove.code).toBe(1);
    expect(prove.json.error.code).toMatch(/^(INCONSISTENT|ROLLBACK)$/);

    const exported = await cli(['audit', 'export', '--tenant', tenantId, '--out', join(dir, 'rewritten.jsonl')], {
      DATABASE_URL: db.url,
      MASTER_KEY: env.MASTER_KEY!,
    });
    expect(exported.code, exported.stderr).toBe(0);
    // On its own the rewritten export is a valid log: only what was kept before exposes it.
    expect((await cli(['audit', 'verify', join(dir, 'rewritten.jsonl'), '--key', logVkey])).code).toBe(0);
    const since = await cli(['audit', 'verify', join(dir, 'rewritten.jsonl'), '--key', logVkey, '--since', kept]);
    expect(since.json.error.code).toBe('INCONSISTENT');
    const witnessed = await cli(['audit', 'verify', join(dir, 'rewritten.jsonl'), '--key', logVkey, '--witness', witnessVkey]);
    expect(witnessed.json.error.code).toBe('QUORUM_NOT_REACHED');
  }, 120_000);
  it('a proof or receipt asked before the newest checkpoint is cosigned carries the newest cosigned one', async () => {
    const other = await service!.tenants.create('globex', 'enterprise');
    const otherApi = client(service!.app, other);
    const version = await publishPolicy(otherApi);
    const recordFor = async () => {
      const res = await otherApi.post('/api/v1/consent', {
        policyVersionId: version,
        userReference: `u-${randomUUID()}`,
        consentGiven: true,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const cosignedBy = `\u2014 ${witnessVkey.split('+')[0]} `;
    const first = await recordFor();
    const witnessed = await waitUntil(
      async () => {
        const proof = (await otherApi.get(`/api/v1/consent/${first}/proof`)).json().data;
        return proof?.checkpoint.includes(cosignedBy) ? proof : undefined;
      },
      { timeoutMs: 15_000, what: "the first record's checkpoint cosigned" },
    );
    // The witness is not asked for a while: the next checkpoint stays the log's signature alone.
    await service!.witnesses.stop();
    try {
      const second = await recordFor();
      const sealed = await waitUntil(
        async () => ((await otherApi.get(`/api/v1/consent/${second}/proof`)).statusCode === 200 ? true : undefined),
        {
          what: 'the second record sealed',
        },
      );
      expect(sealed).toBe(true);
      const proof = (await otherApi.get(`/api/v1/consent/${first}/proof`)).json().data;
      expect(proof.treeSize).toBe(witnessed.treeSize);
      expect(proof.checkpoint).toContain(cosignedBy);
      const pdf = await otherApi.post(`/api/v1/consent/${first}/pdf`);
      expect(pdf.statusCode, pdf.body).toBe(200);
      writeFileSync(join(dir, 'witnessed.pdf'), pdf.rawPayload);
      const receipt = await cli(['audit', 'receipt', join(dir, 'witnessed.pdf'), '--key', logVkey, '--witness', witnessVkey]);
      expect(receipt.code, receipt.stderr).toBe(0);
    } finally {
      service!.witnesses.start();
    }
  }, 120_000);
});
