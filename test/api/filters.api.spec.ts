import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 18: search, stats and export filter by policyVersionId, purpose, status (expired and
 * outdated too) and equality on top-level metadata values, all three answering the same set.
 */

let t: TestService;
let api: Client;
const ids: Record<string, string> = {};
let newsV1 = '';
let newsV2 = '';
let sms = '';

beforeAll(async () => {
  t = await startTestService();
  api = client(t.app, await t.tenant('pro'));
  for (const key of ['news', 'sms']) await api.post('/api/v1/purposes', { key, name: key, legalBasis: 'consent' });
  const publish = async (purpose: string, version: string) =>
    (
      await api.post('/api/v1/policies', { policyType: 'custom', purpose, version, title: purpose, content: `${purpose} ${version}` })
    ).json().data.id as string;
  newsV1 = await publish('news', '1.0.0');
  sms = await publish('sms', '1.0.0');
  const record = async (name: string, policyVersionId: string, metadata: Record<string, unknown>, consentGiven = true) => {
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: name, consentGiven, metadata });
    expect(res.statusCode, res.body).toBe(201);
    ids[name] = res.json().data.id;
  };
  await record('a', newsV1, { source: 'web', channel: 'email', campaign: 7 });
  await record('b', newsV1, { source: 'app', channel: 'email' });
  await record('c', sms, { source: 'web', nested: { source: 'app' } });
  await record('d', sms, { source: 'web', optIn: true }, false);
  newsV2 = await publish('news', '2.0.0');
  await record('e', newsV2, { source: 'web' });
}, 60_000);
afterAll(() => t?.close());

/** The ids search, stats and export each answer for one query: they must agree. */
async function matching(query: string): Promise<string[]> {
  const search = await api.get(`/api/v1/consent/search?limit=100&${query}`);
  expect(search.statusCode, search.body).toBe(200);
  const found = search
    .json()
    .data.map((r: { id: string }) => r.id)
    .sort();
  expect(search.json().pagination.total).toBe(found.length);
  const stats = await api.get(`/api/v1/consent/stats?${query}`);
  expect(stats.json().data.totalConsents, `stats ${query}`).toBe(found.length);
  const csv = await api.get(`/api/v1/consent/export?${query}`);
  expect(csv.statusCode).toBe(200);
  const exported = csv.body
    .trimEnd()
    .split('\r\n')
    .slice(1)
    .map((l) => l.split(',')[0]!.replace(/"/g, ''))
    .sort();
  expect(exported, `export ${query}`).toEqual(found);
  return found;
}
const named = (...names: string[]) => names.map((n) => ids[n]!).sort();

describe('filters › purpose and policy version', () => {
  it('filter by purpose and by policyVersionId', async () => {
    expect(await matching('purpose=news')).toEqual(named('a', 'b', 'e'));
    expect(await matching('purpose=sms')).toEqual(named('c', 'd'));
    expect(await matching(`policyVersionId=${newsV1}`)).toEqual(named('a', 'b'));
    expect(await matching(`policyVersionId=${newsV1.toUpperCase()}`)).toEqual(named('a', 'b'));
    expect(await matching('purpose=news&consentGiven=true&policyType=custom')).toEqual(named('a', 'b', 'e'));
  });

  it('stats tell two purposes of one type apart: consentsByPurpose beside consentsByPolicy', async () => {
    const all = (await api.get('/api/v1/consent/stats')).json().data;
    expect(all.consentsByPolicy).toEqual([{ policyType: 'custom', count: 5 }]);
    expect(all.consentsByPurpose).toEqual([
      { purpose: 'news', count: 3 },
      { purpose: 'sms', count: 2 },
    ]);
    const sms = (await api.get('/api/v1/consent/stats?purpose=sms&consentGiven=true')).json().data;
    expect(sms.consentsByPurpose).toEqual([{ purpose: 'sms', count: 1 }]);
    // Records of a policy type alone (its own purpose) keep the spec's fields: none here.
    expect((await api.get('/api/v1/consent/stats?policyType=privacy_policy')).json().data).not.toHaveProperty('consentsByPurpose');
  });

  it('refuses a purpose never defined (a typo) with 400 on search, stats, daily stats, export and the policy list; a policy type is its own purpose', async () => {
    for (const route of ['consent/search', 'consent/stats', 'consent/export', 'consent/stats/daily', 'policies']) {
      const res = await api.get(`/api/v1/${route}?purpose=newz`);
      expect(res.statusCode, route).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'purpose newz is not defined',
        details: { errors: [{ field: 'purpose', message: 'must be a purpose defined with POST /api/v1/purposes, or a policy type' }] },
      });
      expect((await api.get(`/api/v1/${route}?purpose=cookie_policy`)).statusCode, route).toBe(200);
    }
  });
});

