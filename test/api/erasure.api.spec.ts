import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildReadModels } from '../../projections/rebuild.js';
import { loadSettings } from '../../src/config.js';
import { SubjectErasure, type ErasureDeps } from '../../src/application/subjects/erasure.js';
import { createService, type Service } from '../../src/service.js';
import { hashCanonical } from '../../src/common/hashing.js';
import { consentStream } from '../../src/domain/consent/consent.events.js';
import { subjectStream } from '../../src/domain/subject/subject.events.js';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { rowsOf } from '../support/projections.js';
import { client, publishPolicy, type Client } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

// A missing tool must fail the test, never let the scan of receipts pass unread.
if (spawnSync('pdftotext', ['-v']).error) throw new Error('pdftotext (poppler-utils) is needed to read the stored receipts; install it');

/** Distinctive values: any trace of them anywhere is a leak. */
const A = {
  userReference: 'erasure-subject-A-7Q2Z@example.org',
  ipAddress: '198.51.100.77',
  userAgent: 'ErasureAgent/9.7 (A-marker-4471)',
  metadata: { email: 'a.subject.k9w3@example.net', note: 'A-metadata-marker-5531', nested: { city: 'Zzyzx-A-marker' } },
  reason: 'A-withdrawal-reason-8812',
};
const B = {
  userReference: 'kept-subject-B-3M8P',
  ipAddress: '203.0.113.88',
  userAgent: 'KeptAgent/1.2 (B-marker-6620)',
  metadata: { email: 'b.subject@example.com', note: 'B-metadata-marker' },
};
/** What must not be found after A's erasure: each value, and the metadata's leaf strings. */
const A_VALUES = [A.userReference, A.ipAddress, A.userAgent, A.metadata.email, A.metadata.note, A.metadata.nested.city, A.reason];

interface Started {
  service: Service;
  logs: string[];
  close(): Promise<void>;
}

/** The production service, its log captured line by line at level info (request URLs included). */
async function start(env: Record<string, string> = {}): Promise<Started> {
  const fresh = serverUrl ? await freshDatabase() : undefined;
  const { cert } = await testCertificate();
  const settings = loadSettings({
    ...(fresh ? fresh.env : { DATA_DIR: 'memory://' }),
    MASTER_KEY: randomBytes(32).toString('base64'),
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    ...env,
  });
  const logs: string[] = [];
  const service = await createService(settings, {
    pollMs: 50,
    logger: { level: 'info', stream: { write: (line: string) => void logs.push(line) } },
    webhooks: { outbound: { ca: cert } },
  });
  return {
    service,
    logs,
    async close() {
      await service.close();
      await fresh?.drop();
    },
  };
}

async function tenantClient(service: Service, name: string): Promise<{ tenantId: string; api: Client }> {
  const t = await service.tenants.create(name, 'pro');
  await service.tenants.update(t.tenantId, { limits: { perMinute: 1_000_000, perDay: 1_000_000 } });
  return { tenantId: t.tenantId, api: client(service.app, t) };
}

