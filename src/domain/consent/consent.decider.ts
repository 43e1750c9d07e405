import { DomainError } from '../errors.js';
import { addDuration } from '../purpose/purpose.events.js';
import type { KnownPolicy, PolicyState } from '../policy/policy.decider.js';
import type { ConsentCommand } from './consent.commands.js';
import type { Aggregate } from '../events.js';
import { expiredWhenRecorded } from './standing.js';
import {
  decodeConsentBatchEvent,
  decodeConsentEvent,
  decodeWithdrawalKeyEvent,
  type ConsentBatchEvent,
  type ConsentBatchRecorded,
  type ConsentEvent,
  type ConsentRecorded,
  type IdempotencyKeyUsed,
  type Sealed,
  type WithdrawalKeyEvent,
} from './consent.events.js';

export type ConsentState =
  | { status: 'none' }
  | {
      status: 'active' | 'withdrawn' | 'expired';
      record: ConsentRecorded['data'];
      withdrawnAt: string | null;
      reason: Sealed | null;
    };

export const initialConsentState = (): ConsentState => ({ status: 'none' });

/** Whether a record is a consent given that still stands at `now` (not withdrawn, not expired): one a withdrawal may end. */
export const standsGiven = (state: ConsentState, now: string): boolean =>
  state.status === 'active' && state.record.consentGiven && !isPast(state.record.expiresAt, now);

export function evolveConsent(state: ConsentState, event: ConsentEvent): ConsentState {
  switch (event.type) {
    case 'ConsentRecorded':
      return { status: 'active', record: event.data, withdrawnAt: null, reason: null };
    case 'ConsentWithdrawn':
      if (state.status === 'none') return state;
      return { ...state, status: 'withdrawn', withdrawnAt: event.data.withdrawnAt, reason: event.data.reason };
    case 'ConsentExpired':
      return state.status === 'active' ? { ...state, status: 'expired' } : state;
    default:
      // An event type this version does not know (a later version's) changes nothing it decides on.
      return state;
  }
}

/** A consent record's stream folded: what command handlers decide on and exact reads show. */
export const consentAggregate: Aggregate<ConsentState, ConsentEvent> = {
  initialState: initialConsentState,
  evolve: evolveConsent,
  decode: decodeConsentEvent,
};

/** A batch's stream: the batch as first recorded, or null. */
export const consentBatchAggregate: Aggregate<ConsentBatchRecorded['data'] | null, ConsentBatchEvent> = {
  initialState: () => null,
  evolve: (state, event) => state ?? event.data,
  decode: decodeConsentBatchEvent,
};

/** A withdrawal Idempotency-Key's stream: the withdrawal it was first used for, or null. */
export const withdrawalKeyAggregate: Aggregate<IdempotencyKeyUsed['data'] | null, WithdrawalKeyEvent> = {
  initialState: () => null,
  evolve: (state, event) => state ?? event.data,
  decode: decodeWithdrawalKeyEvent,
};

/**
 * Why a policy version cannot take a decision now, or null when it can. An imported decision (one
 * made in the past, `imported`) may name a version no longer active: the text the user saw then.
 */
export function policyRefusal(policy: PolicyState, imported = false): DomainError | null {
  if (policy.status === 'none') return new DomainError('NOT_FOUND', 'policy version not found');
  if (policy.status === 'deleted') return new DomainError('POLICY_VERSION_INACTIVE', 'the policy version was deleted');
  if (!policy.isActive && !imported) return new DomainError('POLICY_VERSION_INACTIVE', 'the policy version is not active');
  return null;
}

/**
 * Decides what a consent command records.
 *
 * @example
 * decideConsent({ type: 'WithdrawConsent', data: { reason: null, now } }, given) // [ConsentWithdrawn]
 */
