import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ledgerDb } from '../../src/ledger/postgres/ledger.table.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

let t: TestService;
let api: Client;
let tenantId: string;
let policyId: string;

async function eventTypes(tenant = tenantId): Promise<string[]> {
  const rows = await ledgerDb(t.service.store.db)
    .selectFrom('ledger.events')
    .select('event_type')
    .where('tenant_id', '=', tenant)
    .orderBy('global_position')
    .execute();
  return rows.map((r) => r.event_type);
}

/** Runs `fn` and answers the event types it added to the tenant's ledger. */
async function appendedBy<T>(fn: () => Promise<T>, tenant = tenantId): Promise<{ result: T; appended: string[] }> {
  const before = (await eventTypes(tenant)).length;
  const result = await fn();
  return { result, appended: (await eventTypes(tenant)).slice(before) };
}

const key = () => `key-${randomUUID()}`;
const consent = (over: Record<string, unknown> = {}) => ({
  policyVersionId: policyId,
  userReference: `user-${randomUUID()}`,
  consentGiven: true,
  ...over,
});
const withKey = (k: string) => ({ 'idempotency-key': k });

async function given(): Promise<string> {
  const res = await api.post('/api/v1/consent', consent());
  expect(res.statusCode).toBe(201);
  return res.json().data.id;
}

function expectReused(res: LightMyRequestResponse): void {
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json()).toMatchObject({ success: false, error: { code: 'IDEMPOTENCY_KEY_REUSED' } });
  expect(res.headers['idempotent-replayed']).toBeUndefined();
}

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('enterprise');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  policyId = await publishPolicy(api);
});
afterAll(() => t?.close());

