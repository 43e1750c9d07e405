import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.js';
import { READ_SCHEMA_VERSION } from '../../projections/read-schema.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, startTestService, verifyAgainstReplay, type Client, type TestService } from '../support/service.js';

/**
 * Read models checked against the ledger (a changed read-model row made the CSV export lie
 * silently): `projections verify` replays the ledger into a scratch copy and names every row of
 * the live read models that differs, while the service keeps writing.
 */

let t: TestService;
let api: Client;
let tenantId: string;
const consents: string[] = [];

const verify = () => verifyAgainstReplay(t);

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('enterprise');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  const policyVersionId = await publishPolicy(api);
  for (let i = 0; i < 6; i++) {
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: `user-${i}`, consentGiven: i % 2 === 0 });
    expect(res.statusCode, res.body).toBe(201);
    consents.push(res.json().data.id as string);
  }
  expect((await api.post(`/api/v1/consent/${consents[0]}/withdraw`, {})).statusCode).toBe(200);
}, 60_000);
afterAll(() => t?.close());

describe('projections verify', () => {
  it('finds the live read models equal to a replay of the ledger, while consents keep being recorded', async () => {
    const policyVersionId = (await api.get('/api/v1/policies/active/privacy_policy')).json().data.id as string;
    let writing = true;
    const writer = (async () => {
      let n = 0;
      while (writing) {
        const res = await api.post('/api/v1/consent', { policyVersionId, userReference: `busy-${n++}`, consentGiven: true });
        expect(res.statusCode).toBe(201);
      }
      return n;
    })();
    const result = await verify();
    writing = false;
    expect(await writer).toBeGreaterThan(0);
    expect(result).toMatchObject({ consistent: true, drift: [] });
    expect(result.tables.map((x) => x.table)).toEqual(
      expect.arrayContaining(['read.consents', 'read.consent_counts', 'read.policy_versions', 'read.user_policy_status']),
    );
    expect(result.tables.find((x) => x.table === 'read.consents')!.rows).toBeGreaterThanOrEqual(6);
  }, 60_000);

  it('finds no drift where a counter fell to zero live and a replay never made it', async () => {
    // Live, each decision is projected before the next (a read waits for it), so the first
    // version's standing counter goes to 1 and back to 0; a replay takes both decisions in one
    // batch, where only the second counts.
    for (const version of ['7.0.0', '7.1.0']) {
      const policyVersionId = await publishPolicy(api, { policyType: 'cookie_policy', version });
      const res = await api.post('/api/v1/consent', { policyVersionId, userReference: 'decides-again', consentGiven: true });
      expect(res.statusCode, res.body).toBe(201);
      const status = (await api.get('/api/v1/consent/user/decides-again/status?purpose=cookie_policy')).json().data;
      expect(status.policies[0]).toMatchObject({ status: 'given', policyVersion: version });
    }
    const db = t.service.store.db;
    const zero = await sql<{ n: number }>`SELECT count(*)::int AS n FROM read.standing_counts WHERE count = 0`.execute(db);
    expect(zero.rows[0]!.n).toBe(0);
    // A store an earlier build wrote may hold counters at zero: they count as none.
    await sql`INSERT INTO read.standing_counts (tenant_id, purpose, policy_version_id, count)
      VALUES (${tenantId}, 'left-at-zero', ${randomUUID()}, 0)`.execute(db);
    expect(await verify()).toMatchObject({ consistent: true, drift: [] });
    await sql`DELETE FROM read.standing_counts WHERE purpose = 'left-at-zero'`.execute(db);
  }, 60_000);

  it('refuses to compare read models another version built, and the scheduled check skips its round', async () => {
    const db = t.service.store.db;
    await sql`UPDATE read.meta SET value = '1' WHERE key = 'version'`.execute(db);
    try {
      await expect(verify()).rejects.toThrow(/built by another version of the service \(read schema 1, this one \d+\)/);
      expect(await t.service.readModelCheck.runOnce()).toBeNull();
    } finally {
      await sql`UPDATE read.meta SET value = ${String(READ_SCHEMA_VERSION)} WHERE key = 'version'`.execute(db);
    }
    expect(await verify()).toMatchObject({ consistent: true });
  }, 60_000);

  it("states in an export's headers the signed checkpoint it reflects", async () => {
    const res = await api.get('/api/v1/consent/export');
    expect(res.statusCode).toBe(200);
    const checkpoint = (await api.get('/api/v1/ledger/checkpoint')).json().data;
    expect(Number(res.headers['x-ledger-tree-size'])).toBeGreaterThan(0);
    expect(Number(res.headers['x-ledger-tree-size'])).toBeLessThanOrEqual(checkpoint.treeSize);
    expect(res.headers['x-ledger-root-hash']).toMatch(/^[0-9a-f]{64}$/);
    if (Number(res.headers['x-ledger-tree-size']) === checkpoint.treeSize)
      expect(res.headers['x-ledger-root-hash']).toBe(checkpoint.rootHash);
    expect(Date.parse(String(res.headers['x-ledger-signed-at']))).not.toBeNaN();
  });

  it('names in an export a checkpoint whose every event it holds, and marks answers read while the read models lag behind', async () => {
    const rows = (csv: string) => csv.trim().split('\n').length - 1;
    const before = await api.get('/api/v1/consent/export');
    await t.service.runner.stop();
    const late: string[] = [];
    try {
      const policyVersionId = (await api.get('/api/v1/policies/active/privacy_policy')).json().data.id as string;
      for (const userReference of ['late-1', 'late-2']) {
        const res = await api.post('/api/v1/consent', { policyVersionId, userReference, consentGiven: true });
        expect(res.statusCode).toBe(201);
        late.push(res.json().data.id as string);
      }
      // The log seals the two writes; the read models, stopped, hold neither.
      const leaves = await Promise.all(
        late.map(async (id) => {
          await waitUntil(async () => (await api.get(`/api/v1/consent/${id}/proof`)).statusCode === 200, { what: `${id} sealed` });
          return (await api.get(`/api/v1/consent/${id}/proof`)).json().data.leafIndex as number;
        }),
      );
      const lagging = await api.get('/api/v1/consent/export');
      expect(rows(lagging.body)).toBe(rows(before.body));
      // The fence gave up waiting for the stopped read models: the answers say so.
      expect(lagging.headers['x-read-models-behind']).toBe('true');
      const search = await api.get('/api/v1/consent/search?userReference=late-1');
      expect(search.json().data).toEqual([]);
      expect(search.headers['x-read-models-behind']).toBe('true');
      // A checkpoint of n leaves holds leaves 0 to n - 1: none of the late ones.
      expect(Number(lagging.headers['x-ledger-tree-size'])).toBeLessThanOrEqual(Math.min(...leaves));
      expect(Number(lagging.headers['x-ledger-tree-size'])).toBeGreaterThanOrEqual(Number(before.headers['x-ledger-tree-size']));
    } finally {
      await t.service.runner.start();
    }
    expect(before.headers['x-read-models-behind']).toBeUndefined();
    const caughtUp = await api.get('/api/v1/consent/export');
    expect(rows(caughtUp.body)).toBe(rows(before.body) + 2);
    expect(caughtUp.headers['x-read-models-behind']).toBeUndefined();
    const last = (await api.get(`/api/v1/consent/${late[1]}/proof`)).json().data.leafIndex as number;
    expect(Number(caughtUp.headers['x-ledger-tree-size'])).toBeGreaterThan(last);
  }, 60_000);

  it('names a changed, a deleted and an invented row, with the columns that differ', async () => {
    const db = t.service.store.db;
    await sql`UPDATE read.consents SET status = 'active', withdrawn_at = NULL WHERE id = ${consents[0]}`.execute(db);
    await sql`DELETE FROM read.consents WHERE id = ${consents[1]}`.execute(db);
    const invented = randomUUID();
    await sql`INSERT INTO read.consents (id, tenant_id, subject, policy_version_id, policy_type, purpose, policy_version, policy_title,
      consent_given, status, personal, consent_hash, batch_id, created_at, expires_at, withdrawn_at, withdrawal_reason, erased)
      SELECT ${invented}::uuid, tenant_id, subject, policy_version_id, policy_type, purpose, policy_version, policy_title,
      consent_given, status, personal, consent_hash, batch_id, created_at, expires_at, withdrawn_at, withdrawal_reason, erased FROM read.consents WHERE id = ${consents[2]}`.execute(
      db,
    );
    await sql`UPDATE read.consent_counts SET count = count + 5 WHERE tenant_id = ${tenantId}`.execute(db);

    const result = await verify();
    expect(result.consistent).toBe(false);
    const consentsDrift = result.drift.find((d) => d.table === 'read.consents')!;
    expect(consentsDrift).toMatchObject({ missing: 1, extra: 1, changed: 1 });
    expect(consentsDrift.examples).toEqual(
      expect.arrayContaining([
        { kind: 'missing', key: { id: consents[1] } },
        { kind: 'extra', key: { id: invented } },
        {
          kind: 'changed',
          key: { id: consents[0] },
          columns: expect.arrayContaining([
            { column: 'status', ledger: 'withdrawn', live: 'active' },
            expect.objectContaining({ column: 'withdrawn_at', live: null }),
          ]),
        },
      ]),
    );
    expect(result.drift.find((d) => d.table === 'read.consent_counts')?.changed).toBeGreaterThan(0);

    // The service's own check (PROJECTIONS_VERIFY_MINUTES runs it on a schedule) reports it in /ready.
    expect((await t.app.inject({ url: '/ready' })).json().data.readModels).toBeNull();
    await t.service.readModelCheck.runOnce();
    const ready = (await t.app.inject({ url: '/ready' })).json().data;
    expect(ready.status).toBe('ready');
    expect(ready.readModels).toMatchObject({
      consistent: false,
      drift: expect.arrayContaining([{ table: 'read.consents', missing: 1, extra: 1, changed: 1 }]),
    });
  }, 60_000);

  it.skipIf(!process.env.DATABASE_URL)(
    'as the CLI: exits 1 with READ_MODEL_DRIFT and the rows',
    async () => {
      let out = '';
      const sink = (into: (s: string) => void) =>
        new Writable({
          write(chunk, _enc, done) {
            into(String(chunk));
            done();
          },
        }) as unknown as NodeJS.WriteStream;
      const code = await main(['projections', 'verify'], {
        env: { DATABASE_URL: t.service.settings.databaseUrl! },
        stdout: sink((s) => (out += s)),
        stderr: sink(() => undefined),
      });
      expect(code).toBe(1);
      const answer = JSON.parse(out) as { error: { code: string; message: string; drift: { table: string }[] } };
      expect(answer.error.code).toBe('READ_MODEL_DRIFT');
      expect(answer.error.drift.map((d) => d.table)).toContain('read.consents');
    },
    60_000,
  );
});