/** Every row of every table of every schema of the store, as text; PDFs also as pdftotext reads them. */
async function dumpStore(service: Service): Promise<string> {
  const tables = await sql<{ schema: string; name: string }>`
    SELECT table_schema AS schema, table_name AS name FROM information_schema.tables
    WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')
    ORDER BY 1, 2`.execute(service.store.db);
  const dir = mkdtempSync(join(tmpdir(), 'cl-erasure-dump-'));
  const out: string[] = [];
  try {
    for (const t of tables.rows) {
      const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(`${t.schema}.${t.name}`)}`.execute(service.store.db);
      out.push(`## ${t.schema}.${t.name} (${rows.rows.length} rows)`);
      for (const row of rows.rows) {
        for (const [column, value] of Object.entries(row)) {
          if (value instanceof Uint8Array) {
            const bytes = Buffer.from(value);
            out.push(`${column}: ${bytes.toString('latin1')}`);
            if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') {
              const file = join(dir, `${randomBytes(6).toString('hex')}.pdf`);
              writeFileSync(file, bytes);
              out.push(`${column} (pdftotext): ${execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' })}`);
            }
          } else {
            out.push(`${column}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
          }
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out.join('\n');
}

const leaks = (text: string, values: readonly string[]): string[] => values.filter((v) => text.toLowerCase().includes(v.toLowerCase()));

describe('erasure › when a subject with records, receipts, idempotency keys and webhook deliveries is erased', () => {
  let s: Started;
  let api: Client;
  let tenantId: string;
  let receiver: Receiver;
  const aIds: string[] = [];
  let bId: string;
  let aFirstHash: string;
  let erasure: { statusCode: number; body: Record<string, unknown> };
  let repeat: { statusCode: number; body: Record<string, unknown>; replayed: unknown };
  let storePdfBefore: number;

  beforeAll(async () => {
    s = await start();
    ({ api, tenantId } = await tenantClient(s.service, 'erasure'));
    receiver = await startReceiver();
    const hook = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['*'] });
    expect(hook.statusCode, hook.body).toBe(201);
    const policy = await publishPolicy(api);
    const record = async (who: typeof A | typeof B, key?: string) => {
      const res = await api.post(
        '/api/v1/consent',
        {
          policyVersionId: policy,
          userReference: who.userReference,
          consentGiven: true,
          ipAddress: who.ipAddress,
          userAgent: who.userAgent,
          metadata: who.metadata,
        },
        key ? { 'idempotency-key': key } : {},
      );
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data as { id: string; consentHash: string };
    };
    const first = await record(A, 'erasure-key-a-1');
    aIds.push(first.id);
    aFirstHash = first.consentHash;
    const batch = await api.post(
      '/api/v1/consent/batch',
      {
        consents: [
          {
            policyVersionId: policy,
            userReference: A.userReference,
            consentGiven: false,
            ipAddress: A.ipAddress,
            userAgent: A.userAgent,
            metadata: A.metadata,
          },
        ],
      },
      { 'idempotency-key': 'erasure-batch-a' },
    );
    expect(batch.statusCode, batch.body).toBe(201);
    aIds.push(batch.json().data.consents[0].id);
    aIds.push((await record(A)).id);
    const withdrawal = await api.post(
      `/api/v1/consent/${first.id}/withdraw`,
      { reason: A.reason },
      { 'idempotency-key': 'erasure-withdraw-a' },
    );
    expect(withdrawal.statusCode, withdrawal.body).toBe(200);
    bId = (await record(B, 'erasure-key-b-1')).id;
    for (const id of [first.id, bId]) expect((await api.post(`/api/v1/consent/${id}/pdf`)).statusCode).toBe(200);
    // Reads that name A in the URL: the log must not keep the reference.
    expect((await api.get(`/api/v1/consent/user/${encodeURIComponent(A.userReference)}`)).json().data).toHaveLength(3);
    expect((await api.get(`/v1/consent?userReference=${encodeURIComponent(A.userReference)}`)).json().data).toHaveLength(3);
    expect((await api.get(`/api/v1/consent/user/${encodeURIComponent(A.userReference)}/status`)).statusCode).toBe(200);
    // Every consent.created of A and the withdrawal have their delivery row (plaintext payloads) before the erasure.
    await receiver.waitFor((r) => r.filter((x) => JSON.stringify(x.json).includes(A.userReference)).length >= 4, "A's deliveries");
    storePdfBefore = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM receipts.receipts`.execute(s.service.store.db)).rows[0]!.n);
    // Before the erasure the dump does hold A's values (in the stored receipt and the delivery history): the scan can find them.
    expect(leaks(await dumpStore(s.service), A_VALUES).length).toBeGreaterThan(0);

    const erase = await api.post(`/api/v1/subjects/${encodeURIComponent(A.userReference)}/erase`);
    erasure = { statusCode: erase.statusCode, body: erase.json() };
    const again = await api.post(`/v1/subjects/${encodeURIComponent(A.userReference)}/erase`);
    repeat = { statusCode: again.statusCode, body: again.json(), replayed: again.headers['idempotent-replayed'] };
    // Read models, webhook subscription and transparency log have taken in the erasure.
    const head = (await s.service.ledger.headPosition())!;
    expect(await s.service.runner.waitFor(head, 20_000)).toBe(true);
    await receiver.waitFor((r) => r.some((x) => (x.json as { type?: string })?.type === 'subject.erased'), 'the subject.erased delivery');
  }, 120_000);
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it('answers the erasure with the records it covered and the receipts it deleted', () => {
    expect(erasure.statusCode).toBe(200);
    expect(erasure.body.data).toMatchObject({ erased: true, receiptsDeleted: 1 });
    expect([...(erasure.body.data as { consentIds: string[] }).consentIds].sort()).toEqual([...aIds].sort());
  });

  it('is idempotent: a repeat answers the same erasure and records nothing new', async () => {
    expect(repeat.statusCode).toBe(200);
    expect(repeat.replayed).toBe('true');
    expect((repeat.body.data as { erasedAt: string }).erasedAt).toBe((erasure.body.data as { erasedAt: string }).erasedAt);
    const erased = await sql<{ n: string }>`SELECT count(*) AS n FROM ledger.events WHERE event_type = 'SubjectErased'`.execute(
      s.service.store.db,
    );
    expect(Number(erased.rows[0]!.n)).toBe(1);
  });

  it('finds none of the erased values in any table of any schema, in the stored receipts as pdftotext reads them, or in the service log', async () => {
    const dump = await dumpStore(s.service);
    // The dump is real: it holds every schema, B's values (sealed in the ledger, clear in B's receipt) and A's records.
    for (const schema of ['ledger.', 'read.', 'control.', 'receipts.', 'webhooks.', 'privacy.', 'transparency.'])
      expect(dump).toContain(`## ${schema}`);
    expect(dump).toContain(B.userAgent);
    for (const id of aIds) expect(dump).toContain(id);
    expect(leaks(dump, A_VALUES)).toEqual([]);
    const log = s.logs.join('');
    expect(log).toContain('/consent/user/[redacted]');
    expect(log).toContain('/subjects/[redacted]/erase');
    expect(log).toContain('userReference=[redacted]');
    expect(leaks(log, [...A_VALUES, encodeURIComponent(A.userReference)])).toEqual([]);
    expect(Number((await sql<{ n: string }>`SELECT count(*) AS n FROM receipts.receipts`.execute(s.service.store.db)).rows[0]!.n)).toBe(
      storePdfBefore - 1,
    );
  });

  it('keeps each record with its decision, time and consentHash, the personal fields null and erased true (get, search, user list, export)', async () => {
    const got = (await api.get(`/api/v1/consent/${aIds[0]}`)).json().data;
    expect(got).toMatchObject({
      id: aIds[0],
      consentHash: aFirstHash,
      consentGiven: true,
      status: 'withdrawn',
      userReference: null,
      ipAddress: null,
      userAgent: null,
      metadata: null,
      withdrawalReason: null,
      erased: true,
    });
    expect(got.timestamp).toMatch(/^\d{4}-/);
    const search = (await api.get(`/api/v1/consent/search?userReference=${encodeURIComponent(A.userReference)}`)).json();
    expect(search.pagination.total).toBe(3);
    for (const item of search.data)
      expect(item).toMatchObject({ userReference: null, ipAddress: null, userAgent: null, metadata: null, erased: true });
    const list = (await api.get(`/api/v1/consent/user/${encodeURIComponent(A.userReference)}`)).json().data;
    expect(list.map((r: { id: string }) => r.id).sort()).toEqual([...aIds].sort());
    for (const item of list) expect(item).toMatchObject({ userReference: null, erased: true });
    const csv = (await api.get('/api/v1/consent/export')).body;
    for (const id of aIds) expect(csv).toContain(id);
    expect(leaks(csv, A_VALUES)).toEqual([]);
    expect(csv).toContain(B.userReference);
    const b = (await api.get(`/api/v1/consent/${bId}`)).json().data;
    expect(b).toMatchObject({
      userReference: B.userReference,
      ipAddress: B.ipAddress,
      userAgent: B.userAgent,
      metadata: B.metadata,
      erased: false,
    });
  });

  it('verify answers that the hash can no longer be recomputed because the subject was erased; B still verifies', async () => {
    const a = (await api.get(`/api/v1/consent/${aIds[0]}/verify`)).json().data;
    expect(a).toMatchObject({ valid: false, erased: true, storedHash: aFirstHash, computedHash: null });
    expect(a.reason).toMatch(/erased/);
    const b = (await api.get(`/api/v1/consent/verify?consentId=${bId}`)).json().data;
    expect(b).toMatchObject({ valid: true, erased: false, reason: null });
    expect(b.computedHash).toBe(b.storedHash);
  });

  it("removes A's receipts (404) and keeps B's", async () => {
    const a = await api.get(`/api/v1/consent/${aIds[0]}/pdf`);
    expect(a.statusCode).toBe(404);
    expect(a.json().error.code).toBe('RECEIPT_NOT_FOUND');
    expect((await api.get(`/api/v1/consent/${bId}/pdf`)).statusCode).toBe(200);
  });

  it('issues a new receipt of the erased withdrawal that says its reason was erased, not that none was given', async () => {
    const issued = await api.post(`/api/v1/consent/${aIds[0]}/pdf`);
    expect(issued.statusCode).toBe(200);
    const dir = mkdtempSync(join(tmpdir(), 'cl-erased-receipt-'));
    const file = join(dir, 'erased-withdrawal.pdf');
    writeFileSync(file, issued.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    rmSync(dir, { recursive: true, force: true });
    expect(text).toContain('Withdrawal reason erased at the data subject’s request');
    // Each personal field says so, not only the first.
    for (const field of ['User reference', 'IP address', 'User agent', 'Metadata'])
      expect(text, field).toContain(`${field} erased at the data subject’s request`);
    expect(text).not.toContain('not recorded');
    // It does not tell the reader to recompute a hash whose input it no longer states.
    expect(text).not.toContain('Or recompute it');
    expect(text).toContain('cannot be recomputed from this receipt');
  });

  it('keeps idempotency records useless: stored request hashes are keyed, a repeat of A answers the erased record, B still replays and refuses another body', async () => {
    // Record, batch and withdrawal keys: in event metadata, and in the withdrawal key's own event.
    const stored = await sql<{ hash: string }>`
      SELECT coalesce(metadata->'idempotency'->>'requestHash', data->>'requestHash') AS hash FROM ledger.events
      WHERE tenant_id = ${tenantId} AND (metadata::text LIKE '%idempotency%' OR event_type = 'IdempotencyKeyUsed')`.execute(
      s.service.store.db,
    );
    expect(stored.rows.length).toBe(4);
    for (const r of stored.rows) expect(r.hash).toMatch(/^[0-9a-f]{64}$/);
    // The plain request hash a guesser would compute is not what is stored.
    const recorded = (await api.get(`/api/v1/consent/${bId}`)).json().data;
    const plain = hashCanonical({
      route: '/consent',
      params: {},
      body: {
        policyVersionId: recorded.policyVersionId,
        userReference: B.userReference,
        consentGiven: true,
        ipAddress: B.ipAddress,
        userAgent: B.userAgent,
        metadata: B.metadata,
      },
    });
    expect(stored.rows.map((r) => r.hash)).not.toContain(plain);
    const sent = {
      policyVersionId: recorded.policyVersionId,
      userReference: B.userReference,
      consentGiven: true,
      ipAddress: B.ipAddress,
      userAgent: B.userAgent,
      metadata: B.metadata,
    };
    const replay = await api.post('/api/v1/consent', sent, { 'idempotency-key': 'erasure-key-b-1' });
    expect(replay.statusCode).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json().data).toMatchObject({ id: bId, userReference: B.userReference });
    expect((await api.post('/api/v1/consent', { ...sent, consentGiven: false }, { 'idempotency-key': 'erasure-key-b-1' })).statusCode).toBe(
      422,
    );
    const again = await api.post('/api/v1/consent', { ...sent, userReference: A.userReference }, { 'idempotency-key': 'erasure-key-a-1' });
    expect(again.statusCode).toBe(201);
    expect(again.json().data).toMatchObject({ id: aIds[0], userReference: null });
  });

  it('emits subject.erased without personal data, and clears the stored payloads of earlier deliveries', async () => {
    const event = receiver.received.find((x) => (x.json as { type?: string })?.type === 'subject.erased')!;
    expect((event.json as { data: unknown }).data).toEqual({
      consent_ids: (erasure.body.data as { consentIds: string[] }).consentIds,
      erased_at: (erasure.body.data as { erasedAt: string }).erasedAt,
    });
    expect(leaks(event.body, A_VALUES)).toEqual([]);
    const payloads = await sql<{
      payload: string;
      event_type: string;
    }>`SELECT payload, event_type FROM webhooks.deliveries WHERE tenant_id = ${tenantId}`.execute(s.service.store.db);
    const ofA = payloads.rows.filter(
      (p) => aIds.some((id) => p.payload.includes(id)) && p.event_type !== 'subject.erased' && p.event_type !== 'consent.batch_created',
    );
    expect(ofA.length).toBeGreaterThanOrEqual(4);
    for (const p of ofA) expect(JSON.parse(p.payload).data).toMatchObject({ subject_id: null, erased: true });
  });

  it('rebuilds the read models from the ledger after the erasure: the same rows, erased records included', async () => {
    const before = {
      consents: await rowsOf(s.service.store.db, 'read.consents'),
      status: await rowsOf(s.service.store.db, 'read.user_policy_status'),
    };
    await s.service.runner.stop();
    await rebuildReadModels(s.service.store, s.service.ledger);
    expect(await rowsOf(s.service.store.db, 'read.consents')).toEqual(before.consents);
    expect(await rowsOf(s.service.store.db, 'read.user_policy_status')).toEqual(before.status);
    const { items } = await s.service.consents.queries.search(tenantId, { userReference: A.userReference }, 1, 10);
    expect(items.map((i) => [i.erased, i.userReference])).toEqual([
      [true, null],
      [true, null],
      [true, null],
    ]);
  });
});