describe('idempotency › POST /consent', () => {
  it('when repeated with the same key and body › answers the first response and records nothing', async () => {
    const k = key();
    const body = consent({ metadata: { a: 1 } });
    const { result: first, appended } = await appendedBy(() => api.post('/api/v1/consent', body, withKey(k)));
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(appended).toEqual(['ConsentRecorded']);

    // Same body, keys in another order, and by the /v1 prefix: the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    for (const [url, b] of [
      ['/api/v1/consent', body],
      ['/api/v1/consent', reordered],
      ['/v1/consent', body],
    ] as const) {
      const { result: again, appended: none } = await appendedBy(() => api.post(url, b, withKey(k)));
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data).toEqual(first.json().data);
      expect(none).toEqual([]);
    }
  });

  it('when the same key comes with another body › 422 IDEMPOTENCY_KEY_REUSED, nothing recorded', async () => {
    const k = key();
    const body = consent();
    expect((await api.post('/api/v1/consent', body, withKey(k))).statusCode).toBe(201);
    for (const other of [{ ...body, consentGiven: false }, { ...body, metadata: { x: 1 } }, consent()]) {
      const { result, appended } = await appendedBy(() => api.post('/api/v1/consent', other, withKey(k)));
      expectReused(result);
      expect(appended).toEqual([]);
    }
  });

  it('when 20 identical requests race › exactly one record, and all 20 answer it', async () => {
    const k = key();
    const body = consent();
    const { result, appended } = await appendedBy(() =>
      Promise.all(Array.from({ length: 20 }, () => api.post('/api/v1/consent', body, withKey(k)))),
    );
    expect(appended).toEqual(['ConsentRecorded']);
    expect(result.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(new Set(result.map((r) => r.json().data.id)).size).toBe(1);
    expect(result.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
  });

  it('when the first request was refused › the key stays free and the next request records', async () => {
    const k = key();
    const refused = await api.post('/api/v1/consent', consent({ policyVersionId: randomUUID() }), withKey(k));
    expect(refused.statusCode).toBe(404);
    const { result, appended } = await appendedBy(() => api.post('/api/v1/consent', consent(), withKey(k)));
    expect(result.statusCode).toBe(201);
    expect(result.headers['idempotent-replayed']).toBeUndefined();
    expect(appended).toEqual(['ConsentRecorded']);
  });

  it('when no key is sent › each identical request records', async () => {
    const body = consent();
    const { appended } = await appendedBy(async () => {
      await api.post('/api/v1/consent', body);
      await api.post('/api/v1/consent', body);
    });
    expect(appended).toEqual(['ConsentRecorded', 'ConsentRecorded']);
  });

  it('when another tenant sends the same key and body › it records its own', async () => {
    const k = key();
    const other = await t.tenant('enterprise');
    const otherApi = client(t.app, other);
    const otherPolicy = await publishPolicy(otherApi);
    const mine = await api.post('/api/v1/consent', consent({ userReference: 'shared' }), withKey(k));
    const { result: theirs, appended } = await appendedBy(
      () => otherApi.post('/api/v1/consent', { policyVersionId: otherPolicy, userReference: 'shared', consentGiven: true }, withKey(k)),
      other.tenantId,
    );
    expect(theirs.statusCode).toBe(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(appended).toEqual(['ConsentRecorded']);
    expect(theirs.json().data.id).not.toBe(mine.json().data.id);
    // And each tenant's replay answers its own record.
    expect(
      (
        await otherApi.post('/api/v1/consent', { policyVersionId: otherPolicy, userReference: 'shared', consentGiven: true }, withKey(k))
      ).json().data.id,
    ).toBe(theirs.json().data.id);
  });
});

describe('idempotency › POST /consent/batch', () => {
  it('when repeated with the same key and body › answers the first response and records nothing', async () => {
    const k = key();
    const body = { consents: [consent(), consent({ consentGiven: false })] };
    const { result: first, appended } = await appendedBy(() => api.post('/api/v1/consent/batch', body, withKey(k)));
    expect(first.statusCode).toBe(201);
    expect(appended.sort()).toEqual(['ConsentBatchRecorded', 'ConsentRecorded', 'ConsentRecorded']);
    const { result: again, appended: none } = await appendedBy(() => api.post('/v1/consent/batch', body, withKey(k)));
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data).toEqual(first.json().data);
    expect(none).toEqual([]);
  });

  it('when a batch of 1,000 is repeated › its records are read together, not one read each that would take the pool', async () => {
    const k = key();
    const body = { consents: Array.from({ length: 1000 }, (_, i) => consent({ userReference: `bulk-${i}` })) };
    const first = await api.post('/api/v1/consent/batch', body, withKey(k));
    expect(first.statusCode, first.body).toBe(201);
    const reads = vi.spyOn(t.service.ledger, 'readStream');
    try {
      const again = await api.post('/api/v1/consent/batch', body, withKey(k));
      expect(again.statusCode, again.body).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json().data).toEqual(first.json().data);
      expect(reads.mock.calls.length).toBeLessThan(20);
    } finally {
      reads.mockRestore();
    }
  }, 60_000);

  it('when the same key comes with another body › 422, nothing recorded', async () => {
    const k = key();
    const body = { consents: [consent()] };
    expect((await api.post('/api/v1/consent/batch', body, withKey(k))).statusCode).toBe(201);
    const { result, appended } = await appendedBy(() =>
      api.post('/api/v1/consent/batch', { consents: [...body.consents, consent()] }, withKey(k)),
    );
    expectReused(result);
    expect(appended).toEqual([]);
  });

  it('when 20 identical batches race › exactly one batch is recorded', async () => {
    const k = key();
    const body = { consents: Array.from({ length: 5 }, () => consent()) };
    const { result, appended } = await appendedBy(() =>
      Promise.all(Array.from({ length: 20 }, () => api.post('/api/v1/consent/batch', body, withKey(k)))),
    );
    expect(result.map((r) => r.statusCode)).toEqual(Array(20).fill(201));
    expect(appended.filter((e) => e === 'ConsentBatchRecorded')).toHaveLength(1);
    expect(appended.filter((e) => e === 'ConsentRecorded')).toHaveLength(5);
    expect(new Set(result.map((r) => JSON.stringify(r.json().data))).size).toBe(1);
  });

  it('when another tenant sends the same key › it records its own batch', async () => {
    const k = key();
    const other = await t.tenant('enterprise');
    const otherApi = client(t.app, other);
    const otherPolicy = await publishPolicy(otherApi);
    expect((await api.post('/api/v1/consent/batch', { consents: [consent()] }, withKey(k))).statusCode).toBe(201);
    const { result, appended } = await appendedBy(
      () =>
        otherApi.post(
          '/api/v1/consent/batch',
          { consents: [{ policyVersionId: otherPolicy, userReference: 'x', consentGiven: true }] },
          withKey(k),
        ),
      other.tenantId,
    );
    expect(result.statusCode).toBe(201);
    expect(appended.sort()).toEqual(['ConsentBatchRecorded', 'ConsentRecorded']);
  });
});

