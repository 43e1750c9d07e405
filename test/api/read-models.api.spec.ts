import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startsAfterEnd } from '../../src/common/dates.js';
import { rebuildReadModels } from '../../projections/rebuild.js';
import type { ConsentInput } from '../../src/application/consents/consent.commands.js';
import { applicationOn } from '../support/application.js';
import { snapshotReadModels } from '../support/projections.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';
import { prng } from '../support/prng.js';

const DAY = 86_400_000;

const qs = (params: Record<string, string | number | boolean | undefined>): string => {
  const entries = Object.entries(params).filter((e): e is [string, string | number | boolean] => e[1] !== undefined);
  return entries.length === 0 ? '' : `?${new URLSearchParams(entries.map(([k, v]): [string, string] => [k, String(v)])).toString()}`;
};

interface Tenant {
  tenantId: string;
  api: Client;
}

/** A tenant whose limits no test here comes near. */
async function roomyTenant(t: TestService): Promise<Tenant> {
  const creds = await t.tenant('enterprise');
  await t.service.tenants.update(creds.tenantId, { limits: { perMinute: 1_000_000, perDay: 10_000_000 } });
  return { tenantId: creds.tenantId, api: client(t.app, creds) };
}

/** Records decisions at exact times: the production consent commands, on the service's ledger, with a clock we hold. */
function clockedConsents(t: TestService) {
  let now = new Date();
  const service = applicationOn(t.service.ledger, t.service.privacy, t.service.store, { clock: () => now }).consents;
  return {
    async at(iso: string | number, tenantId: string, input: ConsentInput): Promise<string> {
      now = new Date(iso);
      return (await service.record(tenantId, input)).view.id;
    },
  };
}

