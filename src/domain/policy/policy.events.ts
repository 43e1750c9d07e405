import { asStored, eventDecoder } from '../events.js';

export const POLICY_TYPES = [
  'privacy_policy',
  'terms_of_service',
  'cookie_policy',
  'marketing_consent',
  'data_processing',
  'custom',
] as const;
export type PolicyType = (typeof POLICY_TYPES)[number];

/** Whether a name is one of the spec's policy types (each is also its own purpose). */
export const isPolicyType = (name: string): name is PolicyType => (POLICY_TYPES as readonly string[]).includes(name);

export interface PolicyVersionPublished {
  type: 'PolicyVersionPublished';
  data: {
    policyVersionId: string;
    policyType: PolicyType;
    /** The purpose the version asks consent for (docs/purposes.md); absent: its policy type (as before purposes). */
    purpose?: string;
    version: string;
    title: string;
    content: string;
    /** Hex SHA-256 of the content's UTF-8 bytes. */
    contentHash: string;
    effectiveDate: string;
    publishedAt: string;
    /**
     * Whether decisions on older versions of its purpose become outdated once it is effective
     * (docs/purposes.md, Re-consent). Absent (a version published before re-consent): true, but
     * its taking effect is not announced.
     */
    requiresReconsent?: boolean;
    /** The purpose's `consentValidFor` when the version was published; absent: decisions never expire. */
    consentValidFor?: string;
  };
}
export interface PolicyVersionActivated {
  type: 'PolicyVersionActivated';
  data: { policyVersionId: string; at: string };
}
export interface PolicyVersionDeactivated {
  type: 'PolicyVersionDeactivated';
  data: { policyVersionId: string; at: string };
}
export interface PolicyVersionDeleted {
  type: 'PolicyVersionDeleted';
  data: { policyVersionId: string; at: string };
}

/**
 * A version that requires re-consent took effect: appended once by the deadlines follower, within a
 * minute of its effectiveDate, with how many standing decisions it outdated then.
 */
export interface PolicyReconsentRequired {
  type: 'PolicyReconsentRequired';
  data: { policyVersionId: string; purpose: string; outdated: number; effectiveAt: string; at: string };
}

export type PolicyEvent =
  PolicyVersionPublished | PolicyVersionActivated | PolicyVersionDeactivated | PolicyVersionDeleted | PolicyReconsentRequired;

export const POLICY_EVENT_TYPES: readonly PolicyEvent['type'][] = [
  'PolicyVersionPublished',
  'PolicyVersionActivated',
  'PolicyVersionDeactivated',
  'PolicyVersionDeleted',
  'PolicyReconsentRequired',
];

/** Reads back a policy version stream's events (the place to upcast older shapes of them). */
export const decodePolicyEvent = eventDecoder<PolicyEvent>({
  PolicyVersionPublished: asStored(),
  PolicyVersionActivated: asStored(),
  PolicyVersionDeactivated: asStored(),
  PolicyVersionDeleted: asStored(),
  PolicyReconsentRequired: asStored(),
});

/** The one place that names a policy version's stream. */
export const policyStream = (tenantId: string, policyVersionId: string): string => `policy-${tenantId}-${policyVersionId}`;
