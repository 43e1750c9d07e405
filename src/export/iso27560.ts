/**
 * A consent record as ISO/IEC TS 27560:2023 structures it, in JSON-LD with the W3C Data Privacy
 * Vocabulary, following the DPV community group's profile (https://w3id.org/dpv/guides/consent-27560,
 * schema `https://w3id.org/dpv/schema/dpv-27560#record`). docs/standard-records.md maps each field.
 */

import { gdprTermOf, LEGAL_BASES } from '../domain/purpose/purpose.events.js';

/** The profile a record states it conforms to (`dct:conformsTo`). */
export const DPV_27560_RECORD = 'https://w3id.org/dpv/schema/dpv-27560#record';

export const ISO27560_CONTEXT = {
  dpv: 'https://w3id.org/dpv#',
  dct: 'http://purl.org/dc/terms/',
  pd: 'https://w3id.org/dpv/pd#',
  'eu-gdpr': 'https://w3id.org/dpv/legal/eu/gdpr#',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  schema: 'https://schema.org/',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  // Their values name a concept or a thing (eu-gdpr:A6-1-a, urn:uuid:…, a URL): links, not text.
  'dct:conformsTo': { '@type': '@id' },
  'dpv:hasDataController': { '@type': '@id' },
  'dpv:hasLegalBasis': { '@type': '@id' },
  'dpv:hasPersonalData': { '@type': '@id' },
  'dpv:isIndicatedBy': { '@type': '@id' },
  'rdfs:seeAlso': { '@type': '@id' },
} as const;

/** What the ledger holds of one decision, and what it names. */
export interface StandardRecordInput {
  id: string;
  consentHash: string;
  /** The keyed hash of the user reference: the data subject, pseudonymously, and for good (it outlives an erasure). */
  subject: string;
  consentGiven: boolean;
  /** The status at read time. */
  status: string;
  /** The ledger's time of the record. */
  createdAt: string;
  /** An imported decision's original time. */
  collectedAt?: string | undefined;
  expiresAt?: string | undefined;
  withdrawnAt: string | null;
  tenant: { id: string; name: string };
  notice: { policyVersionId: string; title: string; type: string; version: string; contentHash: string };
  purpose: { key: string; name: string | null; legalBasis: string | null; dpv: string | null };
  /**
   * Its proof link: the record's inclusion proof in the tenant's signed log (a read key fetches
   * it; `audit prove` checks it offline). Not the public page, which checks only records whose
   * receipt was issued.
   */
  proofUrl: string;
}

const EVENT_BY = 'dpv:DataSubject';
const endless = { '@type': 'dpv:EndlessDuration' };

/**
 * The record in the profile's shape. The data subject is the keyed hash, never the user reference;
 * events are the decision (given or refused), then its expiry and its withdrawal (both when an
 * imported withdrawal came after the expiry), each with its time.
 *
 * @example
 * iso27560Record({ id, consentHash, subject, consentGiven: true, status: 'active', ... })['dct:conformsTo'] // DPV_27560_RECORD
 */