describe('erasure › when two tenants hold the same user reference and one erases it', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start();
  }, 60_000);
  afterAll(() => s?.close());

  it("erases that tenant's subject only: the other tenant's record keeps its values and verifies", async () => {
    const one = await tenantClient(s.service, 'one');
    const two = await tenantClient(s.service, 'two');
    const ref = 'shared-reference-77';
    const ids: Record<string, string> = {};
    const hashes: Record<string, string> = {};
    for (const [name, t] of [
      ['one', one],
      ['two', two],
    ] as const) {
      const policy = await publishPolicy(t.api);
      const res = await t.api.post('/api/v1/consent', {
        policyVersionId: policy,
        userReference: ref,
        consentGiven: true,
        ipAddress: '192.0.2.5',
        userAgent: `agent-${name}`,
      });
      ids[name] = res.json().data.id;
      hashes[name] = res.json().data.consentHash;
      // A receipt makes the record publicly verifiable (docs/receipts.md).
      expect((await t.api.post(`/api/v1/consent/${ids[name]}/pdf`)).statusCode).toBe(200);
    }
    // Each tenant's subject is its own keyed hash: the same reference does not link them.
    expect(s.service.privacy.subjectOf(one.tenantId, ref)).not.toBe(s.service.privacy.subjectOf(two.tenantId, ref));
    const erased = await two.api.post(`/api/v1/subjects/${ref}/erase`);
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data.consentIds).toEqual([ids.two]);
    expect((await two.api.get(`/api/v1/consent/${ids.two}`)).json().data).toMatchObject({ userReference: null, erased: true });
    expect((await two.api.get(`/api/v1/consent/${ids.two}/verify`)).json().data).toMatchObject({ valid: false, erased: true });
    // The public page tells the receipt's holder (who has the hash) that the record was erased,
    // with the decision and time but nothing personal; any other hash still gets "not verified".
    const publicCheck = (id: string, hash: string, accept = 'application/json') =>
      s.service.app.inject({ method: 'GET', url: `/verify/${id}?hash=${hash}`, headers: { accept } });
    const told = (await publicCheck(ids.two!, hashes.two!)).json().data;
    expect(told).toMatchObject({
      valid: false,
      erased: true,
      consentId: ids.two,
      consentGiven: true,
      status: 'active',
      policy: { type: expect.any(String) },
    });
    expect(told.timestamp).toEqual(expect.any(String));
    expect(JSON.stringify(told)).not.toMatch(/shared-reference|192\.0\.2\.5|agent-two/);
    const page = (await publicCheck(ids.two!, hashes.two!, 'text/html')).body;
    expect(page).toContain('data-erased="true"');
    expect(page).toContain('Record erased');
    expect(page).not.toContain('the consent hash is recomputed');
    expect((await publicCheck(ids.two!, '0'.repeat(64))).json().data).toMatchObject({
      valid: false,
      erased: false,
      policy: null,
      timestamp: null,
    });
    expect((await publicCheck(ids.one!, hashes.one!)).json().data).toMatchObject({ valid: true, erased: false });
    expect((await one.api.get(`/api/v1/consent/${ids.one}`)).json().data).toMatchObject({
      userReference: ref,
      userAgent: 'agent-one',
      erased: false,
    });
    expect((await one.api.get(`/api/v1/consent/${ids.one}/verify`)).json().data).toMatchObject({ valid: true, erased: false });
    const list = (await one.api.get(`/api/v1/consent/user/${ref}`)).json().data;
    expect(list).toMatchObject([{ id: ids.one, userReference: ref, erased: false }]);
    // Tenant one erasing an id of tenant two's records reaches nothing of two: the key is per tenant.
    expect((await one.api.post(`/api/v1/subjects/${ref}/erase`)).json().data.consentIds).toEqual([ids.one]);
  });
});

