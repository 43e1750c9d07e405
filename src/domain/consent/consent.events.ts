import type { PolicyType } from '../policy/policy.events.js';

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
    userReference: string;
    consentGiven: boolean;
    ipAddress: string | null;
    userAgent: string | null;
    metadata: Record<string, unknown>;
    timestamp: string;
    /** Hex SHA-256 of the JCS of the hash input (docs/hashing.md). */
    consentHash: string;
    batchId: string | null;
  };
}
export interface ConsentWithdrawn {
  type: 'ConsentWithdrawn';
  data: { consentId: string; reason: string | null; withdrawnAt: string };
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
