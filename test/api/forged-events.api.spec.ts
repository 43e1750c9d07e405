import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentStream } from '../../src/domain/consent/consent.events.js';
import { eventHash, type EventEnvelope } from '../../src/ledger/event-hash.js';
import { authenticateAppend } from '../../src/transparency/append-authenticator.js';
import { authenticatedFrom, EventAuthenticity } from '../../src/transparency/event-authenticity.js';
import { signerFromSeed } from '../../src/transparency/note.js';
import { TransparencyStore } from '../../src/transparency/transparency.store.js';
import { insertBehindTheService as insertEvent } from '../support/forgery.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, sealedCheckpoint, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Events the database cannot forge (issue: with INSERT on ledger.events, a backdated withdrawal
 * and an invented consent were sealed and signed by the honest service). A row written behind the
 * service's back has no authenticator that verifies: the sealer refuses it and stops sealing that
 * tenant (named in /ready), and verification calls the record tampered. Other tenants go on.
 */

let t: TestService;
const ADMIN_TOKEN = 'forged-events-admin-token-0123456789';

interface Halt {
  tenantId: string;
  eventId: string;
  position: { commit: number; prepare: number };
  reason: string;
}

const ready = async () => (await t.app.inject({ url: '/ready' })).json().data as { status: string; sealing: { halted: Halt[] } };

