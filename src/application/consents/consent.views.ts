import type { Actor } from '../../common/actor.js';
import type { ConsentState } from '../../domain/consent/consent.decider.js';
import type { ConsentRecorded } from '../../domain/consent/consent.events.js';
import { recordStatus } from '../../domain/consent/standing.js';
import type { OpenedRecord, PersonalFields } from '../../privacy/personal-fields.js';
import type { ConsentPersonal } from '../../privacy/privacy.js';
import type { Sealing } from '../../privacy/sealing.js';

/** What recording answers: the record's id, hash and decision. */
export interface RecordedConsentView {
  id: string;
  consentHash: string;
  /** null once the subject was erased (a replayed answer). */
  userReference: string | null;
  policyVersionId: string;
  consentGiven: boolean;
  timestamp: string;
  /** The version's purpose, when it is not its policy type (records of the spec's types keep the spec's shape). */
  purpose?: string;
  /** When the consent given expires (the version's validity); absent: never. */
  expiresAt?: string;
  /** An imported decision's original time; absent: decided at `timestamp`. */
  collectedAt?: string;
  /** true for a decision imported from another platform (with `collectedAt`); absent otherwise. */
  imported?: true;
}

/** A consent record as the ledger holds it, its personal fields opened. */
export interface ConsentView {
  id: string;
  consentHash: string;
  /** The personal fields are null once the subject was erased (`erased: true`). */
  userReference: string | null;
  policyVersionId: string;
  consentGiven: boolean;
  /** expired: a consent given past its expiresAt, at read time. */
  status: 'active' | 'withdrawn' | 'expired';
  purpose?: string;
  expiresAt?: string;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
  timestamp: string;
  collectedAt?: string;
  imported?: true;
  withdrawnAt: string | null;
  withdrawalReason: string | null;
  erased: boolean;
  /** The personal fields are null because they do not open with their key: the stored record was changed. */
  tampered: boolean;
  policyDetails: { title: string; type: string; version: string; contentHash: string };
  /** Who recorded it and who withdrew it (an API key by id, the operator, the CLI); absent for records before actors. */
  recordedBy?: Actor;
  withdrawnBy?: Actor;
  /** `browser` when a publishable key recorded it, from a page (docs/browser.md). */
  collectedVia?: 'browser';
}

export interface VerificationView {
  valid: boolean;
  consentId: string;
  storedHash: string;
  /** null when the hash cannot be recomputed: the subject was erased. */
  computedHash: string | null;
  verifiedAt: string;
  /** The subject was erased: existence, decision, time and consentHash remain; the hash input does not. */
  erased: boolean;
  /** The sealed personal fields do not open with their key: the stored event was changed (`reason: "tampered"`). */
  tampered: boolean;
  /** Why `valid` is false, in words; null when valid. */
  reason: string | null;
}

export interface BatchView {
  processed: number;
  consents: { id: string; userReference: string | null; consentGiven: boolean }[];
}

/** A consent stream folded to a record (recorded, perhaps withdrawn). */
export type KnownConsent = Exclude<ConsentState, { status: 'none' }>;

export const personalOf = (s: Sealing<ConsentPersonal>): ConsentPersonal | null => (s.state === 'personal' ? s.value : null);

export const recordedView = (r: ConsentRecorded['data'], userReference: string | null): RecordedConsentView => ({
  id: r.consentId,
  consentHash: r.consentHash,
  userReference,
  policyVersionId: r.policyVersionId,
  consentGiven: r.consentGiven,
  timestamp: r.timestamp,
  ...purposeFields(r),
  ...importedFields(r),
});

/** `collectedAt` and `imported: true` of a decision imported from another platform; nothing for the others. */
export const importedFields = (r: { collectedAt?: string | null | undefined }): { collectedAt?: string; imported?: true } =>
  r.collectedAt === undefined || r.collectedAt === null ? {} : { collectedAt: r.collectedAt, imported: true };

/** `purpose` and `expiresAt` of a record, each only when it says more than the spec's fields. */
export const purposeFields = (r: {
  purpose?: string | undefined;
  expiresAt?: string | null | undefined;
}): { purpose?: string; expiresAt?: string } => ({
  ...(r.purpose === undefined ? {} : { purpose: r.purpose }),
  ...(r.expiresAt === undefined || r.expiresAt === null ? {} : { expiresAt: r.expiresAt }),
});

export const consentView = (s: KnownConsent, opened: OpenedRecord, now = new Date()): ConsentView => {
  const p = personalOf(opened.personal);
  return {
    id: s.record.consentId,
    consentHash: s.record.consentHash,
    userReference: p?.userReference ?? null,
    policyVersionId: s.record.policyVersionId,
    consentGiven: s.record.consentGiven,
    status: recordStatus(s.status, s.record.expiresAt === undefined ? null : new Date(s.record.expiresAt), now),
    ...purposeFields(s.record),
    ipAddress: p?.ipAddress ?? null,
    userAgent: p?.userAgent ?? null,
    metadata: p ? p.metadata : null,
    createdAt: s.record.timestamp,
    timestamp: s.record.timestamp,
    ...importedFields(s.record),
    withdrawnAt: s.withdrawnAt,
    withdrawalReason: p ? opened.reason : null,
    erased: opened.personal.state === 'erased',
    tampered: opened.personal.state === 'tampered',
    policyDetails: {
      title: s.record.policyTitle,
      type: s.record.policyType,
      version: s.record.policyVersion,
      contentHash: s.record.policyContentHash,
    },
  };
};

/** A record's sealed fields, as the one reader takes them. */
export const sealedOf = (tenantId: string, s: KnownConsent) => ({
  tenantId,
  consentId: s.record.consentId,
  subject: s.record.subject,
  personal: s.record.personal,
  reason: s.reason,
});

/** Opens records and builds their views, with one read of their keys. */
export async function consentViews(reader: PersonalFields, tenantId: string, states: readonly KnownConsent[]): Promise<ConsentView[]> {
  const opened = await reader.open(states.map((s) => sealedOf(tenantId, s)));
  return states.map((s, i) => consentView(s, opened[i]!));
}
