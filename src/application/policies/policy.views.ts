import type { KnownPolicy } from '../../domain/policy/policy.decider.js';
import type { PolicyType } from '../../domain/policy/policy.events.js';

/** A policy version as the API shows it. */
export interface PolicyVersionView {
  id: string;
  policyType: PolicyType;
  version: string;
  title: string;
  content: string;
  contentHash: string;
  effectiveDate: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export const policyView = (s: KnownPolicy): PolicyVersionView => ({
  id: s.id,
  policyType: s.policyType,
  version: s.version,
  title: s.title,
  content: s.content,
  contentHash: s.contentHash,
  effectiveDate: s.effectiveDate,
  isActive: s.isActive,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});