describe('idempotency › POST /consent/:id/withdraw', () => {
  it('when repeated with the same key and body › answers the first response and records nothing', async () => {
    const id = await given();
    const k = key();
    const { result: first, appended } = await appendedBy(() =>
      api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'moved away' }, withKey(k)),
    );
    expect(first.statusCode).toBe(200);
    expect(appended.filter((e) => e === 'ConsentWithdrawn')).toHaveLength(1);
    const { result: again, appended: none } = await appendedBy(() =>
      api.post(`/v1/consent/${id}/withdraw`, { reason: 'moved away' }, withKey(k)),
    );
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data).toEqual(first.json().data);
    expect(none).toEqual([]);
    // Without the key, the same withdrawal is simply not possible twice.
    expect((await api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'moved away' })).statusCode).toBe(409);
  });

  it('when the same key comes with another reason › 422, nothing recorded', async () => {
    const id = await given();
    const k = key();
    expect((await api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'a' }, withKey(k))).statusCode).toBe(200);
    const { result, appended } = await appendedBy(() => api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'b' }, withKey(k)));
    expectReused(result);
    expect(appended).toEqual([]);
  });

  it('when the same key comes for another consent › 422, and that consent stays active', async () => {
    const first = await given();
    const second = await given();
    const k = key();
    expect((await api.post(`/api/v1/consent/${first}/withdraw`, {}, withKey(k))).statusCode).toBe(200);
    const { result, appended } = await appendedBy(() => api.post(`/api/v1/consent/${second}/withdraw`, {}, withKey(k)));
    expectReused(result);
    expect(appended).toEqual([]);
    expect((await api.get(`/api/v1/consent/${second}`)).json().data.status).toBe('active');
  });

  it('when 20 identical withdrawals race › exactly one is recorded and all answer 200', async () => {
    const id = await given();
    const k = key();
    const { result, appended } = await appendedBy(() =>
      Promise.all(Array.from({ length: 20 }, () => api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'race' }, withKey(k)))),
    );
    expect(result.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
    expect(appended.filter((e) => e === 'ConsentWithdrawn')).toHaveLength(1);
    expect(new Set(result.map((r) => r.json().data.withdrawnAt)).size).toBe(1);
    expect(result.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
  });

  it('when the consent cannot be withdrawn › the refusal is not remembered as the answer', async () => {
    const rejected = (await api.post('/api/v1/consent', consent({ consentGiven: false }))).json().data.id;
    const k = key();
    const { result, appended } = await appendedBy(() => api.post(`/api/v1/consent/${rejected}/withdraw`, {}, withKey(k)));
    expect(result.statusCode).toBe(409);
    expect(appended).toEqual([]);
    // The key is still free for a request that can succeed.
    const id = await given();
    expect((await api.post(`/api/v1/consent/${id}/withdraw`, {}, withKey(k))).statusCode).toBe(200);
  });
});

