import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import type { ConsentsDatabase } from './consents.table.js';

/** Search filters (docs/contract.md, Consent records). Dates bound createdAt: from ≤ createdAt < before. */
export interface ConsentFilter {
  /** The data subject (Privacy.subjectOf of a userReference): rows hold no reference in clear. */
  subject?: string | undefined;
  policyType?: string | undefined;
  policyVersionId?: string | undefined;
  purpose?: string | undefined;
  /** Keyed hashes of metadata values (Privacy.metadataTagOf): a record must carry every one. */
  metadataTags?: string[] | undefined;
  /** status=outdated: the tenant's versions now outdated by a newer one requiring re-consent (the caller works them out). */
  outdatedVersionIds?: string[] | undefined;
  consentGiven?: boolean | undefined;
  /** active and expired are told apart at `now`: an active consent given past its expiresAt is expired. */
  status?: 'active' | 'withdrawn' | 'expired' | 'outdated' | undefined;
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
  if (f.policyVersionId !== undefined) r = r.where('policy_version_id', '=', f.policyVersionId);
  if (f.purpose !== undefined) r = r.where('purpose', '=', f.purpose);
  if (f.metadataTags !== undefined && f.metadataTags.length > 0) {
    r = r.where(sql<boolean>`metadata_tags @> ${sql.val(f.metadataTags)}::text[]`);
  }
  if (f.consentGiven !== undefined) r = r.where('consent_given', '=', f.consentGiven);
  if (f.status === 'withdrawn') r = r.where('status', '=', 'withdrawn');
  // Outdated: still active, on a version a newer one requiring re-consent replaced.
  if (f.status === 'outdated') {
    const ids = f.outdatedVersionIds ?? [];
    r = ids.length === 0 ? r.where(sql<boolean>`false`) : r.where('policy_version_id', 'in', ids);
  }
  // Active (outdated too): not withdrawn, not past expiresAt. Expired: past expiresAt and not
  // withdrawn first, whether its ConsentExpired is projected yet or not (one range of expires_at).
  if (f.status === 'active' || f.status === 'outdated') {
    const now = f.now ?? new Date();
    r = r.where('status', '=', 'active').where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]));
  }
  if (f.status === 'expired') r = r.where('expires_at', '<=', f.now ?? new Date()).where('status', '<>', 'withdrawn');
  if (f.from !== undefined) r = r.where('created_at', '>=', f.from);
  if (f.before !== undefined) r = r.where('created_at', '<', f.before);
  return r;
}
