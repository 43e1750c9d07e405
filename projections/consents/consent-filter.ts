import type { SelectQueryBuilder } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import type { ConsentsDatabase } from './consents.table.js';

/** Search filters (docs/contract.md, Consent records). Dates bound createdAt: from ≤ createdAt < before. */
export interface ConsentFilter {
  /** The data subject (Privacy.subjectOf of a userReference): rows hold no reference in clear. */
  subject?: string | undefined;
  policyType?: string | undefined;
  consentGiven?: boolean | undefined;
  /** active and expired are told apart at `now`: an active consent given past its expiresAt is expired. */
  status?: 'active' | 'withdrawn' | 'expired' | undefined;
  /** The read time expiry is judged at; the query's own clock when absent. */
  now?: Date | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
}

type ConsentQuery = SelectQueryBuilder<Database & ConsentsDatabase, 'read.consents', object>;

export function applyConsentFilter(q: ConsentQuery, tenantId: string, f: ConsentFilter): ConsentQuery {
  let r = q.where('tenant_id', '=', tenantId);
  if (f.subject !== undefined) r = r.where('subject', '=', f.subject);
  if (f.policyType !== undefined) r = r.where('policy_type', '=', f.policyType);
  if (f.consentGiven !== undefined) r = r.where('consent_given', '=', f.consentGiven);
  if (f.status === 'withdrawn') r = r.where('status', '=', 'withdrawn');
  // Expired: marked so by its ConsentExpired event, or past expiresAt and not marked yet.
  if (f.status === 'active' || f.status === 'expired') {
    const now = f.now ?? new Date();
    r =
      f.status === 'expired'
        ? r.where((eb) => eb.or([eb('status', '=', 'expired'), eb.and([eb('status', '=', 'active'), eb('expires_at', '<=', now)])]))
        : r.where('status', '=', 'active').where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  }
  if (f.from !== undefined) r = r.where('created_at', '>=', f.from);
  if (f.before !== undefined) r = r.where('created_at', '<', f.before);
  return r;
}
