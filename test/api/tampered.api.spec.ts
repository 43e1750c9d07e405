import { createHash } from 'node:crypto';
import { sql, type RawBuilder, type Transaction } from 'kysely';
import { consentStream } from '../../src/domain/consent/consent.events.js';
import { policyStream } from '../../src/domain/policy/policy.events.js';
import { eventHash } from '../../src/ledger/event-hash.js';
import type { Database } from '../../src/store/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDb } from '../../src/ledger/postgres/ledger.table.js';
import type { RecordedEvent } from '../../src/ledger/ledger.port.js';
import { toNotification } from '../../src/webhooks/webhook.events.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';
import { waitUntil } from '../support/process.js';

/**
 * One rule for a personal field that does not open, whether its seal was broken (its key present,
 * as a database administrator's edit leaves it) or its key row deleted with no erasure behind it:
 * every answer reports the record as tampered, with its personal fields null; never a 5xx and
 * never "erased" (a record reads as erased only when a SubjectErased event covers it). Verify says
 * `valid: false, reason: "tampered"`; the export has a `tampered` column; no receipt is issued.
 */

let t: TestService;
let api: Client;
let tenantId: string;
let tampered: string;
let erased: string;
let intact: string;
/** Its data key deleted from the key store, with no SubjectErased in the ledger. */
let keyless: string;

/**
 * Sets `data` (an SQL expression over the row's own) on the record's ConsentRecorded event, with the
 * ledger's append-only trigger switched off and on again around it, as a superuser would; in `tx`.
 */
async function editRecorded(tx: Transaction<Database>, consentId: string, data: RawBuilder<unknown>): Promise<void> {
  await sql`ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete`.execute(tx);
  await sql`UPDATE ledger.events SET data = ${data} WHERE event_type = 'ConsentRecorded' AND stream_id LIKE ${`%${consentId}`}`.execute(tx);
  await sql`ALTER TABLE ledger.events ENABLE TRIGGER events_refuse_update_delete`.execute(tx);
}

/** A character of the ciphertext changed, in the ledger and in the read model, as an administrator with write access would. */
async function breakSeal(consentId: string): Promise<void> {
  await t.service.store.db.transaction().execute(async (tx) => {
    const flip = sql`jsonb_set(data::jsonb, '{personal,ct}', to_jsonb(CASE WHEN left(data->'personal'->>'ct', 1) = 'A' THEN 'B' ELSE 'A' END || substr(data->'personal'->>'ct', 2)))::json`;
    await editRecorded(tx, consentId, flip);
    await sql`UPDATE read.consents SET personal = jsonb_set(personal::jsonb, '{ct}', to_jsonb(CASE WHEN left(personal->>'ct', 1) = 'A' THEN 'B' ELSE 'A' END || substr(personal->>'ct', 2))) WHERE id = ${consentId}`.execute(
      tx,
    );
  });
}

/**
 * The record's data key gone from the key store, as an administrator's DELETE leaves it, with no
 * erasure recorded (through the key store, so that this process's cache of it goes too).
 */
async function deleteKey(consentId: string): Promise<void> {
  const row = await sql<{ kid: string }>`SELECT personal->>'kid' AS kid FROM read.consents WHERE id = ${consentId}`.execute(
    t.service.store.db,
  );
  expect(await t.service.privacy.keys.destroy([row.rows[0]!.kid])).toBe(1);
}

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('enterprise');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  const policyVersionId = await publishPolicy(api);
  const record = async (userReference: string) => {
    const res = await api.post('/api/v1/consent', {
      policyVersionId,
      userReference,
      consentGiven: true,
      ipAddress: '203.0.113.9',
      metadata: { email: `${userReference}@example.com` },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.id as string;
  };
  tampered = await record('tampered-user');
  erased = await record('erased-user');
  intact = await record('intact-user');
  keyless = await record('keyless-user');
  // Read models caught up (a list read waits for them), then the edits.
  expect((await api.get('/api/v1/consent/search')).json().pagination.total).toBe(4);
  await breakSeal(tampered);
  await deleteKey(keyless);
  expect((await api.post('/api/v1/subjects/erase', { userReference: 'erased-user' })).statusCode).toBe(200);
});
afterAll(() => t?.close());

