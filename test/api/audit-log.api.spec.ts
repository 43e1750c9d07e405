import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventHash } from '../../src/ledger/event-hash.js';
import { verifyProof } from '../../src/transparency/audit.js';
import { eventLeafHash, verifyInclusion } from '../../src/transparency/merkle.js';
import { openNote, parseCheckpoint, parseVerifierKey } from '../../src/transparency/note.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 19, the operator audit trail: every change to a tenant's configuration is an event in its
 * log, naming who made it; `GET /api/v1/audit-log` pages through them with filters and as CSV, and
 * each entry proves like any event (hash, chain, inclusion in a signed checkpoint).
 */

const ADMIN_TOKEN = 'audit-log-admin-token-0123456789';
const WEBHOOK_URL = 'https://127.0.0.1:9/hooks/T000/B000/s3cret-path-token?token=s3cret-query-token';

interface Entry {
  id: string;
  action: string;
  at: string;
  actor: { type: string; id: string | null } | null;
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
  stream: string;
  revision: number;
  eventHash: string;
}

let t: TestService;
let tenantId: string;
let admin: Client;
let adminKey: string;
let auditor: Client;
let auditorKey: string;
let writer: Client;
const operator = (method: 'POST' | 'PATCH', url: string, payload: object) =>
  t.app.inject({ method, url: `/admin/v1${url}`, payload, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

const entries = async (query = '', c: Client = auditor) => {
  const res = await c.get(`/api/v1/audit-log${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Entry[]; pagination: { total: number } };
};

beforeAll(async () => {
  t = await startTestService({ ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', PUBLIC_BASE_URL: 'https://ledger.example.com' });
  const creds = await t.tenant('pro');
  tenantId = creds.tenantId;
  adminKey = creds.apiKey;
  admin = client(t.app, creds);
  const issued = (await admin.post('/api/v1/keys', { scope: 'read', name: 'auditor' })).json().data;
  auditorKey = issued.apiKey;
  auditor = client(t.app, issued);
  writer = client(t.app, (await admin.post('/api/v1/keys', { scope: 'write', name: 'backend' })).json().data);
}, 60_000);
afterAll(() => t?.close());

describe('audit log › every configuration change, who made it', () => {
  let webhookSecret: string;

  beforeAll(async () => {
    // Through the tenant's admin key: a webhook's life, a purpose, a policy version, an erasure, a revoked key.
    const hook = await admin.post('/api/v1/webhooks', { url: WEBHOOK_URL, events: ['consent.withdrawn'] });
    expect(hook.statusCode, hook.body).toBe(201);
    const webhookId = hook.json().data.id as string;
    webhookSecret = hook.json().data.secret as string;
    expect((await admin.patch(`/api/v1/webhooks/${webhookId}`, { isActive: false })).statusCode).toBe(200);
    expect((await admin.delete(`/api/v1/webhooks/${webhookId}`)).statusCode).toBe(200);
    const purpose = { key: 'newsletter', name: 'Newsletter', description: 'Monthly news', legalBasis: 'consent' };
    expect((await admin.post('/api/v1/purposes', purpose)).statusCode).toBe(201);
    const policyVersionId = await publishPolicy(admin, { purpose: 'newsletter' });
    expect((await writer.post('/api/v1/consent', { policyVersionId, userReference: 'erase-me', consentGiven: true })).statusCode).toBe(201);
    expect((await admin.post('/api/v1/subjects/erase-me/erase')).statusCode).toBe(200);
    const spare = (await admin.post('/api/v1/keys', { scope: 'write', name: 'spare' })).json().data.apiKey as string;
    expect((await admin.delete(`/api/v1/keys/${spare}`)).statusCode).toBe(200);
    // Through the operator's admin API: a plan change and a key.
    expect((await operator('PATCH', `/tenants/${tenantId}`, { plan: 'enterprise' })).statusCode).toBe(200);
    expect((await operator('POST', `/tenants/${tenantId}/keys`, { scope: 'read', name: 'external auditor' })).statusCode).toBe(201);
  }, 60_000);

  it('lists them newest first, each with its actor, target and details', async () => {
    const { data, pagination } = await entries('?limit=100');
    const actions = data.map((e) => e.action).reverse();
    expect(actions).toEqual([
      'tenant.created',
      'key.issued',
      'tenant.changed',
      'key.issued',
      'key.issued',
      'webhook.created',
      'webhook.changed',
      'webhook.deleted',
      'purpose.defined',
      'policy.published',
      'subject.erased',
      'key.issued',
      'key.revoked',
      'tenant.changed',
      'key.issued',
    ]);
    expect(pagination.total).toBe(actions.length);
    const [newest] = data;
    expect(newest).toMatchObject({
      action: 'key.issued',
      actor: { type: 'operator', id: null },
      target: { type: 'key' },
      details: { scope: 'read', name: 'external auditor', expiresAt: null },
    });
    const byAction = (a: string) => data.filter((e) => e.action === a);
    expect(byAction('tenant.changed')[0]).toMatchObject({ actor: { type: 'operator' }, details: { plan: 'enterprise' } });
    expect(byAction('key.revoked')[0]).toMatchObject({ actor: { type: 'key', id: adminKey } });
    expect(byAction('webhook.created')[0]).toMatchObject({
      actor: { type: 'key', id: adminKey },
      target: { type: 'webhook' },
      details: { urlOrigin: 'https://127.0.0.1:9', events: ['consent.withdrawn'], isActive: true },
    });
    expect(byAction('webhook.changed')[0]!.details).toEqual({ isActive: false });
    expect(byAction('purpose.defined')[0]).toMatchObject({
      target: { type: 'purpose', id: 'newsletter' },
      details: { legalBasis: 'consent' },
    });
    expect(byAction('policy.published')[0]!.details).toMatchObject({ purpose: 'newsletter', requiresReconsent: true });
    expect(byAction('subject.erased')[0]).toMatchObject({ target: { type: 'subject' }, details: { records: 1 } });
    // Never a secret, a webhook's token or a user reference.
    const body = (await auditor.get('/api/v1/audit-log?limit=100')).body;
    for (const secret of [webhookSecret, 's3cret-path-token', 's3cret-query-token', 'erase-me', 'cs_']) expect(body).not.toContain(secret);
  });

  it('filters by action, actor and time, and pages', async () => {
    expect((await entries('?action=key.issued')).data.map((e) => e.action)).toEqual(Array(5).fill('key.issued'));
    const byOperator = (await entries('?actor=operator')).data;
    expect(byOperator.map((e) => e.action)).toEqual(['key.issued', 'tenant.changed']);
    const byKey = (await entries(`?actor=${adminKey}&limit=100`)).data;
    expect(byKey.length).toBe(10);
    expect(byKey.every((e) => e.actor?.id === adminKey)).toBe(true);
    const all = (await entries('?limit=100')).data;
    const middle = all[5]!;
    const since = (await entries(`?from=${encodeURIComponent(middle.at)}&limit=100`)).data;
    expect(since.every((e) => e.at >= middle.at)).toBe(true);
    expect(since.map((e) => e.id)).toContain(middle.id);
    const until = (await entries(`?to=${encodeURIComponent(middle.at)}&limit=100`)).data;
    expect(until.every((e) => e.at <= middle.at)).toBe(true);
    expect((await entries('?from=2000-01-01&to=2000-01-02')).data).toEqual([]);
    const page2 = await entries('?limit=4&page=2');
    expect(page2.data.map((e) => e.id)).toEqual(all.slice(4, 8).map((e) => e.id));
  });

  it('refuses a filter it does not know with 400, and a write key with 403', async () => {
    for (const q of ['?action=key.stolen', '?from=yesterday', '?actor=', '?colour=red']) {
      const res = await auditor.get(`/api/v1/audit-log${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const res = await writer.get('/api/v1/audit-log');
    expect(res.statusCode).toBe(403);
    expect(res.json().error.details).toMatchObject({ requiredScopes: ['admin', 'read'], keyScope: 'write' });
  });

  it('exports the whole log as CSV, oldest first', async () => {
    const res = await auditor.get('/api/v1/audit-log?format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,action,actorType,actorId,targetType,targetId,details,eventHash,stream,revision');
    expect(lines).toHaveLength(16);
    expect(lines[1]).toContain('"tenant.created"');
    expect(lines[15]).toContain('"operator"');
    const filtered = await auditor.get('/api/v1/audit-log?action=key.revoked', { accept: 'text/csv' });
    expect(filtered.body.trim().split('\r\n')).toHaveLength(2);
  });

  it('proves each entry: its event hashes to eventHash, chains to the one before, and is in a signed checkpoint', async () => {
    const keys = (await t.app.inject({ method: 'GET', url: '/.well-known/consent-ledger/keys' })).json().keys as { vkey: string }[];
    const verifier = parseVerifierKey(keys[0]!.vkey);
    const all = (await entries('?limit=100')).data;
    const revoked = all.find((e) => e.action === 'key.revoked')!;
    const issued = all.find((e) => e.action === 'key.issued' && e.target.id === revoked.target.id)!;
    const proofs = [];
    for (const entry of [issued, revoked]) {
      const res = await waitUntil(
        async () => {
          const r = await auditor.get(`/api/v1/audit-log/${entry.id}/proof`);
          return r.statusCode === 200 ? r : undefined;
        },
        { what: 'the proof' },
      );
      const proof = res.json().data;
      expect(proof.event.id).toBe(entry.id);
      expect(eventHash(proof.event)).toBe(entry.eventHash);
      expect(proof.eventHash).toBe(entry.eventHash);
      const cp = parseCheckpoint(openNote(proof.checkpoint, verifier));
      expect(cp.origin).toBe(`ledger.example.com/ledger/${tenantId}`);
      expect(
        verifyInclusion(
          proof.leafIndex,
          proof.treeSize,
          eventLeafHash(proof.eventHash),
          proof.inclusionPath.map((h: string) => Buffer.from(h, 'hex')),
          cp.rootHash,
        ),
      ).toBe(true);
      // What `npx consent-ledger audit prove` checks offline.
      expect(verifyProof(res.json(), [verifier])).toMatchObject({ valid: true, consentId: null, eventHash: entry.eventHash });
      proofs.push(proof);
    }
    // The revocation names the issue as its predecessor in the key's stream.
    expect(proofs[1].event.stream).toBe(`apikey-${tenantId}-${revoked.target.id}`);
    expect(proofs[1].event.prevHash).toBe(proofs[0].eventHash);
    expect((await auditor.get('/api/v1/audit-log/00000000-0000-4000-8000-000000000000/proof')).statusCode).toBe(404);
  });
});

describe('audit log › a key that expires', () => {
  it('is recorded as expired by the service within seconds of its expiry', async () => {
    const expiresAt = new Date(Date.now() + 1_500).toISOString();
    const key = (await admin.post('/api/v1/keys', { scope: 'read', expiresAt })).json().data.apiKey as string;
    const expired = await waitUntil(async () => (await entries(`?action=key.expired`)).data.find((e) => e.target.id === key), {
      what: 'the key.expired entry',
      timeoutMs: 20_000,
    });
    expect(expired).toMatchObject({ actor: { type: 'service', id: null }, details: { expiresAt } });
    expect(Date.parse(expired.at)).toBeGreaterThanOrEqual(Date.parse(expiresAt));
    // Revoking it afterwards is still recorded; it expires only once.
    expect((await admin.delete(`/api/v1/keys/${key}`)).statusCode).toBe(200);
    const forKey = (await entries('?limit=100')).data.filter((e) => e.target.id === key).map((e) => e.action);
    expect(forKey).toEqual(['key.revoked', 'key.expired', 'key.issued']);
    expect(auditorKey).toMatch(/^ck_/);
  }, 30_000);
});
