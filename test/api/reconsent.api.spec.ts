import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 18: a user's standing per purpose (given, rejected, withdrawn, expired, outdated, none),
 * re-consent after a material change, and expiry at read time, over HTTP.
 */

let t: TestService;
let api: Client;

beforeAll(async () => {
  t = await startTestService();
  api = client(t.app, await t.tenant('starter'));
}, 60_000);
afterAll(() => t?.close());

async function define(key: string, consentValidFor: string | null = null): Promise<void> {
  const res = await api.post('/api/v1/purposes', {
    key,
    name: key,
    legalBasis: 'consent',
    ...(consentValidFor ? { consentValidFor } : {}),
  });
  expect(res.statusCode, res.body).toBe(201);
}

async function publish(purpose: string, version: string, extra: Record<string, unknown> = {}) {
  const res = await api.post('/api/v1/policies', {
    policyType: 'custom',
    purpose,
    version,
    title: `${purpose} ${version}`,
    content: `What ${purpose} ${version} says.`,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; requiresReconsent: boolean; consentValidFor: string | null };
}

async function record(policyVersionId: string, userReference: string, consentGiven = true) {
  const res = await api.post('/api/v1/consent', { policyVersionId, userReference, consentGiven });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string; timestamp: string; purpose?: string; expiresAt?: string };
}

interface Standing {
  purpose: string;
  policyType: string | null;
  status: string;
  policyVersion: string | null;
  expiresAt: string | null;
  inForce: { policyVersionId: string; policyVersion: string } | null;
}
async function status(userReference: string): Promise<Standing[]> {
  const res = await api.get(`/api/v1/consent/user/${encodeURIComponent(userReference)}/status`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.policies as Standing[];
}
const of = (all: Standing[], purpose: string) => all.find((s) => s.purpose === purpose)!;

describe('user status › per purpose', () => {
  it('keeps two custom purposes apart and answers none for a defined purpose the user has not decided on', async () => {
    await define('newsletter');
    await define('sms-offers');
    await define('surveys');
    const news = await publish('newsletter', '1.0.0');
    const sms = await publish('sms-offers', '1.0.0');
    await record(news.id, 'alice');
    await record(sms.id, 'alice', false);
    const all = await status('alice');
    expect(all.map((s) => [s.purpose, s.policyType, s.status])).toEqual([
      ['newsletter', 'custom', 'given'],
      ['sms-offers', 'custom', 'rejected'],
      ['surveys', null, 'none'],
    ]);
    expect(of(all, 'newsletter').inForce).toEqual({ policyVersionId: news.id, policyVersion: '1.0.0', effectiveDate: expect.any(String) });
  });

  it('keeps the spec form for a tenant without purposes: one entry per policy type decided on', async () => {
    const other = client(t.app, await t.tenant('starter'));
    const res = await other.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'P' });
    const policyVersionId = res.json().data.id as string;
    await other.post('/api/v1/consent', { policyVersionId, userReference: 'bob', consentGiven: true });
    const body = (await other.get('/api/v1/consent/user/bob/status')).json().data;
    expect(body.policies).toEqual([
      expect.objectContaining({
        purpose: 'privacy_policy',
        policyType: 'privacy_policy',
        status: 'given',
        policyVersionId,
        policyVersion: '1.0.0',
      }),
    ]);
  });
});

describe('user status › re-consent', () => {
  it('answers outdated once a version that requires re-consent is in force; a minor version and a future one do not', async () => {
    await define('marketing');
    const v1 = await publish('marketing', '1.0.0');
    expect(v1).toMatchObject({ requiresReconsent: true, consentValidFor: null });
    await record(v1.id, 'carol');
    await record(v1.id, 'dave', false);

    const minor = await publish('marketing', '1.1.0', { requiresReconsent: false });
    expect(minor.requiresReconsent).toBe(false);
    expect(of(await status('carol'), 'marketing')).toMatchObject({
      status: 'given',
      policyVersion: '1.0.0',
      inForce: { policyVersion: '1.1.0' },
    });

    const future = new Date(Date.now() + 86_400_000).toISOString();
    await publish('marketing', '3.0.0', { effectiveDate: future });
    expect(of(await status('carol'), 'marketing')).toMatchObject({ status: 'given', inForce: { policyVersion: '1.1.0' } });

    const major = await publish('marketing', '2.0.0');
    expect(of(await status('carol'), 'marketing')).toMatchObject({
      status: 'outdated',
      policyVersion: '1.0.0',
      inForce: { policyVersionId: major.id },
    });
    expect(of(await status('dave'), 'marketing').status).toBe('outdated');

    // Deciding on the version in force makes the decision current again.
    await record(major.id, 'carol');
    expect(of(await status('carol'), 'marketing')).toMatchObject({ status: 'given', policyVersion: '2.0.0' });
  });

  it('stops outdating decisions when the newer version is deactivated', async () => {
    await define('analytics');
    const v1 = await publish('analytics', '1.0.0');
    await record(v1.id, 'erin');
    const v2 = await publish('analytics', '2.0.0');
    expect(of(await status('erin'), 'analytics').status).toBe('outdated');
    expect((await api.patch(`/api/v1/policies/${v2.id}`, { isActive: false })).statusCode).toBe(200);
    expect(of(await status('erin'), 'analytics')).toMatchObject({ status: 'given', inForce: { policyVersionId: v1.id } });
  });
});

