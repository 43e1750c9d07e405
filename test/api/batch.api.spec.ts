import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDb } from '../../src/ledger/postgres/ledger.table.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

let t: TestService;
let api: Client;
let tenantId: string;
let active: string;
let inactive: string;
let deleted: string;

async function ledgerEvents(): Promise<{ type: string; stream: string }[]> {
  const rows = await ledgerDb(t.service.store.db)
    .selectFrom('ledger.events')
    .select(['event_type', 'stream_id'])
    .where('tenant_id', '=', tenantId)
    .orderBy('global_position')
    .execute();
  return rows.map((r) => ({ type: r.event_type, stream: r.stream_id }));
}

const item = (over: Record<string, unknown> = {}) => ({
  policyVersionId: active,
  userReference: `user-${randomUUID()}`,
  consentGiven: true,
  ...over,
});
const deep = (levels: number): Record<string, unknown> => (levels <= 1 ? {} : { d: deep(levels - 1) });

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('enterprise');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  active = await publishPolicy(api);
  inactive = await publishPolicy(api);
  expect((await api.patch(`/api/v1/policies/${inactive}`, { isActive: false })).statusCode).toBe(200);
  deleted = await publishPolicy(api);
  expect((await api.delete(`/api/v1/policies/${deleted}`)).statusCode).toBe(200);
});
afterAll(() => t?.close());

