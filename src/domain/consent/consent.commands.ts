import type { PolicyState } from '../policy/policy.decider.js';
import type { Sealed } from './consent.events.js';

export interface RecordConsent {
  type: 'RecordConsent';
  data: {
    consentId: string;
    subject: string;
    consentGiven: boolean;
    /** The personal fields, already sealed (the decider does no I/O and holds no key). */
    personal: Sealed;
    timestamp: string;
    /** An imported decision's original time: after 1990 and not after `timestamp`. */
    collectedAt?: string | undefined;
    consentHash: string;
    batchId: string | null;
    /** Keyed hashes of the metadata values to filter by (computed where the key is). */
    metadataTags: string[];
    /** The policy version the decision is about, as the ledger has it now. */
    policy: PolicyState;
  };
}
export interface WithdrawConsent {
  type: 'WithdrawConsent';
  /** `at`: an imported withdrawal's original time (not before the decision, not after `now`). */
  data: { reason: Sealed | null; now: string; at?: string | undefined };
}
/** Marks a consent given as expired once `now` reached its expiresAt; nothing otherwise. */
export interface ExpireConsent {
  type: 'ExpireConsent';
  data: { now: string };
}
export type ConsentCommand = RecordConsent | WithdrawConsent | ExpireConsent;
