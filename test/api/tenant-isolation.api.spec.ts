import { randomUUID } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IssuedCredentials } from '../../src/tenants/tenants.service.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * docs/contract.md "Identity, tenants, keys": every resource belongs to one tenant; another tenant's
 * id answers 404, never 403. Stronger, and what the tests below check: another tenant's id
 * answers exactly what an id that exists nowhere answers, so an intruder cannot even learn
 * that it exists; lists, stats and exports hold only the caller's own records; and the owner's
 * records are unchanged after every attempt.
 */

const SHARED_USER = 'shared-user@example.com';
const PREFIXES = ['/api/v1', '/v1'] as const;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Answer {
  status: number;
  code: string | undefined;
  message: string | undefined;
}

/** Status, error code and message, with the id in question blanked so two ids compare equal. */
const answerOf = (res: LightMyRequestResponse, id: string): Answer => {
  let body: { error?: { code?: string; message?: string } } = {};
  try {
    body = res.json();
  } catch {
    // not JSON: compared by status only
  }
  return { status: res.statusCode, code: body.error?.code, message: body.error?.message?.split(id).join('<id>') };
};

describe('tenant isolation', () => {
  let t: TestService;
  let owner: IssuedCredentials;
  let a: Client;
  const intruders: Record<
    'with records' | 'without records',
    { creds: IssuedCredentials; api: Client; own: { policies: string[]; consents: string[] } }
  > = {} as never;
  // The owner's records.
  let cookiePolicy: string;
  let privacyPolicy: string;
  let consentGiven: string;
  let consentRejected: string;
  let ownerWebhook: string;
  const aIds = () => ({ policies: [cookiePolicy, privacyPolicy], consents: [consentGiven, consentRejected] });

  /** What the owner sees of its own records: compared before and after the intruders' attempts. */
  const ownerView = async () => {
    const reads = await Promise.all([
      ...aIds().policies.map((id) => a.get(`/api/v1/policies/${id}`)),
      ...aIds().consents.map((id) => a.get(`/api/v1/consent/${id}`)),
      ...aIds().consents.map((id) => a.get(`/api/v1/consent/${id}/verify`)),
      a.get('/api/v1/policies'),
      a.get('/api/v1/policies/active/cookie_policy'),
      a.get(`/api/v1/consent/search?userReference=${encodeURIComponent(SHARED_USER)}`),
      a.get(`/api/v1/consent/user/${encodeURIComponent(SHARED_USER)}/status`),
      a.get('/api/v1/consent/stats'),
      a.get('/api/v1/consent/export'),
      a.get(`/api/v1/webhooks/${ownerWebhook}`),
      a.get('/api/v1/webhooks'),
    ]);
    for (const r of reads) expect(r.statusCode).toBe(200);
    // Drop what differs between two identical reads: response timestamps and verification times.
    const strip = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(strip);
      if (value && typeof value === 'object') {
        return Object.fromEntries(
          Object.entries(value)
            .filter(([k]) => k !== 'meta' && k !== 'verifiedAt')
            .map(([k, v]) => [k, strip(v)]),
        );
      }
      return value;
    };
    return reads.map((r) => (String(r.headers['content-type']).startsWith('text/csv') ? r.body : strip(r.json())));
  };
  let before: unknown[];
  let ownerHead: Awaited<ReturnType<TestService['service']['ledger']['headPosition']>>;

  beforeAll(async () => {
    t = await startTestService();
    owner = await t.tenant('pro');
    a = client(t.app, owner);
    cookiePolicy = await publishPolicy(a, { policyType: 'cookie_policy', version: '1.0.0', title: 'Owner cookies' });
    privacyPolicy = await publishPolicy(a, { policyType: 'privacy_policy', version: '1.0.0', title: 'Owner privacy' });
    const record = async (c: Client, policyVersionId: string, consentGiven: boolean) => {
      const res = await c.post('/api/v1/consent', {
        policyVersionId,
        userReference: SHARED_USER,
        consentGiven,
        metadata: { source: 'owner-secret-source' },
      });
      expect(res.statusCode).toBe(201);
      return res.json().data.id as string;
    };
    consentGiven = await record(a, privacyPolicy, true);
    consentRejected = await record(a, cookiePolicy, false);
    const hook = await a.post('/api/v1/webhooks', { url: 'https://owner-hooks.example.com/in', events: ['*'], description: 'Owner hook' });
    expect(hook.statusCode).toBe(201);
    ownerWebhook = hook.json().data.id as string;

    const withRecords = await t.tenant('pro');
    const b = client(t.app, withRecords);
    const bPolicy = await publishPolicy(b, { policyType: 'privacy_policy', version: '1.0.0', title: 'Intruder privacy' });
    const bConsent = await record(b, bPolicy, true);
    intruders['with records'] = { creds: withRecords, api: b, own: { policies: [bPolicy], consents: [bConsent] } };
    const empty = await t.tenant('pro');
    intruders['without records'] = { creds: empty, api: client(t.app, empty), own: { policies: [], consents: [] } };

    // The owner's reads wait for its own writes, so its records are in every read model now:
    // an intruder's empty list below means isolation, not lag.
    before = await ownerView();
    const search = (before[8] as { data: { id: string }[] }).data.map((x) => x.id);
    expect(search.sort()).toEqual([consentGiven, consentRejected].sort());
    ownerHead = await t.service.ledger.headPosition(owner.tenantId);
  });
  afterAll(() => t?.close());

  describe.each(['with records', 'without records'] as const)('tenant isolation › when an intruder %s uses the owner’s ids', (who) => {
    const intruder = () => intruders[who];

    /** The intruder's answer on the owner's id equals its answer on an id that exists nowhere, and is a 404. */
    const expectSameAsNonexistent = async (
      method: Method,
      url: (id: string) => string,
      ownerId: string,
      payload?: (id: string) => unknown,
      code = 'NOT_FOUND',
    ) => {
      const random = randomUUID();
      const send = (id: string) => {
        const body = payload?.(id);
        return intruder().api.inject({ method, url: url(id), ...(body === undefined ? {} : { payload: body as object }) });
      };
      const onOwners = await send(ownerId);
      const onNothing = await send(random);
      expect(onOwners.statusCode, `${method} ${url(ownerId)}: ${onOwners.body}`).toBe(404);
      expect(answerOf(onOwners, ownerId)).toEqual(answerOf(onNothing, random));
      expect(onOwners.json().error.code).toBe(code);
      expect(onOwners.body).not.toMatch(/Owner (cookies|privacy)|owner-secret-source/);
      return onOwners;
    };

    it.each(PREFIXES)('policy by id (%s): get, PUT, PATCH and DELETE answer 404', async (prefix) => {
      for (const id of aIds().policies) {
        await expectSameAsNonexistent('GET', (x) => `${prefix}/policies/${x}`, id);
        await expectSameAsNonexistent(
          'PUT',
          (x) => `${prefix}/policies/${x}`,
          id,
          () => ({ isActive: false }),
        );
        await expectSameAsNonexistent(
          'PATCH',
          (x) => `${prefix}/policies/${x}`,
          id,
          () => ({ isActive: false }),
        );
        await expectSameAsNonexistent('DELETE', (x) => `${prefix}/policies/${x}`, id);
      }
    });

    it.each(PREFIXES)('webhook by id (%s): get, PUT, PATCH, DELETE, deliveries and test answer 404', async (prefix) => {
      await expectSameAsNonexistent('GET', (x) => `${prefix}/webhooks/${x}`, ownerWebhook);
      await expectSameAsNonexistent(
        'PUT',
        (x) => `${prefix}/webhooks/${x}`,
        ownerWebhook,
        () => ({ isActive: false }),
      );
      await expectSameAsNonexistent(
        'PATCH',
        (x) => `${prefix}/webhooks/${x}`,
        ownerWebhook,
        () => ({ events: ['policy.created'] }),
      );
      await expectSameAsNonexistent('DELETE', (x) => `${prefix}/webhooks/${x}`, ownerWebhook);
      await expectSameAsNonexistent('GET', (x) => `${prefix}/webhooks/${x}/deliveries`, ownerWebhook);
      await expectSameAsNonexistent('POST', (x) => `${prefix}/webhooks/${x}/test`, ownerWebhook);
      const list = await intruder().api.get(`${prefix}/webhooks`);
      expect(list.json().data.map((w: { id: string }) => w.id)).not.toContain(ownerWebhook);
    });

    it('active policy: the owner’s active cookie policy is not the intruder’s (404 NO_ACTIVE_POLICY)', async () => {
      for (const prefix of PREFIXES) {
        const res = await intruder().api.get(`${prefix}/policies/active/cookie_policy`);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('NO_ACTIVE_POLICY');
        const privacy = await intruder().api.get(`${prefix}/policies/active/privacy_policy`);
        if (intruder().own.policies.length === 0) {
          expect(privacy.statusCode).toBe(404);
          expect(privacy.json().error.code).toBe('NO_ACTIVE_POLICY');
        } else {
          // The owner's privacy policy is as new as the intruder's; only the intruder's own counts.
          expect(privacy.statusCode).toBe(200);
          expect(privacy.json().data.id).toBe(intruder().own.policies[0]);
        }
      }
    });

    it.each(PREFIXES)('consent by id (%s): get, verify by path and by query, and withdraw answer 404', async (prefix) => {
      for (const id of aIds().consents) {
        await expectSameAsNonexistent('GET', (x) => `${prefix}/consent/${x}`, id);
        await expectSameAsNonexistent('GET', (x) => `${prefix}/consent/${x}/verify`, id);
        await expectSameAsNonexistent('GET', (x) => `${prefix}/consent/verify?consentId=${x}`, id);
        await expectSameAsNonexistent(
          'POST',
          (x) => `${prefix}/consent/${x}/withdraw`,
          id,
          () => ({ reason: 'not mine to withdraw' }),
        );
      }
    });

    it('recording consent against the owner’s policy version answers as for a version that does not exist, and records nothing', async () => {
      const head = await t.service.ledger.headPosition(intruder().creds.tenantId);
      for (const policyVersionId of aIds().policies) {
        const random = randomUUID();
        const single = (id: string) =>
          intruder().api.post('/api/v1/consent', { policyVersionId: id, userReference: SHARED_USER, consentGiven: true });
        const batch = (id: string) =>
          intruder().api.post('/api/v1/consent/batch', {
            consents: [{ policyVersionId: id, userReference: SHARED_USER, consentGiven: true }],
          });
        for (const send of [single, batch]) {
          const onOwners = await send(policyVersionId);
          const onNothing = await send(random);
          expect(onOwners.statusCode).toBeGreaterThanOrEqual(400);
          expect(onOwners.statusCode).not.toBe(403);
          expect(answerOf(onOwners, policyVersionId)).toEqual(answerOf(onNothing, random));
          expect(onOwners.body).not.toMatch(/Owner (cookies|privacy)/);
        }
      }
      expect(await t.service.ledger.headPosition(intruder().creds.tenantId)).toEqual(head);
    });

    it('lists hold only the intruder’s own records: policies, search, user list, user status', async () => {
      const own = intruder().own;
      const user = encodeURIComponent(SHARED_USER);
      for (const prefix of PREFIXES) {
        const policies = await intruder().api.get(`${prefix}/policies`);
        expect(policies.statusCode).toBe(200);
        expect(policies.json().data.map((p: { id: string }) => p.id)).toEqual(own.policies);
        expect(policies.json().pagination.total).toBe(own.policies.length);

        for (const url of [
          `${prefix}/consent/search`,
          `${prefix}/consent`,
          `${prefix}/consent/search?userReference=${user}`,
          `${prefix}/consent/search?policyType=cookie_policy`,
          `${prefix}/consent?consent_type=privacy_policy&granted=true`,
          `${prefix}/consent/user/${user}`,
        ]) {
          const res = await intruder().api.get(url);
          expect(res.statusCode, url).toBe(200);
          const ids = res.json().data.map((c: { id: string }) => c.id);
          for (const id of aIds().consents) expect(ids, url).not.toContain(id);
          expect(res.json().pagination.total, url).toBe(ids.length);
          expect(
            ids.every((id: string) => own.consents.includes(id)),
            url,
          ).toBe(true);
        }
        expect(
          (await intruder().api.get(`${prefix}/consent/search?userReference=${user}`)).json().data.map((c: { id: string }) => c.id),
        ).toEqual(own.consents);

        const status = await intruder().api.get(`${prefix}/consent/user/${user}/status`);
        expect(status.statusCode).toBe(200);
        const decisions = status.json().data.policies as { consentId?: string; policyType: string }[];
        expect(JSON.stringify(decisions)).not.toMatch(new RegExp(aIds().consents.concat(aIds().policies).join('|')));
        expect(decisions.map((d) => d.policyType)).toEqual(own.consents.length ? ['privacy_policy'] : []);
      }
    });

    it('stats count only the intruder’s own records', async () => {
      const n = intruder().own.consents.length;
      for (const prefix of PREFIXES) {
        const res = await intruder().api.get(`${prefix}/consent/stats`);
        expect(res.statusCode).toBe(200);
        expect(res.json().data).toEqual({
          totalConsents: n,
          acceptedConsents: n,
          rejectedConsents: 0,
          acceptanceRate: n ? 100 : 0,
          consentsByPolicy: n ? [{ policyType: 'privacy_policy', count: n }] : [],
        });
        const cookies = await intruder().api.get(
          `${prefix}/consent/stats?policyType=cookie_policy&userReference=${encodeURIComponent(SHARED_USER)}`,
        );
        expect(cookies.json().data).toMatchObject({ totalConsents: 0, acceptedConsents: 0, rejectedConsents: 0, acceptanceRate: 0 });
      }
    });

    it('the CSV export holds only the intruder’s own records', async () => {
      for (const prefix of PREFIXES) {
        const res = await intruder().api.get(`${prefix}/consent/export`);
        expect(res.statusCode).toBe(200);
        const lines = res.body.trim().split(/\r?\n/);
        expect(lines).toHaveLength(1 + intruder().own.consents.length);
        for (const id of [...aIds().consents, ...aIds().policies]) expect(res.body).not.toContain(id);
        for (const id of intruder().own.consents) expect(res.body).toContain(id);
      }
    });

    it('every documented route that takes an id answers the owner’s ids as ids that exist nowhere', async () => {
      // A sweep over the OpenAPI document, so a route added later is covered too.
      const doc = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
      const swept: string[] = [];
      for (const [path, operations] of Object.entries(doc.paths)) {
        const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        if (!path.startsWith('/api/v1/') || params.length === 0 || params.some((p) => !/id$/i.test(p))) continue;
        for (const method of Object.keys(operations)
          .map((m) => m.toUpperCase())
          .filter((m): m is Method => ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m))) {
          for (const ownerId of [...aIds().consents, ...aIds().policies, ownerWebhook]) {
            const random = randomUUID();
            const send = (id: string) =>
              intruder().api.inject({
                method,
                url: path.replace(/\{\w+\}/g, id),
                ...(method === 'GET' || method === 'DELETE' ? {} : { payload: { isActive: true, reason: 'sweep' } }),
              });
            const onOwners = await send(ownerId);
            const onNothing = await send(random);
            expect([400, 404], `${method} ${path}: ${onOwners.body}`).toContain(onOwners.statusCode);
            expect(answerOf(onOwners, ownerId), `${method} ${path}`).toEqual(answerOf(onNothing, random));
          }
          swept.push(`${method} ${path}`);
        }
      }
      // The sweep must have found the id routes this file knows of, or it proves nothing.
      expect(swept).toEqual(
        expect.arrayContaining([
          'GET /api/v1/policies/{id}',
          'PUT /api/v1/policies/{id}',
          'PATCH /api/v1/policies/{id}',
          'DELETE /api/v1/policies/{id}',
          'GET /api/v1/consent/{id}',
          'GET /api/v1/consent/{id}/verify',
          'POST /api/v1/consent/{id}/withdraw',
          'GET /api/v1/webhooks/{id}',
          'PUT /api/v1/webhooks/{id}',
          'PATCH /api/v1/webhooks/{id}',
          'DELETE /api/v1/webhooks/{id}',
          'GET /api/v1/webhooks/{id}/deliveries',
          'POST /api/v1/webhooks/{id}/test',
        ]),
      );
    });
  });

  describe('tenant isolation › after every intruder attempt › the owner’s records are unchanged', () => {
    it('reads the same policies, consents, verifications, lists, stats and export, and its ledger gained nothing', async () => {
      expect(await ownerView()).toEqual(before);
      expect(await t.service.ledger.headPosition(owner.tenantId)).toEqual(ownerHead);
      const given = await a.get(`/api/v1/consent/${consentGiven}`);
      expect(given.json().data).toMatchObject({ consentGiven: true, withdrawnAt: null });
      expect(given.json().data.status).not.toBe('withdrawn');
      const policy = await a.get(`/api/v1/policies/${cookiePolicy}`);
      expect(policy.json().data).toMatchObject({ isActive: true, title: 'Owner cookies' });
    });
  });
});