describe('consent batch › when every item is valid', () => {
  it('records one consent per item (with their optional fields) and answers {processed, consents}', async () => {
    const items = [
      item({
        userReference: 'alice',
        consentGiven: true,
        ipAddress: '203.0.113.7',
        userAgent: 'Agent/1',
        metadata: { source: 'signup', n: 1 },
      }),
      item({ userReference: 'bob', consentGiven: false }),
      item({ userReference: 'alice', consentGiven: false, metadata: null, ipAddress: null, userAgent: null }),
    ];
    const before = (await ledgerEvents()).length;
    const res = await api.post('/api/v1/consent/batch', { consents: items }, { 'user-agent': 'BatchClient/2' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(Object.keys(body.data).sort()).toEqual(['consents', 'processed']);
    expect(body.data.processed).toBe(3);
    expect(body.data.consents).toHaveLength(3);
    body.data.consents.forEach((c: Record<string, unknown>, i: number) => {
      expect(Object.keys(c).sort()).toEqual(['consentGiven', 'id', 'userReference']);
      expect(c).toMatchObject({ userReference: items[i]!.userReference, consentGiven: items[i]!.consentGiven });
    });
    expect(new Set(body.data.consents.map((c: { id: string }) => c.id)).size).toBe(3);

    // One ConsentRecorded per item, one ConsentBatchRecorded, atomically.
    const events = (await ledgerEvents()).slice(before);
    expect(events.map((e) => e.type).sort()).toEqual(['ConsentBatchRecorded', 'ConsentRecorded', 'ConsentRecorded', 'ConsentRecorded']);

    const [a, b, c] = await Promise.all(
      body.data.consents.map(async (x: { id: string }) => (await api.get(`/api/v1/consent/${x.id}`)).json().data),
    );
    expect(a).toMatchObject({
      userReference: 'alice',
      consentGiven: true,
      ipAddress: '203.0.113.7',
      userAgent: 'Agent/1',
      metadata: { source: 'signup', n: 1 },
      policyVersionId: active,
    });
    // Omitted (or null) address and agent come from the request, as for a single record.
    expect(b).toMatchObject({
      userReference: 'bob',
      consentGiven: false,
      ipAddress: '127.0.0.1',
      userAgent: 'BatchClient/2',
      metadata: {},
    });
    expect(c).toMatchObject({
      userReference: 'alice',
      consentGiven: false,
      ipAddress: '127.0.0.1',
      userAgent: 'BatchClient/2',
      metadata: {},
    });
    for (const x of body.data.consents) {
      const v = (await api.get(`/api/v1/consent/${x.id}/verify`)).json().data;
      expect(v).toMatchObject({ valid: true, consentId: x.id });
      expect(v.storedHash).toBe(v.computedHash);
    }
    // Read-your-writes: the batch shows in the user's list right away.
    const alice = (await api.get('/api/v1/consent/user/alice')).json();
    expect(alice.pagination.total).toBe(2);
  });

  it('names each version as a single decision does: by id, or the version in force for a purpose or a type', async () => {
    expect((await api.post('/api/v1/purposes', { key: 'sms-offers', name: 'SMS offers', legalBasis: 'consent' })).statusCode).toBe(201);
    const sms = await publishPolicy(api, { policyType: 'custom', purpose: 'sms-offers' });
    const { userReference } = item();
    const res = await api.post('/api/v1/consent/batch', {
      consents: [
        { policyVersionId: active, userReference, consentGiven: true },
        { purpose: 'sms-offers', userReference, consentGiven: false },
        { policyType: 'privacy_policy', userReference, consentGiven: true },
        { purpose: 'sms-offers', userReference: `${userReference}-2`, consentGiven: true },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const versions = await Promise.all(
      res.json().data.consents.map(async (c: { id: string }) => (await api.get(`/api/v1/consent/${c.id}`)).json().data.policyVersionId),
    );
    expect(versions).toEqual([active, sms, active, sms]);
    const status = (await api.get(`/api/v1/consent/user/${userReference}/status?purpose=sms-offers`)).json().data.policies;
    expect(status).toMatchObject([{ purpose: 'sms-offers', status: 'rejected', policyVersionId: sms }]);
  });

  it('the same item twice makes two records', async () => {
    const one = item();
    const res = await api.post('/v1/consent/batch', { consents: [one, one] });
    expect(res.statusCode).toBe(201);
    const [x, y] = res.json().data.consents;
    expect(x.id).not.toBe(y.id);
  });

  it('takes 1,000 items', async () => {
    const consents = Array.from({ length: 1000 }, (_, i) => item({ userReference: `thousand-${i}`, consentGiven: i % 3 !== 0 }));
    const before = (await ledgerEvents()).length;
    const res = await api.post('/api/v1/consent/batch', { consents });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    expect(res.json().data.processed).toBe(1000);
    expect(res.json().data.consents.map((c: { userReference: string }) => c.userReference)).toEqual(consents.map((c) => c.userReference));
    expect((await ledgerEvents()).length).toBe(before + 1001);
    const last = res.json().data.consents[999];
    expect((await api.get(`/api/v1/consent/${last.id}/verify`)).json().data.valid).toBe(true);
  }, 60_000);
});

describe('consent batch › when any item is invalid', () => {
  async function refusedBatch(consents: unknown[]): Promise<{ index: number; field: string; message: string }[]> {
    const before = (await ledgerEvents()).length;
    const res = await api.post('/api/v1/consent/batch', { consents });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(400);
    const body = res.json();
    expect(body.success).toBe(false);
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.message).toMatch(/nothing was recorded/);
    expect((await ledgerEvents()).length).toBe(before);
    for (const e of body.error.details.errors) {
      expect(Object.keys(e).sort()).toEqual(['field', 'index', 'message']);
      expect(typeof e.message).toBe('string');
    }
    return body.error.details.errors;
  }

  it.each([
    ['a schema error', { consentGiven: 'yes' }, 'consents[1].consentGiven'],
    ['a missing field', { userReference: undefined }, 'consents[1].userReference'],
    ['an unknown field', { extra: true }, 'consents[1].extra'],
    ['a bad policy id', { policyVersionId: 'nope' }, 'consents[1].policyVersionId'],
    ['an inactive policy', { policyVersionId: 'inactive' }, 'consents[1].policyVersionId'],
    ['a deleted policy', { policyVersionId: 'deleted' }, 'consents[1].policyVersionId'],
    ['an unknown policy', { policyVersionId: randomUUID() }, 'consents[1].policyVersionId'],
    ['metadata 9 levels deep', { metadata: deep(9) }, 'consents[1].metadata'],
    ['metadata over 16 KiB', { metadata: { x: 'x'.repeat(16 * 1024) } }, 'consents[1].metadata'],
    ['a NUL character', { userReference: 'a\u0000' }, 'consents[1].userReference'],
  ])('one item with %s refuses the whole batch and names it', async (_name, over, field) => {
    const resolved: Record<string, unknown> = { ...over };
    if (resolved.policyVersionId === 'inactive') resolved.policyVersionId = inactive;
    if (resolved.policyVersionId === 'deleted') resolved.policyVersionId = deleted;
    const bad = JSON.parse(JSON.stringify(item(resolved)));
    const errors = await refusedBatch([item(), bad, item()]);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.every((e) => e.index === 1)).toBe(true);
    expect(errors.map((e) => e.field)).toContain(field);
  });

  it('lists every bad item, whatever is wrong with each, in index order', async () => {
    const errors = await refusedBatch([
      item(),
      item({ consentGiven: 'true' }),
      item(),
      item({ policyVersionId: inactive }),
      item({ policyVersionId: randomUUID() }),
      item({ metadata: deep(12) }),
      item({ policyVersionId: deleted }),
      item({ ipAddress: 'not-an-ip', userAgent: 'u'.repeat(1025) }),
      item(),
    ]);
    expect([...new Set(errors.map((e) => e.index))]).toEqual([1, 3, 4, 5, 6, 7]);
    expect(errors).toEqual(
      expect.arrayContaining([
        { index: 1, field: 'consents[1].consentGiven', message: 'must be boolean' },
        { index: 3, field: 'consents[3].policyVersionId', message: 'the policy version is not active' },
        { index: 4, field: 'consents[4].policyVersionId', message: 'policy version not found' },
        { index: 5, field: 'consents[5].metadata', message: 'must be at most 8 levels deep' },
        { index: 6, field: 'consents[6].policyVersionId', message: 'the policy version was deleted' },
        expect.objectContaining({ index: 7, field: 'consents[7].ipAddress' }),
        expect.objectContaining({ index: 7, field: 'consents[7].userAgent' }),
      ]),
    );
  });

  it('names an item whose version is named twice, not at all, or by a purpose or type with none in force (now, or when imported)', async () => {
    const before = (await ledgerEvents()).length;
    const errors = await refusedBatch([
      item(),
      item({ purpose: 'no-such-purpose', policyVersionId: undefined }),
      item({ policyType: 'privacy_policy' }),
      item({ policyVersionId: undefined }),
      item({ policyType: 'cookie_policy', policyVersionId: undefined }),
      item({ policyType: 'privacy_policy', policyVersionId: undefined, collectedAt: '2024-03-01T10:00:00Z' }),
      null,
      item({ policyType: 'privacy_policy', policyVersionId: undefined }),
    ]);
    expect(errors).toEqual([
      {
        index: 1,
        field: 'consents[1].purpose',
        message: 'no active version for purpose no-such-purpose: no such purpose is defined (GET /api/v1/purposes lists them)',
      },
      { index: 2, field: 'consents[2].policyVersionId', message: 'must not be given with purpose or policyType: name the version one way' },
      { index: 3, field: 'consents[3].policyVersionId', message: 'is required' },
      { index: 4, field: 'consents[4].policyType', message: 'no active cookie_policy version' },
      {
        index: 5,
        field: 'consents[5].policyType',
        message: expect.stringMatching(
          /^no version of type privacy_policy was in force at 2024-03-01T10:00:00Z \(the first took effect .*\): publish the text the user saw/,
        ),
      },
      { index: 6, field: 'consents[6]', message: 'must be object' },
    ]);
    expect((await ledgerEvents()).length).toBe(before);
  });

  it('1,001 items → 400 naming consents, nothing recorded', async () => {
    const before = (await ledgerEvents()).length;
    const res = await api.post('/api/v1/consent/batch', { consents: Array.from({ length: 1001 }, () => item()) });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    expect(res.json().error.details.errors).toEqual([{ field: 'consents', message: 'must have at most 1000 items' }]);
    expect((await ledgerEvents()).length).toBe(before);
  });

  it('an empty batch → 400', async () => {
    const res = await api.post('/api/v1/consent/batch', { consents: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details.errors).toEqual([{ field: 'consents', message: 'must have at least 1 item' }]);
  });
});
