import type { Kysely } from 'kysely';
import { standingOf, versionInForce, type Standing, type VersionFacts } from '../../src/domain/consent/standing.js';
import { isPolicyType } from '../../src/domain/policy/policy.events.js';
import type { Database } from '../../src/store/schema.js';
import { policyVersionsDb } from '../policy-versions/policy-versions.table.js';
import { purposesDb } from '../purposes/purposes.table.js';
import { standsAt, userStatusDb } from './user-status.table.js';

/** The version of a purpose in force now. */
export interface VersionInForce {
  policyVersionId: string;
  policyVersion: string;
  effectiveDate: string;
}

/** A subject's standing on one purpose: the latest decision (if any), as it stands at read time. */
export interface UserPolicyStatus {
  purpose: string;
  /** The decided version's type; for `none`, the type of the version in force (null when none is). */
  policyType: string | null;
  status: Standing | 'none';
  consentGiven: boolean | null;
  consentId: string | null;
  policyVersionId: string | null;
  policyVersion: string | null;
  decidedAt: string | null;
  expiresAt: string | null;
  withdrawnAt: string | null;
  inForce: VersionInForce | null;
}

/** A policy version as standing needs it, with its type. */
export type VersionRow = VersionFacts & { policyType: string };

/**
 * A tenant's versions of some purposes (every purpose given has an entry, empty when it has no
 * version), or of all its purposes when none are named, as standing needs them, by purpose.
 */
export async function versionsByPurpose(
  db: Kysely<Database>,
  tenantId: string,
  purposes?: readonly string[],
): Promise<Map<string, VersionRow[]>> {
  const by = new Map<string, VersionRow[]>((purposes ?? []).map((p) => [p, []]));
  if (purposes?.length === 0) return by;
  let q = policyVersionsDb(db)
    .selectFrom('read.policy_versions')
    .select(['id', 'purpose', 'policy_type', 'version', 'effective_date', 'requires_reconsent', 'is_active', 'deleted'])
    .where('tenant_id', '=', tenantId);
  if (purposes) q = q.where('purpose', 'in', purposes);
  for (const r of await q.execute()) {
    if (!by.has(r.purpose)) by.set(r.purpose, []);
    by.get(r.purpose)!.push({
      id: r.id,
      policyType: r.policy_type,
      version: r.version,
      effectiveDate: r.effective_date,
      requiresReconsent: r.requires_reconsent,
      usable: r.is_active && !r.deleted,
    });
  }
  return by;
}

/**
 * Per purpose, the subject's latest decision as it stands at `now` (given, rejected, withdrawn,
 * expired, outdated), and `none` for each purpose the tenant defined that the subject has not
 * decided on; by purpose. `subject`: Privacy.subjectOf.
 */
export async function userStatus(
  db: Kysely<Database>,
  tenantId: string,
  subject: string,
  now: Date,
  purpose?: string,
): Promise<UserPolicyStatus[]> {
  let decisions = userStatusDb(db)
    .selectFrom('read.user_policy_status')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('subject', '=', subject);
  if (purpose !== undefined) decisions = decisions.where('purpose', '=', purpose);
  const [rows, defined] = await Promise.all([
    decisions.execute(),
    // One purpose asked for (known to the caller: defined, or a policy type): it alone, decided or not.
    purpose !== undefined
      ? [{ key: purpose }]
      : purposesDb(db).selectFrom('read.purposes').select('key').where('tenant_id', '=', tenantId).execute(),
  ]);
  const decided = new Set(rows.map((r) => r.purpose));
  const undecided = defined.map((d) => d.key).filter((k) => !decided.has(k));
  const versions = await versionsByPurpose(db, tenantId, [...decided, ...undecided]);
  const inForceOf = (purpose: string) => versionInForce(versions.get(purpose)!, now);
  const viewOf = (v: VersionRow | null): VersionInForce | null =>
    v ? { policyVersionId: v.id, policyVersion: v.version, effectiveDate: v.effectiveDate.toISOString() } : null;
  const statuses: UserPolicyStatus[] = rows.map((r) => ({
    purpose: r.purpose,
    policyType: r.policy_type,
    status: standingOf(
      { consentGiven: r.consent_given, policyVersionId: r.policy_version_id, expiresAt: r.expires_at, withdrawnAt: r.withdrawn_at },
      versions.get(r.purpose)!,
      now,
    ),
    consentGiven: r.consent_given,
    consentId: r.consent_id,
    policyVersionId: r.policy_version_id,
    policyVersion: r.policy_version,
    decidedAt: r.decided_at.toISOString(),
    expiresAt: r.expires_at?.toISOString() ?? null,
    withdrawnAt: r.withdrawn_at?.toISOString() ?? null,
    inForce: viewOf(inForceOf(r.purpose)),
  }));
  for (const purpose of undecided) {
    const inForce = inForceOf(purpose);
    statuses.push({
      purpose,
      // A policy type is its own purpose, published or not.
      policyType: inForce?.policyType ?? (isPolicyType(purpose) ? purpose : null),
      status: 'none',
      consentGiven: null,
      consentId: null,
      policyVersionId: null,
      policyVersion: null,
      decidedAt: null,
      expiresAt: null,
      withdrawnAt: null,
      inForce: viewOf(inForce),
    });
  }
  return statuses.sort((a, b) => (a.purpose < b.purpose ? -1 : a.purpose > b.purpose ? 1 : 0));
}

/**
 * The consents a subject still stands by on a purpose, or on every purpose of a policy type: the
 * latest decision on each, given, not withdrawn, not expired at `now`. Their ids.
 */
export async function standingConsentIds(
  db: Kysely<Database>,
  tenantId: string,
  subject: string,
  of: { purpose: string } | { policyType: string },
  now: Date,
): Promise<string[]> {
  const rows = await userStatusDb(db)
    .selectFrom('read.user_policy_status')
    .select('consent_id')
    .where('tenant_id', '=', tenantId)
    .where('subject', '=', subject)
    .where('purpose' in of ? 'purpose' : 'policy_type', '=', 'purpose' in of ? of.purpose : of.policyType)
    .where('consent_given', '=', true)
    .where(standsAt(now))
    .orderBy('purpose')
    .execute();
  return rows.map((r) => r.consent_id);
}
