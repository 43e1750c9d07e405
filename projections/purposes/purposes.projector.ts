import { decodePurposeEvent, PURPOSE_EVENT_TYPES } from '../../src/domain/purpose/purpose.events.js';
import type { Projector } from '../../src/followers/projector.js';
import { purposesDb } from './purposes.table.js';

/** Each tenant's purposes, for the list (`GET /api/v1/purposes`); one purpose is read from its stream. */
export const purposesProjector: Projector = {
  name: 'purposes',
  handles: new Set(PURPOSE_EVENT_TYPES),
  async apply(tx, recorded) {
    const event = decodePurposeEvent(recorded);
    if (event?.type === 'PurposeDefined') {
      const d = event.data;
      await purposesDb(tx)
        .insertInto('read.purposes')
        .values({
          tenant_id: recorded.tenantId,
          key: d.key,
          name: d.name,
          description: d.description,
          legal_basis: d.legalBasis,
          consent_valid_for: d.consentValidFor,
          dpv: d.dpv,
          created_at: d.at,
          updated_at: d.at,
        })
        .onConflict((oc) => oc.columns(['tenant_id', 'key']).doNothing())
        .execute();
    } else if (event?.type === 'PurposeChanged') {
      const d = event.data;
      await purposesDb(tx)
        .updateTable('read.purposes')
        .set({
          ...(d.name !== undefined ? { name: d.name } : {}),
          ...(d.description !== undefined ? { description: d.description } : {}),
          ...(d.legalBasis !== undefined ? { legal_basis: d.legalBasis } : {}),
          ...(d.consentValidFor !== undefined ? { consent_valid_for: d.consentValidFor } : {}),
          ...(d.dpv !== undefined ? { dpv: d.dpv } : {}),
          updated_at: d.at,
        })
        .where('tenant_id', '=', recorded.tenantId)
        .where('key', '=', d.key)
        .execute();
    }
  },
};
