import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDb } from '../../src/ledger/postgres/ledger.table.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 18, moving in: batch items carry `collectedAt` (and `withdrawnAt`), the original times of
 * decisions made on another platform. The record is `imported: true`, its ledger time is the
 * append's, `collectedAt` is in its consentHash input, and it stands by its original time.
 */

let t: TestService;
let api: Client;
let tenantId: string;
let policy: string;
let contentHash: string;

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

/**
 * The tenant's events, but those the deadlines follower appends on its own whenever it runs: expiries
 * (an imported consent may be past its validity) and re-consent announcements (versions published
 * with past effective dates take effect at once).
 */
async function ledgerCount(): Promise<number> {
  const rows = await ledgerDb(t.service.store.db)
    .selectFrom('ledger.events')
    .select('event_id')
    .where('tenant_id', '=', tenantId)
    .where('event_type', 'not in', ['ConsentExpired', 'PolicyReconsentRequired'])
    .execute();
  return rows.length;
}

async function batch(consents: Record<string, unknown>[]) {
  return api.post('/api/v1/consent/batch', { consents });
}

async function get(id: string) {
  const res = await api.get(`/api/v1/consent/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as Record<string, unknown>;
}

/** RFC 8785 for the flat, ASCII-keyed objects these records hash (keys sorted, JSON.stringify values). */
const jcs = (o: Record<string, unknown>): string =>
  `{${Object.keys(o)
    .sort()
    .map(
      (k) =>
        `${JSON.stringify(k)}:${o[k] !== null && typeof o[k] === 'object' ? jcs(o[k] as Record<string, unknown>) : JSON.stringify(o[k])}`,
    )
    .join(',')}}`;

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('enterprise');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  policy = await publishPolicy(api, { policyType: 'marketing_consent', version: '1.0.0', effectiveDate: '2015-01-01T00:00:00Z' });
  contentHash = (await api.get(`/api/v1/policies/${policy}`)).json().data.contentHash as string;
}, 60_000);
afterAll(() => t?.close());

describe('imported decisions › collectedAt', () => {
  it('records the original time beside the ledger time, flags imported, and hashes collectedAt as a tenth key', async () => {
    const collectedAt = '2021-06-01T08:30:00.000Z';
    const res = await batch([
      {
        policyVersionId: policy,
        userReference: 'moved-1',
        consentGiven: true,
        ipAddress: '198.51.100.4',
        userAgent: 'Old/1',
        metadata: { source: 'legacy' },
        collectedAt,
      },
      { policyVersionId: policy, userReference: 'live-1', consentGiven: true, ipAddress: '198.51.100.5', userAgent: 'New/1' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const [moved, live] = res.json().data.consents as { id: string }[];

    const record = await get(moved!.id);
    expect(record).toMatchObject({ collectedAt, imported: true, status: 'active' });
    expect(Date.parse(record.timestamp as string)).toBeGreaterThan(Date.now() - 60_000);
    const input = {
      id: moved!.id,
      policyVersionId: policy,
      policyContentHash: contentHash,
      userReference: 'moved-1',
      consentGiven: true,
      ipAddress: '198.51.100.4',
      userAgent: 'Old/1',
      metadata: { source: 'legacy' },
      timestamp: record.timestamp,
      collectedAt,
    };
    expect(record.consentHash).toBe(createHash('sha256').update(jcs(input)).digest('hex'));
    const verified = (await api.get(`/api/v1/consent/verify?consentId=${moved!.id}`)).json().data;
    expect(verified).toMatchObject({ valid: true, computedHash: record.consentHash });

    // A record made live keeps the spec's shape: no collectedAt, no imported.
    const liveRecord = await get(live!.id);
    expect(liveRecord).not.toHaveProperty('collectedAt');
    expect(liveRecord).not.toHaveProperty('imported');

    const found = (await api.get('/api/v1/consent/search?userReference=moved-1')).json().data as Record<string, unknown>[];
    expect(found[0]).toMatchObject({ id: moved!.id, collectedAt, imported: true });
    const csv = (await api.get('/api/v1/consent/export?userReference=moved-1')).body;
    const [header, row] = csv.trim().split('\r\n');
    const cells = header!.split(',');
    expect(row!.split(',')[cells.indexOf('collectedAt')]).toBe(`"${collectedAt}"`);
  });

  it("never takes the importing request's address and agent for a decision made elsewhere", async () => {
    const res = await api.inject({
      method: 'POST',
      url: '/api/v1/consent/batch',
      headers: { 'user-agent': 'migration-script/1.0', 'x-forwarded-for': '203.0.113.9' },
      payload: {
        consents: [
          { policyVersionId: policy, userReference: 'moved-bare', consentGiven: true, collectedAt: '2021-07-01T00:00:00Z' },
          { policyVersionId: policy, userReference: 'live-bare', consentGiven: true },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const [moved, live] = res.json().data.consents as { id: string }[];
    expect(await get(moved!.id)).toMatchObject({ ipAddress: null, userAgent: null, imported: true });
    // A decision made live still takes them from its request.
    expect(await get(live!.id)).toMatchObject({ ipAddress: expect.any(String), userAgent: 'migration-script/1.0' });
  });

  it('derives expiry from the original time: a consent collected before its validity ran out reads expired', async () => {
    expect(
      (await api.post('/api/v1/purposes', { key: 'offers', name: 'Offers', legalBasis: 'consent', consentValidFor: 'P13M' })).statusCode,
    ).toBe(201);
    const offers = await publishPolicy(api, {
      policyType: 'custom',
      purpose: 'offers',
      version: '1.0.0',
      effectiveDate: '2015-01-01T00:00:00Z',
    });
    const res = await batch([
      { policyVersionId: offers, userReference: 'moved-2', consentGiven: true, collectedAt: '2020-01-15T10:00:00Z' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const record = await get((res.json().data.consents as { id: string }[])[0]!.id);
    expect(record).toMatchObject({ collectedAt: '2020-01-15T10:00:00.000Z', expiresAt: '2021-02-15T10:00:00.000Z', status: 'expired' });
  });

  it('imports a withdrawal made on the other platform after the validity here ran out, as it happened', async () => {
    expect(
      (await api.post('/api/v1/purposes', { key: 'lapsed', name: 'Lapsed', legalBasis: 'consent', consentValidFor: 'P24M' })).statusCode,
    ).toBe(201);
    await publishPolicy(api, { policyType: 'custom', purpose: 'lapsed', version: '1.0.0', effectiveDate: '2015-01-01T00:00:00Z' });
    const res = await batch([
      {
        purpose: 'lapsed',
        userReference: 'moved-lapsed',
        consentGiven: true,
        collectedAt: '2019-05-05T09:01:00Z',
        withdrawnAt: '2021-07-07T12:00:00Z',
      },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const record = await get((res.json().data.consents as { id: string }[])[0]!.id);
    expect(record).toMatchObject({
      expiresAt: '2021-05-05T09:01:00.000Z',
      status: 'withdrawn',
      withdrawnAt: '2021-07-07T12:00:00.000Z',
      imported: true,
    });
    // The user's list says as much as search: the purpose, the expiry, the original time.
    const listed = (await api.get('/api/v1/consent/user/moved-lapsed')).json().data;
    expect(listed).toEqual([
      expect.objectContaining({
        purpose: 'lapsed',
        expiresAt: '2021-05-05T09:01:00.000Z',
        collectedAt: '2019-05-05T09:01:00.000Z',
        imported: true,
        status: 'withdrawn',
      }),
    ]);
    const status = (await api.get('/api/v1/consent/user/moved-lapsed/status?purpose=lapsed')).json().data.policies;
    expect(status).toEqual([expect.objectContaining({ purpose: 'lapsed', status: 'withdrawn', withdrawnAt: '2021-07-07T12:00:00.000Z' })]);
  });

  it('imports a withdrawal at its original time', async () => {
    const res = await batch([
      {
        policyVersionId: policy,
        userReference: 'moved-3',
        consentGiven: true,
        collectedAt: '2022-03-01T00:00:00Z',
        withdrawnAt: '2023-04-05T06:07:08.009Z',
      },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const record = await get((res.json().data.consents as { id: string }[])[0]!.id);
    expect(record).toMatchObject({ status: 'withdrawn', withdrawnAt: '2023-04-05T06:07:08.009Z', imported: true });
  });

  it('never lets older history override a decision made since', async () => {
    expect((await batch([{ policyVersionId: policy, userReference: 'moved-4', consentGiven: true }])).statusCode).toBe(201);
    expect(
      (await batch([{ policyVersionId: policy, userReference: 'moved-4', consentGiven: false, collectedAt: ago(400) }])).statusCode,
    ).toBe(201);
    const status = (await api.get('/api/v1/consent/user/moved-4/status')).json().data.policies as {
      policyType: string;
      consentGiven: boolean;
    }[];
    expect(status.find((s) => s.policyType === 'marketing_consent')).toMatchObject({ consentGiven: true });
    // History imported first, then a newer import: the newer original time stands.
    await batch([{ policyVersionId: policy, userReference: 'moved-5', consentGiven: true, collectedAt: ago(30) }]);
    await batch([{ policyVersionId: policy, userReference: 'moved-5', consentGiven: false, collectedAt: ago(300) }]);
    await batch([
      { policyVersionId: policy, userReference: 'moved-6', consentGiven: true, collectedAt: ago(300) },
      { policyVersionId: policy, userReference: 'moved-6', consentGiven: false, collectedAt: ago(30) },
      { policyVersionId: policy, userReference: 'moved-6', consentGiven: true, collectedAt: ago(200) },
    ]);
    for (const [user, given] of [
      ['moved-5', true],
      ['moved-6', false],
    ] as const) {
      const s = (await api.get(`/api/v1/consent/user/${user}/status`)).json().data.policies as {
        policyType: string;
        consentGiven: boolean;
      }[];
      expect(
        s.find((x) => x.policyType === 'marketing_consent'),
        user,
      ).toMatchObject({ consentGiven: given });
    }
  });
});

describe('imported decisions › named by purpose or type: the version in force when it was made', () => {
  it('takes the latest version effective at collectedAt, a deactivated one too, and names a time before the first', async () => {
    const purpose = `history-${randomUUID().slice(0, 8)}`;
    expect((await api.post('/api/v1/purposes', { key: purpose, name: 'History', legalBasis: 'consent' })).statusCode).toBe(201);
    const publish = async (version: string, effectiveDate: string) => {
      const res = await api.post('/api/v1/policies', {
        policyType: 'custom',
        purpose,
        version,
        title: 'H',
        content: `v${version}`,
        effectiveDate,
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().data.id as string;
    };
    const v1 = await publish('1.0.0', '2020-01-01T00:00:00Z');
    const v2 = await publish('2.0.0', '2023-01-01T00:00:00Z');
    // Two versions effective at once: the higher one was in force.
    const v21 = await publish('2.1.0', '2023-01-01T00:00:00Z');
    const v3 = await publish('3.0.0', '2025-06-01T00:00:00Z');
    expect((await api.patch(`/api/v1/policies/${v1}`, { isActive: false })).statusCode).toBe(200);
    const res = await batch([
      { purpose, userReference: 'h-1', consentGiven: true, collectedAt: '2021-05-01T10:00:00Z' },
      { purpose, userReference: 'h-2', consentGiven: true, collectedAt: '2023-01-01T00:00:00Z' },
      { purpose, userReference: 'h-3', consentGiven: false, collectedAt: '2025-06-02T00:00:00+02:00' },
      { purpose, userReference: 'h-4', consentGiven: true, collectedAt: '2022-12-31T23:59:59Z' },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const ids = (res.json().data.consents as { id: string }[]).map((c) => c.id);
    const versions = await Promise.all(ids.map(async (id) => (await get(id)).policyVersionId));
    expect(versions).toEqual([v1, v21, v3, v1]);
    expect(versions).not.toContain(v2);

    const before = await ledgerCount();
    const refused = await batch([
      { purpose, userReference: 'h-5', consentGiven: true, collectedAt: '2024-01-01T00:00:00Z' },
      { purpose, userReference: 'h-6', consentGiven: true, collectedAt: '2019-12-31T23:59:59Z' },
      { purpose: 'never-defined', userReference: 'h-7', consentGiven: true, collectedAt: '2024-01-01T00:00:00Z' },
    ]);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().error.details.errors).toEqual([
      {
        index: 1,
        field: 'consents[1].purpose',
        message: `no version of purpose ${purpose} was in force at 2019-12-31T23:59:59Z (the first took effect 2020-01-01T00:00:00.000Z): publish the text the user saw, with its original effectiveDate`,
      },
      {
        index: 2,
        field: 'consents[2].purpose',
        message:
          'no version of purpose never-defined was in force at 2024-01-01T00:00:00Z: no such purpose is defined (GET /api/v1/purposes lists them)',
      },
    ]);
    expect(await ledgerCount()).toBe(before);
  });

  it('by policy type too', async () => {
    const res = await batch([{ policyType: 'marketing_consent', userReference: 'h-type', consentGiven: true, collectedAt: ago(30) }]);
    expect(res.statusCode, res.body).toBe(201);
    expect((await get(res.json().data.consents[0].id)).policyVersionId).toBe(policy);
  });

  it('by policy type, the one purpose in force then, even once the type publishes a version of its own', async () => {
    await api.post('/api/v1/purposes', { key: 'tos-eu', name: 'Terms (EU)', legalBasis: 'contract' });
    const eu = await publishPolicy(api, { policyType: 'terms_of_service', purpose: 'tos-eu', effectiveDate: '2020-01-01T00:00:00Z' });
    const item = (userReference: string) => ({
      policyType: 'terms_of_service',
      userReference,
      consentGiven: true,
      collectedAt: '2021-01-01T00:00:00Z',
    });
    const before = await batch([item('tos-a')]);
    expect(before.statusCode, before.body).toBe(201);
    expect((await get(before.json().data.consents[0].id)).policyVersionId).toBe(eu);
    // The type's own text, in force from 2022: a decision of 2021 still took the EU terms.
    const own = await publishPolicy(api, { policyType: 'terms_of_service', effectiveDate: '2022-01-01T00:00:00Z' });
    const after = await batch([item('tos-b')]);
    expect(after.statusCode, after.body).toBe(201);
    expect((await get(after.json().data.consents[0].id)).policyVersionId).toBe(eu);
    // One made once both were in force takes the type's own, as a decision made now does.
    const now = await batch([{ ...item('tos-c'), collectedAt: '2023-01-01T00:00:00Z' }]);
    expect(now.statusCode, now.body).toBe(201);
    expect((await get(now.json().data.consents[0].id)).policyVersionId).toBe(own);
  });
});

describe('imported decisions › bad times refuse the whole batch, naming each item', () => {
  it.each([
    ['in the future', { collectedAt: new Date(Date.now() + DAY).toISOString() }, 'collectedAt', /past/],
    ['before 1990', { collectedAt: '1989-12-31T23:59:59Z' }, 'collectedAt', /1990/],
    ['not a date', { collectedAt: '2021-02-30T00:00:00Z' }, 'collectedAt', /date-time/],
    ['withdrawnAt without collectedAt', { withdrawnAt: '2022-01-01T00:00:00Z' }, 'withdrawnAt', /collectedAt/],
    [
      'withdrawnAt before collectedAt',
      { collectedAt: '2022-01-02T00:00:00Z', withdrawnAt: '2022-01-01T00:00:00Z' },
      'withdrawnAt',
      /before/,
    ],
    [
      'withdrawnAt in the future',
      { collectedAt: '2022-01-02T00:00:00Z', withdrawnAt: new Date(Date.now() + DAY).toISOString() },
      'withdrawnAt',
      /past/,
    ],
    [
      'a rejection withdrawn',
      { consentGiven: false, collectedAt: '2022-01-02T00:00:00Z', withdrawnAt: '2022-02-01T00:00:00Z' },
      'withdrawnAt',
      /rejected/,
    ],
  ])('%s: 400, nothing written', async (_name, over, field, message) => {
    const before = await ledgerCount();
    const res = await batch([
      { policyVersionId: policy, userReference: `ok-${randomUUID()}`, consentGiven: true, collectedAt: ago(10) },
      { policyVersionId: policy, userReference: `bad-${randomUUID()}`, consentGiven: true, ...over },
    ]);
    expect(res.statusCode, res.body).toBe(400);
    const errors = res.json().error.details.errors as { index: number; field: string; message: string }[];
    expect(errors).toEqual([expect.objectContaining({ index: 1, field: `consents[1].${field}`, message: expect.stringMatching(message) })]);
    expect(await ledgerCount()).toBe(before);
  });

  it('a single record takes no collectedAt (imports are batches)', async () => {
    const res = await api.post('/api/v1/consent', { policyVersionId: policy, userReference: 'x', consentGiven: true, collectedAt: ago(1) });
    expect(res.statusCode).toBe(400);
  });
});
