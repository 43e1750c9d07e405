import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../src/ledger/ledger.port.js';
import type { IssuedCredentials } from '../../src/tenants/tenants.service.js';
import { startReceiver, testCertificate, type Received, type Receiver } from '../support/https-receiver.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 3 end to end, in process: the production service with real HTTPS receivers on loopback
 * (a self-signed certificate given to the guarded client as its CA; the crash test trusts it
 * through NODE_EXTRA_CA_CERTS instead). Private networks are allowed here, as in development:
 * the receivers are on 127.0.0.1. Retry delays are scaled down by WEBHOOK_RETRY_SCALE.
 */

const SCALE = 0.0002;
/** The retry delays of docs/contract.md (1 min, 5 min, 30 min, 2 h) at the test scale, in ms. */
const SCALED_DELAYS_MS = [60, 300, 1800, 7200].map((s) => s * 1000 * SCALE);

/** The receiver's view of a delivery, checked with the off-the-shelf Standard Webhooks verifier and plain node:crypto. */
function expectSigned(r: Received, secret: string, webhookId: string): void {
  const key = secret.startsWith('whsec_') ? secret : new Uint8Array(Buffer.from(secret, 'utf8'));
  const verifier = typeof key === 'string' ? new Webhook(key) : new Webhook(key, { format: 'raw' });
  expect(verifier.verify(r.body, r.headers as Record<string, string>)).toEqual(JSON.parse(r.body));
  const expected = createHmac('sha256', secret).update(r.body).digest();
  const given = Buffer.from(String(r.headers['x-signature']), 'hex');
  expect(given.length).toBe(32);
  expect(timingSafeEqual(given, expected)).toBe(true);
  expect(r.headers['x-webhook-id']).toBe(webhookId);
  expect(r.headers['webhook-id']).toBe(r.json.id);
  expect(r.headers['x-timestamp']).toMatch(/^\d{10}$/);
  expect(r.headers['webhook-timestamp']).toBe(r.headers['x-timestamp']);
  expect(Math.abs(Number(r.headers['x-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
  expect(r.headers['content-type']).toBe('application/json');
}

/** A tampered body or another secret must fail both checks, or the checks above prove nothing. */
function expectTamperRefused(r: Received, secret: string): void {
  const tampered = r.body.replace(/"type":"/, '"type":"x');
  expect(() => new Webhook(secret).verify(tampered, r.headers as Record<string, string>)).toThrow();
  expect(() =>
    new Webhook(`whsec_${Buffer.from('another secret, 24 bytes!').toString('base64')}`).verify(r.body, r.headers as Record<string, string>),
  ).toThrow();
  expect(createHmac('sha256', secret).update(tampered).digest('hex')).not.toBe(r.headers['x-signature']);
}

describe('webhooks', () => {
  let t: TestService;
  let creds: IssuedCredentials;
  let api: Client;
  const receivers: Receiver[] = [];
  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const r = await startReceiver(...args);
    receivers.push(r);
    return r;
  };
  const createWebhook = async (c: Client, body: Record<string, unknown>) => {
    const res = await c.post('/api/v1/webhooks', body);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: string; secret: string };
  };
  const history = async (c: Client, webhookId: string, query = '') => {
    const res = await c.get(`/api/v1/webhooks/${webhookId}/deliveries${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      data: {
        deliveryId: string;
        eventId: string;
        event: string;
        attempt: number;
        statusCode: number | null;
        success: boolean;
        error?: string;
        responseTime: number;
        attemptedAt: string;
        deliveryStatus: string;
        nextAttemptAt: string | null;
      }[];
      pagination: Record<string, number>;
    };
  };

  /** A webhook to a receiver answering as `answer` does, and the first attempt of a policy.created delivery to it. */
  const firstAttempt = async (answer: Parameters<typeof startReceiver>[0]) => {
    const r = await receiver(answer);
    const w = await createWebhook(api, { url: r.url, events: ['policy.created'] });
    await publishPolicy(api);
    const [first] = await waitUntil(
      async () => {
        const rows = (await history(api, w.id)).data;
        return rows.length > 0 && rows;
      },
      { what: 'the first attempt' },
    );
    return { r, w, first: first! };
  };

  beforeAll(async () => {
    const { cert } = await testCertificate();
    t = await startTestService(
      { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: String(SCALE) },
      { webhooks: { outbound: { ca: cert } } },
    );
    creds = await t.tenant('pro');
    api = client(t.app, creds);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
  });

  describe('webhooks › when a webhook is registered › the secret is answered once and never again', () => {
    it.each(['/api/v1', '/v1'])(
      'create (%s) generates whsec_ + base64 of 24 bytes, tells the caller to save it; get and list never show it',
      async (prefix) => {
        const res = await api.post(`${prefix}/webhooks`, {
          url: 'https://hooks.example.com/in',
          events: ['consent.created', 'consent.withdrawn'],
          description: 'CRM',
        });
        expect(res.statusCode, res.body).toBe(201);
        const body = res.json();
        expect(body.data).toEqual({
          id: expect.any(String),
          url: 'https://hooks.example.com/in',
          events: ['consent.created', 'consent.withdrawn'],
          description: 'CRM',
          secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
          isActive: true,
          createdAt: expect.any(String),
        });
        expect(Buffer.from(body.data.secret.slice(6), 'base64')).toHaveLength(24);
        expect(body.meta.message).toMatch(/save/i);
        expect(body.meta.timestamp).toEqual(expect.any(String));

        const got = await api.get(`${prefix}/webhooks/${body.data.id}`);
        expect(got.statusCode).toBe(200);
        expect(got.json().data).toMatchObject({
          id: body.data.id,
          url: 'https://hooks.example.com/in',
          description: 'CRM',
          isActive: true,
          lastTriggered: null,
          createdAt: body.data.createdAt,
        });
        const list = await api.get(`${prefix}/webhooks?limit=100`);
        const item = list.json().data.find((w: { id: string }) => w.id === body.data.id);
        expect(item).toMatchObject({ lastTriggered: null, deliveryStats: { total: 0, successful: 0, failed: 0 } });
        expect(list.json().pagination).toMatchObject({ page: 1, limit: 100, pages: expect.any(Number), total: expect.any(Number) });
        expect(got.body + list.body).not.toContain(body.data.secret);
        expect(got.body + list.body).not.toContain('secret');
      },
    );

    it('a caller’s secret is kept as given; is_active is accepted as isActive', async () => {
      const res = await api.post('/v1/webhooks', {
        url: 'https://hooks.example.com/x',
        events: ['*'],
        secret: 'my-own-secret-0123456789',
        is_active: false,
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({ secret: 'my-own-secret-0123456789', isActive: false, events: ['*'] });
    });
  });

  describe('webhooks › a description of null is none, as GET answers it', () => {
    it('creates with null, and an update with null clears one', async () => {
      const created = await api.post('/api/v1/webhooks', { url: 'https://hooks.example.com/n', events: ['*'], description: null });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().data.description).toBeNull();
      const id = created.json().data.id as string;
      expect((await api.patch(`/api/v1/webhooks/${id}`, { description: 'billing' })).json().data.description).toBe('billing');
      // What GET answers can be sent back as it is.
      const got = (await api.get(`/api/v1/webhooks/${id}`)).json().data;
      const cleared = await api.put(`/api/v1/webhooks/${id}`, { isActive: got.isActive, events: got.events, description: null });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().data.description).toBeNull();
      expect((await api.get(`/api/v1/webhooks/${id}`)).json().data.description).toBeNull();
    });
  });

  describe('webhooks › when the request is bad › 400 and nothing is registered', () => {
    it.each([
      ['an http:// URL', { url: 'http://hooks.example.com/in', events: ['consent.created'] }, 'url'],
      ['a URL that is no URL', { url: 'hooks.example.com', events: ['consent.created'] }, 'url'],
      ['an ftp:// URL', { url: 'ftp://hooks.example.com/in', events: ['consent.created'] }, 'url'],
      // Nothing could ever be delivered there: refused now, not failed five times per event.
      ['port 0', { url: 'https://hooks.example.com:0/in', events: ['consent.created'] }, 'port'],
      ['a host label of 64 characters', { url: `https://${'a'.repeat(64)}.example.com/in`, events: ['consent.created'] }, 'DNS'],
      ['a host name of 254 characters', { url: `https://${`${'a'.repeat(62)}.`.repeat(4)}ab.com/in`, events: ['*'] }, 'DNS'],
      ['an empty host label', { url: 'https://hooks..example.com/in', events: ['consent.created'] }, 'DNS'],
      ['an unknown event name', { url: 'https://hooks.example.com/in', events: ['consent.deleted'] }, 'events'],
      ['no event', { url: 'https://hooks.example.com/in', events: [] }, 'events'],
      ['a secret of 15 characters', { url: 'https://hooks.example.com/in', events: ['*'], secret: '0123456789abcde' }, 'secret'],
      ['a secret of 257 characters', { url: 'https://hooks.example.com/in', events: ['*'], secret: 'a'.repeat(257) }, 'secret'],
      [
        'a whsec_ secret that is not base64',
        { url: 'https://hooks.example.com/in', events: ['*'], secret: 'whsec_not*base64*at*all!' },
        'secret',
      ],
      ['an unknown field', { url: 'https://hooks.example.com/in', events: ['*'], colour: 'red' }, ''],
    ])('%s', async (_name, body, field) => {
      const before = (await api.get('/api/v1/webhooks')).json().pagination.total;
      const res = await api.post('/api/v1/webhooks', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      if (field) expect(JSON.stringify(res.json().error.details)).toContain(field);
      expect((await api.get('/api/v1/webhooks')).json().pagination.total).toBe(before);
    });

    it('update: an unknown event name, an empty body and a bad id are 400; an unknown id is 404', async () => {
      const w = await createWebhook(api, { url: 'https://hooks.example.com/u', events: ['policy.created'] });
      expect((await api.patch(`/api/v1/webhooks/${w.id}`, { events: ['nope'] })).statusCode).toBe(400);
      expect((await api.put(`/api/v1/webhooks/${w.id}`, {})).statusCode).toBe(400);
      expect((await api.get('/api/v1/webhooks/not-a-uuid')).statusCode).toBe(400);
      const missing = await api.get('/api/v1/webhooks/00000000-0000-4000-8000-000000000000');
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error.code).toBe('NOT_FOUND');
    });
  });

  describe('webhooks › when a webhook is updated or deleted › the answer is the updated webhook, and a deleted one is gone', () => {
    it('PUT and PATCH change isActive (or is_active) and events; DELETE removes it from get and list', async () => {
      const w = await createWebhook(api, { url: 'https://hooks.example.com/d', events: ['policy.created'] });
      const put = await api.put(`/api/v1/webhooks/${w.id}`, { isActive: false, events: ['policy.updated', 'policy.deleted'] });
      expect(put.statusCode, put.body).toBe(200);
      expect(put.json().data).toMatchObject({ id: w.id, isActive: false, events: ['policy.updated', 'policy.deleted'] });
      const patch = await api.patch(`/v1/webhooks/${w.id}`, { is_active: true });
      expect(patch.json().data).toMatchObject({ isActive: true, events: ['policy.updated', 'policy.deleted'] });
      // Both spellings at once must agree; when they do not, nothing changes.
      const torn = await api.patch(`/v1/webhooks/${w.id}`, { isActive: false, is_active: true });
      expect(torn.statusCode).toBe(400);
      expect(torn.json().error.details.errors).toEqual([
        { field: 'is_active', message: 'is another spelling of isActive, with another value' },
      ]);
      expect((await api.get(`/api/v1/webhooks/${w.id}`)).json().data.isActive).toBe(true);
      expect(
        (await api.post('/v1/webhooks', { url: 'https://hooks.example.com/t', events: ['*'], isActive: true, is_active: false }))
          .statusCode,
      ).toBe(400);
      expect(patch.body).not.toContain(w.secret);
      const del = await api.delete(`/api/v1/webhooks/${w.id}`);
      expect(del.statusCode).toBe(200);
      expect(del.json().data.message).toEqual(expect.any(String));
      expect((await api.get(`/api/v1/webhooks/${w.id}`)).statusCode).toBe(404);
      expect((await api.patch(`/api/v1/webhooks/${w.id}`, { isActive: true })).statusCode).toBe(404);
      expect((await api.delete(`/api/v1/webhooks/${w.id}`)).statusCode).toBe(404);
      const list = await api.get('/api/v1/webhooks?limit=100');
      expect(list.json().data.map((x: { id: string }) => x.id)).not.toContain(w.id);
    });
  });

  describe('webhooks › when the ledger records events › every subscriber receives the contract’s payload, signed', () => {
    it('policy, consent, batch and withdrawal events, each named as subscribed, with the ledger event’s id', async () => {
      const tenant = await t.tenant('pro');
      const c = client(t.app, tenant);
      const read = (prefix: string, id: string) => t.service.ledger.readStream(`${prefix}-${tenant.tenantId}-${id}`);
      // Recorded before any webhook exists: nobody receives it.
      const early = await publishPolicy(c, { policyType: 'cookie_policy', version: '0.0.1' });

      const all = await receiver();
      const revoked = await receiver();
      const updated = await receiver();
      const batchOnly = await receiver();
      const wAll = await createWebhook(c, { url: all.url, events: ['*'] });
      const wRevoked = await createWebhook(c, {
        url: revoked.url,
        events: ['consent.revoked'],
        secret: 'caller secret – with spaces and ü 123',
      });
      const wUpdated = await createWebhook(c, { url: updated.url, events: ['consent.updated', 'policy.created'] });
      const wBatch = await createWebhook(c, { url: batchOnly.url, events: ['consent.batch_created'] });

      const policyId = await publishPolicy(c, {
        policyType: 'privacy_policy',
        version: '2.0.0',
        title: 'Privacy',
        content: 'We keep it safe.',
      });
      const single = await c.post('/api/v1/consent', {
        policyVersionId: policyId,
        userReference: 'user-1',
        consentGiven: true,
        ipAddress: '203.0.113.7',
        userAgent: 'test-agent',
        metadata: { email: 'u1@example.com', source: 'signup-form', campaign: 'spring' },
      });
      expect(single.statusCode, single.body).toBe(201);
      const consentId = single.json().data.id as string;
      const batch = await c.post('/api/v1/consent/batch', {
        consents: [
          { policyVersionId: policyId, userReference: 'user-2', consentGiven: true, ipAddress: '198.51.100.2' },
          { policyVersionId: policyId, userReference: 'user-3', consentGiven: false, ipAddress: '198.51.100.3', metadata: { email: 42 } },
        ],
      });
      expect(batch.statusCode, batch.body).toBe(201);
      const batchIds = (batch.json().data.consents as { id: string }[]).map((x) => x.id);
      const withdraw = await c.post(`/api/v1/consent/${consentId}/withdraw`, { reason: 'changed my mind' });
      expect(withdraw.statusCode, withdraw.body).toBe(200);
      expect((await c.patch(`/api/v1/policies/${policyId}`, { isActive: false })).statusCode).toBe(200);
      expect((await c.patch(`/api/v1/policies/${policyId}`, { isActive: true })).statusCode).toBe(200);
      expect((await c.delete(`/api/v1/policies/${policyId}`)).statusCode).toBe(200);

      const policyEvents = await read('policy', policyId);
      const consentEvents = await read('consent', consentId);
      const recorded = consentEvents[0]!;
      const batchRecorded = (await read('consent', batchIds[0]!))[0]!;
      const batchId = batchRecorded.data.batchId as string;
      const batchEvent = (await read('consentbatch', batchId))[0]!;
      const itemEvents = await Promise.all(batchIds.map(async (id) => (await read('consent', id))[0]!));

      // 1 policy.created + 3 consent.created + 1 batch + 1 withdrawal + 2 policy.updated + 1 policy.deleted
      await all.waitFor((r) => new Set(r.map((x) => x.json.id)).size >= 9, 'nine events at the * receiver');
      await revoked.waitFor((r) => r.length >= 1, 'the withdrawal at the consent.revoked receiver');
      await updated.waitFor((r) => r.length >= 2, 'policy.created and the withdrawal at the consent.updated receiver');
      await batchOnly.waitFor((r) => r.length >= 1, 'the batch at the batch receiver');

      const byId = new Map(all.received.map((r) => [r.json.id as string, r]));
      const policyData = (isActive: boolean) => ({
        id: policyId,
        policy_type: 'privacy_policy',
        version: '2.0.0',
        title: 'Privacy',
        content_hash: policyEvents[0]!.data.contentHash,
        effective_date: policyEvents[0]!.data.effectiveDate,
        is_active: isActive,
      });
      const payload = (e: RecordedEvent, type: string, data: unknown) => ({ id: e.id, type, created_at: e.recordedAt, data });
      // The ledger holds personal fields sealed (docs/erasure.md): the API answers them opened.
      const opened = new Map<string, Record<string, never>>();
      for (const id of batchIds) opened.set(id, (await c.get(`/api/v1/consent/${id}`)).json().data);
      const consentCreated = (e: RecordedEvent) => {
        const d = { ...(e.data as Record<string, never>), ...opened.get(e.data.consentId as string)! };
        const meta = (d.metadata ?? {}) as Record<string, unknown>;
        return {
          id: d.consentId,
          subject_id: d.userReference,
          subject_email: typeof meta.email === 'string' ? meta.email : null,
          policy_id: policyId,
          consent_type: 'privacy_policy',
          granted: d.consentGiven,
          consent_hash: `sha256:${d.consentHash}`,
          metadata: {
            ...meta,
            ip_address: d.ipAddress,
            user_agent: d.userAgent,
            source: typeof meta.source === 'string' ? meta.source : null,
          },
          recorded_at: d.timestamp,
        };
      };
      const expected = [
        payload(policyEvents[0]!, 'policy.created', policyData(true)),
        payload(recorded, 'consent.created', {
          id: consentId,
          subject_id: 'user-1',
          subject_email: 'u1@example.com',
          policy_id: policyId,
          consent_type: 'privacy_policy',
          granted: true,
          consent_hash: `sha256:${recorded.data.consentHash}`,
          metadata: {
            email: 'u1@example.com',
            source: 'signup-form',
            campaign: 'spring',
            ip_address: '203.0.113.7',
            user_agent: 'test-agent',
          },
          recorded_at: recorded.data.timestamp,
        }),
        ...itemEvents.map((e) => payload(e, 'consent.created', consentCreated(e))),
        payload(batchEvent, 'consent.batch_created', { batchId, count: 2, consentIds: batchIds }),
        payload(consentEvents[1]!, 'consent.withdrawn', {
          id: consentId,
          subject_id: 'user-1',
          policy_id: policyId,
          consent_hash: `sha256:${recorded.data.consentHash}`,
          withdrawn_at: consentEvents[1]!.data.withdrawnAt,
          reason: 'changed my mind',
        }),
        payload(policyEvents[1]!, 'policy.updated', policyData(false)),
        payload(policyEvents[2]!, 'policy.updated', policyData(true)),
        payload(policyEvents[3]!, 'policy.deleted', policyData(false)),
      ];
      expect(expected.map((e) => e.id).sort()).toEqual([...byId.keys()].sort());
      for (const e of expected) expect(byId.get(e.id)!.json, e.type).toEqual(e);
      // user-3's metadata.email is not a string: subject_email is null, source null.
      expect(byId.get(itemEvents[1]!.id)!.json.data).toMatchObject({
        subject_email: null,
        granted: false,
        metadata: { email: 42, source: null },
      });
      expect(all.received.map((r) => r.json.id)).not.toContain((await read('policy', early))[0]!.id);

      for (const r of all.received) expectSigned(r, wAll.secret, wAll.id);
      expectTamperRefused(all.received[0]!, wAll.secret);
      // A withdrawal reaches each subscriber once, typed with the name it subscribed with.
      expect(revoked.received.map((r) => r.json.type)).toEqual(['consent.revoked']);
      expect(revoked.received[0]!.json).toEqual({ ...expected[5], type: 'consent.revoked' });
      for (const r of revoked.received) expectSigned(r, 'caller secret – with spaces and ü 123', wRevoked.id);
      expect(updated.received.map((r) => r.json.type).sort()).toEqual(['consent.updated', 'policy.created']);
      for (const r of updated.received) expectSigned(r, wUpdated.secret, wUpdated.id);
      expect(batchOnly.received.map((r) => r.json)).toEqual([expected[4]]);
      for (const r of batchOnly.received) expectSigned(r, wBatch.secret, wBatch.id);

      // Every delivery is a history row, and the list counts them.
      await waitUntil(async () => (await history(c, wAll.id)).pagination.total === 9, { what: 'nine history rows' });
      const rows = (await history(c, wAll.id, '?limit=100')).data;
      expect(
        rows.every((r) => r.success && r.statusCode === 200 && r.attempt === 1 && Number.isInteger(r.responseTime) && r.responseTime >= 0),
      ).toBe(true);
      expect(rows.map((r) => r.eventId).sort()).toEqual([...byId.keys()].sort());
      const listed = (await c.get('/api/v1/webhooks')).json().data.find((w: { id: string }) => w.id === wAll.id);
      expect(listed.deliveryStats).toEqual({ total: 9, successful: 9, failed: 0 });
      expect(Date.parse(listed.lastTriggered)).toBe(Math.max(...rows.map((r) => Date.parse(r.attemptedAt))));
    });

    it('a webhook deactivated and re-activated receives the events recorded after re-activation only', async () => {
      const tenant = await t.tenant('pro');
      const c = client(t.app, tenant);
      const r = await receiver();
      const w = await createWebhook(c, { url: r.url, events: ['policy.created'] });
      const first = await publishPolicy(c);
      await r.waitFor((x) => x.length === 1, 'the first policy');
      expect((await c.patch(`/api/v1/webhooks/${w.id}`, { isActive: false })).json().data.isActive).toBe(false);
      const whileInactive = await publishPolicy(c);
      expect((await c.patch(`/api/v1/webhooks/${w.id}`, { isActive: true })).json().data.isActive).toBe(true);
      const after = await publishPolicy(c);
      await r.waitFor((x) => x.some((d) => d.json.data.id === after), 'the policy published after re-activation');
      // The subscription writes rows in ledger order: the later event's row exists, so the one
      // recorded while inactive would too. The attempt is recorded once the receiver has answered.
      const eventId = async (id: string) => (await t.service.ledger.readStream(`policy-${tenant.tenantId}-${id}`))[0]!.id;
      const afterId = await eventId(after);
      const ids = await waitUntil(
        async () => {
          const seen = (await history(c, w.id)).data.map((d) => d.eventId);
          return seen.includes(afterId) && seen;
        },
        { what: 'the attempt of the policy published after re-activation' },
      );
      expect(ids).toContain(await eventId(first));
      expect(ids).toContain(await eventId(after));
      expect(ids).not.toContain(await eventId(whileInactive));
      expect(r.received.map((d) => d.json.data.id)).not.toContain(whileInactive);
    });
  });

  describe('webhooks › when the receiver fails › retries follow the scaled schedule and stop after five', () => {
    it('answers 500, 500, then 200: three attempts of one event, spaced by the first two delays, recorded', async () => {
      const r = await receiver((_d, n) => (n <= 2 ? 500 : 200));
      const w = await createWebhook(api, { url: r.url, events: ['policy.created'] });
      await publishPolicy(api);
      await waitUntil(async () => (await history(api, w.id)).pagination.total === 3, { what: 'three attempts' });
      const rows = (await history(api, w.id)).data.reverse();
      expect(rows.map((x) => [x.attempt, x.statusCode, x.success])).toEqual([
        [1, 500, false],
        [2, 500, false],
        [3, 200, true],
      ]);
      expect(rows[0]!.error).toMatch(/500/);
      expect(rows[2]!.error).toBeUndefined();
      // Every attempt says where its delivery stands now: delivered, nothing more to come.
      expect(rows.map((x) => [x.deliveryStatus, x.nextAttemptAt])).toEqual(Array(3).fill(['delivered', null]));
      expect(new Set(r.received.map((d) => d.json.id)).size).toBe(1);
      expect(new Set(r.received.map((d) => d.body)).size).toBe(1);
      for (const d of r.received) expectSigned(d, w.secret, w.id);
      const gaps = r.received.slice(1).map((d, i) => d.at - r.received[i]!.at);
      gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual(SCALED_DELAYS_MS[i]! - 5));
    });

    it(
      'always 503: five attempts at +0, +1 min, +5 min, +30 min, +2 h (scaled), then failed; history pages without `pages`',
      { timeout: 30_000 },
      async () => {
        const r = await receiver(() => 503);
        const w = await createWebhook(api, { url: r.url, events: ['policy.created'] });
        await publishPolicy(api);
        await waitUntil(async () => (await history(api, w.id)).pagination.total === 5, { what: 'five attempts', timeoutMs: 20_000 });
        const delivery = await t.service.store.db
          .withTables<{ 'webhooks.deliveries': { webhook_id: string; status: string; attempts: number; next_attempt_at: Date | null } }>()
          .selectFrom('webhooks.deliveries')
          .select(['status', 'attempts', 'next_attempt_at'])
          .where('webhook_id', '=', w.id)
          .executeTakeFirstOrThrow();
        expect(delivery).toEqual({ status: 'failed', attempts: 5, next_attempt_at: null });
        expect(r.received).toHaveLength(5);
        expect(new Set(r.received.map((d) => d.json.id)).size).toBe(1);
        const gaps = r.received.slice(1).map((d, i) => d.at - r.received[i]!.at);
        gaps.forEach((gap, i) => {
          expect(gap, `gap before attempt ${i + 2}`).toBeGreaterThanOrEqual(SCALED_DELAYS_MS[i]! - 5);
          expect(gap, `gap before attempt ${i + 2}`).toBeLessThan(SCALED_DELAYS_MS[i]! + 1500);
        });

        const page1 = await history(api, w.id, '?limit=2');
        expect(page1.pagination).toEqual({ page: 1, limit: 2, total: 5 });
        expect(page1.data.map((x) => x.attempt)).toEqual([5, 4]);
        expect((await history(api, w.id, '?limit=2&page=3')).data.map((x) => x.attempt)).toEqual([1]);
        expect(page1.data.every((x) => x.statusCode === 503 && !x.success && /503/.test(x.error ?? ''))).toBe(true);
        // The delivery is marked failed, on every one of its attempts: no more come.
        expect((await history(api, w.id)).data.map((x) => [x.deliveryStatus, x.nextAttemptAt])).toEqual(Array(5).fill(['failed', null]));
        expect((await api.get(`/api/v1/webhooks/${w.id}/deliveries?limit=101`)).statusCode).toBe(400);
        expect((await api.get(`/api/v1/webhooks/${w.id}/deliveries?page=0`)).statusCode).toBe(400);
        const got = (await api.get(`/api/v1/webhooks/${w.id}`)).json().data;
        expect(got.deliveryStats).toEqual({ total: 5, successful: 0, failed: 5 });
        expect(got.lastTriggered).toEqual(expect.any(String));
      },
    );
  });

  describe('webhooks › the history says where each delivery stands', () => {
    it('pending with its next attempt while retries are due; cancelled once the webhook is deactivated', async () => {
      const { w, first } = await firstAttempt(() => 503);
      // Four retries over about 9 s (scaled) are still to come.
      expect(first).toMatchObject({ deliveryStatus: 'pending', nextAttemptAt: expect.any(String) });
      expect((await api.patch(`/api/v1/webhooks/${w.id}`, { isActive: false })).statusCode).toBe(200);
      const after = (await history(api, w.id)).data;
      expect(after.map((x) => [x.deliveryStatus, x.nextAttemptAt])).toEqual(Array(after.length).fill(['cancelled', null]));
    });

    it('delivered when the receiver took it while the webhook was being deactivated', async () => {
      let id = '';
      // The receiver answers 200 only once the deactivation has cancelled what was pending.
      const r = await receiver(async () => {
        expect((await api.patch(`/api/v1/webhooks/${id}`, { isActive: false })).statusCode).toBe(200);
        return 200;
      });
      id = (await createWebhook(api, { url: r.url, events: ['policy.created'] })).id;
      await publishPolicy(api);
      const [attempt] = await waitUntil(
        async () => {
          const rows = (await history(api, id)).data;
          return rows.length > 0 && rows;
        },
        { what: 'the attempt' },
      );
      expect(attempt).toMatchObject({ success: true, statusCode: 200, deliveryStatus: 'delivered', nextAttemptAt: null });
      expect((await api.get(`/api/v1/webhooks/${id}`)).json().data.isActive).toBe(false);
    });
  });

  describe('webhooks › a delivery the receiver missed › is sent again on request', () => {
    it('an inactive webhook refuses it; once active, the same event goes out again and the history says delivered', async () => {
      let up = false;
      const { r, w, first } = await firstAttempt(() => (up ? 200 : 503));
      const deliveryId = first.deliveryId;
      const redeliver = (webhookId = w.id, id = deliveryId) => api.post(`/api/v1/webhooks/${webhookId}/deliveries/${id}/redeliver`);
      // Pending (its retries due): nothing to send again yet.
      const pending = await redeliver();
      expect(pending.statusCode, pending.body).toBe(409);
      expect(pending.json().error.code).toBe('DELIVERY_PENDING');
      // Deactivated: its delivery is cancelled, and an inactive webhook sends nothing.
      expect((await api.patch(`/api/v1/webhooks/${w.id}`, { isActive: false })).statusCode).toBe(200);
      expect((await redeliver()).json().error.code).toBe('WEBHOOK_INACTIVE');
      expect((await api.patch(`/api/v1/webhooks/${w.id}`, { isActive: true })).statusCode).toBe(200);
      // Sent again at once: the subscription, reaching the deactivation later, leaves it pending
      // (src/webhooks/subscription.int.spec.ts drives that order).
      const other = await createWebhook(api, { url: r.url, events: ['consent.created'] });
      expect((await redeliver(other.id)).statusCode).toBe(404);
      expect((await redeliver(w.id, '3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f')).statusCode).toBe(404);

      up = true;
      const sent = await redeliver();
      expect(sent.statusCode, sent.body).toBe(202);
      expect(sent.json().data).toMatchObject({ deliveryId, eventId: first.eventId, event: 'policy.created', deliveryStatus: 'pending' });
      // Recorded once the receiver has answered: the history is what to wait on.
      const rows = await waitUntil(
        async () => {
          const data = (await history(api, w.id)).data;
          return data[0]?.success === true && data;
        },
        { what: 'the delivery sent again, recorded' },
      );
      expect(new Set(r.received.map((d) => d.json.id))).toEqual(new Set([first.eventId]));
      expect(rows[0]).toMatchObject({ success: true, statusCode: 200, deliveryStatus: 'delivered', eventId: first.eventId });
      expect(rows[0]!.attempt).toBe(rows.length);
      // Another key scope may not: sending again is the tenant's configuration.
      const reader = client(t.app, await t.service.tenants.createKey(creds.tenantId, { scope: 'read' }));
      expect((await reader.post(`/api/v1/webhooks/${w.id}/deliveries/${deliveryId}/redeliver`)).statusCode).toBe(403);
    });
  });

  describe('webhooks › when the test route is called › a signed webhook.test is sent and recorded', () => {
    it('answers delivered with the status and time, and the history holds it', async () => {
      const r = await receiver();
      const w = await createWebhook(api, { url: r.url, events: ['consent.created'], isActive: false });
      const res = await api.post(`/api/v1/webhooks/${w.id}/test`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toEqual({ delivered: true, statusCode: 200, responseTime: expect.any(Number), message: expect.any(String) });
      expect(r.received).toHaveLength(1);
      expect(r.received[0]!.json).toMatchObject({ type: 'webhook.test', id: expect.any(String), created_at: expect.any(String) });
      expectSigned(r.received[0]!, w.secret, w.id);
      const rows = (await history(api, w.id)).data;
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ event: 'webhook.test', eventId: r.received[0]!.json.id, success: true, statusCode: 200, attempt: 1 });
    });

    it('a receiver answering 500 is not delivered, recorded as a failure, and not retried', async () => {
      const r = await receiver(() => 500);
      const w = await createWebhook(api, { url: r.url, events: ['consent.created'] });
      const res = await api.post(`/v1/webhooks/${w.id}/test`);
      expect(res.json().data).toMatchObject({ delivered: false, statusCode: 500 });
      const rows = (await history(api, w.id)).data;
      expect(rows).toMatchObject([{ event: 'webhook.test', success: false, statusCode: 500 }]);
      expect(r.received).toHaveLength(1);
    });

    it('another tenant’s webhook id answers 404 on every route', async () => {
      const w = await createWebhook(api, { url: 'https://hooks.example.com/mine', events: ['*'] });
      const other = client(t.app, await t.tenant('pro'));
      for (const [method, url] of [
        ['GET', `/api/v1/webhooks/${w.id}`],
        ['PUT', `/api/v1/webhooks/${w.id}`],
        ['PATCH', `/v1/webhooks/${w.id}`],
        ['DELETE', `/api/v1/webhooks/${w.id}`],
        ['GET', `/api/v1/webhooks/${w.id}/deliveries`],
        ['POST', `/api/v1/webhooks/${w.id}/test`],
      ] as const) {
        const res = await other.inject({
          method,
          url,
          ...(method === 'PUT' || method === 'PATCH' ? { payload: { isActive: false } } : {}),
        });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
      expect((await other.get('/api/v1/webhooks')).json().data.map((x: { id: string }) => x.id)).not.toContain(w.id);
      expect((await api.get(`/api/v1/webhooks/${w.id}`)).json().data.isActive).toBe(true);
    });
  });
});
