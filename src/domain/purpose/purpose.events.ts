import { asStored, eventDecoder } from '../events.js';

/** The lawful bases of GDPR Art. 6(1) (a) to (f). */
export const LEGAL_BASES = ['consent', 'contract', 'legal_obligation', 'vital_interests', 'public_task', 'legitimate_interests'] as const;
export type LegalBasis = (typeof LEGAL_BASES)[number];

/** The points of GDPR Art. 6(1), in the order of LEGAL_BASES. */
const ART_6_1_LETTERS = 'abcdef';

/** The legal bases with their points of GDPR Art. 6(1), as the API's schema describes them. */
export const LEGAL_BASIS_POINTS = `GDPR Art. 6(1): ${LEGAL_BASES.map((b, i) => `(${ART_6_1_LETTERS[i]!}) ${b}`).join(', ')}`;

/** The forms of a legal basis a tenant may write besides its name (in any case). */
export const LEGAL_BASIS_FORMS = 'its letter of GDPR Art. 6(1) (a to f, 6(1)(a), Art. 6(1)(a)) or its DPV GDPR term (eu-gdpr:A6-1-a)';

/**
 * The legal basis a tenant's text names: its name in any case, its letter of GDPR Art. 6(1) as
 * lawyers write it, or the W3C DPV GDPR extension's term; null for anything else.
 *
 * @example
 * legalBasisOf('Art. 6(1)(f)') // 'legitimate_interests'
 */
export function legalBasisOf(text: string): LegalBasis | null {
  const t = text.trim();
  // Its name with spaces or hyphens for underscores too: "Legitimate Interests", "legal-obligation".
  const words = t.toLowerCase().replace(/[\s-]+/g, '_');
  const named = LEGAL_BASES.find((b) => b === words);
  if (named) return named;
  const letter =
    /^(?:(?:gdpr\s+)?art(?:icle|\.)?\s*)?(?:6\s*\(\s*1\s*\)\s*)?\(?\s*([a-f])\s*\)?(?:\s+gdpr)?$/i.exec(t)?.[1] ??
    /^(?:eu-gdpr:|https:\/\/w3id\.org\/dpv\/legal\/eu\/gdpr#)A6-1-([a-f])$/i.exec(t)?.[1];
  return letter ? LEGAL_BASES[ART_6_1_LETTERS.indexOf(letter.toLowerCase())]! : null;
}

/**
 * A legal basis in the W3C DPV GDPR extension's terms.
 *
 * @example
 * gdprTermOf('legitimate_interests') // 'eu-gdpr:A6-1-f'
 */
export const gdprTermOf = (basis: LegalBasis): string => `eu-gdpr:A6-1-${ART_6_1_LETTERS[LEGAL_BASES.indexOf(basis)]!}`;

/**
 * A legal basis as a reader knows it, its name in words and its point of GDPR Art. 6(1) (the
 * console's purposes page); a name that is not a legal basis is answered as it is.
 *
 * @example
 * legalBasisWords('legal_obligation') // 'legal obligation, GDPR Art. 6(1)(c)'
 */
export function legalBasisWords(basis: string): string {
  const i = LEGAL_BASES.indexOf(basis as LegalBasis);
  return i < 0 ? basis : `${basis.replace(/_/g, ' ')}, GDPR Art. 6(1)(${ART_6_1_LETTERS[i]!})`;
}

/** What a tenant says a purpose is; `key` names it for good. */
export interface PurposeFields {
  name: string;
  description: string;
  legalBasis: LegalBasis;
  /** An ISO 8601 duration (`P13M`) after which a decision on this purpose expires; null: never. */
  consentValidFor: string | null;
  /** A W3C Data Privacy Vocabulary purpose term (`dpv:Marketing`, or its IRI); null: none. */
  dpv: string | null;
}

export interface PurposeDefined {
  type: 'PurposeDefined';
  data: PurposeFields & { key: string; at: string };
}

/** The fields that changed, with their new values. */
export interface PurposeChanged {
  type: 'PurposeChanged';
  data: Partial<PurposeFields> & { key: string; at: string };
}

export type PurposeEvent = PurposeDefined | PurposeChanged;

export const PURPOSE_EVENT_TYPES: readonly PurposeEvent['type'][] = ['PurposeDefined', 'PurposeChanged'];

/** Reads back a purpose stream's events (the place to upcast older shapes of them). */
export const decodePurposeEvent = eventDecoder<PurposeEvent>({ PurposeDefined: asStored(), PurposeChanged: asStored() });

/** The one place that names a purpose's stream: its key makes it unique per tenant. */
export const purposeStream = (tenantId: string, key: string): string => `purpose-${tenantId}-${key}`;

/** `^[a-z0-9][a-z0-9_.-]{0,63}$`, and what it asks for in words. */
export const PURPOSE_KEY = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
export const PURPOSE_KEY_RULE = 'must be 1 to 64 lower-case letters, digits, "_", "." or "-", starting with a letter or digit';

/**
 * An ISO 8601 duration of years, months, weeks, days, hours, minutes and seconds (whole numbers),
 * not zero: `P13M`, `P1Y6M`, `P30D`, `PT12H`.
 */
export const isDuration = (text: string): boolean => {
  const parts = durationParts(text);
  return parts !== null && nominalDays(parts) <= MAX_VALIDITY_DAYS;
};

/** The longest validity a purpose takes: 100 years (P100Y, P1200M, P36525D), so every expiry stays a four-digit year. */
export const MAX_VALIDITY_DAYS = 36_525;

/** A duration's length in days, its years and months at their mean length. */
const nominalDays = ([years, months, weeks, days, hours, minutes, seconds]: number[]): number =>
  years! * 365.25 + months! * (365.25 / 12) + weeks! * 7 + days! + (hours! * 3_600 + minutes! * 60 + seconds!) / 86_400;

const DURATION = /^P(?:(\d{1,4})Y)?(?:(\d{1,5})M)?(?:(\d{1,5})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,8})M)?(?:(\d{1,9})S)?)?$/;

