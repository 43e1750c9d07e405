import type { KnownPolicy } from '../../domain/policy/policy.decider.js';

/** A policy version as the API shows it: its state, less whether it was deleted (deleted ones are not shown). */
export type PolicyVersionView = Omit<KnownPolicy, 'status'>;

export const policyView = ({ status: _status, ...view }: KnownPolicy): PolicyVersionView => view;