describe('expiry › a purpose with consentValidFor', () => {
  it('gives each consent expiresAt from the validity its version was published with, and reflects it at read time', async () => {
    await define('offers', 'PT3S');
    const version = await publish('offers', '1.0.0');
    expect(version.consentValidFor).toBe('PT3S');
    const given = await record(version.id, 'frank');
    expect(given.purpose).toBe('offers');
    expect(given.expiresAt).toBe(new Date(Date.parse(given.timestamp) + 3_000).toISOString());
    const rejected = await record(version.id, 'grace', false);
    expect(rejected.expiresAt).toBeUndefined();

    // A later change of the purpose's validity applies to versions published after it.
    expect((await api.patch('/api/v1/purposes/offers', { consentValidFor: 'P1Y' })).statusCode).toBe(200);
    const heidi = await record(version.id, 'heidi');
    expect(heidi.expiresAt).toBe(new Date(Date.parse(heidi.timestamp) + 3_000).toISOString());
    const later = await publish('offers', '1.0.1', { requiresReconsent: false });
    expect(later.consentValidFor).toBe('P1Y');

    await vi.waitFor(
      async () => {
        expect(of(await status('frank'), 'offers')).toMatchObject({ status: 'expired', expiresAt: given.expiresAt });
      },
      { timeout: 15_000, interval: 200 },
    );
    const record1 = (await api.get(`/api/v1/consent/${given.id}`)).json().data;
    expect(record1).toMatchObject({ status: 'expired', purpose: 'offers', expiresAt: given.expiresAt });
    const expired = (await api.get('/api/v1/consent/search?status=expired&userReference=frank')).json();
    expect(expired.data.map((r: { id: string }) => r.id)).toEqual([given.id]);
    const active = (await api.get('/api/v1/consent/search?status=active&userReference=frank')).json();
    expect(active.data).toEqual([]);
    // A refusal does not expire.
    expect(of(await status('grace'), 'offers').status).toBe('rejected');
  });
});

