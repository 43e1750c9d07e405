import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openHarness,
  published,
  raceRunners,
  recorded,
  rowsOf,
  snapshotReadModels,
  withdrawn,
  deactivated,
  type ProjectionHarness,
  harnessEngines,
} from '../../test/support/projections.js';
import { reportEventStoreSkip } from '../../test/support/eventstore.js';
import type { PolicyVersionPublished } from '../../src/domain/policy/policy.events.js';
import type { PurposeDefined } from '../../src/domain/purpose/purpose.events.js';
import { userStatus } from './user-status.queries.js';

reportEventStoreSkip('projections');

/** The read time of every status below, unless a test names another. */
const NOW = new Date('2025-01-01T00:00:00.000Z');

describe.each(harnessEngines)('user_policy_status projection ($name)', ({ open, ledger }) => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await openHarness(open, ledger);
  });
  afterAll(() => h?.dispose());

  // Each test publishes its own versions (ids are per tenant, as the service derives them).
  let v1 = published();
  let v2 = published();
  let terms = published();
  async function given(tenant: string): Promise<void> {
    v1 = published({ version: '1.0.0' });
    v2 = published({ version: '2.0.0' });
    terms = published({ policyType: 'terms_of_service', version: '1.0.0' });
    await h.append(tenant, [v1, v2, terms]);
  }

  describe('user_policy_status › when a user decides several times on one policy type', () => {
    it('holds the latest decision and the version it was for', async () => {
      const tenant = randomUUID();
      await given(tenant);
      const gave = recorded(v1, { userReference: 'u', consentGiven: true, timestamp: '2024-03-01T10:00:00.000Z' });
      const rejected = recorded(v2, { userReference: 'u', consentGiven: false, timestamp: '2024-03-02T10:00:00.000Z' });
      await h.append(tenant, [gave]);
      await h.append(tenant, [rejected]);
      await h.runner().catchUp();
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'), NOW)).toEqual([
        {
          purpose: 'privacy_policy',
          policyType: 'privacy_policy',
          status: 'rejected',
          consentGiven: false,
          consentId: rejected.data.consentId,
          policyVersionId: v2.data.policyVersionId,
          policyVersion: '2.0.0',
          decidedAt: '2024-03-02T10:00:00.000Z',
          expiresAt: null,
          withdrawnAt: null,
          inForce: { policyVersionId: v2.data.policyVersionId, policyVersion: '2.0.0', effectiveDate: v2.data.effectiveDate },
        },
      ]);
    });

    it('keeps policy types, users and tenants apart, ordered by policy type', async () => {
      const tenant = randomUUID();
      const other = randomUUID();
      await given(other);
      await h.append(other, [recorded(v2, { userReference: 'u', consentGiven: false })]);
      await given(tenant);
      const p = recorded(v2, { userReference: 'u' });
      const t = recorded(terms, { userReference: 'u', consentGiven: false });
      await h.append(tenant, [p, t, recorded(v2, { userReference: 'someone else' })]);
      await h.runner().catchUp();
      const status = await userStatus(h.db, tenant, h.subject(tenant, 'u'), NOW);
      expect(status.map((s) => [s.policyType, s.status, s.consentId])).toEqual([
        ['privacy_policy', 'given', p.data.consentId],
        ['terms_of_service', 'rejected', t.data.consentId],
      ]);
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'nobody'), NOW)).toEqual([]);
    });
  });

  describe('user_policy_status › when an older record is withdrawn', () => {
    it('leaves the current decision as it is', async () => {
      const tenant = randomUUID();
      await given(tenant);
      const older = recorded(v1, { userReference: 'u', timestamp: '2024-03-01T10:00:00.000Z' });
      const current = recorded(v2, { userReference: 'u', timestamp: '2024-03-02T10:00:00.000Z' });
      await h.append(tenant, [older]);
      await h.append(tenant, [current]);
      await h.append(tenant, [withdrawn(older.data.consentId, '2024-03-03T10:00:00.000Z')]);
      await h.runner().catchUp();
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'), NOW)).toMatchObject([
        { status: 'given', consentId: current.data.consentId, policyVersion: '2.0.0', withdrawnAt: null },
      ]);
    });
  });

  describe('user_policy_status › when the current record is withdrawn', () => {
    it('answers withdrawn with its time, until a new decision replaces it', async () => {
      const tenant = randomUUID();
      await given(tenant);
      const current = recorded(v1, { userReference: 'u', timestamp: '2024-03-01T10:00:00.000Z' });
      await h.append(tenant, [current]);
      await h.append(tenant, [withdrawn(current.data.consentId, '2024-03-04T10:00:00.000Z', 'no longer')]);
      await h.runner().catchUp();
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'), NOW)).toEqual([
        {
          purpose: 'privacy_policy',
          policyType: 'privacy_policy',
          status: 'withdrawn',
          consentGiven: true,
          consentId: current.data.consentId,
          policyVersionId: v1.data.policyVersionId,
          policyVersion: '1.0.0',
          decidedAt: '2024-03-01T10:00:00.000Z',
          expiresAt: null,
          withdrawnAt: '2024-03-04T10:00:00.000Z',
          inForce: { policyVersionId: v2.data.policyVersionId, policyVersion: '2.0.0', effectiveDate: v2.data.effectiveDate },
        },
      ]);

      const again = recorded(v2, { userReference: 'u', timestamp: '2024-03-05T10:00:00.000Z' });
      await h.append(tenant, [again]);
      await h.runner().catchUp();
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'), NOW)).toMatchObject([
        { status: 'given', consentId: again.data.consentId, withdrawnAt: null },
      ]);
    });
  });

  describe('user_policy_status › when one batch holds several decisions of a user on one type', () => {
    it('takes the last in ledger order', async () => {
      const tenant = randomUUID();
      await given(tenant);
      const at = '2024-03-06T10:00:00.000Z';
      const items = [true, false, true, false].map((consentGiven) => recorded(v2, { userReference: 'u', consentGiven, timestamp: at }));
      await h.append(tenant, items);
      await h.runner().catchUp();
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'), NOW)).toMatchObject([
        { status: 'rejected', consentId: items[3]!.data.consentId },
      ]);
    });
  });

  describe('user_policy_status › when the same events are delivered twice', () => {
    it('changes nothing, whether a runner runs again or runners race over the same batch', async () => {
      const tenant = randomUUID();
      await given(tenant);
      const a = recorded(v1, { userReference: 'u' });
      const b = recorded(terms, { userReference: 'u' });
      await h.append(tenant, [a, b]);
      await h.append(tenant, [withdrawn(b.data.consentId, '2024-03-07T00:00:00.000Z')]);
      await raceRunners(h, [2, 500]);
      const rows = (await rowsOf(h.db, 'read.user_policy_status')).filter((r) => r.tenant_id === tenant);
      expect(rows.map((r) => [r.policy_type, r.status])).toEqual([
        ['privacy_policy', 'given'],
        ['terms_of_service', 'withdrawn'],
      ]);
      const once = await snapshotReadModels(h.db);
      const again = h.runner();
      expect(await again.runOnce()).toBe(0);
      expect(await again.catchUp()).toBe(0);
      expect(await snapshotReadModels(h.db)).toEqual(once);
    });
  });

  describe('user_policy_status › per purpose', () => {
    const custom = (purpose: string, version: string, over: Partial<PolicyVersionPublished['data']> = {}) =>
      published({ policyType: 'custom', purpose, version, ...over });
    const defined = (key: string): PurposeDefined => ({
      type: 'PurposeDefined',
      data: { key, name: key, description: '', legalBasis: 'consent', consentValidFor: null, dpv: null, at: '2024-01-01T00:00:00.000Z' },
    });

    it('keeps two purposes of one type apart, and answers none for a defined purpose not decided on', async () => {
      const tenant = randomUUID();
      const news = custom('newsletter', '1.0.0');
      const sms = custom('sms', '1.0.0');
      await h.append(tenant, [defined('newsletter'), defined('sms'), defined('surveys'), news, sms]);
      await h.append(tenant, [recorded(news, { userReference: 'u' }), recorded(sms, { userReference: 'u', consentGiven: false })]);
      await h.runner().catchUp();
      const status = await userStatus(h.db, tenant, h.subject(tenant, 'u'), NOW);
      expect(status.map((s) => [s.purpose, s.policyType, s.status, s.inForce?.policyVersionId ?? null])).toEqual([
        ['newsletter', 'custom', 'given', news.data.policyVersionId],
        ['sms', 'custom', 'rejected', sms.data.policyVersionId],
        ['surveys', null, 'none', null],
      ]);
      expect(status[2]).toMatchObject({ consentId: null, consentGiven: null, policyVersionId: null, decidedAt: null });
    });

    it('answers outdated once a newer version that requires re-consent is effective, and not before', async () => {
      const tenant = randomUUID();
      const first = custom('newsletter', '1.0.0', { effectiveDate: '2024-01-01T00:00:00.000Z' });
      const minor = custom('newsletter', '1.1.0', { effectiveDate: '2024-06-01T00:00:00.000Z', requiresReconsent: false });
      const major = custom('newsletter', '2.0.0', { effectiveDate: '2025-06-01T00:00:00.000Z' });
      await h.append(tenant, [first, minor, major]);
      await h.append(tenant, [recorded(first, { userReference: 'u' }), recorded(minor, { userReference: 'v', consentGiven: false })]);
      await h.runner().catchUp();
      const at = async (when: string, who: string) => (await userStatus(h.db, tenant, h.subject(tenant, who), new Date(when)))[0]!;
      // The minor version is in force and outdates nothing.
      expect(await at('2025-01-01T00:00:00.000Z', 'u')).toMatchObject({
        status: 'given',
        policyVersion: '1.0.0',
        inForce: { policyVersion: '1.1.0' },
      });
      expect((await at('2025-05-31T23:59:59.999Z', 'v')).status).toBe('rejected');
      // The major one takes effect: decisions on both earlier versions are outdated, at that instant.
      expect(await at('2025-06-01T00:00:00.000Z', 'u')).toMatchObject({ status: 'outdated', inForce: { policyVersion: '2.0.0' } });
      expect((await at('2025-06-01T00:00:00.000Z', 'v')).status).toBe('outdated');
    });

    it('does not outdate a decision for a newer version that was deactivated', async () => {
      const tenant = randomUUID();
      const first = custom('newsletter', '1.0.0');
      const second = custom('newsletter', '2.0.0');
      await h.append(tenant, [first, second, deactivated(second.data.policyVersionId, '2024-03-01T11:00:00.000Z')]);
      await h.append(tenant, [recorded(first, { userReference: 'u' })]);
      await h.runner().catchUp();
      expect((await userStatus(h.db, tenant, h.subject(tenant, 'u'), NOW))[0]).toMatchObject({
        status: 'given',
        inForce: { policyVersion: '1.0.0' },
      });
    });

    it('answers expired from expiresAt on, exactly at read time, for a consent given', async () => {
      const tenant = randomUUID();
      const news = custom('newsletter', '1.0.0', { consentValidFor: 'P1D' });
      const expiresAt = '2024-03-03T12:00:00.000Z';
      await h.append(tenant, [news, recorded(news, { userReference: 'u', timestamp: '2024-03-02T12:00:00.000Z', expiresAt })]);
      await h.runner().catchUp();
      const at = async (when: string) => (await userStatus(h.db, tenant, h.subject(tenant, 'u'), new Date(when)))[0]!;
      expect(await at('2024-03-03T11:59:59.999Z')).toMatchObject({ status: 'given', expiresAt });
      expect(await at(expiresAt)).toMatchObject({ status: 'expired', expiresAt });
    });
  });

  describe('standing_counts › when decisions replace each other and some are withdrawn', () => {
    it('counts, per purpose and version, the subjects whose latest decision stands there, in batches or one by one', async () => {
      const tenant = randomUUID();
      await given(tenant);
      const users = ['u1', 'u2', 'u3', 'u4', 'u5'];
      const decided: ReturnType<typeof recorded>[] = [];
      for (let i = 0; i < 30; i++) {
        const policy = [v1, v2, terms][i % 3]!;
        decided.push(recorded(policy, { userReference: users[(i * 7) % users.length]!, consentGiven: i % 4 !== 0 }));
      }
      await h.append(tenant, decided.slice(0, 12));
      await h.append(tenant, [withdrawn(decided[3]!.data.consentId, '2024-03-08T00:00:00.000Z')]);
      for (const e of decided.slice(12, 20)) await h.append(tenant, [e]);
      await h.append(tenant, decided.slice(20));
      await h.append(tenant, [withdrawn(decided[25]!.data.consentId, '2024-03-09T00:00:00.000Z')]);
      await raceRunners(h, [3, 500]);
      const rows = (await rowsOf(h.db, 'read.user_policy_status')).filter((r) => r.tenant_id === tenant && r.withdrawn_at === null);
      const plain = new Map<string, number>();
      for (const r of rows) plain.set(`${r.purpose} ${r.policy_version_id}`, (plain.get(`${r.purpose} ${r.policy_version_id}`) ?? 0) + 1);
      const counters = (await rowsOf(h.db, 'read.standing_counts')).filter((r) => r.tenant_id === tenant && Number(r.count) !== 0);
      expect(new Map(counters.map((r) => [`${r.purpose} ${r.policy_version_id}`, Number(r.count)]))).toEqual(plain);
    });
  });
});
