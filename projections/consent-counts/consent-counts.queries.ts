import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { applyConsentFilter, type ConsentFilter } from '../consents/consent-filter.js';
import { consentsDb } from '../consents/consents.table.js';
import { consentCountsDb } from './consent-counts.table.js';

export interface ConsentStats {
  totalConsents: number;
  acceptedConsents: number;
  rejectedConsents: number;
  acceptanceRate: number;
  consentsByPolicy: { policyType: string; count: number }[];
}

interface Bucket {
  policy_type: string;
  consent_given: boolean;
  n: number;
}

const DAY = 86_400_000;
const LAST_DAY = Date.UTC(9999, 11, 31);
const dayStart = (d: Date) => new Date(Math.floor(d.getTime() / DAY) * DAY);
const nextDayStart = (d: Date) => new Date(Math.ceil(d.getTime() / DAY) * DAY);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

async function countRows(db: Kysely<Database>, tenantId: string, f: ConsentFilter): Promise<Bucket[]> {
  const rows = await applyConsentFilter(consentsDb(db).selectFrom('read.consents'), tenantId, f)
    .select(['policy_type', 'consent_given', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['policy_type', 'consent_given'])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

async function sumCounters(db: Kysely<Database>, tenantId: string, f: ConsentFilter, fromDay?: Date, beforeDay?: Date): Promise<Bucket[]> {
  let q = consentCountsDb(db).selectFrom('read.consent_counts').where('tenant_id', '=', tenantId);
  if (f.policyType !== undefined) q = q.where('policy_type', '=', f.policyType);
  if (f.purpose !== undefined) q = q.where('purpose', '=', f.purpose);
  if (f.policyVersionId !== undefined) q = q.where('policy_version_id', '=', f.policyVersionId);
  if (f.consentGiven !== undefined) q = q.where('consent_given', '=', f.consentGiven);
  if (fromDay) q = q.where('day', '>=', isoDay(fromDay));
  if (beforeDay) q = q.where('day', '<', isoDay(beforeDay));
  const rows = await q
    .select(['policy_type', 'consent_given', sql<number>`sum(count)`.as('n')])
    .groupBy(['policy_type', 'consent_given'])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * Consent statistics. Whole UTC days come from the counters the projection keeps; only the
 * partial days at the edges of a time range, and filters the counters do not carry (user,
 * status), count rows.
 */
export async function consentStats(db: Kysely<Database>, tenantId: string, f: ConsentFilter): Promise<ConsentStats> {
  let buckets: Bucket[];
  const fullFrom = f.from ? nextDayStart(f.from) : undefined;
  const fullBefore = f.before ? dayStart(f.before) : undefined;
  // A start on 9999-12-31 has no whole day after it that dates can name (year 10000 is not text
  // every engine reads): count its rows.
  const pastLastDay = fullFrom !== undefined && fullFrom.getTime() > LAST_DAY;
  // Counters hold type, purpose, version and decision per day; other filters count rows.
  if (f.subject !== undefined || f.status !== undefined || (f.metadataTags?.length ?? 0) > 0 || pastLastDay) {
    buckets = await countRows(db, tenantId, f);
  } else {
    if (fullFrom && fullBefore && fullFrom >= fullBefore) {
      buckets = await countRows(db, tenantId, f);
    } else {
      const parts = [sumCounters(db, tenantId, f, fullFrom, fullBefore)];
      if (f.from && fullFrom && f.from < fullFrom) parts.push(countRows(db, tenantId, { ...f, before: fullFrom }));
      if (f.before && fullBefore && fullBefore < f.before) parts.push(countRows(db, tenantId, { ...f, from: fullBefore }));
      buckets = (await Promise.all(parts)).flat();
    }
  }
  let accepted = 0;
  let rejected = 0;
  const byType = new Map<string, number>();
  for (const b of buckets) {
    if (b.consent_given) accepted += b.n;
    else rejected += b.n;
    byType.set(b.policy_type, (byType.get(b.policy_type) ?? 0) + b.n);
  }
  const total = accepted + rejected;
  return {
    totalConsents: total,
    acceptedConsents: accepted,
    rejectedConsents: rejected,
    // accepted × 1000 / total is one correctly rounded division, so an exact half (201 of 400 =
    // 50.25 %) rounds up; (accepted / total) × 1000 carries the quotient's error and may not.
    acceptanceRate: total === 0 ? 0 : Math.round((accepted * 1000) / total) / 10,
    consentsByPolicy: [...byType.entries()]
      .filter(([, count]) => count > 0)
      .map(([policyType, count]) => ({ policyType, count }))
      .sort((a, b) => b.count - a.count || a.policyType.localeCompare(b.policyType)),
  };
}

/** How many records match `f`: the stats' total, from the day counters where the filter allows. */
export async function countConsents(db: Kysely<Database>, tenantId: string, f: ConsentFilter): Promise<number> {
  return (await consentStats(db, tenantId, f)).totalConsents;
}