export function decideConsent(command: ConsentCommand, state: ConsentState): ConsentEvent[] {
  switch (command.type) {
    case 'RecordConsent': {
      const d = command.data;
      if (state.status !== 'none') throw new Error(`consent ${d.consentId} is already recorded`);
      const refusal = policyRefusal(d.policy, d.collectedAt !== undefined);
      if (refusal) throw refusal;
      const policy = d.policy as KnownPolicy;
      if (d.collectedAt !== undefined) checkCollectedAt(d.collectedAt, d.timestamp);
      const decidedAt = d.collectedAt ?? d.timestamp;
      return [
        {
          type: 'ConsentRecorded',
          data: {
            consentId: d.consentId,
            policyVersionId: policy.id,
            policyType: policy.policyType,
            policyVersion: policy.version,
            policyTitle: policy.title,
            policyContentHash: policy.contentHash,
            subject: d.subject,
            consentGiven: d.consentGiven,
            timestamp: d.timestamp,
            ...(d.collectedAt === undefined ? {} : { collectedAt: d.collectedAt }),
            personal: d.personal,
            consentHash: d.consentHash,
            batchId: d.batchId,
            // Derived from the version (outside the hash input, docs/purposes.md): a version of its type's own purpose, or one without a validity, adds nothing.
            ...(policy.purpose === policy.policyType ? {} : { purpose: policy.purpose }),
            ...(d.consentGiven && policy.consentValidFor !== null ? { expiresAt: addDuration(decidedAt, policy.consentValidFor) } : {}),
            ...(d.metadataTags.length > 0 ? { metadataTags: d.metadataTags } : {}),
          },
        },
      ];
    }
    case 'WithdrawConsent': {
      if (state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
      if (state.status === 'withdrawn') {
        throw new DomainError('CONSENT_NOT_WITHDRAWABLE', 'the consent was already withdrawn');
      }
      if (!state.record.consentGiven) {
        throw new DomainError('CONSENT_NOT_WITHDRAWABLE', 'a rejected consent cannot be withdrawn');
      }
      const { at, now } = command.data;
      if (at !== undefined) checkWithdrawnAt(at, state.record.collectedAt ?? state.record.timestamp, now);
      // Nothing stands to withdraw once expired. A withdrawal imported with its record is history
      // from another platform, kept as it happened even when this purpose's validity ran out first
      // (its status reads withdrawn, which takes precedence over expired).
      if (state.status === 'expired' || (at === undefined && isPast(state.record.expiresAt, now))) {
        throw new DomainError('CONSENT_NOT_WITHDRAWABLE', `the consent expired at ${state.record.expiresAt}: it no longer stands`);
      }
      return [
        {
          type: 'ConsentWithdrawn',
          data: {
            consentId: state.record.consentId,
            subject: state.record.subject,
            reason: command.data.reason,
            withdrawnAt: at ?? now,
            ...(at === undefined ? {} : { imported: true as const }),
          },
        },
      ];
    }
    case 'ExpireConsent': {
      if (state.status !== 'active' || !state.record.consentGiven || !isPast(state.record.expiresAt, command.data.now)) return [];
      // One imported already past its expiry reads expired from its record on: nothing to mark.
      if (expiredWhenRecorded(state.record)) return [];
      const r = state.record;
      return [{ type: 'ConsentExpired', data: { consentId: r.consentId, subject: r.subject, expiredAt: r.expiresAt! } }];
    }
  }
}

/** The earliest original time an imported decision may carry. */
export const COLLECTED_AT_MIN = '1990-01-01T00:00:00.000Z';

const invalid = (field: string, message: string) =>
  new DomainError('VALIDATION_ERROR', `${field} ${message}`, { errors: [{ field, message }] });

/** An imported decision's original time: after 1990, and not after the append that records it. */
function checkCollectedAt(collectedAt: string, timestamp: string): void {
  if (collectedAt < COLLECTED_AT_MIN) throw invalid('collectedAt', `must not be before ${COLLECTED_AT_MIN}`);
  if (collectedAt > timestamp) throw invalid('collectedAt', `must be in the past (it is after ${timestamp})`);
}

/** An imported withdrawal's original time: not before the decision, not after now. */
function checkWithdrawnAt(at: string, decidedAt: string, now: string): void {
  if (at < decidedAt) throw invalid('withdrawnAt', `must not be before the decision (${decidedAt})`);
  if (at > now) throw invalid('withdrawnAt', `must be in the past (it is after ${now})`);
}

/** Whether an expiry (ISO 8601 UTC, as the ledger writes it) is reached at `now`; never for none. */
const isPast = (expiresAt: string | undefined, now: string): boolean => expiresAt !== undefined && expiresAt <= now;