describe('filters › metadata', () => {
  it('match top-level values by their text, every filter at once, never nested ones', async () => {
    expect(await matching('metadata.source=web')).toEqual(named('a', 'c', 'd', 'e'));
    expect(await matching('metadata.source=app')).toEqual(named('b'));
    expect(await matching('metadata.source=web&metadata.channel=email')).toEqual(named('a'));
    expect(await matching('metadata.campaign=7')).toEqual(named('a'));
    expect(await matching('metadata.optIn=true')).toEqual(named('d'));
    expect(await matching('metadata.source=WEB')).toEqual([]);
    expect(await matching('metadata.nested=app')).toEqual([]);
    expect(await matching('metadata.source=web&purpose=sms&consentGiven=false')).toEqual(named('d'));
  });

  it('refuses too many query parameters, naming the query, not the body', async () => {
    const query = Array.from({ length: 45 }, (_, i) => `metadata.k${i}=v`).join('&');
    const res = await api.get(`/api/v1/consent/search?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.details.errors).toContainEqual({ field: '(query)', message: 'must NOT have more than 40 query parameters' });
    expect(res.body).not.toContain('(body)');
  });

  it('match a key of any letters, as every top-level value is tagged', async () => {
    const other = client(t.app, await t.tenant('pro'));
    const v = (await other.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'P' })).json()
      .data.id;
    const metadata = { é: 'y', 'utm source': 'news letter', ключ: 'значение' };
    expect((await other.post('/api/v1/consent', { policyVersionId: v, userReference: 'u', consentGiven: true, metadata })).statusCode).toBe(
      201,
    );
    for (const [key, value] of Object.entries(metadata)) {
      const res = await other.get(`/api/v1/consent/search?metadata.${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().pagination.total, key).toBe(1);
    }
    const long = await other.get(`/api/v1/consent/search?metadata.${'k'.repeat(65)}=v`);
    expect(long.statusCode).toBe(400);
    expect(long.json().error.details.errors[0].message).toMatch(/top-level key of 1 to 64 characters other than "."/);
  });

  it('stops matching an erased subject’s records', async () => {
    const other = client(t.app, await t.tenant('pro'));
    const v = (await other.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'P' })).json()
      .data.id;
    await other.post('/api/v1/consent', { policyVersionId: v, userReference: 'gone', consentGiven: true, metadata: { source: 'web' } });
    const count = async () => (await other.get('/api/v1/consent/search?metadata.source=web')).json().pagination.total;
    expect(await count()).toBe(1);
    expect((await other.post('/api/v1/subjects/erase', { userReference: 'gone' })).statusCode).toBe(200);
    expect(await count()).toBe(0);
  });
});

describe('filters › status', () => {
  it('status=outdated finds active records on a version a newer one requiring re-consent replaced', async () => {
    expect(await matching('status=outdated')).toEqual(named('a', 'b'));
    expect(await matching('status=outdated&metadata.source=app')).toEqual(named('b'));
    expect(await matching('status=active&purpose=news')).toEqual(named('a', 'b', 'e'));
  });
});

describe('filters › bad input', () => {
  it.each([
    'purpose=Not%20A%20Key',
    'policyVersionId=not-a-uuid',
    'status=lapsed',
    'metadata.a=1&metadata.b=1&metadata.c=1&metadata.d=1&metadata.e=1&metadata.f=1',
    `metadata.source=${'x'.repeat(257)}`,
    'metadata.source=',
  ])('%s → 400 VALIDATION_ERROR on search, stats and export', async (query) => {
    for (const route of ['search', 'stats', 'export']) {
      const res = await api.get(`/api/v1/consent/${route}?${query}`);
      expect(res.statusCode, `${route}?${query}: ${res.body}`).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
  });
});