/** [years, months, weeks, days, hours, minutes, seconds] of a duration `isDuration` accepts, else null. */
function durationParts(text: string): number[] | null {
  const m = DURATION.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return null;
  const parts = m.slice(1).map((part) => (part === undefined ? 0 : Number(part)));
  return parts.some((n) => n > 0) ? parts : null;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (month 1..12). */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The date of a day count since 1970-01-01: [year, month 1..12, day]. */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  return [era * 400 + yoe + (m <= 2 ? 1 : 0), m, d];
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/**
 * The instant a duration after `from` (an ISO 8601 UTC time as the ledger writes it), on the UTC
 * calendar: years and months move the date and clamp to the month's last day (2026-01-31 + P1M =
 * 2026-02-28), then weeks, days and the time part add exact amounts. Plain arithmetic: the domain
 * takes no clock.
 *
 * @example
 * addDuration('2026-01-15T10:00:00.000Z', 'P13M') // '2027-02-15T10:00:00.000Z'
 */
export function addDuration(from: string, duration: string): string {
  const parts = durationParts(duration);
  const at = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3})\d*)?Z$/.exec(from);
  if (!parts || !at) throw new Error(`cannot add ${duration} to ${from}`);
  const [years, months, weeks, days, hours, minutes, seconds] = parts as [number, number, number, number, number, number, number];
  const [y, mo, d, h, mi, s] = at.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const ms = Number((at[7] ?? '0').padEnd(3, '0'));
  const monthIndex = y * 12 + (mo - 1) + years * 12 + months;
  const year = Math.floor(monthIndex / 12);
  const month = (monthIndex % 12) + 1;
  const lastDay = daysFromCivil(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1) - daysFromCivil(year, month, 1);
  const total =
    (daysFromCivil(year, month, Math.min(d, lastDay)) + weeks * 7 + days) * 86_400_000 +
    (h * 3_600 + mi * 60 + s) * 1_000 +
    ms +
    (hours * 3_600 + minutes * 60 + seconds) * 1_000;
  const dayCount = Math.floor(total / 86_400_000);
  const rest = total - dayCount * 86_400_000;
  const [yy, mm, dd] = civilFromDays(dayCount);
  return `${pad(yy, 4)}-${pad(mm)}-${pad(dd)}T${pad(Math.floor(rest / 3_600_000))}:${pad(Math.floor(rest / 60_000) % 60)}:${pad(Math.floor(rest / 1_000) % 60)}.${pad(rest % 1_000, 3)}Z`;
}

/**
 * What the routes take for a DPV purpose term: `dpv:Name`, `https://w3id.org/dpv#Name`, a release's
 * IRI (`https://w3id.org/dpv/2.1#Name`), or an extension's (`https://w3id.org/dpv/sector/finance#Name`,
 * `…/dpv/legal/eu/gdpr#Name`); and a core name in the wrong case or without its prefix, which the
 * decider refuses with the term it would be (dpvPurposeProblem).
 */
export const DPV_TERM =
  /^(?:(?:dpv:)?[A-Za-z][A-Za-z0-9]{0,99}|https:\/\/w3id\.org\/dpv(?:\/owl)?#[a-z][A-Za-z0-9]{0,99}|https:\/\/w3id\.org\/dpv(?:\/\d{1,2}\.\d{1,2})?(?:\/[a-z0-9-]{1,40}){0,4}#[A-Z][A-Za-z0-9]{0,99})$/;