describe('erasure › when the erasure was recorded but its keys not destroyed (a crash in between)', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start();
  }, 60_000);
  afterAll(() => s?.close());

  it('reads the covered records as erased at once, and a repeat destroys the keys and answers the same erasure', async () => {
    const { tenantId, api } = await tenantClient(s.service, 'crashed');
    const policyVersionId = await publishPolicy(api);
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: 'half-erased', consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    const subject = s.service.privacy.subjectOf(tenantId, 'half-erased');
    const [recorded] = await s.service.ledger.readStream(consentStream(tenantId, id));
    const kid = (recorded!.data.personal as { kid: string }).kid;
    // What an erasure writes first, then nothing more: the process died before destroying the key.
    const erasedAt = new Date().toISOString();
    await s.service.ledger.append(
      [
        {
          tenantId,
          stream: subjectStream(tenantId, subject),
          expectedRevision: 'no_stream',
          events: [{ type: 'SubjectErased', data: { subject, consentIds: [id], erasedAt } }],
        },
      ],
      new Date(),
    );
    expect(await s.service.privacy.keys.byId(kid)).toBeDefined();
    // Covered by an erasure: answered erased although its key still opens it.
    expect((await api.get(`/api/v1/consent/${id}`)).json().data).toMatchObject({ erased: true, tampered: false, userReference: null });
    expect((await api.get(`/api/v1/consent/${id}/verify`)).json().data).toMatchObject({ valid: false, erased: true });
    expect((await api.get('/api/v1/consent/user/half-erased')).json().data).toEqual([expect.objectContaining({ id, erased: true })]);

    const repeat = await api.post('/api/v1/subjects/erase', { userReference: 'half-erased' });
    expect(repeat.statusCode, repeat.body).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json().data).toMatchObject({ erasedAt, consentIds: [id] });
    expect(await s.service.privacy.keys.byId(kid)).toBeUndefined();
    expect(await s.service.ledger.readStream(subjectStream(tenantId, subject))).toHaveLength(1);
  });
});

