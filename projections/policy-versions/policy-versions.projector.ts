import { policyVersionsDb } from './policy-versions.table.js';
import { decodePolicyEvent } from '../../src/domain/policy/policy.events.js';
import type { Projector } from '../../src/followers/projector.js';

export const policyVersionsProjector: Projector = {
  name: 'policy_versions',
  handles: new Set([
    'PolicyVersionPublished',
    'PolicyVersionActivated',
    'PolicyVersionDeactivated',
    'PolicyVersionDeleted',
    'PolicyReconsentRequired',
  ]),
  async apply(tx, recorded) {
    const event = decodePolicyEvent(recorded);
    switch (event?.type) {
      case 'PolicyVersionPublished': {
        const d = event.data;
        const [major, minor, patch] = d.version.split('.').map(Number) as [number, number, number];
        await policyVersionsDb(tx)
          .insertInto('read.policy_versions')
          .values({
            id: d.policyVersionId,
            tenant_id: recorded.tenantId,
            policy_type: d.policyType,
            purpose: d.purpose ?? d.policyType,
            version: d.version,
            major,
            minor,
            patch,
            title: d.title,
            content: d.content,
            content_hash: d.contentHash,
            effective_date: d.effectiveDate,
            requires_reconsent: d.requiresReconsent !== false,
            consent_valid_for: d.consentValidFor ?? null,
            reconsent_due: d.requiresReconsent === true,
            is_active: true,
            deleted: false,
            created_at: d.publishedAt,
            updated_at: d.publishedAt,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'PolicyVersionActivated':
      case 'PolicyVersionDeactivated':
        await policyVersionsDb(tx)
          .updateTable('read.policy_versions')
          .set({ is_active: event.type === 'PolicyVersionActivated', updated_at: event.data.at })
          .where('id', '=', event.data.policyVersionId)
          .execute();
        return;
      case 'PolicyReconsentRequired':
        await policyVersionsDb(tx)
          .updateTable('read.policy_versions')
          .set({ reconsent_due: false })
          .where('id', '=', event.data.policyVersionId)
          .execute();
        return;
      case 'PolicyVersionDeleted':
        await policyVersionsDb(tx)
          .updateTable('read.policy_versions')
          .set({ is_active: false, deleted: true, updated_at: event.data.at })
          .where('id', '=', event.data.policyVersionId)
          .execute();
        return;
    }
  },
};
