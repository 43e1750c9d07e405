import type { Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { userStatusDb } from './user-status.table.js';

export interface UserPolicyStatus {
  policyType: string;
  status: 'given' | 'rejected' | 'withdrawn';
  consentId: string;
  policyVersionId: string;
  policyVersion: string;
  decidedAt: string;
  withdrawnAt: string | null;
}

/** Per policy type, the subject's latest decision and whether it was withdrawn (`subject`: Privacy.subjectOf). */
export async function userStatus(db: Kysely<Database>, tenantId: string, subject: string): Promise<UserPolicyStatus[]> {
  const rows = await userStatusDb(db)
    .selectFrom('read.user_policy_status')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('subject', '=', subject)
    .orderBy('policy_type')
    .execute();
  return rows.map((r) => ({
    policyType: r.policy_type,
    status: r.status as UserPolicyStatus['status'],
    consentId: r.consent_id,
    policyVersionId: r.policy_version_id,
    policyVersion: r.policy_version,
    decidedAt: r.decided_at.toISOString(),
    withdrawnAt: r.withdrawn_at?.toISOString() ?? null,
  }));
}