describe('tampered records › when a sealed personal field does not open with its key', () => {
  it('get answers 200 with tampered: true and null personal fields, never erased', async () => {
    const res = await api.get(`/api/v1/consent/${tampered}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      id: tampered,
      tampered: true,
      erased: false,
      userReference: null,
      ipAddress: null,
      userAgent: null,
      metadata: null,
    });
    expect((await api.get(`/api/v1/consent/${erased}`)).json().data).toMatchObject({ tampered: false, erased: true });
    expect((await api.get(`/api/v1/consent/${keyless}`)).json().data).toMatchObject({ tampered: true, erased: false, userReference: null });
    expect((await api.get(`/api/v1/consent/${intact}`)).json().data).toMatchObject({
      tampered: false,
      erased: false,
      userReference: 'intact-user',
    });
  });

  it('verify answers valid: false, reason: "tampered"', async () => {
    const res = await api.get(`/api/v1/consent/${tampered}/verify`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ valid: false, reason: 'tampered', tampered: true, erased: false, computedHash: null });
    expect((await api.get(`/api/v1/consent/verify?consentId=${tampered}`)).json().data.reason).toBe('tampered');
    expect((await api.get(`/api/v1/consent/${erased}/verify`)).json().data).toMatchObject({ valid: false, erased: true, tampered: false });
    expect((await api.get(`/api/v1/consent/${keyless}/verify`)).json().data).toMatchObject({
      valid: false,
      reason: 'tampered',
      tampered: true,
      erased: false,
    });
  });

  it('search and the user list mark it tampered, not erased', async () => {
    const items = (await api.get('/api/v1/consent/search?limit=100')).json().data as {
      id: string;
      tampered: boolean;
      erased: boolean;
      userReference: string | null;
    }[];
    const byId = new Map(items.map((i) => [i.id, i]));
    expect(byId.get(tampered)).toMatchObject({ tampered: true, erased: false, userReference: null });
    expect(byId.get(erased)).toMatchObject({ tampered: false, erased: true });
    expect(byId.get(intact)).toMatchObject({ tampered: false, erased: false, userReference: 'intact-user' });
    expect(byId.get(keyless)).toMatchObject({ tampered: true, erased: false, userReference: null });
    // The user list finds records by the subject's keyed hash, which the edit left alone.
    const list = await api.get('/api/v1/consent/user/tampered-user');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data).toEqual([expect.objectContaining({ id: tampered, tampered: true, erased: false, userReference: null })]);
  });

  it('the CSV export has a tampered column: true for it, with its personal cells empty', async () => {
    const res = await api.get('/api/v1/consent/export');
    expect(res.statusCode).toBe(200);
    const lines = res.body.trim().split('\r\n');
    const header = lines[0]!.split(',');
    expect(header).toContain('tampered');
    const cells = (line: string) => line.split(',').map((c) => c.replace(/^"|"$/g, ''));
    const row = (id: string) => cells(lines.find((l) => l.includes(id))!);
    const col = (name: string) => header.indexOf(name);
    expect(row(tampered)[col('tampered')]).toBe('true');
    expect(row(tampered)[col('userReference')]).toBe('');
    expect(row(tampered)[col('ipAddress')]).toBe('');
    expect(row(erased)[col('tampered')]).toBe('false');
    expect(row(intact)[col('tampered')]).toBe('false');
    expect(row(intact)[col('userReference')]).toBe('intact-user');
    expect(row(keyless)[col('tampered')]).toBe('true');
    expect(row(keyless)[col('userReference')]).toBe('');
  });

  it('a webhook payload of it says tampered: true, not erased', async () => {
    const events = await ledgerDb(t.service.store.db)
      .selectFrom('ledger.events')
      .select(['event_id', 'tenant_id', 'stream_id', 'stream_revision', 'event_type', 'data', 'metadata'])
      .where('tenant_id', '=', tenantId)
      .where('event_type', '=', 'ConsentRecorded')
      .execute();
    const asRecorded = (e: (typeof events)[number]) =>
      ({
        id: e.event_id,
        tenantId: e.tenant_id,
        stream: e.stream_id,
        revision: e.stream_revision,
        type: e.event_type,
        data: e.data,
        metadata: e.metadata,
        recordedAt: new Date().toISOString(),
        hash: '',
        prevHash: null,
        position: { commit: 0, prepare: 0 },
      }) as unknown as RecordedEvent;
    const of = async (consentId: string) => {
      const e = events.find((x) => x.stream_id.endsWith(consentId))!;
      return (await toNotification(asRecorded(e), (stream) => t.service.ledger.readStream(stream), t.service.privacy))!.data;
    };
    expect(await of(tampered)).toMatchObject({ id: tampered, tampered: true, subject_id: null, subject_email: null, metadata: null });
    expect(await of(tampered)).not.toHaveProperty('erased');
    expect(await of(erased)).toMatchObject({ erased: true });
    expect(await of(keyless)).toMatchObject({ tampered: true, subject_id: null });
    expect(await of(keyless)).not.toHaveProperty('erased');
    expect(await of(intact)).toMatchObject({ subject_id: 'intact-user', subject_email: 'intact-user@example.com' });
  });

  it('no receipt is issued for it: 409 CONSENT_TAMPERED', async () => {
    const res = await api.post(`/api/v1/consent/${tampered}/pdf`);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('CONSENT_TAMPERED');
  });

  it('withdrawing it still works, and answers it tampered', async () => {
    const res = await api.post(`/api/v1/consent/${tampered}/withdraw`, { reason: 'asked' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'withdrawn', tampered: true, erased: false, withdrawalReason: null });
  });
});

describe('tampered records › when a ledger event was edited in place, its seal left whole', () => {
  let edited: string;
  let editedHash: string;

  beforeAll(async () => {
    const res = await api.post('/api/v1/consent', {
      policyVersionId: await publishPolicy(api),
      userReference: 'edited-user',
      consentGiven: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    ({ id: edited, consentHash: editedHash } = res.json().data);
    // Its receipt issued while it was whole: the public page answers for records with one.
    expect((await api.post(`/api/v1/consent/${edited}/pdf`)).statusCode).toBe(200);
    // A database administrator turns the decision around in the ledger; the sealed fields still open.
    await t.service.store.db
      .transaction()
      .execute((tx) => editRecorded(tx, edited, sql`jsonb_set(data::jsonb, '{consentGiven}', 'false')::json`));
  });

  it('get, verify and the public page call it tampered, not merely unverified', async () => {
    expect((await api.get(`/api/v1/consent/${edited}`)).json().data).toMatchObject({ id: edited, tampered: true, erased: false });
    expect((await api.get(`/api/v1/consent/${edited}/verify`)).json().data).toMatchObject({
      valid: false,
      tampered: true,
      erased: false,
      reason: "the consent's ledger events do not chain: one was changed, removed or reordered",
    });
    const page = await t.app.inject({
      method: 'GET',
      url: `/verify/${edited}?hash=${editedHash}`,
      headers: { accept: 'application/json' },
    });
    expect(page.json().data, page.body).toMatchObject({ valid: false, tampered: true });
  });

  it('no further receipt is issued for it: 409 CONSENT_TAMPERED', async () => {
    const res = await api.post(`/api/v1/consent/${edited}/pdf`);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('CONSENT_TAMPERED');
  });
});

describe('tampered records › when a recorded event was rewritten whole, its consentHash made again', () => {
  let rewritten: string;
  let receiptHash: string;
  const forgedHash = 'f'.repeat(64);

  beforeAll(async () => {
    const res = await api.post('/api/v1/consent', {
      policyVersionId: await publishPolicy(api),
      userReference: 'rewritten-user',
      consentGiven: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    ({ id: rewritten, consentHash: receiptHash } = res.json().data);
    expect((await api.post(`/api/v1/consent/${rewritten}/pdf`)).statusCode).toBe(200);
    // The decision turned around, a new consentHash put in, and the event's hash made again: it
    // chains, and only its authenticator (over the hash it had) says otherwise.
    const [recorded] = await t.service.ledger.readStream(consentStream(tenantId, rewritten));
    const data = { ...recorded!.data, consentGiven: false, consentHash: forgedHash };
    const { hash: _hash, position: _position, authenticator: _authenticator, ...envelope } = recorded!;
    await t.service.store.db.transaction().execute(async (tx) => {
      await sql`ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete`.execute(tx);
      await sql`UPDATE ledger.events SET data = ${JSON.stringify(data)}::json, event_hash = ${eventHash({ ...envelope, data })}
        WHERE event_id = ${recorded!.id}`.execute(tx);
      await sql`ALTER TABLE ledger.events ENABLE TRIGGER events_refuse_update_delete`.execute(tx);
    });
  });

  it('the public page tells the holder of a receipt issued before that it is tampered, not that the hash is wrong', async () => {
    const page = async (hash: string) =>
      (await t.app.inject({ method: 'GET', url: `/verify/${rewritten}?hash=${hash}`, headers: { accept: 'application/json' } })).json()
        .data;
    expect(await page(receiptHash)).toMatchObject({ valid: false, tampered: true, status: null });
    expect(await page(forgedHash)).toMatchObject({ valid: false, tampered: true });
    // Anyone else learns nothing.
    expect(await page('0'.repeat(64))).toMatchObject({ valid: false, tampered: false });
  });
});

describe('tampered records › when an event the log sealed was removed from the ledger', () => {
  let withdrawn: string;
  let withdrawnHash: string;

  beforeAll(async () => {
    const res = await api.post('/api/v1/consent', {
      policyVersionId: await publishPolicy(api),
      userReference: 'unwithdrawn-user',
      consentGiven: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    ({ id: withdrawn, consentHash: withdrawnHash } = res.json().data);
    expect((await api.post(`/api/v1/consent/${withdrawn}/pdf`)).statusCode).toBe(200);
    expect((await api.post(`/api/v1/consent/${withdrawn}/withdraw`, { reason: 'no longer' })).statusCode).toBe(200);
    // Sealed: the log holds the withdrawal as a leaf of the record's stream.
    const db = t.service.store.db;
    await waitUntil(
      async () =>
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM transparency.leaves l JOIN ledger.events e ON e.event_id = l.event_id
            WHERE e.event_type = 'ConsentWithdrawn' AND e.stream_id LIKE ${`%${withdrawn}`}`.execute(db)
        ).rows[0]!.n === 1,
      { what: 'the withdrawal to be sealed' },
    );
    // A database administrator removes the withdrawal: what is left still chains.
    await db.transaction().execute(async (tx) => {
      await sql`ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete`.execute(tx);
      await sql`DELETE FROM ledger.events WHERE event_type = 'ConsentWithdrawn' AND stream_id LIKE ${`%${withdrawn}`}`.execute(tx);
      await sql`ALTER TABLE ledger.events ENABLE TRIGGER events_refuse_update_delete`.execute(tx);
    });
  });

  it('get, verify and the public page call it tampered, though it reads as active again', async () => {
    expect((await api.get(`/api/v1/consent/${withdrawn}`)).json().data).toMatchObject({ id: withdrawn, status: 'active', tampered: true });
    expect((await api.get(`/api/v1/consent/${withdrawn}/verify`)).json().data).toMatchObject({
      valid: false,
      tampered: true,
      computedHash: withdrawnHash,
      reason: 'an event of the record that the signed log holds is gone from the ledger: removed',
    });
    const page = await t.app.inject({
      method: 'GET',
      url: `/verify/${withdrawn}?hash=${withdrawnHash}`,
      headers: { accept: 'application/json' },
    });
    expect(page.json().data, page.body).toMatchObject({ valid: false, tampered: true, status: null });
  });
});