describe('erasure › when a consent of the subject is recorded while the erasure is being decided', () => {
  let s: Started;
  beforeAll(async () => {
    s = await start();
  }, 60_000);
  afterAll(() => s?.close());

  it('covers it too before answering: it stands before the erasure in the ledger, so it is erased with the rest', async () => {
    const { tenantId, api } = await tenantClient(s.service, 'racing');
    const policyVersionId = await publishPolicy(api);
    const consent = { policyVersionId, userReference: 'racing-subject', consentGiven: true, ipAddress: '198.51.100.9' };
    const first = await api.post('/api/v1/consent', consent);
    expect(first.statusCode, first.body).toBe(201);
    // The service's own erasure, with a second consent recorded between its read of the
    // subject's records and its append, as a request racing it does.
    const deps = Reflect.get(s.service.erasure, 'deps') as ErasureDeps;
    let raced: string | undefined;
    const erasure = new SubjectErasure({
      ...deps,
      async subjectRecords(t, subject, before) {
        const found = await deps.subjectRecords(t, subject, before);
        if (raced === undefined) {
          const second = await api.post('/api/v1/consent', consent);
          expect(second.statusCode, second.body).toBe(201);
          raced = second.json().data.id as string;
        }
        return found;
      },
    });
    const { view } = await erasure.erase(tenantId, 'racing-subject');
    expect(view.consentIds).toEqual([first.json().data.id, raced]);
    for (const id of view.consentIds) {
      expect((await api.get(`/api/v1/consent/${id}`)).json().data, id).toMatchObject({
        erased: true,
        userReference: null,
        ipAddress: null,
      });
      expect((await api.get(`/api/v1/consent/${id}/verify`)).json().data, id).toMatchObject({ valid: false, erased: true });
    }
    // A consent given after the erasure answered is a new one: kept.
    const after = await api.post('/api/v1/consent', consent);
    expect(after.statusCode, after.body).toBe(201);
    const kept = await api.get(`/api/v1/consent/${after.json().data.id}`);
    expect(kept.json().data).toMatchObject({ userReference: 'racing-subject', erased: false });
  });
});
