import type { ConsentEvent } from '../../src/domain/consent/consent.events.js';
import type { Projector } from '../projector.js';

/**
 * Per data subject (the HMAC of the user reference) and policy type, the latest decision in ledger order, and whether that decision was
 * later withdrawn. Withdrawing an older record does not change the current one.
 */
export const userStatusProjector: Projector = {
  name: 'user_policy_status',
  handles: new Set(['ConsentRecorded', 'ConsentWithdrawn']),
  async apply(tx, recorded) {
    const event = { type: recorded.type, data: recorded.data } as ConsentEvent;
    switch (event.type) {
      case 'ConsentRecorded': {
        const d = event.data;
        const row = {
          consent_id: d.consentId,
          policy_version_id: d.policyVersionId,
          policy_version: d.policyVersion,
          consent_given: d.consentGiven,
          status: d.consentGiven ? 'given' : 'rejected',
          decided_at: d.timestamp,
          withdrawn_at: null,
        };
        await tx
          .insertInto('read.user_policy_status')
          .values({ tenant_id: recorded.tenantId, subject: d.subject, policy_type: d.policyType, ...row })
          .onConflict((oc) => oc.columns(['tenant_id', 'subject', 'policy_type']).doUpdateSet(row))
          .execute();
        return;
      }
      case 'ConsentWithdrawn':
        await tx
          .updateTable('read.user_policy_status')
          .set({ status: 'withdrawn', withdrawn_at: event.data.withdrawnAt })
          .where('tenant_id', '=', recorded.tenantId)
          .where('consent_id', '=', event.data.consentId)
          .execute();
        return;
    }
  },
};
