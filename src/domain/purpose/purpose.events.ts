import { asStored, eventDecoder } from '../events.js';

/** The lawful bases of GDPR Art. 6(1) (a) to (f). */
export const LEGAL_BASES = ['consent', 'contract', 'legal_obligation', 'vital_interests', 'public_task', 'legitimate_interests'] as const;
export type LegalBasis = (typeof LEGAL_BASES)[number];

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

/** `^[a-z0-9][a-z0-9_.-]{0,63}$` */
export const PURPOSE_KEY = /^[a-z0-9][a-z0-9_.-]{0,63}$/;

/**
 * An ISO 8601 duration of years, months, weeks, days, hours, minutes and seconds (whole numbers),
 * not zero: `P13M`, `P1Y6M`, `P30D`, `PT12H`.
 */
export const isDuration = (text: string): boolean => {
  const m = /^P(?:(\d{1,4})Y)?(?:(\d{1,5})M)?(?:(\d{1,5})W)?(?:(\d{1,6})D)?(?:T(?:(\d{1,6})H)?(?:(\d{1,8})M)?(?:(\d{1,9})S)?)?$/.exec(text);
  if (!m || text === 'P' || text.endsWith('T')) return false;
  return m.slice(1).some((part) => part !== undefined && Number(part) > 0);
};

/** A DPV purpose term: `dpv:Name` or `https://w3id.org/dpv#Name` (or one of its extensions' IRIs). */
export const DPV_TERM = /^(?:dpv:[A-Z][A-Za-z0-9]{0,99}|https:\/\/w3id\.org\/dpv(?:\/[a-z0-9-]{1,40}(?:\/owl)?)?#[A-Z][A-Za-z0-9]{0,99})$/;
