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
  };
}
export interface ConsentWithdrawn {
  type: 'ConsentWithdrawn';
  /** `reason` is free text a person wrote: sealed under the record's data key, like the personal fields. */
  data: { consentId: string; subject: string; reason: Sealed | null; withdrawnAt: string };
}
export interface ConsentBatchRecorded {
  type: 'ConsentBatchRecorded';
  data: { batchId: string; count: number; consentIds: string[]; recordedAt: string };
}

export type ConsentEvent = ConsentRecorded | ConsentWithdrawn;

export const CONSENT_EVENT_TYPES = ['ConsentRecorded', 'ConsentWithdrawn', 'ConsentBatchRecorded'] as const;

/** The one place that names a consent record's stream. */
export const consentStream = (tenantId: string, consentId: string): string => `consent-${tenantId}-${consentId}`;
/** The one place that names a consent batch's stream. */
export const consentBatchStream = (tenantId: string, batchId: string): string => `consentbatch-${tenantId}-${batchId}`;
