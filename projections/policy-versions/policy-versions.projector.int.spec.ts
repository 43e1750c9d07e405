import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  activated,
  deactivated,
  deleted,
  openHarness,
  published,
  raceRunners,
  rowsOf,
  snapshotReadModels,
  type ProjectionHarness,
  harnessEngines,
} from '../../test/support/projections.js';
import { reportEventStoreSkip } from '../../test/support/eventstore.js';
import { activePolicyVersionId, listPolicyVersions } from './policy-versions.queries.js';

reportEventStoreSkip('projections');

describe.each(harnessEngines)('policy_versions projection ($name)', ({ open, ledger }) => {
  let h: ProjectionHarness;
  beforeAll(async () => {
    h = await openHarness(open, ledger);
  });
  afterAll(() => h?.dispose());

  const rowsOfTenant = async (tenantId: string) => (await rowsOf(h.db, 'read.policy_versions')).filter((r) => r.tenant_id === tenantId);

  describe('policy_versions › when a version is published', () => {
    it('projects one active row with its version parts, hash and dates', async () => {
      const tenant = randomUUID();
      const p = published({ version: '2.10.3', effectiveDate: '2024-04-01T00:00:00.000Z', publishedAt: '2024-03-05T08:30:00.123Z' });
      await h.append(tenant, [p]);
      await h.runner().catchUp();
      expect(await rowsOfTenant(tenant)).toEqual([
        {
          id: p.data.policyVersionId,
          tenant_id: tenant,
          policy_type: 'privacy_policy',
          purpose: 'privacy_policy',
          version: '2.10.3',
          major: 2,
          minor: 10,
          patch: 3,
          title: p.data.title,
          content: p.data.content,
          content_hash: p.data.contentHash,
          effective_date: new Date('2024-04-01T00:00:00.000Z'),
          requires_reconsent: true,
          consent_valid_for: null,
          reconsent_due: false,
          is_active: true,
          deleted: false,
          created_at: new Date('2024-03-05T08:30:00.123Z'),
          updated_at: new Date('2024-03-05T08:30:00.123Z'),
        },
      ]);
    });
  });

  describe('policy_versions › when a version is deactivated and activated', () => {
    it('follows the latest change and its time', async () => {
      const tenant = randomUUID();
      const p = published();
      const id = p.data.policyVersionId;
      await h.append(tenant, [p]);
      await h.append(tenant, [deactivated(id, '2024-03-06T00:00:00.000Z')]);
      await h.runner().catchUp();
      expect(await rowsOfTenant(tenant)).toMatchObject([
        { is_active: false, deleted: false, updated_at: new Date('2024-03-06T00:00:00.000Z') },
      ]);
      await h.append(tenant, [activated(id, '2024-03-07T00:00:00.000Z')]);
      await h.runner().catchUp();
      expect(await rowsOfTenant(tenant)).toMatchObject([
        { is_active: true, deleted: false, updated_at: new Date('2024-03-07T00:00:00.000Z') },
      ]);
      expect((await listPolicyVersions(h.db, tenant, { isActive: true }, 1, 10)).items.map((i) => i.id)).toEqual([id]);
    });
  });

  describe('policy_versions › when a version is deleted', () => {
    it('keeps the row, marked deleted and inactive, and leaves it out of lists and the active choice', async () => {
      const tenant = randomUUID();
      const kept = published({ version: '1.0.0', effectiveDate: '2024-01-01T00:00:00.000Z' });
      const gone = published({ version: '1.1.0', effectiveDate: '2024-02-01T00:00:00.000Z' });
      await h.append(tenant, [kept, gone]);
      await h.append(tenant, [deleted(gone.data.policyVersionId, '2024-03-08T00:00:00.000Z')]);
      await h.runner().catchUp();
      const rows = await rowsOfTenant(tenant);
      expect(rows.find((r) => r.id === gone.data.policyVersionId)).toMatchObject({
        is_active: false,
        deleted: true,
        updated_at: new Date('2024-03-08T00:00:00.000Z'),
      });
      const listed = await listPolicyVersions(h.db, tenant, {}, 1, 10);
      expect(listed).toMatchObject({ total: 1, items: [{ id: kept.data.policyVersionId }] });
      expect(await activePolicyVersionId(h.db, tenant, { policyType: 'privacy_policy' }, new Date('2024-06-01T00:00:00Z'))).toBe(
        kept.data.policyVersionId,
      );
    });
  });

  describe('policy_versions › when several versions of a type are active', () => {
    it('chooses the latest effective date not in the future, ties going to the highest version by number', async () => {
      const tenant = randomUUID();
      const day = '2024-05-01T00:00:00.000Z';
      const v190 = published({ version: '1.9.0', effectiveDate: day });
      const v1100 = published({ version: '1.10.0', effectiveDate: day });
      const v200future = published({ version: '2.0.0', effectiveDate: '2024-07-01T00:00:00.000Z' });
      const v300off = published({ version: '3.0.0', effectiveDate: day });
      const older = published({ version: '9.0.0', effectiveDate: '2024-04-01T00:00:00.000Z' });
      const otherType = published({ policyType: 'cookie_policy', version: '5.0.0', effectiveDate: day });
      await h.append(tenant, [v190, v1100, v200future, v300off, older, otherType]);
      await h.append(tenant, [deactivated(v300off.data.policyVersionId, day)]);
      await h.runner().catchUp();
      const at = new Date('2024-06-01T00:00:00Z');
      expect(await activePolicyVersionId(h.db, tenant, { policyType: 'privacy_policy' }, at)).toBe(v1100.data.policyVersionId);
      expect(await activePolicyVersionId(h.db, tenant, { policyType: 'privacy_policy' }, new Date('2024-07-01T00:00:00Z'))).toBe(
        v200future.data.policyVersionId,
      );
      expect(await activePolicyVersionId(h.db, tenant, { policyType: 'privacy_policy' }, new Date('2024-03-01T00:00:00Z'))).toBeNull();
      expect(await activePolicyVersionId(h.db, randomUUID(), { policyType: 'privacy_policy' }, at)).toBeNull();
    });
  });

  describe('policy_versions › when the same events are delivered twice', () => {
    it('changes nothing, whether a runner runs again or two runners race over the same batch', async () => {
      const tenant = randomUUID();
      const a = published({ version: '1.0.0' });
      const b = published({ version: '1.0.1', policyType: 'terms_of_service' });
      await h.append(tenant, [a, b]);
      await h.append(tenant, [deactivated(a.data.policyVersionId, '2024-03-09T00:00:00.000Z')]);
      await h.append(tenant, [activated(a.data.policyVersionId, '2024-03-10T00:00:00.000Z')]);
      await h.append(tenant, [deleted(b.data.policyVersionId, '2024-03-11T00:00:00.000Z')]);
      await raceRunners(h, [500, 500]);
      const once = await snapshotReadModels(h.db);
      expect(await rowsOfTenant(tenant)).toMatchObject([
        { id: [a, b].map((p) => p.data.policyVersionId).sort()[0] },
        { id: [a, b].map((p) => p.data.policyVersionId).sort()[1] },
      ]);
      expect((await rowsOfTenant(tenant)).find((r) => r.id === a.data.policyVersionId)).toMatchObject({ is_active: true, deleted: false });
      expect((await rowsOfTenant(tenant)).find((r) => r.id === b.data.policyVersionId)).toMatchObject({ is_active: false, deleted: true });

      const again = h.runner();
      expect(await again.runOnce()).toBe(0);
      expect(await again.catchUp()).toBe(0);
      expect(await snapshotReadModels(h.db)).toEqual(once);
    });
  });
});
