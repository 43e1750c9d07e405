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
    /** False: a minor change, decisions on older versions stay current; absent: true (docs/purposes.md, Re-consent). */
    requiresReconsent?: false;
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

export type PolicyEvent = PolicyVersionPublished | PolicyVersionActivated | PolicyVersionDeactivated | PolicyVersionDeleted;

export const POLICY_EVENT_TYPES: readonly PolicyEvent['type'][] = [
  'PolicyVersionPublished',
  'PolicyVersionActivated',
  'PolicyVersionDeactivated',
  'PolicyVersionDeleted',
];

/** Reads back a policy version stream's events (the place to upcast older shapes of them). */
export const decodePolicyEvent = eventDecoder<PolicyEvent>({
  PolicyVersionPublished: asStored(),
  PolicyVersionActivated: asStored(),
  PolicyVersionDeactivated: asStored(),
  PolicyVersionDeleted: asStored(),
});

/** The one place that names a policy version's stream. */
export const policyStream = (tenantId: string, policyVersionId: string): string => `policy-${tenantId}-${policyVersionId}`;
