import type { PolicyType } from './policy.events.js';

export interface PublishPolicyVersion {
  type: 'PublishPolicyVersion';
  data: {
    policyVersionId: string;
    policyType: PolicyType;
    /** Null: the version is its type's, as before purposes. */
    purpose: string | null;
    version: string;
    title: string;
    content: string;
    contentHash: string;
    effectiveDate: string;
    requiresReconsent: boolean;
    /** The purpose's validity as defined now, which decisions on this version keep; null: never expire. */
    consentValidFor: string | null;
    /** The type under which the purpose already has a version of this number, if any (even deleted). */
    numberedUnder?: PolicyType | undefined;
    now: string;
  };
}
export interface SetPolicyVersionActive {
  type: 'SetPolicyVersionActive';
  data: { isActive: boolean; now: string };
}
export interface DeletePolicyVersion {
  type: 'DeletePolicyVersion';
  data: { now: string };
}
/** Announces that a version requiring re-consent took effect, once; `outdated` counted by the caller. */
export interface AnnounceReconsent {
  type: 'AnnounceReconsent';
  data: { outdated: number; now: string };
}
export type PolicyCommand = PublishPolicyVersion | SetPolicyVersionActive | DeletePolicyVersion | AnnounceReconsent;
