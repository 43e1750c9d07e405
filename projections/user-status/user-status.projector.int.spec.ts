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
  type ProjectionHarness,
  harnessEngines,
} from '../../test/support/projections.js';
import { reportEventStoreSkip } from '../../test/support/eventstore.js';
import { userStatus } from './user-status.queries.js';

reportEventStoreSkip('projections');

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
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'))).toEqual([
        {
          policyType: 'privacy_policy',
          status: 'rejected',
          consentId: rejected.data.consentId,
          policyVersionId: v2.data.policyVersionId,
          policyVersion: '2.0.0',
          decidedAt: '2024-03-02T10:00:00.000Z',
          withdrawnAt: null,
        },
      ]);
    });

    it('keeps policy types, users and tenants apart, ordered by policy type', async () => {
      const tenant = randomUUID();
      const other = randomUUID();
      await given(other);
      await h.append(other, [recorded(v2, { userReference: 'u', consentGiven: false })]);
      await given(tenant);
      const p = recorded(v1, { userReference: 'u' });
      const t = recorded(terms, { userReference: 'u', consentGiven: false });
      await h.append(tenant, [p, t, recorded(v2, { userReference: 'someone else' })]);
      await h.runner().catchUp();
      const status = await userStatus(h.db, tenant, h.subject(tenant, 'u'));
      expect(status.map((s) => [s.policyType, s.status, s.consentId])).toEqual([
        ['privacy_policy', 'given', p.data.consentId],
        ['terms_of_service', 'rejected', t.data.consentId],
      ]);
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'nobody'))).toEqual([]);
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
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'))).toMatchObject([
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
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'))).toEqual([
        {
          policyType: 'privacy_policy',
          status: 'withdrawn',
          consentId: current.data.consentId,
          policyVersionId: v1.data.policyVersionId,
          policyVersion: '1.0.0',
          decidedAt: '2024-03-01T10:00:00.000Z',
          withdrawnAt: '2024-03-04T10:00:00.000Z',
        },
      ]);

      const again = recorded(v2, { userReference: 'u', timestamp: '2024-03-05T10:00:00.000Z' });
      await h.append(tenant, [again]);
      await h.runner().catchUp();
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'))).toMatchObject([
        { status: 'given', consentId: again.data.consentId, withdrawnAt: null },
      ]);
    });
  });

  describe('user_policy_status › when one batch holds several decisions of a user on one type', () => {
    it('takes the last in ledger order', async () => {
      const tenant = randomUUID();
      await given(tenant);
      const at = '2024-03-06T10:00:00.000Z';
      const items = [true, false, true, false].map((consentGiven) => recorded(v1, { userReference: 'u', consentGiven, timestamp: at }));
      await h.append(tenant, items);
      await h.runner().catchUp();
      expect(await userStatus(h.db, tenant, h.subject(tenant, 'u'))).toMatchObject([
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
});
