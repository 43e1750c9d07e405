import { sql, type Kysely } from 'kysely';
import { reconsentScopeOf, type ReconsentScope } from '../../src/domain/consent/standing.js';
import type { Database } from '../../src/store/schema.js';
import type { ConsentsDatabase } from '../consents/consents.table.js';
import { standsAt, type UserStatusDatabase } from './user-status.table.js';
import { versionsByPurpose } from './user-status.queries.js';

/** A standing decision that must be asked for again, with its record's sealed fields (the caller opens them). */
export interface OutdatedRow {
  consent_id: string;
  subject: string;
  policy_version_id: string;
  policy_version: string;
  consent_given: boolean;
  decided_at: Date;
  expires_at: Date | null;
  personal: Record<string, unknown> | null;
  erased: boolean;
}

export type { ReconsentScope } from '../../src/domain/consent/standing.js';

/** A purpose and where it stands at `now`. */
export interface PurposeScope {
  purpose: string;
  scope: ReconsentScope;
}

/**
 * Where each purpose stands at `now` (its versions as the read model has them): `purpose` alone, or
 * every purpose with versions, by key; those with nothing outdated are left out.
 */
export async function reconsentScopes(
  db: Kysely<Database>,
  tenantId: string,
  purpose: string | undefined,
  now: Date,
): Promise<PurposeScope[]> {
  const byPurpose = await versionsByPurpose(db, tenantId, purpose === undefined ? undefined : [purpose]);
  return [...byPurpose.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, versions]) => ({ purpose: key, scope: reconsentScopeOf(versions, now) }))
    .filter((p) => p.scope.outdated.length > 0);
}

/** The standing decisions on one version: not withdrawn, not expired at `now`. */
const standingOn = (db: Kysely<Database>, tenantId: string, purpose: string, versionId: string, now: Date) =>
  db
    .withTables<UserStatusDatabase & ConsentsDatabase>()
    .selectFrom('read.user_policy_status as s')
    .where('s.tenant_id', '=', tenantId)
    .where('s.purpose', '=', purpose)
    .where('s.policy_version_id', '=', versionId)
    .where(standsAt(now, 's'));

/**
 * How many standing decisions each outdated version holds: the version's counter (decisions
 * standing on it, not withdrawn) less those past their expiry, counted from their rows.
 */
export async function countOutdated(db: Kysely<Database>, tenantId: string, purpose: string, scope: ReconsentScope, now: Date) {
  if (scope.outdated.length === 0) return [];
  const ids = scope.outdated.map((v) => v.id);
  const s = db.withTables<UserStatusDatabase>();
  const [counted, expired] = await Promise.all([
    s
      .selectFrom('read.standing_counts')
      .select(['policy_version_id', 'count'])
      .where('tenant_id', '=', tenantId)
      .where('purpose', '=', purpose)
      .where('policy_version_id', 'in', ids)
      .execute(),
    s
      .selectFrom('read.user_policy_status')
      .select(['policy_version_id', sql<string>`count(*)`.as('n')])
      .where('tenant_id', '=', tenantId)
      .where('purpose', '=', purpose)
      .where('policy_version_id', 'in', ids)
      .where('withdrawn_at', 'is', null)
      .where('expires_at', '<=', now)
      .groupBy('policy_version_id')
      .execute(),
  ]);
  const standing = new Map(counted.map((r) => [r.policy_version_id, Number(r.count)]));
  const lapsed = new Map(expired.map((r) => [r.policy_version_id, Number(r.n)]));
  return ids.map((id) => (standing.get(id) ?? 0) - (lapsed.get(id) ?? 0));
}

/** Rows of one version after `afterConsentId`, by consent id, with their records' sealed fields. */
function rowsOf(db: Kysely<Database>, tenantId: string, purpose: string, versionId: string, now: Date) {
  return standingOn(db, tenantId, purpose, versionId, now)
    .innerJoin('read.consents as c', 'c.id', 's.consent_id')
    .select([
      's.consent_id',
      's.subject',
      's.policy_version_id',
      's.policy_version',
      's.consent_given',
      's.decided_at',
      's.expires_at',
      'c.personal',
      'c.erased',
    ])
    .orderBy('s.consent_id');
}

/** Rows of one purpose, all read under its scope. */
export interface OutdatedRun extends PurposeScope {
  rows: OutdatedRow[];
}

/**
 * A page of the outdated standing decisions of `purpose`, or of every purpose (by key): within a
 * purpose oldest version first, then by consent id; and how many there are. Each version's rows
 * are one index range, so a page costs a range read or two.
 */
export async function outdatedPage(
  db: Kysely<Database>,
  tenantId: string,
  purpose: string | undefined,
  now: Date,
  page: number,
  limit: number,
): Promise<{ runs: OutdatedRun[]; total: number }> {
  const scopes = await reconsentScopes(db, tenantId, purpose, now);
  const counts = await Promise.all(scopes.map((p) => countOutdated(db, tenantId, p.purpose, p.scope, now)));
  const total = counts.flat().reduce((a, b) => a + b, 0);
  const runs: OutdatedRun[] = [];
  let wanted = limit;
  let skip = (page - 1) * limit;
  for (let k = 0; k < scopes.length && wanted > 0; k++) {
    const { purpose: key, scope } = scopes[k]!;
    for (let i = 0; i < scope.outdated.length && wanted > 0; i++) {
      const n = counts[k]![i]!;
      if (skip >= n) {
        skip -= n;
        continue;
      }
      const rows: OutdatedRow[] = await rowsOf(db, tenantId, key, scope.outdated[i]!.id, now).offset(skip).limit(wanted).execute();
      runs.push({ purpose: key, scope, rows });
      wanted -= rows.length;
      skip = 0;
    }
  }
  return { runs, total };
}

/** Every outdated standing decision of the purposes, in the page order, `chunk` rows per read (keyset on consent id). */
export async function* outdatedRows(
  db: Kysely<Database>,
  tenantId: string,
  scopes: readonly PurposeScope[],
  now: Date,
  chunk: number,
): AsyncGenerator<OutdatedRun> {
  for (const { purpose, scope } of scopes) {
    for (const version of scope.outdated) {
      let after: string | null = null;
      for (;;) {
        let q = rowsOf(db, tenantId, purpose, version.id, now);
        if (after !== null) q = q.where('s.consent_id', '>', after);
        const rows: OutdatedRow[] = await q.limit(chunk).execute();
        if (rows.length === 0) break;
        yield { purpose, scope, rows };
        if (rows.length < chunk) break;
        after = rows[rows.length - 1]!.consent_id;
      }
    }
  }
}

/** Every version of a tenant that a newer version in force, requiring re-consent, outdates at `now` (all purposes). */
export async function outdatedVersionIds(db: Kysely<Database>, tenantId: string, now: Date): Promise<string[]> {
  const byPurpose = await versionsByPurpose(db, tenantId);
  return [...byPurpose.values()].flatMap((versions) => reconsentScopeOf(versions, now).outdated.map((v) => v.id));
}
