import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { applyConsentFilter, type ConsentFilter } from '../consents/consent-filter.js';
import { consentsDb } from '../consents/consents.table.js';
import { readDb } from '../read-schema.js';
import { consentCountsDb } from './consent-counts.table.js';

export interface ConsentStats {
  totalConsents: number;
  acceptedConsents: number;
  rejectedConsents: number;
  acceptanceRate: number;
  consentsByPolicy: { policyType: string; count: number }[];
  /** By purpose, when a purpose other than a policy type has records: the spec's types alone keep the spec's fields. */
  consentsByPurpose?: { purpose: string; count: number }[];
}

interface Bucket {
  policy_type: string;
  purpose: string;
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
    .select(['policy_type', 'purpose', 'consent_given', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy(['policy_type', 'purpose', 'consent_given'])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * The counters of whole days [fromDay, beforeDay) for `f`. A status is the one records were last
 * marked with; a consent past expiresAt and not marked yet is moved from active to expired here,
 * counted from its rows (few: the deadlines follower marks them within seconds).
 */
async function sumCounters(db: Kysely<Database>, tenantId: string, f: ConsentFilter, fromDay?: Date, beforeDay?: Date): Promise<Bucket[]> {
  let q = consentCountsDb(db)
    .selectFrom('read.consent_counts')
    .where('tenant_id', '=', tenantId)
    .where('tag', '=', f.metadataTags?.[0] ?? '');
  if (f.status === 'withdrawn' || f.status === 'expired') q = q.where('status', '=', f.status);
  if (f.status === 'active' || f.status === 'outdated') q = q.where('status', '=', 'active');
  if (f.status === 'outdated') {
    const ids = f.outdatedVersionIds ?? [];
    if (ids.length === 0) return [];
    q = q.where('policy_version_id', 'in', ids);
  }
  if (f.policyType !== undefined) q = q.where('policy_type', '=', f.policyType);
  if (f.purpose !== undefined) q = q.where('purpose', '=', f.purpose);
  if (f.policyVersionId !== undefined) q = q.where('policy_version_id', '=', f.policyVersionId);
  if (f.consentGiven !== undefined) q = q.where('consent_given', '=', f.consentGiven);
  if (fromDay) q = q.where('day', '>=', isoDay(fromDay));
  if (beforeDay) q = q.where('day', '<', isoDay(beforeDay));
  const rows = await q
    .select(['policy_type', 'purpose', 'consent_given', sql<number>`sum(count)`.as('n')])
    .groupBy(['policy_type', 'purpose', 'consent_given'])
    .execute();
  const counted = rows.map((r) => ({ ...r, n: Number(r.n) }));
  if (f.status === undefined || f.status === 'withdrawn') return counted;
  const unmarked = await unmarkedExpired(db, tenantId, f, fromDay, beforeDay);
  const sign = f.status === 'expired' ? 1 : -1;
  return [...counted, ...unmarked.map((b) => ({ ...b, n: sign * b.n }))];
}

/** Records still marked active though past expiresAt, by what the stats and the day counters key them on. */
interface UnmarkedBucket extends Bucket {
  /** The UTC day of the decision (collectedAt for imported history), as the day counters key it. */
  decided_day: string;
  policy_version_id: string;
}

/**
 * Records of whole days [fromDay, beforeDay) matching `f` but its status, still marked active
 * though past expiresAt at `f.now` (their ConsentExpired is appended within a minute): so that
 * counts say what the records stand at now, as their status does. Few, and found by an index.
 */
async function unmarkedExpired(
  db: Kysely<Database>,
  tenantId: string,
  f: ConsentFilter,
  fromDay?: Date,
  beforeDay?: Date,
): Promise<UnmarkedBucket[]> {
  let q = applyConsentFilter(consentsDb(db).selectFrom('read.consents'), tenantId, {
    ...f,
    status: undefined,
    from: fromDay,
    before: beforeDay,
  })
    .where('status', '=', 'active')
    .where('expires_at', '<=', f.now ?? new Date());
  if (f.status === 'outdated') q = q.where('policy_version_id', 'in', f.outdatedVersionIds!);
  const rows = await q
    .select([
      sql<string>`to_char(coalesce(collected_at, created_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD')`.as('decided_day'),
      'policy_type',
      'purpose',
      'policy_version_id',
      'consent_given',
      (eb) => eb.fn.countAll<number>().as('n'),
    ])
    .groupBy(['decided_day', 'policy_type', 'purpose', 'policy_version_id', 'consent_given'])
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * Accepted per 100 decisions, one decimal; 0 with none. accepted × 1000 / total is one correctly
 * rounded division, so an exact half (201 of 400 = 50.25 %) rounds up; (accepted / total) × 1000
 * carries the quotient's error and may not.
 */
const acceptanceRate = (accepted: number, total: number): number => (total === 0 ? 0 : Math.round((accepted * 1000) / total) / 10);

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
  // Counters hold type, purpose, version, decision, status and one tag per day; a user or a second tag counts rows.
  if (f.subject !== undefined || (f.metadataTags?.length ?? 0) > 1 || pastLastDay) {
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
  const byPurpose = new Map<string, number>();
  // Records on a version whose purpose is not its type (each such bucket's true count is at least 0).
  let ownPurposes = 0;
  for (const b of buckets) {
    if (b.consent_given) accepted += b.n;
    else rejected += b.n;
    byType.set(b.policy_type, (byType.get(b.policy_type) ?? 0) + b.n);
    byPurpose.set(b.purpose, (byPurpose.get(b.purpose) ?? 0) + b.n);
    if (b.purpose !== b.policy_type) ownPurposes += b.n;
  }
  const total = accepted + rejected;
  const counted = (m: Map<string, number>) =>
    [...m.entries()].filter(([, count]) => count > 0).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return {
    totalConsents: total,
    acceptedConsents: accepted,
    rejectedConsents: rejected,
    acceptanceRate: acceptanceRate(accepted, total),
    consentsByPolicy: counted(byType).map(([policyType, count]) => ({ policyType, count })),
    // Two purposes of one type (a newsletter and SMS offers, both `custom`) told apart; only when
    // a purpose other than a type has records, so the spec's types alone keep the spec's fields.
    ...(ownPurposes > 0 ? { consentsByPurpose: counted(byPurpose).map(([purpose, count]) => ({ purpose, count })) } : {}),
  };
}

/** How many records match `f`: the stats' total, from the day counters where the filter allows. */
export async function countConsents(db: Kysely<Database>, tenantId: string, f: ConsentFilter): Promise<number> {
  return (await consentStats(db, tenantId, f)).totalConsents;
}

/** Records by what they stand at now: in force, rejected, withdrawn, expired. */
interface StatusTally {
  given: number;
  rejected: number;
  withdrawn: number;
  expired: number;
}

/** Adds a counter row's records to the tally of what they stand at now. */
function tally(t: StatusTally, row: { consent_given: boolean; status: string; n: string | number }): void {
  const n = Number(row.n);
  if (row.status === 'withdrawn') t.withdrawn += n;
  else if (row.status === 'expired') t.expired += n;
  else if (row.consent_given) t.given += n;
  else t.rejected += n;
}

/** One UTC day's records by what they stand at now (the console's chart). */
export interface DailyCount {
  day: string;
  given: number;
  rejected: number;
  withdrawn: number;
  expired: number;
}

/**
 * Decisions per UTC day, from `from` to `to` (inclusive days, 'YYYY-MM-DD'), each day split by
 * what its records stand at now: given (in force), rejected, withdrawn, expired. A decision's day
 * is its record's, or collectedAt's for imported history (which would else all fall on the day of
 * the import). Read from the day counters only; a purpose or policy type narrows them. Days with
 * none are zeros.
 */
export async function dailyCounts(
  db: Kysely<Database>,
  tenantId: string,
  range: { from: string; to: string; purpose?: string | undefined; policyType?: string | undefined; now?: Date },
): Promise<DailyCount[]> {
  let q = consentCountsDb(db)
    .selectFrom('read.consent_counts')
    .select((eb) => ['decided_day', 'consent_given', 'status', eb.fn.sum<string>('count').as('n')])
    .where('tenant_id', '=', tenantId)
    .where('tag', '=', '')
    .where('decided_day', '>=', range.from)
    .where('decided_day', '<=', range.to);
  if (range.purpose !== undefined) q = q.where('purpose', '=', range.purpose);
  if (range.policyType !== undefined) q = q.where('policy_type', '=', range.policyType);
  const rows = await q.groupBy(['decided_day', 'consent_given', 'status']).execute();
  const days = new Map<string, DailyCount>();
  for (let t = Date.parse(`${range.from}T00:00:00Z`); t <= Date.parse(`${range.to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.set(day, { day, given: 0, rejected: 0, withdrawn: 0, expired: 0 });
  }
  for (const r of rows) {
    const d = days.get(String(r.decided_day).slice(0, 10));
    if (d) tally(d, r);
  }
  for (const u of await unmarkedExpired(db, tenantId, {
    now: range.now ?? new Date(),
    purpose: range.purpose,
    policyType: range.policyType,
  })) {
    const d = days.get(u.decided_day);
    if (d) markExpired(d, u);
  }
  return [...days.values()];
}

/** Moves records a tally counts as in force (given, or rejected) to expired. */
function markExpired(t: StatusTally, u: { consent_given: boolean; n: number }): void {
  if (u.consent_given) t.given -= u.n;
  else t.rejected -= u.n;
  t.expired += u.n;
}

/** One policy version's records by what they stand at now (the console's acceptance per version). */
export interface VersionCount {
  policyVersionId: string;
  policyType: string;
  purpose: string;
  version: string;
  title: string;
  isActive: boolean;
  deleted: boolean;
  /** When it takes (or took) effect. */
  effectiveDate: string;
  /** Whether it asks those who decided on an older version of its purpose to decide again. */
  requiresReconsent: boolean;
  given: number;
  rejected: number;
  withdrawn: number;
  expired: number;
  /** Consent given (whatever became of it since) per 100 decisions, one decimal; 0 with none. */
  acceptanceRate: number;
}

/**
 * Every policy version of the tenant with its records counted from the day counters, by what they
 * stand at now; the newest published first.
 */
export async function versionCounts(db: Kysely<Database>, tenantId: string, now = new Date()): Promise<VersionCount[]> {
  const read = readDb(db);
  const [versions, counts, unmarked] = await Promise.all([
    read
      .selectFrom('read.policy_versions')
      .select(['id', 'policy_type', 'purpose', 'version', 'title', 'is_active', 'deleted', 'effective_date', 'requires_reconsent'])
      .where('tenant_id', '=', tenantId)
      .orderBy('created_at', 'desc')
      .execute(),
    read
      .selectFrom('read.consent_counts')
      .select((eb) => ['policy_version_id', 'consent_given', 'status', eb.fn.sum<string>('count').as('n')])
      .where('tenant_id', '=', tenantId)
      .where('tag', '=', '')
      .groupBy(['policy_version_id', 'consent_given', 'status'])
      .execute(),
    unmarkedExpired(db, tenantId, { now }),
  ]);
  const byVersion = new Map(
    versions.map((v) => [
      v.id,
      {
        policyVersionId: v.id,
        policyType: v.policy_type,
        purpose: v.purpose,
        version: v.version,
        title: v.title,
        isActive: v.is_active,
        deleted: v.deleted,
        effectiveDate: v.effective_date.toISOString(),
        requiresReconsent: v.requires_reconsent,
        given: 0,
        rejected: 0,
        withdrawn: 0,
        expired: 0,
        acceptanceRate: 0,
      },
    ]),
  );
  for (const c of counts) {
    const v = byVersion.get(c.policy_version_id);
    if (v) tally(v, c);
  }
  for (const u of unmarked) {
    const v = byVersion.get(u.policy_version_id);
    if (v) markExpired(v, u);
  }
  for (const v of byVersion.values()) {
    const total = v.given + v.rejected + v.withdrawn + v.expired;
    // Withdrawn and expired consents were given: they count as accepted, as the stats' rate does.
    v.acceptanceRate = acceptanceRate(v.given + v.withdrawn + v.expired, total);
  }
  return [...byVersion.values()];
}
