import type { ConsentEvent } from '../../src/domain/consent/consent.events.js';
import type { Projector } from '../projector.js';

/** One row per consent record: search, user lists and CSV export read it. */
export const consentsProjector: Projector = {
  name: 'consents',
  handles: new Set(['ConsentRecorded', 'ConsentWithdrawn']),
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as ConsentEvent;
    switch (event.type) {
      case 'ConsentRecorded': {
        const d = event.data;
        await tx
          .insertInto('read.consents')
          .values({
            id: d.consentId,
            tenant_id: recorded.tenantId,
            user_reference: d.userReference,
            policy_version_id: d.policyVersionId,
            policy_type: d.policyType,
            policy_version: d.policyVersion,
            policy_title: d.policyTitle,
            consent_given: d.consentGiven,
            status: 'active',
            ip_address: d.ipAddress,
            user_agent: d.userAgent,
            metadata: JSON.stringify(d.metadata),
            consent_hash: d.consentHash,
            batch_id: d.batchId,
            created_at: d.timestamp,
            withdrawn_at: null,
            withdrawal_reason: null,
          })
          .onConflict((oc) => oc.column('id').doNothing())
          .execute();
        return;
      }
      case 'ConsentWithdrawn':
        await tx
          .updateTable('read.consents')
          .set({ status: 'withdrawn', withdrawn_at: event.data.withdrawnAt, withdrawal_reason: event.data.reason })
          .where('id', '=', event.data.consentId)
          .where('tenant_id', '=', recorded.tenantId)
          .execute();
        return;
    }
  },
};