describe('re-consent list › GET /consent/reconsent', () => {
  it('lists the standing decisions on versions before the one requiring re-consent, paginated, and as CSV', async () => {
    await define('loyalty');
    const v1 = await publish('loyalty', '1.0.0');
    for (const user of ['l-1', 'l-2', 'l-3']) await record(v1.id, user);
    await record(v1.id, 'l-4', false);
    await record(v1.id, 'l-5');
    expect((await api.post('/api/v1/consent/user/l-5/withdraw', { purpose: 'loyalty' })).statusCode).toBe(200);

    const before = (await api.get('/api/v1/consent/reconsent?purpose=loyalty')).json();
    expect(before).toMatchObject({ success: true, data: [], pagination: { total: 0 } });

    const v2 = await publish('loyalty', '2.0.0');
    await record(v2.id, 'l-3');
    const list = await api.get('/api/v1/consent/reconsent?purpose=loyalty');
    expect(list.statusCode, list.body).toBe(200);
    const body = list.json();
    expect(body.pagination).toMatchObject({ total: 3, page: 1 });
    expect(body.data.map((i: { userReference: string }) => i.userReference).sort()).toEqual(['l-1', 'l-2', 'l-4']);
    expect(body.data[0]).toMatchObject({
      purpose: 'loyalty',
      policyVersionId: v1.id,
      policyVersion: '1.0.0',
      reconsentVersionId: v2.id,
      reconsentVersion: '2.0.0',
      erased: false,
    });
    expect(body.data.find((i: { userReference: string }) => i.userReference === 'l-4').consentGiven).toBe(false);

    const pages = [1, 2].map((page) => api.get(`/api/v1/consent/reconsent?purpose=loyalty&limit=2&page=${page}`));
    const [p1, p2] = (await Promise.all(pages)).map((r) => r.json().data.map((i: { consentId: string }) => i.consentId));
    expect(p1).toHaveLength(2);
    expect(p2).toHaveLength(1);
    expect([...p1, ...p2]).toEqual(body.data.map((i: { consentId: string }) => i.consentId));

    for (const res of [
      await api.get('/api/v1/consent/reconsent?purpose=loyalty&format=csv'),
      await api.get('/api/v1/consent/reconsent?purpose=loyalty', { accept: 'text/csv' }),
    ]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
      const lines = res.body.trimEnd().split('\r\n');
      expect(lines[0]).toBe(
        'userReference,consentId,purpose,consentGiven,decidedAt,policyVersionId,policyVersion,reconsentVersionId,reconsentVersion,erased',
      );
      expect(lines.slice(1).every((l) => l.endsWith(',"false"'))).toBe(true);
      expect(
        lines
          .slice(1)
          .map((l) => l.split(',')[0])
          .sort(),
      ).toEqual(['"l-1"', '"l-2"', '"l-4"']);
    }
    // An erased subject stays listed (its decision stands) with no reference, and says why.
    expect((await api.post('/api/v1/subjects/erase', { userReference: 'l-4' })).statusCode).toBe(200);
    const rows = (await api.get('/api/v1/consent/reconsent?purpose=loyalty&format=csv')).body.trimEnd().split('\r\n').slice(1);
    expect(rows.filter((l) => l.startsWith(',') && l.endsWith(',"true"'))).toHaveLength(1);
    expect(rows.filter((l) => l.endsWith(',"false"'))).toHaveLength(2);
  });

  it('without a purpose, lists every purpose in turn (by key), paginated across them, and as CSV', async () => {
    const own = client(t.app, await t.tenant('starter'));
    const ids: Record<string, string> = {};
    for (const key of ['beta', 'alpha']) {
      expect((await own.post('/api/v1/purposes', { key, name: key, legalBasis: 'consent' })).statusCode).toBe(201);
      const v1 = await own.post('/api/v1/policies', {
        policyType: 'custom',
        purpose: key,
        version: '1.0.0',
        title: key,
        content: `${key} 1`,
      });
      for (const user of key === 'alpha' ? ['a-1', 'a-2'] : ['b-1']) {
        ids[user] = (
          await own.post('/api/v1/consent', { policyVersionId: v1.json().data.id, userReference: user, consentGiven: true })
        ).json().data.id;
      }
      await own.post('/api/v1/policies', { policyType: 'custom', purpose: key, version: '2.0.0', title: key, content: `${key} 2` });
    }
    const all = (await own.get('/api/v1/consent/reconsent')).json();
    expect(all.pagination).toMatchObject({ total: 3 });
    const alpha = [ids['a-1']!, ids['a-2']!].sort();
    expect(all.data.map((i: { consentId: string }) => i.consentId)).toEqual([...alpha, ids['b-1']]);
    expect(all.data.map((i: { purpose: string }) => i.purpose)).toEqual(['alpha', 'alpha', 'beta']);
    // Pages cross from one purpose to the next without losing or repeating a row.
    const pages = await Promise.all([1, 2, 3].map((page) => own.get(`/api/v1/consent/reconsent?limit=1&page=${page}`)));
    expect(pages.flatMap((r) => r.json().data.map((i: { consentId: string }) => i.consentId))).toEqual([...alpha, ids['b-1']]);
    const csv = await own.get('/api/v1/consent/reconsent?format=csv');
    expect(csv.headers['content-disposition']).toContain('reconsent.csv');
    expect(
      csv.body
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(',')[2]),
    ).toEqual(['"alpha"', '"alpha"', '"beta"']);
  });

  it('refuses an unknown purpose with 400, and CSV on a plan without export with 403', async () => {
    const unknown = await api.get('/api/v1/consent/reconsent?purpose=never-defined');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ field: 'purpose' }] } });
    const free = client(t.app, await t.tenant('free'));
    expect((await free.get('/api/v1/consent/reconsent?purpose=privacy_policy')).statusCode).toBe(200);
    const csv = await free.get('/api/v1/consent/reconsent?purpose=privacy_policy&format=csv');
    expect(csv.statusCode).toBe(403);
    expect(csv.json().error.code).toBe('PLAN_RESTRICTED');
  });
});
