import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** Search filters (CONTRACT.md, Consent records). Dates bound createdAt: from ≤ createdAt < before. */
export interface ConsentFilter {
  userReference?: string | undefined;
  policyType?: string | undefined;
  consentGiven?: boolean | undefined;
  status?: 'active' | 'withdrawn' | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
}

export interface ConsentSearchItem {
  id: string;
  consentHash: string;
  userReference: string;
  policyVersionId: string;
  policyType: string;
  policyVersion: string;
  consentGiven: boolean;
  status: string;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  withdrawnAt: string | null;
}

type ConsentQuery = SelectQueryBuilder<Database, 'read.consents', object>;

export function applyConsentFilter(q: ConsentQuery, tenantId: string, f: ConsentFilter): ConsentQuery {
  let r = q.where('tenant_id', '=', tenantId);
  if (f.userReference !== undefined) r = r.where('user_reference', '=', f.userReference);
  if (f.policyType !== undefined) r = r.where('policy_type', '=', f.policyType);
  if (f.consentGiven !== undefined) r = r.where('consent_given', '=', f.consentGiven);
  if (f.status !== undefined) r = r.where('status', '=', f.status);
  if (f.from !== undefined) r = r.where('created_at', '>=', f.from);
  if (f.before !== undefined) r = r.where('created_at', '<', f.before);
  return r;
}

const ITEM_COLUMNS = [
  'id',
  'consent_hash',
  'user_reference',
  'policy_version_id',
  'policy_type',
  'policy_version',
  'policy_title',
  'consent_given',
  'status',
  'ip_address',
  'user_agent',
  'metadata',
  'created_at',
  'withdrawn_at',
] as const;

type ItemRow = {
  id: string;
  consent_hash: string;
  user_reference: string;
  policy_version_id: string;
  policy_type: string;
  policy_version: string;
  policy_title: string;
  consent_given: boolean;
  status: string;
  ip_address: string | null;
  user_agent: string | null;
  metadata: Record<string, unknown>;
  created_at: Date;
  withdrawn_at: Date | null;
};

export const toSearchItem = (r: ItemRow): ConsentSearchItem => ({
  id: r.id,
  consentHash: r.consent_hash,
  userReference: r.user_reference,
  policyVersionId: r.policy_version_id,
  policyType: r.policy_type,
  policyVersion: r.policy_version,
  consentGiven: r.consent_given,
  status: r.status,
  ipAddress: r.ip_address,
  userAgent: r.user_agent,
  metadata: r.metadata,
  createdAt: r.created_at.toISOString(),
  withdrawnAt: r.withdrawn_at?.toISOString() ?? null,
});

/** A page of matching records, newest first, and how many match in all. */
export async function searchConsents(
  db: Kysely<Database>,
  tenantId: string,
  filter: ConsentFilter,
  page: number,
  limit: number,
): Promise<{ items: ConsentSearchItem[]; total: number; rows: ItemRow[] }> {
  const base = applyConsentFilter(db.selectFrom('read.consents'), tenantId, filter);
  const [rows, count] = await Promise.all([
    base.select(ITEM_COLUMNS).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset((page - 1) * limit).execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toSearchItem), total: Number(count.n), rows };
}

/**
 * Every matching record, oldest first, fetched in keyset pages of `chunk` rows: memory stays
 * flat however many rows match.
 */
export async function* streamConsents(db: Kysely<Database>, tenantId: string, filter: ConsentFilter, chunk = 1000): AsyncGenerator<ConsentSearchItem> {
  // The cursor keeps created_at as the database has it (microseconds): a JS Date would cut it to
  // milliseconds, and rows later in the same millisecond would come back again and again.
  let after: { createdAt: string; id: string } | undefined;
  for (;;) {
    let q = applyConsentFilter(db.selectFrom('read.consents'), tenantId, filter);
    if (after) {
      const a = after;
      q = q.where(sql<boolean>`(created_at, id) > (${a.createdAt}::timestamptz, ${a.id}::uuid)`);
    }
    const rows = await q
      .select([...ITEM_COLUMNS, sql<string>`created_at::text`.as('cursor')])
      .orderBy('created_at')
      .orderBy('id')
      .limit(chunk)
      .execute();
    for (const r of rows) yield toSearchItem(r);
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.cursor, id: last.id };
  }
}
