import type { KnownPolicy } from '../../domain/policy/policy.decider.js';

/** A policy version as the API shows it: its state, less whether it was deleted (deleted ones are not shown) and the follower's bookkeeping. */
export type PolicyVersionView = Omit<KnownPolicy, 'status' | 'reconsentDue'>;

export const policyView = ({ status: _status, reconsentDue: _due, ...view }: KnownPolicy): PolicyVersionView => view;