/** Every search result of a query, all pages. */
async function searchAll(api: Client, params: Record<string, string | number | boolean | undefined>) {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get(`/api/v1/consent/search${qs({ ...params, page, limit: 100 })}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    items.push(...body.data);
    if (page >= body.pagination.pages) {
      expect(items).toHaveLength(body.pagination.total);
      return items;
    }
  }
}

describe('read models over HTTP', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t?.close());

  describe('read models › when a client reads right after its own write', () => {
    it('finds every write in search, user list, stats, status and export, each read first after the write, without waiting', async () => {
      const { api } = await roomyTenant(t);
      const policies = {
        privacy_policy: await publishPolicy(api, { policyType: 'privacy_policy' }),
        terms_of_service: await publishPolicy(api, { policyType: 'terms_of_service' }),
      };
      type Kind = keyof typeof policies;
      /** What the ledger holds for one user, in the order written. */
      type Model = { id: string; kind: Kind; given: boolean; withdrawn: boolean }[];
      const pairs = (rows: { id: string; status: string }[]) => rows.map((r) => `${r.id}:${r.status}`).sort();
      const expectedPairs = (m: Model) => m.map((r) => `${r.id}:${r.withdrawn ? 'withdrawn' : 'active'}`).sort();

      // Each read, checked as the first request after a write: a read that did not wait for its
      // own writes would miss them here.
      const reads: Record<string, (user: string, m: Model) => Promise<void>> = {
        search: async (user, m) => {
          const res = await api.get(`/api/v1/consent/search?userReference=${user}`);
          expect(pairs(res.json().data)).toEqual(expectedPairs(m));
        },
        userList: async (user, m) => {
          const res = await api.get(`/v1/consent/user/${user}`);
          expect(pairs(res.json().data)).toEqual(expectedPairs(m));
        },
        stats: async (user, m) => {
          const res = await api.get(`/api/v1/consent/stats?userReference=${user}&status=active`);
          const active = m.filter((r) => !r.withdrawn);
          expect(res.json().data).toMatchObject({ totalConsents: active.length, acceptedConsents: active.filter((r) => r.given).length });
        },
        status: async (user, m) => {
          const res = await api.get(`/api/v1/consent/user/${user}/status`);
          const latest = new Map<Kind, Model[number]>();
          for (const r of m) latest.set(r.kind, r);
          expect(
            res
              .json()
              .data.policies.map((p: { consentId: string; status: string }) => `${p.consentId}:${p.status}`)
              .sort(),
          ).toEqual([...latest.values()].map((r) => `${r.id}:${r.withdrawn ? 'withdrawn' : r.given ? 'given' : 'rejected'}`).sort());
        },
        export: async (user, m) => {
          const res = await api.get(`/api/v1/consent/export?userReference=${user}`);
          const rows = res.body
            .trim()
            .split('\r\n')
            .slice(1)
            .map((line) => line.split(',').map((cell) => cell.replace(/^"(.*)"$/, '$1')));
          expect(rows.map((cells) => `${cells[0]}:${cells[6]}`).sort()).toEqual(expectedPairs(m));
        },
      };

      for (let round = 0; round < 2; round++) {
        for (const [name, read] of Object.entries(reads)) {
          const user = `ryw-${name}-${round}`;
          const m: Model = [];
          const one = await api.post('/api/v1/consent', {
            policyVersionId: policies.privacy_policy,
            userReference: user,
            consentGiven: true,
          });
          expect(one.statusCode).toBe(201);
          m.push({ id: one.json().data.id, kind: 'privacy_policy', given: true, withdrawn: false });
          await read(user, m);

          expect((await api.post(`/api/v1/consent/${m[0]!.id}/withdraw`, { reason: 'r' })).statusCode).toBe(200);
          m[0]!.withdrawn = true;
          await read(user, m);

          const batch = await api.post('/api/v1/consent/batch', {
            consents: [
              { policyVersionId: policies.terms_of_service, userReference: user, consentGiven: true },
              { policyVersionId: policies.privacy_policy, userReference: user, consentGiven: false },
            ],
          });
          expect(batch.statusCode).toBe(201);
          const [terms, rejected] = batch.json().data.consents.map((c: { id: string }) => c.id) as [string, string];
          m.push(
            { id: terms, kind: 'terms_of_service', given: true, withdrawn: false },
            { id: rejected, kind: 'privacy_policy', given: false, withdrawn: false },
          );
          await read(user, m);

          const idem = await api.post(
            '/api/v1/consent',
            { policyVersionId: policies.privacy_policy, userReference: user, consentGiven: true },
            { 'idempotency-key': `ryw-${user}` },
          );
          expect(idem.statusCode).toBe(201);
          m.push({ id: idem.json().data.id, kind: 'privacy_policy', given: true, withdrawn: false });
          await read(user, m);
        }
      }
    });
  });

  describe('search › when records carry known times around a UTC day', () => {
    let tenant: Tenant;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      tenant = await roomyTenant(t);
      const privacy = await publishPolicy(tenant.api, { policyType: 'privacy_policy' });
      const cookies = await publishPolicy(tenant.api, { policyType: 'cookie_policy' });
      const rec = clockedConsents(t);
      const at = (name: string, iso: string, policyVersionId: string, userReference: string, consentGiven: boolean) =>
        rec.at(iso, tenant.tenantId, { policyVersionId, userReference, consentGiven }).then((id) => (ids[name] = id));
      await at('lastOfDayBefore', '2024-05-09T23:59:59.999Z', privacy, 'ann', true);
      await at('midnight', '2024-05-10T00:00:00.000Z', cookies, 'ann', false);
      await at('noon', '2024-05-10T12:00:00.000Z', privacy, 'bob', true);
      await at('noonAndAMs', '2024-05-10T12:00:00.001Z', cookies, 'bob', true);
      await at('lastOfDay', '2024-05-10T23:59:59.999Z', privacy, 'cid', false);
      await at('nextMidnight', '2024-05-11T00:00:00.000Z', cookies, 'ann', true);
      const w = await tenant.api.post(`/api/v1/consent/${ids.noon}/withdraw`);
      expect(w.statusCode).toBe(200);
    });

    const find = async (params: Record<string, string | boolean>) => {
      const items = await searchAll(tenant.api, params);
      const names = Object.fromEntries(Object.entries(ids).map(([k, v]) => [v, k]));
      return items.map((i) => names[i.id as string]).sort();
    };

    it('bounds createdAt inclusively; a date covers the whole UTC day', async () => {
      expect(await find({ startDate: '2024-05-10', endDate: '2024-05-10' })).toEqual(['lastOfDay', 'midnight', 'noon', 'noonAndAMs']);
      expect(await find({ startDate: '2024-05-10' })).toEqual(['lastOfDay', 'midnight', 'nextMidnight', 'noon', 'noonAndAMs']);
      expect(await find({ endDate: '2024-05-09' })).toEqual(['lastOfDayBefore']);
      const reversed = await tenant.api.get('/api/v1/consent/search?startDate=2024-05-11&endDate=2024-05-09');
      expect(reversed.statusCode).toBe(400);
      expect(reversed.json().error.details.errors).toEqual([{ field: 'startDate', message: 'must not be after endDate' }]);
      expect(await find({ startDate: '2024-05-10T12:00:00.001Z', endDate: '2024-05-10' })).toEqual(['lastOfDay', 'noonAndAMs']);
    });

    it('takes date-time bounds to the millisecond, inclusive at both ends', async () => {
      expect(await find({ startDate: '2024-05-10T12:00:00.000Z' })).toEqual(['lastOfDay', 'nextMidnight', 'noon', 'noonAndAMs']);
      expect(await find({ startDate: '2024-05-10T12:00:00.001Z' })).toEqual(['lastOfDay', 'nextMidnight', 'noonAndAMs']);
      expect(await find({ endDate: '2024-05-10T12:00:00Z' })).toEqual(['lastOfDayBefore', 'midnight', 'noon']);
      expect(await find({ startDate: '2024-05-10T12:00:00Z', endDate: '2024-05-10T12:00:00Z' })).toEqual(['noon']);
      expect(await find({ startDate: '2024-05-09T23:59:59.999Z', endDate: '2024-05-10T00:00:00.000Z' })).toEqual([
        'lastOfDayBefore',
        'midnight',
      ]);
      // Finer than a millisecond: bounds still hold exactly (records are stamped to the millisecond).
      expect(await find({ startDate: '2024-05-10T12:00:00.0001Z' })).toEqual(['lastOfDay', 'nextMidnight', 'noonAndAMs']);
      expect(await find({ startDate: '2024-05-10T12:00:00.000000Z', endDate: '2024-05-10T12:00:00.000999Z' })).toEqual(['noon']);
      expect(await find({ startDate: '2024-05-10T12:00:00.0009999Z', endDate: '2024-05-10T12:00:00.001000001Z' })).toEqual(['noonAndAMs']);
      // An offset names the same instant.
      expect(await find({ startDate: '2024-05-10T14:00:00+02:00', endDate: '2024-05-10T14:00:00.001+02:00' })).toEqual([
        'noon',
        'noonAndAMs',
      ]);
    });

    it('refuses a date-time without a zone rather than guess one, whatever the server zone', async () => {
      const zone = process.env.TZ;
      process.env.TZ = 'America/New_York';
      try {
        expect(new Date(2024, 4, 10).getTimezoneOffset()).not.toBe(0);
        const res = await tenant.api.get('/api/v1/consent/search?startDate=2024-05-10T12:00:00');
        expect(res.statusCode).toBe(400);
        expect(res.json().error.details.errors).toMatchObject([{ field: 'startDate' }]);
        expect(await find({ startDate: '2024-05-10T08:00:00-04:00', endDate: '2024-05-10T08:00:00.001-04:00' })).toEqual([
          'noon',
          'noonAndAMs',
        ]);
        expect(await find({ startDate: '2024-05-10', endDate: '2024-05-10' })).toEqual(['lastOfDay', 'midnight', 'noon', 'noonAndAMs']);
      } finally {
        if (zone === undefined) delete process.env.TZ;
        else process.env.TZ = zone;
      }
    });

    it('filters by user, policy type (both spellings), decision (both spellings) and status', async () => {
      expect(await find({ userReference: 'ann' })).toEqual(['lastOfDayBefore', 'midnight', 'nextMidnight']);
      expect(await find({ policyType: 'cookie_policy' })).toEqual(['midnight', 'nextMidnight', 'noonAndAMs']);
      expect(await find({ consent_type: 'cookie_policy' })).toEqual(['midnight', 'nextMidnight', 'noonAndAMs']);
      expect(await find({ consentGiven: false })).toEqual(['lastOfDay', 'midnight']);
      expect(await find({ granted: false })).toEqual(['lastOfDay', 'midnight']);
      expect(await find({ granted: true, policyType: 'privacy_policy' })).toEqual(['lastOfDayBefore', 'noon']);
      expect(await find({ status: 'withdrawn' })).toEqual(['noon']);
      expect(await find({ status: 'active', userReference: 'bob' })).toEqual(['noonAndAMs']);
      expect(await find({ userReference: 'ann', policyType: 'cookie_policy', consentGiven: true, startDate: '2024-05-11' })).toEqual([
        'nextMidnight',
      ]);
      expect(await find({ userReference: 'nobody' })).toEqual([]);
    });

    it('answers the search fields, newest first', async () => {
      const body = (await tenant.api.get('/v1/consent?userReference=ann')).json();
      expect(body.data.map((r: { id: string }) => r.id)).toEqual([ids.nextMidnight, ids.midnight, ids.lastOfDayBefore]);
      expect(Object.keys(body.data[0]).sort()).toEqual(
        [
          'id',
          'consentHash',
          'userReference',
          'policyVersionId',
          'policyType',
          'policyVersion',
          'consentGiven',
          'status',
          'ipAddress',
          'userAgent',
          'metadata',
          'createdAt',
          'withdrawnAt',
          'erased',
          'tampered',
        ].sort(),
      );
      expect(body.data[1]).toMatchObject({
        createdAt: '2024-05-10T00:00:00.000Z',
        policyType: 'cookie_policy',
        consentGiven: false,
        status: 'active',
        withdrawnAt: null,
      });
      const noon = (await tenant.api.get(`/api/v1/consent/search?status=withdrawn`)).json().data[0];
      expect(noon.withdrawnAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    });

    it('refuses filters it cannot read, and two spellings of one filter that disagree', async () => {
      for (const query of [
        'startDate=yesterday',
        'endDate=2024-13-01',
        'startDate=2024-05-10T25:00:00Z',
        'policyType=unknown',
        'consent_type=unknown',
        'consentGiven=maybe',
        'status=deleted',
        'userReference=',
        'policyType=privacy_policy&consent_type=cookie_policy',
        'consentGiven=true&granted=false',
      ]) {
        for (const path of ['/api/v1/consent/search', '/api/v1/consent/stats', '/api/v1/consent/export']) {
          const res = await tenant.api.get(`${path}?${query}`);
          expect(res.statusCode, `${path}?${query}`).toBe(400);
          expect(res.json().error.code).toBe('VALIDATION_ERROR');
        }
      }
      expect(await find({ policyType: 'cookie_policy', consent_type: 'cookie_policy' })).toEqual([
        'midnight',
        'nextMidnight',
        'noonAndAMs',
      ]);
    });

    it('takes the widest dates the format allows', async () => {
      for (const path of ['/api/v1/consent/search', '/api/v1/consent/stats', '/api/v1/consent/export']) {
        const res = await tenant.api.get(`${path}?startDate=1970-01-01&endDate=9999-12-31`);
        expect(res.statusCode, `${path}: ${res.body.slice(0, 300)}`).toBe(200);
      }
      for (const query of [
        'startDate=9999-12-31T12:00:00Z',
        'startDate=9999-12-31T23:59:59.9991Z',
        'startDate=9999-12-31',
        'endDate=9999-12-31T23:59:59.999Z',
        'startDate=0001-01-02&endDate=0001-01-02T05:00:00Z',
      ]) {
        for (const path of ['/api/v1/consent/search', '/api/v1/consent/stats', '/api/v1/consent/export']) {
          const res = await tenant.api.get(`${path}?${query}`);
          expect(res.statusCode, `${path}?${query}: ${res.body.slice(0, 300)}`).toBe(200);
        }
      }
      expect(await find({ startDate: '1970-01-01', endDate: '9999-12-31' })).toHaveLength(6);
      expect(await find({ startDate: '9999-12-31' })).toEqual([]);
      expect((await tenant.api.get('/api/v1/consent/stats?endDate=9999-12-31T23:59:59.999Z')).json().data.totalConsents).toBe(6);
    });
  });

  describe('search › pagination', () => {
    let tenant: Tenant;
    beforeAll(async () => {
      tenant = await roomyTenant(t);
      const policyVersionId = await publishPolicy(tenant.api);
      const res = await tenant.api.post('/api/v1/consent/batch', {
        consents: Array.from({ length: 45 }, (_, i) => ({ policyVersionId, userReference: `p${i}`, consentGiven: true })),
      });
      expect(res.statusCode).toBe(201);
    });

    it('answers page, limit, total and pages, and pages cover every record once', async () => {
      const seen = new Set<string>();
      for (let page = 1; page <= 3; page++) {
        const body = (await tenant.api.get(`/api/v1/consent/search?page=${page}&limit=20`)).json();
        expect(body.pagination).toEqual({ page, limit: 20, total: 45, pages: 3 });
        expect(body.data).toHaveLength(page < 3 ? 20 : 5);
        for (const r of body.data) seen.add(r.id);
      }
      expect(seen.size).toBe(45);
      expect((await tenant.api.get('/api/v1/consent/search')).json().pagination).toEqual({ page: 1, limit: 20, total: 45, pages: 3 });
      expect((await tenant.api.get('/api/v1/consent/search?limit=100')).json().pagination).toEqual({
        page: 1,
        limit: 100,
        total: 45,
        pages: 1,
      });
      expect((await tenant.api.get('/api/v1/consent/search?limit=1')).json().pagination).toEqual({
        page: 1,
        limit: 1,
        total: 45,
        pages: 45,
      });
      const past = (await tenant.api.get('/api/v1/consent/search?page=9&limit=20')).json();
      expect(past.data).toEqual([]);
      expect(past.pagination).toEqual({ page: 9, limit: 20, total: 45, pages: 3 });
      expect((await tenant.api.get('/api/v1/consent/search?userReference=none')).json().pagination).toEqual({
        page: 1,
        limit: 20,
        total: 0,
        pages: 0,
      });
      const user = (await tenant.api.get('/api/v1/consent/user/p3?limit=5')).json();
      expect(user.pagination).toEqual({ page: 1, limit: 5, total: 1, pages: 1 });
    });

    it('refuses out-of-range pages and limits instead of clamping them', async () => {
      for (const query of ['limit=0', 'limit=101', 'page=0', 'page=-1', 'limit=1.5', 'page=abc']) {
        for (const path of ['/api/v1/consent/search', '/v1/consent', '/api/v1/consent/user/p1']) {
          const res = await tenant.api.get(`${path}?${query}`);
          expect(res.statusCode, `${path}?${query}`).toBe(400);
          expect(res.json().error.code).toBe('VALIDATION_ERROR');
          expect(res.json().meta.timestamp).toBeDefined();
        }
      }
    });
  });

  describe('stats › when records spread over several days', () => {
    it('equal a count over the search rows for random filters, day ranges, ranges inside a day and time-of-day bounds', async () => {
      const seed = Number(process.env.STATS_SEED ?? Date.now() % 1_000_000);
      const random = prng(seed);
      const tenant = await roomyTenant(t);
      const types = ['privacy_policy', 'cookie_policy', 'marketing_consent'] as const;
      const policies = await Promise.all(types.map((policyType) => publishPolicy(tenant.api, { policyType })));
      const rec = clockedConsents(t);
      const start = Date.UTC(2024, 6, 1);
      const times: number[] = [];
      const recorded: string[] = [];
      for (let i = 0; i < 120; i++) {
        const r = random();
        const day = Math.floor(random() * 4);
        const at = start + day * DAY + (r < 0.1 ? 0 : r < 0.2 ? DAY - 1 : Math.floor(random() * DAY));
        times.push(at);
        const k = Math.floor(random() * types.length);
        recorded.push(
          await rec.at(at, tenant.tenantId, {
            policyVersionId: policies[k]!,
            userReference: `s${Math.floor(random() * 3)}`,
            consentGiven: random() < 0.65,
          }),
        );
      }
      for (const id of recorded.filter((_, i) => i % 7 === 0)) await tenant.api.post(`/api/v1/consent/${id}/withdraw`);

      const iso = (ms: number) => new Date(ms).toISOString();
      const date = (ms: number) => iso(ms).slice(0, 10);
      const bound = (): string | undefined => {
        const kind = random();
        const day = start + Math.floor(random() * 6 - 1) * DAY;
        if (kind < 0.15) return undefined;
        if (kind < 0.45) return date(day);
        if (kind < 0.6) return iso(times[Math.floor(random() * times.length)]!);
        if (kind < 0.7) return iso(day);
        return iso(day + Math.floor(random() * DAY));
      };
      const pick = <T>(values: readonly T[]): T | undefined => (random() < 0.6 ? undefined : values[Math.floor(random() * values.length)]);
      for (let i = 0; i < 80; i++) {
        let startDate = bound();
        let endDate = bound();
        if (i % 4 === 0) {
          // Inside one day, with time-of-day bounds on both sides.
          const day = start + Math.floor(random() * 4) * DAY;
          const a = Math.floor(random() * DAY);
          const b = a + Math.floor(random() * (DAY - a));
          [startDate, endDate] = [iso(day + a), iso(day + b)];
        }
        const params = {
          startDate,
          endDate,
          policyType: pick(types),
          consentGiven: pick([true, false]),
          userReference: i % 3 === 0 ? pick(['s0', 's1', 's2']) : undefined,
          status: i % 5 === 0 ? pick(['active', 'withdrawn']) : undefined,
        };
        // A range that starts after it ends is refused by both, naming its start.
        if (startDate && endDate && startsAfterEnd(startDate, endDate)) {
          for (const route of ['search', 'stats']) {
            const res = await tenant.api.get(`/api/v1/consent/${route}${qs(params)}`);
            expect(res.statusCode, `seed ${seed}, case ${i}: ${JSON.stringify(params)}`).toBe(400);
            expect(res.json().error.details.errors[0].field).toBe('startDate');
          }
          continue;
        }
        const rows = await searchAll(tenant.api, params);
        const stats = (await tenant.api.get(`/api/v1/consent/stats${qs(params)}`)).json().data;
        const accepted = rows.filter((r) => r.consentGiven).length;
        const byType = new Map<string, number>();
        for (const r of rows) byType.set(r.policyType as string, (byType.get(r.policyType as string) ?? 0) + 1);
        expect(stats, `seed ${seed}, case ${i}: ${JSON.stringify(params)}`).toEqual({
          totalConsents: rows.length,
          acceptedConsents: accepted,
          rejectedConsents: rows.length - accepted,
          acceptanceRate: rows.length === 0 ? 0 : Math.floor((2000 * accepted + rows.length) / (2 * rows.length)) / 10,
          consentsByPolicy: [...byType]
            .map(([policyType, count]) => ({ policyType, count }))
            .sort((a, b) => b.count - a.count || a.policyType.localeCompare(b.policyType)),
        });
      }
      expect((await tenant.api.get('/api/v1/consent/stats')).json().data.totalConsents).toBe(120);
    });

    it('rounds acceptanceRate to one decimal and answers 0 with no records', async () => {
      const tenant = await roomyTenant(t);
      const empty = (await tenant.api.get('/api/v1/consent/stats')).json();
      expect(empty.data).toEqual({ totalConsents: 0, acceptedConsents: 0, rejectedConsents: 0, acceptanceRate: 0, consentsByPolicy: [] });
      expect(empty.meta.timestamp).toBeDefined();
      const policyVersionId = await publishPolicy(tenant.api);
      const batch = (n: number, given: number) =>
        tenant.api.post('/api/v1/consent/batch', {
          consents: Array.from({ length: n }, (_, i) => ({ policyVersionId, userReference: `rate-${n}-${i}`, consentGiven: i < given })),
        });
      expect((await batch(3, 2)).statusCode).toBe(201);
      expect((await tenant.api.get('/api/v1/consent/stats')).json().data).toMatchObject({
        totalConsents: 3,
        acceptedConsents: 2,
        acceptanceRate: 66.7,
      });
      expect((await batch(397, 199)).statusCode).toBe(201);
      expect((await tenant.api.get('/api/v1/consent/stats')).json().data).toEqual({
        totalConsents: 400,
        acceptedConsents: 201,
        rejectedConsents: 199,
        acceptanceRate: 50.3,
        consentsByPolicy: [{ policyType: 'privacy_policy', count: 400 }],
      });
      expect((await tenant.api.get('/api/v1/consent/stats?consentGiven=false')).json().data.acceptanceRate).toBe(0);
      expect((await tenant.api.get('/api/v1/consent/stats?consentGiven=true')).json().data.acceptanceRate).toBe(100);
    });
  });

  describe('user status › when a user decides on several policy types', () => {
    it('answers the latest decision per type, the version it was for, and withdrawals', async () => {
      const { api } = await roomyTenant(t);
      const v1 = await publishPolicy(api, { policyType: 'privacy_policy', version: '1.0.0' });
      const v2 = await publishPolicy(api, { policyType: 'privacy_policy', version: '2.0.0' });
      const cookies = await publishPolicy(api, { policyType: 'cookie_policy', version: '1.2.3' });
      const post = async (policyVersionId: string, consentGiven: boolean) =>
        (await api.post('/api/v1/consent', { policyVersionId, userReference: 'status-user', consentGiven })).json().data.id as string;
      const old = await post(v1, true);
      const current = await post(v2, false);
      const cookie = await post(cookies, true);
      await api.post(`/api/v1/consent/${old}/withdraw`);
      await api.post(`/api/v1/consent/${cookie}/withdraw`);
      const body = (await api.get('/api/v1/consent/user/status-user/status')).json();
      expect(body.success).toBe(true);
      expect(body.data.userReference).toBe('status-user');
      expect(body.data.policies).toEqual([
        {
          purpose: 'cookie_policy',
          policyType: 'cookie_policy',
          status: 'withdrawn',
          consentGiven: true,
          consentId: cookie,
          policyVersionId: cookies,
          policyVersion: '1.2.3',
          decidedAt: expect.stringMatching(/Z$/),
          expiresAt: null,
          withdrawnAt: expect.stringMatching(/Z$/),
          inForce: { policyVersionId: cookies, policyVersion: '1.2.3', effectiveDate: expect.stringMatching(/Z$/) },
        },
        {
          purpose: 'privacy_policy',
          policyType: 'privacy_policy',
          status: 'rejected',
          consentGiven: false,
          consentId: current,
          policyVersionId: v2,
          policyVersion: '2.0.0',
          decidedAt: expect.stringMatching(/Z$/),
          expiresAt: null,
          withdrawnAt: null,
          inForce: { policyVersionId: v2, policyVersion: '2.0.0', effectiveDate: expect.stringMatching(/Z$/) },
        },
      ]);
      expect((await api.get('/v1/consent/user/nobody/status')).json().data).toEqual({ userReference: 'nobody', policies: [] });

      // One purpose asked for: it alone, and none for a purpose the user has not decided on.
      const one = (await api.get('/api/v1/consent/user/status-user/status?purpose=privacy_policy')).json().data;
      expect(one.policies).toEqual([body.data.policies[1]]);
      const undecided = (await api.get('/api/v1/consent/user/nobody/status?purpose=cookie_policy')).json().data.policies;
      expect(undecided).toEqual([
        expect.objectContaining({
          purpose: 'cookie_policy',
          policyType: 'cookie_policy',
          status: 'none',
          consentId: null,
          inForce: expect.objectContaining({ policyVersionId: cookies }),
        }),
      ]);
      const neverPublished = (await api.get('/api/v1/consent/user/nobody/status?purpose=terms_of_service')).json().data.policies;
      expect(neverPublished).toEqual([
        expect.objectContaining({ purpose: 'terms_of_service', status: 'none', policyType: 'terms_of_service', inForce: null }),
      ]);
      const unknown = await api.get('/api/v1/consent/user/status-user/status?purpose=nothing-defined');
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ field: 'purpose' }] } });
    });
  });
});

describe('read models › when they are dropped and rebuilt from the ledger', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t?.close());

  it('come back row for row equal to what the live projections built', async () => {
    const a = await roomyTenant(t);
    const b = await roomyTenant(t);
    for (const { api } of [a, b]) {
      const privacy = await publishPolicy(api, { policyType: 'privacy_policy', version: '1.0.0' });
      const privacy2 = await publishPolicy(api, { policyType: 'privacy_policy', version: '1.1.0', effectiveDate: '2030-01-01T00:00:00Z' });
      const terms = await publishPolicy(api, { policyType: 'terms_of_service', version: '2.0.0' });
      const cookies = await publishPolicy(api, { policyType: 'cookie_policy', version: '0.1.0' });
      expect((await api.patch(`/api/v1/policies/${privacy2}`, { isActive: false })).statusCode).toBe(200);
      expect((await api.put(`/api/v1/policies/${privacy2}`, { isActive: true })).statusCode).toBe(200);
      expect((await api.patch(`/api/v1/policies/${terms}`, { isActive: false })).statusCode).toBe(200);
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) {
        const res = await api.post(
          '/api/v1/consent',
          {
            policyVersionId: i % 3 === 0 ? cookies : privacy,
            userReference: `user-${i % 4}`,
            consentGiven: i % 5 !== 0,
            metadata: { source: 'web', n: i, nested: { ok: true } },
            ...(i % 2 ? { ipAddress: '2001:db8::5', userAgent: 'Agent, "quoted"\r\n' } : {}),
          },
          i % 4 === 0 ? { 'idempotency-key': `k-${i}` } : {},
        );
        expect(res.statusCode).toBe(201);
        ids.push(res.json().data.id);
      }
      const replay = await api.post(
        '/api/v1/consent',
        { policyVersionId: cookies, userReference: 'user-0', consentGiven: false, metadata: { source: 'web', n: 0, nested: { ok: true } } },
        { 'idempotency-key': 'k-0' },
      );
      expect(replay.statusCode).toBe(201);
      const batch = await api.post('/api/v1/consent/batch', {
        consents: Array.from({ length: 30 }, (_, i) => ({
          policyVersionId: i % 2 ? privacy : privacy2,
          userReference: `user-${i % 6}`,
          consentGiven: i % 4 !== 0,
        })),
      });
      expect(batch.statusCode).toBe(201);
      for (const id of [ids[1], ids[2], ids[7], batch.json().data.consents[3].id]) {
        expect((await api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'moved on' })).statusCode).toBe(200);
      }
      expect((await api.delete(`/api/v1/policies/${cookies}`)).statusCode).toBeLessThan(300);
      expect((await api.post('/api/v1/consent', { policyVersionId: cookies, userReference: 'late', consentGiven: true })).statusCode).toBe(
        422,
      );
      expect((await api.post('/api/v1/consent', { policyVersionId: terms, userReference: 'late', consentGiven: true })).statusCode).toBe(
        422,
      );
    }
    const head = await t.service.ledger.headPosition();
    expect(await t.service.runner.waitFor(head!, 30_000)).toBe(true);
    await t.service.runner.stop();

    const live = await snapshotReadModels(t.service.store.db);
    expect(live['read.consents']).toHaveLength(2 * 42);
    expect(live['read.policy_versions']).toHaveLength(2 * 4);
    expect(live['read.projection_failures']).toEqual([]);

    const progress: number[] = [];
    const result = await rebuildReadModels(t.service.store, t.service.ledger, (applied) => progress.push(applied));
    expect(result.events).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(result.events);
    expect(await snapshotReadModels(t.service.store.db)).toEqual(live);
  });
});

describe('read models › while a rebuild has dropped them', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t?.close());

  it('a read answers 503 with Retry-After, not a 500', async () => {
    const { api } = await roomyTenant(t);
    expect((await api.get('/api/v1/consent/user/someone/status')).statusCode).toBe(200);
    // `projections rebuild` drops the read schema and makes it again; a read may fall in between.
    await sql`ALTER TABLE read.user_policy_status RENAME TO user_policy_status_away`.execute(t.service.store.db);
    try {
      const res = await api.get('/api/v1/consent/user/someone/status');
      expect(res.statusCode, res.body).toBe(503);
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json().error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: expect.stringMatching(/being rebuilt/) });
    } finally {
      await sql`ALTER TABLE read.user_policy_status_away RENAME TO user_policy_status`.execute(t.service.store.db);
    }
  });
});
