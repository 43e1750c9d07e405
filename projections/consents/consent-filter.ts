import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import type { ConsentsDatabase } from './consents.table.js';

/** Search filters (docs/contract.md, Consent records). Dates bound createdAt: from ≤ createdAt < before. */
export interface ConsentFilter {
  /** The data subject (Privacy.subjectOf of a userReference): rows hold no reference in clear. */
  subject?: string | undefined;
  policyType?: string | undefined;
  consentGiven?: boolean | undefined;
  status?: 'active' | 'withdrawn' | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
}

type ConsentQuery = SelectQueryBuilder<Database & ConsentsDatabase, 'read.consents', object>;

export function applyConsentFilter(q: ConsentQuery, tenantId: string, f: ConsentFilter): ConsentQuery {
  let r = q.where('tenant_id', '=', tenantId);
  if (f.subject !== undefined) r = r.where('subject', '=', f.subject);
  if (f.policyType !== undefined) r = r.where('policy_type', '=', f.policyType);
  if (f.consentGiven !== undefined) r = r.where('consent_given', '=', f.consentGiven);
  if (f.status !== undefined) r = r.where('status', '=', f.status);
  if (f.from !== undefined) r = r.where('created_at', '>=', f.from);
  if (f.before !== undefined) r = r.where('created_at', '<', f.before);
  return r;
}