describe('idempotency › when a key comes back on another route', () => {
  it('record, then batch, withdraw or withdraw by purpose with the same key › 422, nothing recorded', async () => {
    const k = key();
    const body = consent();
    const first = await api.post('/api/v1/consent', body, withKey(k));
    expect(first.statusCode).toBe(201);
    const batch = await appendedBy(() => api.post('/api/v1/consent/batch', { consents: [consent()] }, withKey(k)));
    expectReused(batch.result);
    expect(batch.appended).toEqual([]);
    const withdraw = await appendedBy(() => api.post(`/api/v1/consent/${first.json().data.id}/withdraw`, {}, withKey(k)));
    expectReused(withdraw.result);
    expect(withdraw.appended).toEqual([]);
    expect((await api.get(`/api/v1/consent/${first.json().data.id}`)).json().data.status).toBe('active');
    const user = first.json().data.userReference as string;
    const standing = await appendedBy(() =>
      api.post(`/api/v1/consent/user/${user}/withdraw`, { policyType: 'privacy_policy' }, withKey(k)),
    );
    expectReused(standing.result);
    expect(standing.appended).toEqual([]);
    // The first route still answers its first response.
    const again = await api.post('/api/v1/consent', body, withKey(k));
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.id).toBe(first.json().data.id);
  });

  it('batch or withdraw first, then record with the same key › 422, nothing recorded', async () => {
    const kb = key();
    expect((await api.post('/api/v1/consent/batch', { consents: [consent()] }, withKey(kb))).statusCode).toBe(201);
    const afterBatch = await appendedBy(() => api.post('/api/v1/consent', consent(), withKey(kb)));
    expectReused(afterBatch.result);
    expect(afterBatch.appended).toEqual([]);
    const kw = key();
    const id = await given();
    expect((await api.post(`/api/v1/consent/${id}/withdraw`, {}, withKey(kw))).statusCode).toBe(200);
    const afterWithdraw = await appendedBy(() => api.post('/api/v1/consent', consent(), withKey(kw)));
    expectReused(afterWithdraw.result);
    expect(afterWithdraw.appended).toEqual([]);
  });
});

describe('idempotency › when the key itself is invalid', () => {
  const routes = [
    { name: 'POST /consent', send: (k: string) => api.post('/api/v1/consent', consent(), withKey(k)) },
    { name: 'POST /consent/batch', send: (k: string) => api.post('/api/v1/consent/batch', { consents: [consent()] }, withKey(k)) },
    {
      name: 'POST /consent/:id/withdraw',
      send: async (k: string) => api.post(`/api/v1/consent/${await given()}/withdraw`, {}, withKey(k)),
    },
  ];
  describe.each(routes)('$name', ({ send }) => {
    it.each([
      ['empty', ''],
      ['256 characters', 'k'.repeat(256)],
      ['non-ASCII', 'clé-😀'],
      ['with a space', 'a b'],
      ['with a control character', 'a\tb'],
    ])('a key that is %s → 400 naming idempotency-key, nothing recorded', async (_name, k) => {
      const before = (await eventTypes()).length;
      const res = await send(k);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.details.errors.map((e: { field: string }) => e.field)).toContain('idempotency-key');
      // Withdraw's fixture consent was recorded before the refused request.
      const added = (await eventTypes()).slice(before).filter((e) => e !== 'ConsentRecorded');
      expect(added).toEqual([]);
    });

    it('a key of 255 printable ASCII characters is accepted', async () => {
      const res = await send(`${'k'.repeat(250)}${randomUUID().slice(0, 5)}`);
      expect(res.statusCode).toBeLessThan(300);
    });
  });
});

