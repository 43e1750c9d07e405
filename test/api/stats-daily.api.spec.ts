import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 20, the overview's charts: `GET /api/v1/consent/stats/daily` answers records per UTC day by
 * what they stand at now, every day of the range (zeros included), narrowed by purpose or type;
 * `GET /api/v1/consent/stats/versions` the same per policy version, with its acceptance rate.
 */

let t: TestService;
let api: Client;
const today = new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await startTestService();
  api = client(t.app, await t.tenant('pro'));
  const privacy = await publishPolicy(api, { policyType: 'privacy_policy' });
  const marketing = await publishPolicy(api, { policyType: 'marketing_consent' });
  const record = async (policyVersionId: string, userReference: string, consentGiven: boolean) =>
    (await api.post('/api/v1/consent', { policyVersionId, userReference, consentGiven })).json().data.id as string;
  await record(privacy, 'a', true);
  await record(privacy, 'b', false);
  const withdrawn = await record(privacy, 'c', true);
  await api.post(`/api/v1/consent/${withdrawn}/withdraw`, {});
  await record(marketing, 'd', true);
}, 60_000);
afterAll(() => t?.close());

describe('stats per version', () => {
  it('lists every version with its records by status now and its acceptance rate, when it takes effect, and whether it asks again', async () => {
    const later = new Date(Date.now() + 86_400_000).toISOString();
    const scheduled = await publishPolicy(api, { policyType: 'cookie_policy', effectiveDate: later, requiresReconsent: false });
    const listed = (await api.get('/api/v1/consent/stats/versions')).json().data as { policyVersionId: string }[];
    expect(listed.find((v) => v.policyVersionId === scheduled)).toMatchObject({
      effectiveDate: later,
      requiresReconsent: false,
      inForce: false,
    });
    // A second privacy policy version in force now supersedes the first.
    const second = await publishPolicy(api, { policyType: 'privacy_policy', version: '9.0.0' });
    const after = (await api.get('/api/v1/consent/stats/versions')).json().data as {
      policyVersionId: string;
      policyType: string;
      inForce: boolean;
    }[];
    expect(after.filter((v) => v.policyType === 'privacy_policy').map((v) => [v.policyVersionId === second, v.inForce])).toEqual([
      [true, true],
      [false, false],
    ]);
    expect(after.find((v) => v.policyType === 'marketing_consent')!.inForce).toBe(true);

    const res = await api.get('/api/v1/consent/stats/versions');
    expect(res.statusCode, res.body).toBe(200);
    const versions = res.json().data as {
      policyType: string;
      given: number;
      rejected: number;
      withdrawn: number;
      acceptanceRate: number;
    }[];
    // The first privacy policy version (the oldest: newest come first), superseded above.
    expect(versions.filter((v) => v.policyType === 'privacy_policy').at(-1)).toMatchObject({
      effectiveDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      requiresReconsent: true,
      inForce: false,
      given: 1,
      rejected: 1,
      withdrawn: 1,
      expired: 0,
      acceptanceRate: 66.7,
    });
    expect(versions.find((v) => v.policyType === 'marketing_consent')).toMatchObject({ given: 1, rejected: 0, acceptanceRate: 100 });
  });
});

describe('stats per day', () => {
  it('splits each day by status now, the last 30 days by default', async () => {
    const res = await api.get('/api/v1/consent/stats/daily');
    expect(res.statusCode, res.body).toBe(200);
    const days = res.json().data as { day: string; given: number; rejected: number; withdrawn: number; expired: number }[];
    expect(days).toHaveLength(30);
    expect(days.at(-1)).toEqual({ day: today, given: 2, rejected: 1, withdrawn: 1, expired: 0 });
    expect(days.slice(0, -1).every((d) => d.given + d.rejected + d.withdrawn + d.expired === 0)).toBe(true);
  });

  it('narrows by policy type, takes a range, and refuses one over 366 days or reversed', async () => {
    const one = (await api.get(`/api/v1/consent/stats/daily?startDate=${today}&endDate=${today}&policyType=marketing_consent`)).json().data;
    expect(one).toEqual([{ day: today, given: 1, rejected: 0, withdrawn: 0, expired: 0 }]);
    expect((await api.get('/api/v1/consent/stats/daily?startDate=2024-01-01&endDate=2025-06-01')).statusCode).toBe(400);
    expect((await api.get('/api/v1/consent/stats/daily?startDate=2026-02-02&endDate=2026-02-01')).statusCode).toBe(400);
    expect((await api.get('/api/v1/consent/stats/daily?startDate=yesterday')).statusCode).toBe(400);
    // The default 30 days end at the first day a date holds, not before it (year 0 is none).
    const first = await api.get('/api/v1/consent/stats/daily?endDate=0001-01-10');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.map((d: { day: string }) => d.day)).toEqual(
      Array.from({ length: 10 }, (_, i) => `0001-01-${String(i + 1).padStart(2, '0')}`),
    );
  });

  it('puts imported history on the days its decisions were made, while stats filter on the day of the import', async () => {
    const moved = client(t.app, await t.tenant('pro'));
    const version = await publishPolicy(moved, { policyType: 'privacy_policy', effectiveDate: '2025-01-01T00:00:00.000Z' });
    const item = (userReference: string, consentGiven: boolean, collectedAt: string, withdrawnAt?: string) => ({
      policyVersionId: version,
      userReference,
      consentGiven,
      collectedAt,
      ...(withdrawnAt ? { withdrawnAt } : {}),
    });
    const batch = await moved.post('/api/v1/consent/batch', {
      consents: [
        item('h1', true, '2025-06-01T08:00:00Z'),
        item('h2', false, '2025-06-01T23:59:59.999Z'),
        item('h3', true, '2025-06-03T00:00:00Z', '2025-07-01T00:00:00Z'),
        item('h4', true, '2025-06-03T12:00:00+02:00'),
      ],
    });
    expect(batch.statusCode, batch.body).toBe(201);
    // Withdrawn now: it moves within its decision's day.
    const h4 = (await moved.get('/api/v1/consent/user/h4')).json().data[0].id as string;
    expect((await moved.post(`/api/v1/consent/${h4}/withdraw`, {})).statusCode).toBe(200);

    const days = (await moved.get('/api/v1/consent/stats/daily?startDate=2025-06-01&endDate=2025-06-03')).json().data;
    expect(days).toEqual([
      { day: '2025-06-01', given: 1, rejected: 1, withdrawn: 0, expired: 0 },
      { day: '2025-06-02', given: 0, rejected: 0, withdrawn: 0, expired: 0 },
      { day: '2025-06-03', given: 0, rejected: 0, withdrawn: 2, expired: 0 },
    ]);
    const now = (await moved.get(`/api/v1/consent/stats/daily?startDate=${today}&endDate=${today}`)).json().data;
    expect(now).toEqual([{ day: today, given: 0, rejected: 0, withdrawn: 0, expired: 0 }]);
    // The spec's stats keep the record's timestamp: the import's day.
    expect((await moved.get(`/api/v1/consent/stats?startDate=${today}`)).json().data.totalConsents).toBe(4);
    expect((await moved.get('/api/v1/consent/stats?endDate=2025-12-31')).json().data.totalConsents).toBe(0);
  });
});
