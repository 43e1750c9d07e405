import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { policyVersionsDb } from './policy-versions.table.js';

export interface PolicyListItem {
  id: string;
  policyType: string;
  purpose: string;
  version: string;
  title: string;
  contentHash: string;
  effectiveDate: string;
  requiresReconsent: boolean;
  consentValidFor: string | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

const toItem = (r: {
  id: string;
  policy_type: string;
  purpose: string;
  version: string;
  title: string;
  content_hash: string;
  effective_date: Date;
  requires_reconsent: boolean;
  consent_valid_for: string | null;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}): PolicyListItem => ({
  id: r.id,
  policyType: r.policy_type,
  purpose: r.purpose,
  version: r.version,
  title: r.title,
  contentHash: r.content_hash,
  effectiveDate: r.effective_date.toISOString(),
  requiresReconsent: r.requires_reconsent,
  consentValidFor: r.consent_valid_for,
  isActive: r.is_active,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

const COLUMNS = [
  'id',
  'policy_type',
  'purpose',
  'version',
  'title',
  'content_hash',
  'effective_date',
  'requires_reconsent',
  'consent_valid_for',
  'is_active',
  'created_at',
  'updated_at',
] as const;

/** Policy versions of a tenant (deleted ones excluded), newest first. */
export async function listPolicyVersions(
  db: Kysely<Database>,
  tenantId: string,
  filter: { policyType?: string | undefined; purpose?: string | undefined; isActive?: boolean | undefined },
  page: number,
  limit: number,
): Promise<{ items: PolicyListItem[]; total: number }> {
  let q = policyVersionsDb(db).selectFrom('read.policy_versions').where('tenant_id', '=', tenantId).where('deleted', '=', false);
  if (filter.policyType !== undefined) q = q.where('policy_type', '=', filter.policyType);
  if (filter.purpose !== undefined) q = q.where('purpose', '=', filter.purpose);
  if (filter.isActive !== undefined) q = q.where('is_active', '=', filter.isActive);
  const [rows, count] = await Promise.all([
    q
      .select(COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toItem), total: Number(count.n) };
}

/**
 * The active version of a type, of a purpose, or of a purpose within a type: latest effectiveDate
 * not in the future; ties go to the highest version. Returns its id, or null.
 */
export async function activePolicyVersionId(
  db: Kysely<Database>,
  tenantId: string,
  of: { policyType: string; purpose?: string } | { purpose: string },
  at: Date,
): Promise<string | null> {
  let query = policyVersionsDb(db).selectFrom('read.policy_versions').select('id').where('tenant_id', '=', tenantId);
  if ('policyType' in of) query = query.where('policy_type', '=', of.policyType);
  if (of.purpose !== undefined) query = query.where('purpose', '=', of.purpose);
  const row = await query
    .where('is_active', '=', true)
    .where('deleted', '=', false)
    .where('effective_date', '<=', at)
    .orderBy('effective_date', 'desc')
    .orderBy('major', 'desc')
    .orderBy('minor', 'desc')
    .orderBy('patch', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * Every version of a type, of a purpose, or of a purpose within a type, with its purpose, label,
 * whether it is active and when it took effect (unordered: the domain's `versionInForceAt` picks among them). Deleted versions are
 * left out; deactivated ones are kept, as they were in force in their time.
 */
export async function policyVersionDates(
  db: Kysely<Database>,
  tenantId: string,
  of: { policyType: string; purpose?: string } | { purpose: string },
): Promise<{ id: string; purpose: string; version: string; effectiveDate: Date; isActive: boolean }[]> {
  let query = policyVersionsDb(db)
    .selectFrom('read.policy_versions')
    .select(['id', 'purpose', 'version', 'effective_date', 'is_active'])
    .where('tenant_id', '=', tenantId)
    .where('deleted', '=', false);
  if ('policyType' in of) query = query.where('policy_type', '=', of.policyType);
  if (of.purpose !== undefined) query = query.where('purpose', '=', of.purpose);
  const rows = await query.execute();
  return rows.map((r) => ({ id: r.id, purpose: r.purpose, version: r.version, effectiveDate: r.effective_date, isActive: r.is_active }));
}
