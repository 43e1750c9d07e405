/**
 * Where a decision stands now against its purpose's policy versions (docs/purposes.md): withdrawn,
 * expired, outdated by a newer version that requires re-consent, or as decided. Pure: the read
 * models hand it the rows, the caller hands it the clock.
 */

/** A policy version as standing needs it. */
export interface VersionFacts {
  id: string;
  version: string;
  effectiveDate: Date;
  requiresReconsent: boolean;
  /** Active and not deleted: only such a version can be in force or outdate a decision. */
  usable: boolean;
}

/** A subject's latest decision on a purpose. */
export interface DecisionFacts {
  consentGiven: boolean;
  policyVersionId: string;
  expiresAt: Date | null;
  withdrawnAt: Date | null;
}

export type Standing = 'given' | 'rejected' | 'withdrawn' | 'expired' | 'outdated';

/**
 * A record's status at `now`: as the ledger has it (active or withdrawn), or expired once a consent
 * given that was not withdrawn is past its expiresAt (a withdrawn one reads withdrawn, even when an
 * imported withdrawal came after the expiry).
 */
export function recordStatus(
  status: 'active' | 'withdrawn' | 'expired',
  expiresAt: Date | null,
  now: Date,
): 'active' | 'withdrawn' | 'expired' {
  return status === 'active' && expiresAt !== null && expiresAt <= now ? 'expired' : status;
}

/**
 * Whether a consent was past its expiresAt when the ledger recorded it (history imported from
 * another platform): it never stood here, so it is expired from its record on and no
 * `ConsentExpired` marks it. ISO 8601 UTC strings, as the ledger writes them.
 */
export function expiredWhenRecorded(record: { consentGiven: boolean; timestamp: string; expiresAt?: string | null }): boolean {
  return record.consentGiven && record.expiresAt != null && record.expiresAt <= record.timestamp;
}

const semver = (v: string): number[] => v.split('.').map(Number);

/** What ordering versions needs: when each took effect, and its label. */
export type Dated = Pick<VersionFacts, 'effectiveDate' | 'version'>;

/** Positive when `a` comes after `b`: a later effectiveDate, then the higher version (as the active version is chosen). */
export function compareVersions(a: Dated, b: Dated): number {
  const byDate = a.effectiveDate.getTime() - b.effectiveDate.getTime();
  if (byDate !== 0) return byDate;
  const [x, y] = [semver(a.version), semver(b.version)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return 0;
}

/** The latest of the versions that pass `which`, or null. */
function latest<V extends Dated>(versions: readonly V[], which: (v: V) => boolean): V | null {
  let best: V | null = null;
  for (const v of versions) if (which(v) && (best === null || compareVersions(v, best) > 0)) best = v;
  return best;
}

/** The version of a purpose in force at `now`: usable, effective, latest. */
export const versionInForce = <V extends VersionFacts>(versions: readonly V[], now: Date): V | null =>
  latest(versions, (v) => v.usable && v.effectiveDate <= now);

/**
 * The version in force when a decision was made at `at` (an imported one): effective by then,
 * latest. A version deactivated since counts, as it was in force then; the caller leaves out deleted ones.
 */
export const versionInForceAt = <V extends Dated>(versions: readonly V[], at: Date): V | null =>
  latest(versions, (v) => v.effectiveDate <= at);

/** Why a decision made at `at` finds no version of `named` (`versions`, all taking effect after it) in force. */
export function noVersionInForceAt(named: string, at: string, versions: readonly Dated[]): string {
  const first = versions.reduce<Date | undefined>((a, v) => (a === undefined || v.effectiveDate < a ? v.effectiveDate : a), undefined);
  return (
    `no version of ${named} was in force at ${at}` +
    (first ? ` (the first took effect ${first.toISOString()})` : '') +
    ': publish the text the user saw, with its original effectiveDate'
  );
}

/**
 * The newest version in force at `now` that requires re-consent: a decision on any version before
 * it is outdated.
 */
export const reconsentSince = <V extends VersionFacts>(versions: readonly V[], now: Date): V | null =>
  latest(versions, (v) => v.usable && v.requiresReconsent && v.effectiveDate <= now);

/** The versions that come before `version` (in the order the active version is chosen by), oldest first. */
export const versionsBefore = <V extends VersionFacts>(versions: readonly V[], version: VersionFacts): V[] =>
  versions.filter((v) => compareVersions(version, v) > 0).sort(compareVersions);

/** Where a purpose stands at `now`: the version in force that asks for re-consent, and the versions it outdates (oldest first). */
export interface ReconsentScope<V extends VersionFacts = VersionFacts> {
  since: V | null;
  outdated: V[];
}

export function reconsentScopeOf<V extends VersionFacts>(versions: readonly V[], now: Date): ReconsentScope<V> {
  const since = reconsentSince(versions, now);
  return { since, outdated: since ? versionsBefore(versions, since) : [] };
}

/**
 * Where a decision stands at `now`, given every version of its purpose (the decided one included,
 * whatever became of it). Withdrawal first, then expiry, then re-consent.
 */
export function standingOf(decision: DecisionFacts, versions: readonly VersionFacts[], now: Date): Standing {
  if (decision.withdrawnAt !== null) return 'withdrawn';
  if (decision.consentGiven && decision.expiresAt !== null && decision.expiresAt <= now) return 'expired';
  const decided = versions.find((v) => v.id === decision.policyVersionId);
  const since = reconsentSince(versions, now);
  if (decided && since && compareVersions(since, decided) > 0) return 'outdated';
  return decision.consentGiven ? 'given' : 'rejected';
}

/**
 * The versions a decision named by its policy type alone chooses among: those of the type's own
 * purpose (the spec's types, purpose left out) when it has any, else those of the type's only
 * purpose. Versions of several purposes and none of the type's own: which purpose is meant is not
 * said, and recording on the latest of them would record on a purpose the caller may not have meant.
 */
export function ofTypeAlone<V extends { purpose: string }>(
  versions: readonly V[],
  policyType: string,
): { versions: V[] } | { severalPurposes: string[] } {
  const own = versions.filter((v) => v.purpose === policyType);
  if (own.length > 0) return { versions: own };
  const purposes = [...new Set(versions.map((v) => v.purpose))].sort();
  return purposes.length > 1 ? { severalPurposes: purposes } : { versions: [...versions] };
}

/**
 * What a policy type alone names for a decision made at `at` (an import): `ofTypeAlone` among the
 * versions in force by then, as a decision made now chooses among those in force now; so a version
 * of the type's own published later does not hide the purpose that was in force.
 */
export const ofTypeAloneAt = <V extends Dated & { purpose: string }>(
  versions: readonly V[],
  policyType: string,
  at: Date,
): { versions: V[] } | { severalPurposes: string[] } =>
  ofTypeAlone(
    versions.filter((v) => v.effectiveDate <= at),
    policyType,
  );

/** Why a policy type alone names no version (`ofTypeAlone`), said of the type's field. */
export const severalPurposes = (purposes: readonly string[]): string =>
  `has versions of several purposes (${purposes.join(', ')}): give the purpose`;