describe('tampered records › when a policy version’s text was edited in the ledger', () => {
  /** A superuser's rewrite of a version's text, its content hash and event hash made again; answers the event as it was. */
  async function rewritePolicyText(tenantId: string, id: string, content: string): Promise<RecordedEvent> {
    const [published] = await t.service.ledger.readStream(policyStream(tenantId, id));
    const data = { ...published!.data, content, contentHash: createHash('sha256').update(content).digest('hex') };
    const { hash: _hash, position: _position, authenticator: _authenticator, ...envelope } = published!;
    await t.service.store.db.transaction().execute(async (tx) => {
      await sql`ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete`.execute(tx);
      await sql`UPDATE ledger.events SET data = ${JSON.stringify(data)}::json, event_hash = ${eventHash({ ...envelope, data })}
        WHERE event_id = ${published!.id}`.execute(tx);
      await sql`ALTER TABLE ledger.events ENABLE TRIGGER events_refuse_update_delete`.execute(tx);
    });
    return published!;
  }

  it('is not served as the text published: 409 POLICY_TAMPERED, by id and as the active version', async () => {
    const creds = await t.tenant('pro');
    const owner = client(t.app, creds);
    const id = await publishPolicy(owner, { policyType: 'terms_of_service', version: '1.0.0', content: 'We keep your data safe.' });
    expect((await owner.get(`/api/v1/policies/${id}`)).statusCode).toBe(200);
    await t.service.store.db.transaction().execute(async (tx) => {
      await sql`ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete`.execute(tx);
      await sql`UPDATE ledger.events SET data = replace(data::text, 'We keep your data safe.', 'We sell your data.')::json
        WHERE event_type = 'PolicyVersionPublished' AND stream_id LIKE ${`%${id}`}`.execute(tx);
      await sql`ALTER TABLE ledger.events ENABLE TRIGGER events_refuse_update_delete`.execute(tx);
    });
    for (const url of [`/api/v1/policies/${id}`, '/api/v1/policies/active/terms_of_service']) {
      const res = await owner.get(url);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().error.code).toBe('POLICY_TAMPERED');
      expect(res.body).not.toContain('We sell your data.');
    }
  });

  it('rewritten while a process holds it (consents were recorded on it): that process refuses it within seconds', async () => {
    const creds = await t.tenant('pro');
    const owner = client(t.app, creds);
    const id = await publishPolicy(owner, { policyType: 'terms_of_service', version: '1.0.0', content: 'Free for ever.' });
    // Recorded on: the process now remembers the version.
    expect((await owner.post('/api/v1/consent', { policyVersionId: id, userReference: 'held-1', consentGiven: true })).statusCode).toBe(
      201,
    );
    await rewritePolicyText(creds.tenantId, id, 'Free for one month.');
    let n = 0;
    const refused = await waitUntil(
      async () => {
        const res = await owner.post('/api/v1/consent', { policyVersionId: id, userReference: `held-${++n + 1}`, consentGiven: true });
        return res.statusCode === 409 && res;
      },
      { timeoutMs: 15_000, intervalMs: 250, what: 'the rewritten policy refused' },
    );
    expect(refused.json().error.code).toBe('POLICY_TAMPERED');
  });

  it('its deactivation removed once sealed, to make it recordable again: 409 POLICY_TAMPERED, nothing recorded on it', async () => {
    const creds = await t.tenant('pro');
    const owner = client(t.app, creds);
    const id = await publishPolicy(owner, { policyType: 'cookie_policy', version: '1.0.0', content: 'Only the cookies we need.' });
    expect((await owner.patch(`/api/v1/policies/${id}`, { isActive: false })).statusCode).toBe(200);
    const db = t.service.store.db;
    await waitUntil(
      async () =>
        (
          await sql<{ n: number }>`SELECT count(*)::int AS n FROM transparency.leaves l JOIN ledger.events e ON e.event_id = l.event_id
            WHERE e.event_type = 'PolicyVersionDeactivated' AND e.stream_id = ${policyStream(creds.tenantId, id)}`.execute(db)
        ).rows[0]!.n === 1,
      { what: 'the deactivation sealed' },
    );
    await db.transaction().execute(async (tx) => {
      await sql`ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete`.execute(tx);
      await sql`DELETE FROM ledger.events WHERE event_type = 'PolicyVersionDeactivated' AND stream_id = ${policyStream(creds.tenantId, id)}`.execute(
        tx,
      );
      await sql`ALTER TABLE ledger.events ENABLE TRIGGER events_refuse_update_delete`.execute(tx);
    });
    const read = await owner.get(`/api/v1/policies/${id}`);
    expect(read.statusCode, read.body).toBe(409);
    expect(read.json().error).toMatchObject({
      code: 'POLICY_TAMPERED',
      message: expect.stringContaining('one the log sealed was removed'),
    });
    const consent = await owner.post('/api/v1/consent', { policyVersionId: id, userReference: 'revived-1', consentGiven: true });
    expect(consent.statusCode, consent.body).toBe(409);
    expect(consent.json().error.code).toBe('POLICY_TAMPERED');
  });

  it('rewritten whole, its hash made again, is refused too: the authenticator covers the hash it had', async () => {
    const creds = await t.tenant('pro');
    const owner = client(t.app, creds);
    const id = await publishPolicy(owner, { policyType: 'terms_of_service', version: '1.0.0', content: 'No fees, ever.' });
    const published = await rewritePolicyText(creds.tenantId, id, 'Cancelling costs a 500 EUR fee.');
    const read = await owner.get(`/api/v1/policies/${id}`);
    expect(read.statusCode, read.body).toBe(409);
    expect(read.json().error.code).toBe('POLICY_TAMPERED');
    expect(read.body).not.toContain('500 EUR');
    // No consent is decided on the rewritten text (its hash would enter the record's).
    const consent = await owner.post('/api/v1/consent', { policyVersionId: id, userReference: 'u-1', consentGiven: true });
    expect(consent.statusCode, consent.body).toBe(409);
    expect(consent.json().error.code).toBe('POLICY_TAMPERED');
    // Moved before where authenticators begin as well (the triggers switched off): still refused.
    await t.service.store.db.transaction().execute(async (tx) => {
      await sql`ALTER TABLE ledger.events DISABLE TRIGGER ALL`.execute(tx);
      await sql`CREATE TEMP TABLE moved ON COMMIT DROP AS SELECT * FROM ledger.events WHERE event_id = ${published!.id}`.execute(tx);
      await sql`DELETE FROM ledger.events WHERE event_id = ${published!.id}`.execute(tx);
      await sql`UPDATE moved SET transaction_id = '0'::xid8, global_position = -1`.execute(tx);
      await sql`INSERT INTO ledger.events OVERRIDING SYSTEM VALUE SELECT * FROM moved`.execute(tx);
      await sql`ALTER TABLE ledger.events ENABLE TRIGGER ALL`.execute(tx);
    });
    const moved = await owner.get(`/api/v1/policies/${id}`);
    expect(moved.statusCode, moved.body).toBe(409);
    expect(moved.json().error.code).toBe('POLICY_TAMPERED');
  });
});
