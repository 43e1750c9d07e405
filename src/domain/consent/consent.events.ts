import { asStored, eventDecoder, type StoredEvent } from '../events.js';
import type { PolicyType } from '../policy/policy.events.js';

/**
 * A value sealed with AES-256-GCM under one record's data key (docs/erasure.md): `kid` names the
 * key, `iv` is the random 96-bit nonce, `ct` the ciphertext followed by the 16-byte tag (both
 * base64url). Destroying the key (the subject's erasure) erases the value; the event around it
 * stays intact.
 */
export interface Sealed {
  kid: string;
  iv: string;
  ct: string;
}

export interface ConsentRecorded {
  type: 'ConsentRecorded';
  data: {
    consentId: string;
    policyVersionId: string;
    /** The policy as it was agreed to; kept with the decision so that proofs stand alone. */
    policyType: PolicyType;
    policyVersion: string;
    policyTitle: string;
    policyContentHash: string;
    /** The data subject: HMAC of the user reference under the tenant's lookup key, never the reference. */
    subject: string;
    consentGiven: boolean;
    timestamp: string;
    /** userReference, ipAddress, userAgent and metadata, sealed under the record's data key. */
    personal: Sealed;
    /** Hex SHA-256 of the JCS of the plaintext hash input (docs/hashing.md). */
    consentHash: string;
    batchId: string | null;
    /**
     * When the decision was originally made, for a record imported from another platform
     * (docs/purposes.md, Moving in); in the hash input when present. Absent: at `timestamp`.
     */
    collectedAt?: string;
    /** The version's purpose (docs/purposes.md); absent: its policy type, as before purposes. */
    purpose?: string;
    /** When a consent given expires: `collectedAt` (else `timestamp`) plus the version's `consentValidFor`; absent: never. */
    expiresAt?: string;
    /** Keyed hashes of the top-level scalar metadata values (Privacy.metadataTagOf), to filter by; absent: none. */
    metadataTags?: string[];
  };
}
export interface ConsentWithdrawn {
  type: 'ConsentWithdrawn';
  /** `reason` is free text a person wrote: sealed under the record's data key, like the personal fields. */
  /** `imported`: the withdrawal of an imported record, at its original time (`withdrawnAt`), not the append's. */
  data: { consentId: string; subject: string; reason: Sealed | null; withdrawnAt: string; imported?: true };
}
/**
 * A consent given reached its `expiresAt` (docs/purposes.md, Expiry): appended by the deadlines
 * follower within a minute of that time; `expiredAt` is the `expiresAt` it reached.
 */
export interface ConsentExpired {
  type: 'ConsentExpired';
  data: { consentId: string; subject: string; expiredAt: string };
}
export interface ConsentBatchRecorded {
  type: 'ConsentBatchRecorded';
  data: { batchId: string; count: number; consentIds: string[]; recordedAt: string };
}

/**
 * Which withdrawal an Idempotency-Key was first used for, in the key's own stream. Operational, not
 * evidence: no read model or webhook reacts to it. `key` is the key's keyed hash (never the key) and
 * `requestHash` is keyed with the record's data key (docs/erasure.md).
 */
export interface IdempotencyKeyUsed {
  type: 'IdempotencyKeyUsed';
  data:
    | { key: string; requestHash: string; operation: 'withdraw'; consentId: string }
    /** A user's standing consents on a purpose or a policy type, withdrawn at once (`POST /consent/user/withdraw`). */
    | { key: string; requestHash: string; operation: 'withdraw-standing'; consentIds: string[] };
}

/** The events of a consent record's own stream. */
export type ConsentEvent = ConsentRecorded | ConsentWithdrawn | ConsentExpired;
export type ConsentBatchEvent = ConsentBatchRecorded;
export type WithdrawalKeyEvent = IdempotencyKeyUsed;

export const CONSENT_EVENT_TYPES = ['ConsentRecorded', 'ConsentWithdrawn', 'ConsentExpired', 'ConsentBatchRecorded'] as const;

/** Reads back a consent stream's events (the place to upcast older shapes of them). */
export const decodeConsentEvent = eventDecoder<ConsentEvent>({
  ConsentRecorded: asStored(),
  ConsentWithdrawn: asStored(),
  ConsentExpired: asStored(),
});

/** The data of a ConsentRecorded event, or null for any other event. */
export const consentRecordedOf = (stored: StoredEvent): ConsentRecorded['data'] | null => {
  const event = decodeConsentEvent(stored);
  return event?.type === 'ConsentRecorded' ? event.data : null;
};

export const decodeConsentBatchEvent = eventDecoder<ConsentBatchEvent>({ ConsentBatchRecorded: asStored() });

export const decodeWithdrawalKeyEvent = eventDecoder<WithdrawalKeyEvent>({ IdempotencyKeyUsed: asStored() });

/** The one place that names a consent record's stream. */
export const consentStream = (tenantId: string, consentId: string): string => `consent-${tenantId}-${consentId}`;

/** The one place that names a consent batch's stream. */
export const consentBatchStream = (tenantId: string, batchId: string): string => `consentbatch-${tenantId}-${batchId}`;

/** The one place that names a withdrawal Idempotency-Key's stream; `keyId` is derived from the key's hash. */
export const withdrawalKeyStream = (tenantId: string, keyId: string): string => `withdrawalkey-${tenantId}-${keyId}`;
