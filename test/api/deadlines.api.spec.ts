import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consentStream } from '../../src/domain/consent/consent.events.js';
import { policyStream } from '../../src/domain/policy/policy.events.js';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 18: time becomes ledger facts. A consent past its expiresAt gets a ConsentExpired event and
 * a consent.expired webhook; a version requiring re-consent that takes effect gets a
 * PolicyReconsentRequired event and a policy.reconsent_required webhook with the count; each once.
 */

let t: TestService;
let api: Client;
let tenantId: string;
let receiver: Receiver;

beforeAll(async () => {
  const { cert } = await testCertificate();
  t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { webhooks: { outbound: { ca: cert } } });
  const creds = await t.tenant('pro');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  receiver = await startReceiver();
  const hook = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['consent.expired', 'policy.reconsent_required'] });
  expect(hook.statusCode, hook.body).toBe(201);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const typesOf = async (stream: string) => (await t.service.ledger.readStream(stream)).map((e) => e.type);

describe('deadlines › a consent reaches its expiry', () => {
  it('appends ConsentExpired once, sends consent.expired, and the record reads expired everywhere', async () => {
    await api.post('/api/v1/purposes', { key: 'trial', name: 'Trial', legalBasis: 'consent', consentValidFor: 'PT1S' });
    const version = await api.post('/api/v1/policies', {
      policyType: 'custom',
      purpose: 'trial',
      version: '1.0.0',
      title: 'T',
      content: 'T',
    });
    const recorded = await api.post('/api/v1/consent', {
      policyVersionId: version.json().data.id,
      userReference: 'olga',
      consentGiven: true,
    });
    const { id, expiresAt, consentHash } = recorded.json().data as { id: string; expiresAt: string; consentHash: string };

    await receiver.waitFor((all) => all.some((r) => r.json.type === 'consent.expired' && r.json.data.id === id), 'consent.expired');
    const delivery = receiver.received.find((r) => r.json.type === 'consent.expired')!;
    expect(delivery.json.data).toMatchObject({
      id,
      subject_id: 'olga',
      purpose: 'trial',
      consent_hash: `sha256:${consentHash}`,
      expired_at: expiresAt,
    });
    const events = await t.service.ledger.readStream(consentStream(tenantId, id));
    expect(events.map((e) => e.type)).toEqual(['ConsentRecorded', 'ConsentExpired']);
    expect(Date.parse(events[1]!.recordedAt)).toBeGreaterThanOrEqual(Date.parse(expiresAt));

    // Steps run again (as after a restart) append nothing more.
    await t.service.deadlines.runOnce();
    await t.service.deadlines.runOnce();
    expect(await typesOf(consentStream(tenantId, id))).toEqual(['ConsentRecorded', 'ConsentExpired']);

    expect((await api.get(`/api/v1/consent/${id}`)).json().data.status).toBe('expired');
    const search = (await api.get('/api/v1/consent/search?status=expired&userReference=olga')).json();
    expect(search.data.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([[id, 'expired']]);
    const withdraw = await api.post(`/api/v1/consent/${id}/withdraw`);
    expect(withdraw.statusCode).toBe(409);
    expect(withdraw.json().error.code).toBe('CONSENT_NOT_WITHDRAWABLE');
    // The record still verifies: expiry is a new event, the hash stays.
    expect((await api.get(`/api/v1/consent/${id}/verify`)).json().data.valid).toBe(true);

    // Erased later: the stored consent.expired payload (sent, and sent again on request) loses her reference too.
    expect((await api.post('/api/v1/subjects/erase', { userReference: 'olga' })).statusCode).toBe(200);
    const stored = await sql<{ payload: string }>`
      SELECT payload FROM webhooks.deliveries WHERE tenant_id = ${tenantId}::uuid AND event_type = 'consent.expired'`.execute(
      t.service.store.db,
    );
    const ofOlga = stored.rows.filter((r) => r.payload.includes(id));
    expect(ofOlga).toHaveLength(1);
    expect(ofOlga[0]!.payload).not.toContain('olga');
    expect(JSON.parse(ofOlga[0]!.payload).data).toMatchObject({ id, subject_id: null, erased: true });
  });
});

describe('deadlines › a consent imported already past its expiry', () => {
  it('reads expired from its record on: no ConsentExpired, no consent.expired; its webhooks say when it expired, and that it was imported', async () => {
    const hook = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['consent.created', 'consent.withdrawn'] });
    expect(hook.statusCode, hook.body).toBe(201);
    await api.post('/api/v1/purposes', { key: 'legacy', name: 'Legacy list', legalBasis: 'consent', consentValidFor: 'P1M' });
    const version = await publishPolicy(api, { policyType: 'custom', purpose: 'legacy', effectiveDate: '2024-01-01T00:00:00Z' });
    const batch = await api.post('/api/v1/consent/batch', {
      consents: [
        { policyVersionId: version, userReference: 'petra', consentGiven: true, collectedAt: '2025-01-15T09:00:00Z' },
        {
          policyVersionId: version,
          userReference: 'quinn',
          consentGiven: true,
          collectedAt: '2025-01-15T09:00:00Z',
          withdrawnAt: '2025-01-20T00:00:00Z',
        },
      ],
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const [id, withdrawnId] = batch.json().data.consents.map((c: { id: string }) => c.id) as [string, string];
    // A withdrawal moved in with its record says so, as its record's consent.created does.
    const isWithdrawal = (r: (typeof receiver.received)[number]) => r.json.type === 'consent.withdrawn' && r.json.data.id === withdrawnId;
    await receiver.waitFor((all) => all.some(isWithdrawal), 'consent.withdrawn of the imported withdrawal');
    expect(receiver.received.find(isWithdrawal)!.json.data).toMatchObject({ withdrawn_at: '2025-01-20T00:00:00.000Z', imported: true });

    const isCreated = (r: (typeof receiver.received)[number]) => r.json.type === 'consent.created' && r.json.data.id === id;
    await receiver.waitFor((all) => all.some(isCreated), 'consent.created of the imported record');
    const created = receiver.received.find(isCreated)!;
    expect(created.json.data).toMatchObject({
      purpose: 'legacy',
      expires_at: '2025-02-15T09:00:00.000Z',
      collected_at: '2025-01-15T09:00:00.000Z',
      imported: true,
    });
    // Steps of the follower find nothing to mark: it never stood here.
    await t.service.deadlines.runOnce();
    await t.service.deadlines.runOnce();
    expect(await typesOf(consentStream(tenantId, id))).toEqual(['ConsentRecorded']);
    expect((await api.get(`/api/v1/consent/${id}`)).json().data.status).toBe('expired');
    const expired = (await api.get('/api/v1/consent/stats?purpose=legacy&status=expired')).json().data;
    const active = (await api.get('/api/v1/consent/stats?purpose=legacy&status=active')).json().data;
    expect([expired.totalConsents, active.totalConsents]).toEqual([1, 0]);
    const status = (await api.get('/api/v1/consent/user/petra/status?purpose=legacy')).json().data.policies[0];
    expect(status).toMatchObject({ status: 'expired', expiresAt: '2025-02-15T09:00:00.000Z' });
    // The ISO 27560 record still tells its whole history.
    const iso = (await api.get(`/api/v1/consent/${id}?format=iso27560`)).json();
    expect(JSON.stringify(iso)).toContain('dpv:ConsentExpired');
  });
});

describe('deadlines › a version requiring re-consent takes effect', () => {
  it('appends PolicyReconsentRequired once with the outdated count and sends policy.reconsent_required; a minor version is not announced', async () => {
    await api.post('/api/v1/purposes', { key: 'club', name: 'Club', legalBasis: 'consent' });
    const publish = async (version: string, extra: Record<string, unknown> = {}) => {
      const res = await api.post('/api/v1/policies', {
        policyType: 'custom',
        purpose: 'club',
        version,
        title: 'C',
        content: `C ${version}`,
        ...extra,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const v1 = await publish('1.0.0');
    for (const user of ['p-1', 'p-2', 'p-3'])
      await api.post('/api/v1/consent', { policyVersionId: v1, userReference: user, consentGiven: user !== 'p-3' });
    const minor = await publish('1.0.1', { requiresReconsent: false });
    const major = await publish('2.0.0', { effectiveDate: new Date(Date.now() + 1_500).toISOString() });

    await receiver.waitFor(
      (all) => all.some((r) => r.json.type === 'policy.reconsent_required' && r.json.data.id === major),
      'policy.reconsent_required',
    );
    const delivery = receiver.received.find((r) => r.json.type === 'policy.reconsent_required' && r.json.data.id === major)!;
    expect(delivery.json.data).toMatchObject({ id: major, purpose: 'club', version: '2.0.0', outdated_count: 3 });
    const events = await t.service.ledger.readStream(policyStream(tenantId, major));
    expect(events.map((e) => e.type)).toEqual(['PolicyVersionPublished', 'PolicyReconsentRequired']);
    // It took effect at its effectiveDate, not at publication.
    expect(Date.parse(events[1]!.recordedAt)).toBeGreaterThanOrEqual(Date.parse(delivery.json.data.effective_date as string));

    await t.service.deadlines.runOnce();
    expect(await typesOf(policyStream(tenantId, major))).toEqual(['PolicyVersionPublished', 'PolicyReconsentRequired']);
    expect(await typesOf(policyStream(tenantId, minor))).toEqual(['PolicyVersionPublished']);
    // The purpose's first version asks nobody again: it is not announced.
    expect(await typesOf(policyStream(tenantId, v1))).toEqual(['PolicyVersionPublished']);
    expect(receiver.received.filter((r) => r.json.type === 'policy.reconsent_required').map((r) => r.json.data.id)).toEqual([major]);
  });

  it('never announces a version published back-dated behind the one in force, nor a first version it precedes', async () => {
    await api.post('/api/v1/purposes', { key: 'guild', name: 'Guild', legalBasis: 'consent' });
    const publish = async (version: string, effectiveDate?: string) =>
      publishPolicy(api, { policyType: 'custom', purpose: 'guild', version, ...(effectiveDate ? { effectiveDate } : {}) });
    const first = await publish('1.0.0');
    await api.post('/api/v1/consent', { policyVersionId: first, userReference: 'g-1', consentGiven: true });
    // History published afterwards, with the dates it had: older than the version in force.
    const old = await publish('0.9.0', '2020-01-01T00:00:00Z');
    await t.service.deadlines.runOnce();
    expect(await typesOf(policyStream(tenantId, first))).toEqual(['PolicyVersionPublished']);
    expect(await typesOf(policyStream(tenantId, old))).toEqual(['PolicyVersionPublished']);

    // A real change is announced; history slotted in behind it afterwards is not.
    const second = await publish('2.0.0');
    await receiver.waitFor(
      (all) => all.some((r) => r.json.type === 'policy.reconsent_required' && r.json.data.id === second),
      'policy.reconsent_required of guild 2.0.0',
    );
    const between = await publish('1.5.0', '2021-01-01T00:00:00Z');
    await t.service.deadlines.runOnce();
    for (const id of [first, old, between]) expect(await typesOf(policyStream(tenantId, id))).toEqual(['PolicyVersionPublished']);
    const announced = receiver.received.filter((r) => r.json.type === 'policy.reconsent_required' && r.json.data.purpose === 'guild');
    expect(announced.map((r) => r.json.data.id)).toEqual([second]);
  });

  it('announces a change though a version that asks nobody again follows it (a typo fixed), scheduled at the same time', async () => {
    await api.post('/api/v1/purposes', { key: 'typo', name: 'Typo', legalBasis: 'consent' });
    const publish = (version: string, extra: Record<string, unknown> = {}) =>
      publishPolicy(api, { policyType: 'custom', purpose: 'typo', version, ...extra });
    const v1 = await publish('1.0.0');
    for (const user of ['t-1', 't-2']) await api.post('/api/v1/consent', { policyVersionId: v1, userReference: user, consentGiven: true });
    const at = new Date(Date.now() + 1_500).toISOString();
    const change = await publish('2.0.0', { effectiveDate: at });
    const fixed = await publish('2.0.1', { effectiveDate: at, requiresReconsent: false });
    await receiver.waitFor(
      (all) => all.some((r) => r.json.type === 'policy.reconsent_required' && r.json.data.id === change),
      'policy.reconsent_required of typo 2.0.0',
    );
    expect(
      receiver.received.find((r) => r.json.type === 'policy.reconsent_required' && r.json.data.id === change)!.json.data,
    ).toMatchObject({
      purpose: 'typo',
      version: '2.0.0',
      outdated_count: 2,
    });
    await t.service.deadlines.runOnce();
    expect(await typesOf(policyStream(tenantId, fixed))).toEqual(['PolicyVersionPublished']);
    expect(await typesOf(policyStream(tenantId, change))).toEqual(['PolicyVersionPublished', 'PolicyReconsentRequired']);
  });

  it('announces a policy type once the tenant defines it as a purpose, and not before', async () => {
    const isFor = (id: string) => (r: (typeof receiver.received)[number]) =>
      r.json.type === 'policy.reconsent_required' && r.json.data.id === id;
    const v1 = await publishPolicy(api, { policyType: 'terms_of_service', version: '1.0.0' });
    await api.post('/api/v1/consent', { policyVersionId: v1, userReference: 'tos-1', consentGiven: true });
    const v2 = await publishPolicy(api, { policyType: 'terms_of_service', version: '2.0.0' });
    // A type used without purposes keeps the spec's events: the follower's steps append nothing.
    await t.service.deadlines.runOnce();
    expect(await typesOf(policyStream(tenantId, v2))).toEqual(['PolicyVersionPublished']);
    // Defined as a purpose, its next material change is announced, with who must be asked again.
    expect((await api.post('/api/v1/purposes', { key: 'terms_of_service', name: 'Terms', legalBasis: 'contract' })).statusCode).toBe(201);
    await api.post('/api/v1/consent', { policyVersionId: v2, userReference: 'tos-2', consentGiven: true });
    const v3 = await publishPolicy(api, { policyType: 'terms_of_service', version: '3.0.0' });
    await receiver.waitFor((all) => all.some(isFor(v3)), 'policy.reconsent_required of terms_of_service 3.0.0');
    expect(receiver.received.find(isFor(v3))!.json.data).toMatchObject({ purpose: 'terms_of_service', outdated_count: 2 });
    // The version published before the purpose was defined stays unannounced: history is not replayed.
    await t.service.deadlines.runOnce();
    expect(await typesOf(policyStream(tenantId, v2))).toEqual(['PolicyVersionPublished']);
  });
});
