import type { PolicyState } from '../policy/policy.decider.js';

export interface RecordConsent {
  type: 'RecordConsent';
  data: {
    consentId: string;
    userReference: string;
    consentGiven: boolean;
    ipAddress: string | null;
    userAgent: string | null;
    metadata: Record<string, unknown>;
    timestamp: string;
    consentHash: string;
    batchId: string | null;
    /** The policy version the decision is about, as the ledger has it now. */
    policy: PolicyState;
  };
}
export interface WithdrawConsent {
  type: 'WithdrawConsent';
  data: { reason: string | null; now: string };
}
export type ConsentCommand = RecordConsent | WithdrawConsent;
