import { DomainError } from '../errors.js';
import type { PolicyCommand } from './policy.commands.js';
import type { Aggregate } from '../events.js';
import { decodePolicyEvent, type PolicyEvent, type PolicyType } from './policy.events.js';

export type PolicyState =
  | { status: 'none' }
  | {
      status: 'published' | 'deleted';
      id: string;
      policyType: PolicyType;
      purpose: string;
      version: string;
      title: string;
      content: string;
      contentHash: string;
      effectiveDate: string;
      /** Whether decisions on older versions of its purpose become outdated once it is effective. */
      requiresReconsent: boolean;
      /** How long a consent given on it stays valid (an ISO 8601 duration); null: for good. */
      consentValidFor: string | null;
      /** Whether its taking effect is still to be announced (PolicyReconsentRequired). */
      reconsentDue: boolean;
      isActive: boolean;
      createdAt: string;
      updatedAt: string;
    };

export type KnownPolicy = Exclude<PolicyState, { status: 'none' }>;

export const initialPolicyState = (): PolicyState => ({ status: 'none' });

/** A policy version's stream folded. */
export const policyAggregate: Aggregate<PolicyState, PolicyEvent> = {
  initialState: () => initialPolicyState(),
  evolve: (state, event) => evolvePolicy(state, event),
  decode: decodePolicyEvent,
};

export function evolvePolicy(state: PolicyState, event: PolicyEvent): PolicyState {
  switch (event.type) {
    case 'PolicyVersionPublished': {
      const d = event.data;
      return {
        status: 'published',
        id: d.policyVersionId,
        policyType: d.policyType,
        purpose: d.purpose ?? d.policyType,
        version: d.version,
        title: d.title,
        content: d.content,
        contentHash: d.contentHash,
        effectiveDate: d.effectiveDate,
        requiresReconsent: d.requiresReconsent !== false,
        consentValidFor: d.consentValidFor ?? null,
        reconsentDue: d.requiresReconsent === true,
        isActive: true,
        createdAt: d.publishedAt,
        updatedAt: d.publishedAt,
      };
    }
    case 'PolicyVersionActivated':
    case 'PolicyVersionDeactivated':
      if (state.status === 'none') return state;
      return { ...state, isActive: event.type === 'PolicyVersionActivated', updatedAt: event.data.at };
    case 'PolicyVersionDeleted':
      if (state.status === 'none') return state;
      return { ...state, status: 'deleted', isActive: false, updatedAt: event.data.at };
    case 'PolicyReconsentRequired':
      if (state.status === 'none') return state;
      return { ...state, reconsentDue: false };
    default:
      // An event type this version does not know (a later version's) changes nothing it decides on.
      return state;
  }
}

/**
 * Decides what a policy command records. Content is never edited: a new content is a new version.
 *
 * @example
 * decidePolicy({ type: 'DeletePolicyVersion', data: { now } }, published) // [PolicyVersionDeleted]
 */
export function decidePolicy(command: PolicyCommand, state: PolicyState): PolicyEvent[] {
  switch (command.type) {
    case 'PublishPolicyVersion': {
      if (state.status !== 'none') {
        const of = command.data.purpose === null ? command.data.policyType : `${command.data.policyType} (purpose ${command.data.purpose})`;
        // A deleted version keeps its number: its records still name it, so it is never published again.
        const deleted = state.status === 'deleted' ? ' (deleted, and a number is never used twice: publish another)' : '';
        throw new DomainError('POLICY_VERSION_EXISTS', `version ${command.data.version} of ${of} already exists${deleted}`, {
          policyType: command.data.policyType,
          version: command.data.version,
          ...(command.data.purpose === null ? {} : { purpose: command.data.purpose }),
        });
      }
      const d = command.data;
      // A purpose's versions form one sequence across types: one number names one document.
      if (d.numberedUnder) {
        const purpose = d.purpose ?? d.policyType;
        throw new DomainError(
          'POLICY_VERSION_EXISTS',
          `version ${d.version} of purpose ${purpose} already exists, as a ${d.numberedUnder} version: a purpose numbers its versions once, whatever their type`,
          { policyType: d.policyType, version: d.version, purpose, existingPolicyType: d.numberedUnder },
        );
      }
      return [
        {
          type: 'PolicyVersionPublished',
          // A version without a purpose is stored as before purposes (no field): its type is its purpose.
          data: {
            policyVersionId: d.policyVersionId,
            policyType: d.policyType,
            ...(d.purpose === null ? {} : { purpose: d.purpose }),
            version: d.version,
            title: d.title,
            content: d.content,
            contentHash: d.contentHash,
            effectiveDate: d.effectiveDate,
            publishedAt: d.now,
            requiresReconsent: d.requiresReconsent,
            ...(d.consentValidFor === null ? {} : { consentValidFor: d.consentValidFor }),
          },
        },
      ];
    }
    case 'SetPolicyVersionActive': {
      if (state.status !== 'published') throw new DomainError('NOT_FOUND', 'policy version not found');
      if (state.isActive === command.data.isActive) return [];
      return [
        {
          type: command.data.isActive ? 'PolicyVersionActivated' : 'PolicyVersionDeactivated',
          data: { policyVersionId: state.id, at: command.data.now },
        },
      ];
    }
    case 'AnnounceReconsent': {
      if (state.status !== 'published' || !state.reconsentDue || !state.isActive || state.effectiveDate > command.data.now) return [];
      return [
        {
          type: 'PolicyReconsentRequired',
          data: {
            policyVersionId: state.id,
            purpose: state.purpose,
            outdated: command.data.outdated,
            effectiveAt: state.effectiveDate,
            at: command.data.now,
          },
        },
      ];
    }
    case 'DeletePolicyVersion': {
      if (state.status !== 'published') throw new DomainError('NOT_FOUND', 'policy version not found');
      return [{ type: 'PolicyVersionDeleted', data: { policyVersionId: state.id, at: command.data.now } }];
    }
  }
}