describe('idempotency › when clients put personal data in their keys › the ledger holds only a keyed hash of each key', () => {
  /** Every ledger row of the tenant, every column, as text. */
  async function ledgerText(): Promise<string> {
    const rows = await ledgerDb(t.service.store.db).selectFrom('ledger.events').selectAll().where('tenant_id', '=', tenantId).execute();
    return JSON.stringify(rows);
  }
  /** The auditor's feed of the tenant's log, every page, once the newest record is sealed. */
  async function auditorFeed(sealed: string): Promise<string> {
    expect((await api.get(`/api/v1/consent/${sealed}/proof`)).statusCode).toBe(200);
    const entries: { leafIndex: number }[] = [];
    for (let after = -1; ;) {
      const page = (await api.get(`/api/v1/ledger/events?after=${after}&limit=1000`)).json().data as { leafIndex: number }[];
      if (page.length === 0) break;
      entries.push(...page);
      after = page[page.length - 1]!.leafIndex;
    }
    return JSON.stringify(entries);
  }

  it('record, batch and withdraw keys never reach the ledger or the feed, before or after the erasure; repeats still answer', async () => {
    const email = `dave-${randomUUID()}@example.com`;
    const keys = { record: `signup-${email}`, batch: `batch-${email}`, withdraw: `withdraw-${email}` };
    const body = consent({ userReference: email });
    const recorded = await api.post('/api/v1/consent', body, withKey(keys.record));
    expect(recorded.statusCode, recorded.body).toBe(201);
    const id = recorded.json().data.id as string;
    const batch = await api.post('/api/v1/consent/batch', { consents: [consent({ userReference: email })] }, withKey(keys.batch));
    expect(batch.statusCode, batch.body).toBe(201);
    const withdrawn = await api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'asked' }, withKey(keys.withdraw));
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);

    // Repeats are still recognised through the hash, and other bodies still refused.
    const again = await api.post('/api/v1/consent', body, withKey(keys.record));
    expect([again.statusCode, again.headers['idempotent-replayed'], again.json().data.id]).toEqual([201, 'true', id]);
    expectReused(await api.post('/api/v1/consent', { ...body, consentGiven: false }, withKey(keys.record)));
    expect(
      (await api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'asked' }, withKey(keys.withdraw))).headers['idempotent-replayed'],
    ).toBe('true');

    const local = email.split('@')[0]!;
    for (const text of [await ledgerText(), await auditorFeed(id)]) {
      for (const k of Object.values(keys)) expect(text).not.toContain(k);
      expect(text).not.toContain(local);
      expect(text).toMatch(/"key":"ik_[0-9a-f]{64}"/);
    }

    expect((await api.post('/api/v1/subjects/erase', { userReference: email })).statusCode).toBe(200);
    const after = await api.post('/api/v1/consent', consent(), withKey(`late-${randomUUID()}`));
    for (const text of [await ledgerText(), await auditorFeed(after.json().data.id)]) {
      for (const k of Object.values(keys)) expect(text).not.toContain(k);
      expect(text).not.toContain(local);
    }
  });

  it('the same key in two tenants is two different hashes: a hash says nothing across tenants', async () => {
    const other = client(t.app, await t.tenant('enterprise'));
    const otherPolicy = await publishPolicy(other);
    const k = key();
    const a = await api.post('/api/v1/consent', consent(), withKey(k));
    const b = await other.post('/api/v1/consent', { policyVersionId: otherPolicy, userReference: 'x', consentGiven: true }, withKey(k));
    const hashes = await ledgerDb(t.service.store.db)
      .selectFrom('ledger.events')
      .select('metadata')
      .where('event_type', '=', 'ConsentRecorded')
      .where((eb) => eb.or([eb('stream_id', 'like', `%${a.json().data.id}`), eb('stream_id', 'like', `%${b.json().data.id}`)]))
      .execute();
    const ks = hashes.map((h) => (h.metadata as { idempotency: { key: string } }).idempotency.key);
    expect(ks).toHaveLength(2);
    expect(ks[0]).not.toBe(ks[1]);
  });
});