export function iso27560Record(r: StandardRecordInput): Record<string, unknown> {
  const decidedAt = r.collectedAt ?? r.createdAt;
  const events: Record<string, unknown>[] = [
    {
      '@type': r.consentGiven ? 'dpv:ConsentGiven' : 'dpv:ConsentRefused',
      'dpv:isIndicatedAtTime': decidedAt,
      'dpv:isIndicatedBy': EVENT_BY,
      'dpv:hasDuration': r.consentGiven && r.expiresAt ? { '@type': 'dpv:UntilTimeDuration', 'rdf:value': r.expiresAt } : endless,
    },
  ];
  // Expired when it is, or before a withdrawal that came later (one imported from another platform).
  if (r.expiresAt && (r.withdrawnAt === null ? r.status === 'expired' : r.expiresAt < r.withdrawnAt)) {
    // Expiry is no one's act: the controller's rule (the purpose's validity) ends it.
    events.push({
      '@type': 'dpv:ConsentExpired',
      'dpv:isIndicatedAtTime': r.expiresAt,
      'dpv:isIndicatedBy': controllerId(r),
      'dpv:hasDuration': endless,
    });
  }
  if (r.withdrawnAt !== null) {
    events.push({
      '@type': 'dpv:ConsentWithdrawn',
      'dpv:isIndicatedAtTime': r.withdrawnAt,
      'dpv:isIndicatedBy': EVENT_BY,
      'dpv:hasDuration': endless,
    });
  }
  const legalBasis = gdprTermOf(LEGAL_BASES.find((b) => b === r.purpose.legalBasis) ?? 'consent');
  return {
    '@context': ISO27560_CONTEXT,
    '@id': `urn:uuid:${r.id}`,
    '@type': 'dpv:ConsentRecord',
    'dct:conformsTo': DPV_27560_RECORD,
    'dct:identifier': r.id,
    'dpv:hasIdentifier': r.id,
    'dct:created': r.createdAt,
    'dpv:hasDataSubject': { '@type': 'dpv:DataSubject', 'dct:identifier': r.subject },
    'dpv:hasDataController': controllerId(r),
    'dpv:hasEntity': {
      '@id': controllerId(r),
      '@type': ['dpv:Organisation', 'dpv:DataController'],
      'dpv:hasName': r.tenant.name,
      'dpv:hasIdentifier': r.tenant.id,
    },
    'dpv:hasNotice': {
      '@id': `urn:uuid:${r.notice.policyVersionId}`,
      '@type': 'dpv:ConsentNotice',
      'dct:identifier': r.notice.policyVersionId,
      'dct:title': r.notice.title,
      'dct:type': r.notice.type,
      'dct:hasVersion': r.notice.version,
      // The text is not stored with a language; ISO 639-2 "undetermined".
      'dct:language': 'und',
      'schema:sha256': r.notice.contentHash,
    },
    'dpv:hasProcess': {
      '@type': 'dpv:Process',
      'dpv:hasPurpose': {
        '@type': r.purpose.dpv ? ['dpv:Purpose', r.purpose.dpv] : 'dpv:Purpose',
        'dct:identifier': r.purpose.key,
        ...(r.purpose.name ? { 'dct:title': r.purpose.name } : {}),
      },
      'dpv:hasLegalBasis': legalBasis,
      'dpv:hasDataController': controllerId(r),
      // What the record identifies the person by: the tenant's own user reference.
      'dpv:hasPersonalData': 'pd:Identifier',
    },
    'dpv:hasConsentStatus': events,
    // The proof: the record's consentHash (docs/hashing.md) and its inclusion proof in the signed log.
    'schema:sha256': r.consentHash,
    'rdfs:seeAlso': r.proofUrl,
    ...(r.collectedAt
      ? { 'dct:provenance': 'imported: decided on another platform at the first event time, recorded here at dct:created' }
      : {}),
  };
}

const controllerId = (r: Pick<StandardRecordInput, 'tenant'>) => `urn:uuid:${r.tenant.id}`;

/**
 * The fields the profile says MUST be present, by path, each checked on a record: what the tests
 * validate every record against (https://w3id.org/dpv/guides/consent-27560, "DPV-27560 Consent Record").
 */
export const ISO27560_REQUIRED = [
  'dct:conformsTo',
  'dct:identifier',
  'dpv:hasDataSubject',
  'dpv:hasDataController',
  'dpv:hasNotice',
  'dpv:hasNotice.dct:language',
  'dpv:hasProcess',
  'dpv:hasProcess.dpv:hasPurpose',
  'dpv:hasProcess.dpv:hasLegalBasis',
  'dpv:hasProcess.dpv:hasPersonalData',
  'dpv:hasEntity.dpv:hasName',
  'dpv:hasEntity.dpv:hasIdentifier',
  'dpv:hasConsentStatus',
] as const;

/** Each event (consent status) MUST carry these. */
export const ISO27560_EVENT_REQUIRED = ['@type', 'dpv:isIndicatedAtTime', 'dpv:isIndicatedBy', 'dpv:hasDuration'] as const;