/** Polls /ready until the tenant's sealing is reported stopped. */
async function haltOf(tenantId: string): Promise<Halt> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const halt = (await ready()).sealing.halted.find((h) => h.tenantId === tenantId);
    if (halt) return halt;
    if (Date.now() > deadline) throw new Error(`the sealer did not stop sealing ${tenantId} within 10 s`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** INSERT into ledger.events behind the service's back, on the test service's store. */
const insertBehindTheService = (envelope: EventEnvelope, authenticator: string | null = null) =>
  insertEvent(t.service.store.db, envelope, authenticator);

/** A withdrawal of the consent, as a forger would write it after its ConsentRecorded event. */
function forgedWithdrawal(recorded: { stream: string; hash: string; data: Record<string, unknown> }, tenantId: string, consentId: string) {
  const withdrawnAt = new Date().toISOString();
  return {
    id: randomUUID(),
    tenantId,
    stream: recorded.stream,
    revision: 1,
    type: 'ConsentWithdrawn',
    data: { consentId, subject: recorded.data.subject, reason: null, withdrawnAt },
    metadata: {},
    recordedAt: withdrawnAt,
    prevHash: recorded.hash,
  };
}

/** A tenant with a policy and one honest consent, sealed. */
async function tenantWithConsent(): Promise<{ api: Client; tenantId: string; consentId: string; policyVersionId: string; setup: number }> {
  const creds = await t.tenant('enterprise');
  const api = client(t.app, creds);
  const policyVersionId = await publishPolicy(api);
  const res = await api.post('/api/v1/consent', { policyVersionId, userReference: `u-${randomUUID()}`, consentGiven: true });
  expect(res.statusCode, res.body).toBe(201);
  await sealedCheckpoint(api, creds.setupEvents + 2);
  return { api, tenantId: creds.tenantId, consentId: res.json().data.id, policyVersionId, setup: creds.setupEvents };
}

beforeAll(async () => {
  t = await startTestService({ ADMIN_TOKEN });
}, 60_000);
afterAll(() => t?.close());

describe('forged events › a backdated withdrawal inserted into the ledger', () => {
  let api: Client;
  let tenantId: string;
  let consentId: string;
  let forgedId: string;
  let setup: number;
  beforeAll(async () => {
    ({ api, tenantId, consentId, setup } = await tenantWithConsent());
    // A receipt issued before the forgery: its QR code leads to the public page.
    expect((await api.post(`/api/v1/consent/${consentId}/pdf`)).statusCode).toBe(200);
    const [recorded] = await t.service.ledger.readStream(consentStream(tenantId, consentId));
    forgedId = randomUUID();
    await insertBehindTheService({
      id: forgedId,
      tenantId,
      stream: recorded!.stream,
      revision: 1,
      type: 'ConsentWithdrawn',
      data: { consentId, subject: recorded!.data.subject, reason: null, withdrawnAt: '2025-01-01T00:00:00.000Z' },
      metadata: {},
      recordedAt: '2025-01-01T00:00:00.000Z',
      prevHash: recorded!.hash,
    });
  });

  it('is refused by the sealer, which stops sealing the tenant and names the event in /ready', async () => {
    const halt = await haltOf(tenantId);
    expect(halt).toMatchObject({ eventId: forgedId, reason: 'the event carries no authenticator' });
    expect((await ready()).status).toBe('ready');
    // Monitoring sees it: the halted tenants' gauge (ConsentLedgerSealingHalted pages on it).
    const metrics = await t.app.inject({ url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(metrics.body).toMatch(/^consent_ledger_sealing_halted_tenants 1$/m);
    // Never signed: the log keeps the honest leaves (the tenant's set-up, policy, consent, receipt issued).
    expect((await api.get('/api/v1/ledger/checkpoint')).json().data.treeSize).toBe(setup + 3);
  });

  it('makes /verify and the public page call the record tampered, not withdrawn', async () => {
    const v = (await api.get(`/api/v1/consent/${consentId}/verify`)).json().data;
    expect(v).toMatchObject({ valid: false, tampered: true, reason: 'tampered' });
    const hash = (await api.get(`/api/v1/consent/${consentId}`)).json().data.consentHash as string;
    const page = await t.app.inject({ url: `/verify/${consentId}?hash=${hash}`, headers: { accept: 'application/json' } });
    expect(page.json().data).toMatchObject({ valid: false, erased: false, tampered: true, status: null, policy: null });
    const html = await t.app.inject({ url: `/verify/${consentId}?hash=${hash}` });
    expect(html.body).toContain('Record tampered');
    // Anyone without the record's hash learns nothing more than "not verified".
    const guess = await t.app.inject({ url: `/verify/${consentId}?hash=${'0'.repeat(64)}`, headers: { accept: 'application/json' } });
    expect(guess.json().data).toMatchObject({ valid: false, tampered: false });
  });

  it('makes the record read as tampered, and no new receipt is issued for the forged withdrawal', async () => {
    expect((await api.get(`/api/v1/consent/${consentId}`)).json().data).toMatchObject({ status: 'withdrawn', tampered: true });
    const receipt = await api.post(`/api/v1/consent/${consentId}/pdf`);
    expect(receipt.statusCode, receipt.body).toBe(409);
    expect(receipt.json().error.code).toBe('CONSENT_TAMPERED');
    expect(receipt.json().error.message).toContain('tampered');
    // The receipt issued before the forgery is still the latest, unchanged.
    expect((await api.get(`/api/v1/consent/${consentId}/pdf`)).statusCode).toBe(200);
  });

  it('answers a later record’s proof 409 SEALING_HALTED, naming the event, instead of "retry in a second" for ever', async () => {
    await haltOf(tenantId);
    const policyVersionId = await publishPolicy(api);
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: 'after-the-halt', consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
    const proof = await api.get(`/api/v1/consent/${res.json().data.id}/proof`);
    expect(proof.statusCode, proof.body).toBe(409);
    expect(proof.headers['retry-after']).toBeUndefined();
    expect(proof.json().error).toMatchObject({ code: 'SEALING_HALTED', details: { eventId: forgedId } });
    expect(proof.json().error.message).toContain(forgedId);
  });
});

describe('forged events › a withdrawal given a ledger position before every reader’s', () => {
  it('is refused by the ledger: an event takes its position, so none hides behind the sealer and the checks', async () => {
    const { tenantId, consentId } = await tenantWithConsent();
    const [recorded] = await t.service.ledger.readStream(consentStream(tenantId, consentId));
    const forged = forgedWithdrawal(recorded!, tenantId, consentId);
    const insert = (position: { commit: string; prepare: number }) =>
      sql`INSERT INTO ledger.events (event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash, transaction_id, global_position)
        OVERRIDING SYSTEM VALUE
        VALUES (${forged.id}, ${tenantId}, ${forged.stream}, 1, ${forged.type}, ${JSON.stringify(forged.data)}::json, '{}'::json, ${forged.recordedAt},
          ${forged.prevHash}, ${eventHash(forged)}, ${position.commit}::xid8, ${position.prepare})`.execute(t.service.store.db);
    // Before the first authenticated event and behind every follower: the position a forger wants.
    await expect(insert({ commit: '0', prepare: -1 })).rejects.toThrow();
    // Its own transaction, a number it chose: refused all the same, whatever it drew before.
    await t.service.store.db.connection().execute(async (db) => {
      await sql`SELECT nextval('ledger.events_global_position_seq')`.execute(db);
      await expect(
        sql`INSERT INTO ledger.events (event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash, global_position)
          OVERRIDING SYSTEM VALUE
          VALUES (${forged.id}, ${tenantId}, ${forged.stream}, 1, ${forged.type}, ${JSON.stringify(forged.data)}::json, '{}'::json, ${forged.recordedAt},
            ${forged.prevHash}, ${eventHash(forged)}, -5)`.execute(db),
      ).rejects.toThrow(/takes the position the ledger gives it/);
    });
    expect(await t.service.ledger.readStream(consentStream(tenantId, consentId))).toHaveLength(1);
  });
});

describe('forged events › an invented consent inserted into the ledger', () => {
  it('is refused by the sealer and verifies as tampered, not erased', async () => {
    const { api, tenantId, policyVersionId } = await tenantWithConsent();
    const consentId = randomUUID();
    const forgedId = randomUUID();
    await insertBehindTheService({
      id: forgedId,
      tenantId,
      stream: consentStream(tenantId, consentId),
      revision: 0,
      type: 'ConsentRecorded',
      data: {
        consentId,
        policyVersionId,
        policyType: 'privacy_policy',
        policyVersion: '1.0.0',
        policyTitle: 'Privacy',
        policyContentHash: 'a'.repeat(64),
        subject: 'sub_x',
        personal: { v: 1, kid: 'dk_unknown', iv: 'AAAA', ct: 'AAAA', tag: 'AAAA' },
        consentGiven: true,
        metadata: {},
        timestamp: new Date().toISOString(),
        consentHash: 'b'.repeat(64),
        batchId: null,
      },
      metadata: {},
      recordedAt: new Date().toISOString(),
      prevHash: null,
    });
    expect((await haltOf(tenantId)).eventId).toBe(forgedId);
    const v = (await api.get(`/api/v1/consent/${consentId}/verify`)).json().data;
    expect(v).toMatchObject({ valid: false, tampered: true, erased: false });
  });
});

describe('forged events › an authenticator made up by the forger', () => {
  it('naming a key that never signed this log, is refused (the key history read in the sealer’s transaction)', async () => {
    const { tenantId, consentId } = await tenantWithConsent();
    const [recorded] = await t.service.ledger.readStream(consentStream(tenantId, consentId));
    const envelope = forgedWithdrawal(recorded!, tenantId, consentId);
    await insertBehindTheService(envelope, `v1:deadbeef:0:1:${'A'.repeat(86)}==:`);
    const halt = await haltOf(tenantId);
    expect(halt).toMatchObject({ eventId: envelope.id, reason: 'the authenticator names key deadbeef, which never signed this log' });
  });
});

describe('forged events › an authenticator copied from an honest event', () => {
  it('is refused: it covers the honest event, not the forged one, however fresh the copy', async () => {
    const { tenantId, consentId } = await tenantWithConsent();
    const [recorded] = await t.service.ledger.readStream(consentStream(tenantId, consentId));
    const envelope = forgedWithdrawal(recorded!, tenantId, consentId);
    await insertBehindTheService(envelope, recorded!.authenticator);
    expect(await haltOf(tenantId)).toMatchObject({ eventId: envelope.id, reason: 'the authenticator’s signature does not verify' });
  });
});

describe('forged events › an event whose time goes back', () => {
  it('is refused even when the service itself appended it (an operator with the key backdating)', async () => {
    const { api, tenantId, consentId, setup } = await tenantWithConsent();
    const stream = consentStream(tenantId, consentId);
    const [recorded] = await t.service.ledger.readStream(stream);
    const at = new Date(Date.parse(recorded!.recordedAt) - 3_600_000);
    const data = { consentId, subject: recorded!.data.subject, reason: null, withdrawnAt: at.toISOString() };
    const backdated = await t.service.ledger.append(
      [{ tenantId, stream, expectedRevision: 0, events: [{ type: 'ConsentWithdrawn', data }] }],
      at,
    );
    const halt = await haltOf(tenantId);
    expect(halt.eventId).toBe(backdated.events[0]!.id);
    expect(halt.reason).toMatch(/^its time .* is 3600 s before the leaf before it \(tolerance 60 s\)$/);
    expect((await api.get('/api/v1/ledger/checkpoint')).json().data.treeSize).toBe(setup + 2);
  });
});

describe('forged events › other tenants', () => {
  it('are sealed as before while a forged tenant stays stopped', async () => {
    const { api, setup } = await tenantWithConsent();
    await publishPolicy(api);
    expect((await sealedCheckpoint(api, setup + 3)).treeSize).toBe(setup + 3);
  });
});

describe('forged events › where authenticators begin, deleted by the table’s owner', () => {
  it('is recorded again before the first event that carries one, not at the head: what was forged stays refused', async () => {
    const { tenantId, consentId } = await tenantWithConsent();
    const [recorded] = await t.service.ledger.readStream(consentStream(tenantId, consentId));
    const envelope = forgedWithdrawal(recorded!, tenantId, consentId);
    await insertBehindTheService(envelope);
    const db = t.service.store.db;
    // What only the owner can do: the row is kept by a trigger.
    await sql`ALTER TABLE ledger.authenticated_from DISABLE TRIGGER ALL`.execute(db);
    await sql`DELETE FROM ledger.authenticated_from`.execute(db);
    await sql`ALTER TABLE ledger.authenticated_from ENABLE TRIGGER ALL`.execute(db);
    // The next start records it again, and says why it is not the head.
    const warned: string[] = [];
    const from = await authenticatedFrom(db, t.service.ledger, (message) => warned.push(message));
    expect(warned.join('\n')).toMatch(/ledger\.authenticated_from was missing, though events carry authenticators/);
    const [forged] = (await t.service.ledger.readStream(consentStream(tenantId, consentId))).filter((e) => e.id === envelope.id);
    const [current] = (await t.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys as { publicKey: string }[];
    expect(await new EventAuthenticity(db, from, current!.publicKey).problem(forged!)).toBe('the event carries no authenticator');
    // Recorded once: a start after that reads it as it is.
    expect(await authenticatedFrom(db, t.service.ledger, (message) => warned.push(message))).toEqual(from);
    expect(warned).toHaveLength(1);
  });
});

describe('forged events › a key written into the key history by the database', () => {
  it('vouched for by no successor, signs nothing the service accepts, and is not published', async () => {
    const { api, tenantId, consentId } = await tenantWithConsent();
    const [recorded] = await t.service.ledger.readStream(consentStream(tenantId, consentId));
    // What the service's own role may do: insert a row into the history, as a key retired long ago.
    const planted = signerFromSeed(new URL(t.service.settings.publicBaseUrl).host, randomBytes(32));
    await sql`INSERT INTO transparency.key_history (public_key, vkey, activated_at, retired_at)
      VALUES (${planted.publicKey.toString('base64')}, ${planted.vkey}, '2026-01-01', '2026-01-02')`.execute(t.service.store.db);
    const envelope = forgedWithdrawal(recorded!, tenantId, consentId);
    const [authenticator] = authenticateAppend(planted, [eventHash(envelope)]);
    await insertBehindTheService(envelope, authenticator);
    const halt = await haltOf(tenantId);
    expect(halt).toMatchObject({ eventId: envelope.id });
    expect(halt.reason).toMatch(/never signed this log/);
    expect((await api.get(`/api/v1/consent/${consentId}/verify`)).json().data).toMatchObject({ valid: false, tampered: true });
    const keys = (await t.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys as { publicKey: string }[];
    expect(keys.map((k) => k.publicKey)).not.toContain(planted.publicKey.toString('base64'));
    expect(keys).toHaveLength(1);
  });
});

/** A tenant whose sealing stopped at a forged withdrawal of its consent. */
async function haltedTenant() {
  const tenant = await tenantWithConsent();
  const [recorded] = await t.service.ledger.readStream(consentStream(tenant.tenantId, tenant.consentId));
  const forged = forgedWithdrawal(recorded!, tenant.tenantId, tenant.consentId);
  await insertBehindTheService(forged);
  await haltOf(tenant.tenantId);
  return { ...tenant, forged };
}

/** What docs/verifying.md tells the operator: remove the row (as the table's owner), then the halt. */
async function clearHalt(tenantId: string, eventId: string): Promise<void> {
  const db = t.service.store.db;
  await sql`ALTER TABLE ledger.events DISABLE TRIGGER ALL`.execute(db);
  await sql`DELETE FROM ledger.events WHERE event_id = ${eventId}::uuid`.execute(db);
  await sql`ALTER TABLE ledger.events ENABLE TRIGGER ALL`.execute(db);
  await sql`DELETE FROM transparency.halts WHERE tenant_id = ${tenantId}::uuid`.execute(db);
}

describe('forged events › a halt cleared as docs/verifying.md says', () => {
  it('seals what the tenant recorded while it was stopped, then goes on: no genuine event is left out of the log', async () => {
    const { api, tenantId, policyVersionId, setup, forged } = await haltedTenant();
    // Genuine decisions while stopped: their proofs wait for the operator.
    const during: string[] = [];
    for (const user of ['during-1', 'during-2']) {
      const res = await api.post('/api/v1/consent', { policyVersionId, userReference: user, consentGiven: true });
      expect(res.statusCode, res.body).toBe(201);
      during.push(res.json().data.id);
    }
    await waitUntil(async () => (await api.get(`/api/v1/consent/${during[1]}/proof`)).statusCode === 409, {
      what: 'the sealer to read past the halt',
    });
    await clearHalt(tenantId, forged.id);
    const after = await api.post('/api/v1/consent', { policyVersionId, userReference: 'after', consentGiven: true });
    expect(after.statusCode, after.body).toBe(201);
    // Set-up, policy, consent, the two while stopped, and the one after: in the log, each provable.
    await sealedCheckpoint(api, setup + 5);
    for (const id of [...during, after.json().data.id as string]) {
      const proof = await api.get(`/api/v1/consent/${id}/proof`);
      expect(proof.statusCode, proof.body).toBe(200);
    }
    expect((await api.get('/api/v1/ledger/checkpoint')).json().data.treeSize).toBe(setup + 5);
  });
});

describe('forged events › a held row written by the database', () => {
  it('seals nothing the ledger does not hold, whatever position or authenticator the row claims', async () => {
    const { api, tenantId, consentId, policyVersionId, setup } = await tenantWithConsent();
    const [recorded] = await t.service.ledger.readStream(consentStream(tenantId, consentId));
    const forged = { ...forgedWithdrawal(recorded!, tenantId, consentId), authenticator: null };
    // Before where authenticators begin, which would exempt it from their check; no halt needed.
    await sql`INSERT INTO transparency.held (tenant_id, commit_position, prepare_position, event)
      VALUES (${tenantId}, 0, -3, ${JSON.stringify({ ...forged, hash: eventHash(forged), position: { commit: 0, prepare: -3 } })}::jsonb)`.execute(
      t.service.store.db,
    );
    // A genuine event sealed already, held again: a second leaf of it would fail every batch.
    await sql`INSERT INTO transparency.held (tenant_id, commit_position, prepare_position, event)
      VALUES (${tenantId}, 0, -2, ${JSON.stringify({ ...recorded!, position: { commit: 0, prepare: -2 } })}::jsonb)`.execute(
      t.service.store.db,
    );
    const next = await api.post('/api/v1/consent', { policyVersionId, userReference: 'after-the-row', consentGiven: true });
    expect(next.statusCode, next.body).toBe(201);
    const proof = await waitUntil(
      async () => {
        const res = await api.get(`/api/v1/consent/${next.json().data.id}/proof`);
        return res.statusCode === 200 ? res.json().data : undefined;
      },
      { what: 'the next consent sealed' },
    );
    // Set-up, policy, consent and the next one: the claimed withdrawal is in no leaf, and the row is gone.
    expect(proof.treeSize).toBe(setup + 3);
    expect((await ready()).sealing.halted.find((h) => h.tenantId === tenantId)).toBeUndefined();
    expect((await sql`SELECT 1 FROM transparency.held WHERE tenant_id = ${tenantId}`.execute(t.service.store.db)).rows).toHaveLength(0);
    expect((await api.get(`/api/v1/consent/${consentId}`)).json().data).toMatchObject({ status: 'active', tampered: false });
  });
});

describe('forged events › held rows written twice, or not as events', () => {
  it('seal each held event once, and the rest of the log goes on', async () => {
    const { api, tenantId, policyVersionId, setup, forged } = await haltedTenant();
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: 'held-twice', consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    await waitUntil(async () => (await api.get(`/api/v1/consent/${id}/proof`)).statusCode === 409, { what: 'the record held' });
    const db = t.service.store.db;
    const [held] = (await sql<{ event: { id: string } }>`SELECT event FROM transparency.held WHERE tenant_id = ${tenantId}`.execute(db))
      .rows;
    // The same event claimed again at other positions, a row with no position, one that is no object.
    await sql`INSERT INTO transparency.held (tenant_id, commit_position, prepare_position, event) VALUES
      (${tenantId}, 1, 1, ${JSON.stringify({ id: held!.event.id })}::jsonb),
      (${tenantId}, 1, 2, ${JSON.stringify({ id: held!.event.id, position: { commit: 1, prepare: 2 } })}::jsonb),
      (${tenantId}, 1, 3, '"not an event"'::jsonb)`.execute(db);
    await clearHalt(tenantId, forged.id);
    const after = await api.post('/api/v1/consent', { policyVersionId, userReference: 'after', consentGiven: true });
    expect(after.statusCode, after.body).toBe(201);
    // Set-up, policy, consent, the one held (once), and the one after.
    await sealedCheckpoint(api, setup + 4);
    expect((await api.get(`/api/v1/consent/${id}/proof`)).statusCode).toBe(200);
    expect((await api.get(`/api/v1/consent/${after.json().data.id}/proof`)).statusCode).toBe(200);
    expect((await sql`SELECT 1 FROM transparency.held WHERE tenant_id = ${tenantId}`.execute(db)).rows).toHaveLength(0);
  });
});

describe('forged events › a halt and what it held, deleted by the database', () => {
  it('leaves a record the sealer read past with no leaf: its proof says the log is incomplete, not "retry in a second"', async () => {
    const { api, tenantId, policyVersionId } = await haltedTenant();
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: 'held-then-dropped', consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    await waitUntil(async () => (await api.get(`/api/v1/consent/${id}/proof`)).statusCode === 409, { what: 'the record held' });
    await t.service.store.db.transaction().execute(async (tx) => {
      await sql`DELETE FROM transparency.held WHERE tenant_id = ${tenantId}`.execute(tx);
      await sql`DELETE FROM transparency.halts WHERE tenant_id = ${tenantId}`.execute(tx);
    });
    const proof = await api.get(`/api/v1/consent/${id}/proof`);
    expect(proof.statusCode, proof.body).toBe(409);
    expect(proof.headers['retry-after']).toBeUndefined();
    expect(proof.json().error).toMatchObject({ code: 'LOG_INCOMPLETE', details: { eventId: expect.any(String) } });
    expect(proof.json().error.message).toContain('the transparency tables were changed');
  });
});

describe('forged events › a halt an earlier version left, cleared after the upgrade', () => {
  it('seals what that version left out while the tenant was stopped (held from the ledger on the first batch)', async () => {
    const { api, tenantId, policyVersionId, setup, forged } = await haltedTenant();
    const during = await api.post('/api/v1/consent', { policyVersionId, userReference: 'before-the-upgrade', consentGiven: true });
    expect(during.statusCode, during.body).toBe(201);
    await waitUntil(async () => (await api.get(`/api/v1/consent/${during.json().data.id}/proof`)).statusCode === 409, {
      what: 'the sealer to read past the halt',
    });
    // As a version that held nothing left it; then a new process's first batch.
    const db = t.service.store.db;
    await sql`DELETE FROM transparency.held WHERE tenant_id = ${tenantId}::uuid`.execute(db);
    const heldOf = async () =>
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM transparency.held WHERE tenant_id = ${tenantId}::uuid`.execute(db)).rows[0]!
        .n;
    // Held once, and the tenant (stopped already) is not stopped again.
    expect(await new TransparencyStore(db).holdUnsealed(db, 'merkle')).not.toContainEqual(expect.objectContaining({ tenantId }));
    expect(await heldOf()).toBe(1);
    await new TransparencyStore(db).holdUnsealed(db, 'merkle');
    expect(await heldOf()).toBe(1);
    await clearHalt(tenantId, forged.id);
    expect((await api.post('/api/v1/consent', { policyVersionId, userReference: 'after', consentGiven: true })).statusCode).toBe(201);
    await sealedCheckpoint(api, setup + 4);
    expect((await api.get(`/api/v1/consent/${during.json().data.id}/proof`)).statusCode).toBe(200);
  });
});

describe('forged events › a tree grown in its tables by the database', () => {
  it('is not extended: the sealer stops the tenant rather than sign a root over a leaf it never sealed', async () => {
    const { api, tenantId, policyVersionId, setup } = await tenantWithConsent();
    const size = setup + 2;
    const db = t.service.store.db;
    // A leaf of the writer's choosing after the last sealed one, and the tree's size moved over it:
    // the next batch reads the frontier from the tables (another process might have sealed).
    await db.transaction().execute(async (tx) => {
      await sql`INSERT INTO transparency.nodes (tenant_id, level, idx, hash) VALUES (${tenantId}, 0, ${size}, ${randomBytes(32).toString('hex')})`.execute(
        tx,
      );
      await sql`INSERT INTO transparency.leaves (tenant_id, leaf_index, event_id, stream_id) VALUES (${tenantId}, ${size}, ${randomUUID()}, 'forged')`.execute(
        tx,
      );
      await sql`UPDATE transparency.trees SET tree_size = ${size + 1} WHERE tenant_id = ${tenantId}`.execute(tx);
    });
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: 'after-the-growth', consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
    const halt = await haltOf(tenantId);
    expect(halt.reason).toContain('not those of a checkpoint the log signed');
    // Nothing signed over the grown tree; the honest record waits, held.
    expect((await api.get('/api/v1/ledger/checkpoint')).json().data.treeSize).toBe(size);
    expect(
      (await sql`SELECT 1 AS one FROM transparency.held WHERE tenant_id = ${tenantId} AND event->>'id' = ${halt.eventId}`.execute(db)).rows,
    ).toHaveLength(1);
  });
});
