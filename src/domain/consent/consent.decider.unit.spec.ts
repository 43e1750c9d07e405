import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../test/support/given-when-then.js';
import { evolvePolicy, initialPolicyState, type PolicyState } from '../policy/policy.decider.js';
import type { PolicyEvent } from '../policy/policy.events.js';
import type { ConsentCommand, RecordConsent } from './consent.commands.js';
import { decideConsent, evolveConsent, initialConsentState, policyRefusal, type ConsentState } from './consent.decider.js';
import type { ConsentEvent, ConsentRecorded } from './consent.events.js';

const spec = deciderSpec<ConsentCommand, ConsentEvent, ConsentState>({
  decide: decideConsent,
  evolve: evolveConsent,
  initialState: initialConsentState,
});

const policyVersionId = '3d5e7f90-1a2b-5c4d-8e6f-0a1b2c3d4e5f';
const consentId = '9a8b7c6d-5e4f-5a3b-8c2d-1e0f9a8b7c6d';
const publishedAt = '2026-01-01T10:00:00.000Z';
const recordedAt = '2026-01-02T10:00:00.000Z';
const withdrawnAt = '2026-01-03T10:00:00.000Z';
// What the application sealed (the decider only carries it): the subject's HMAC and ciphertexts.
const subject = 'a'.repeat(64);
const personal = { kid: 'a1b2c3d4-0000-4000-8000-000000000001', iv: 'bm9uY2Utbm9uY2Ut', ct: 'c2VhbGVkLXBlcnNvbmFsLWZpZWxkcw' };
const sealedReason = (text: string) => ({ kid: personal.kid, iv: 'cmVhc29uLW5vbmNl', ct: Buffer.from(text).toString('base64url') });

const policyEvents = {
  published: {
    type: 'PolicyVersionPublished',
    data: {
      policyVersionId,
      policyType: 'cookie_policy',
      version: '2.0.1',
      title: 'Cookies we set',
      content: 'Only the ones we need.',
      contentHash: 'c'.repeat(64),
      effectiveDate: publishedAt,
      publishedAt,
    },
  },
  deactivated: { type: 'PolicyVersionDeactivated', data: { policyVersionId, at: publishedAt } },
  deleted: { type: 'PolicyVersionDeleted', data: { policyVersionId, at: publishedAt } },
} satisfies Record<string, PolicyEvent>;

/** A policy version's state as the ledger would fold it. */
const policyAfter = (...events: PolicyEvent[]): PolicyState => events.reduce(evolvePolicy, initialPolicyState());

const activePolicy = policyAfter(policyEvents.published);
const inactivePolicy = policyAfter(policyEvents.published, policyEvents.deactivated);
const deletedPolicy = policyAfter(policyEvents.published, policyEvents.deleted);

const record = (policy: PolicyState, consentGiven = true): RecordConsent => ({
  type: 'RecordConsent',
  data: {
    consentId,
    subject,
    consentGiven,
    personal,
    timestamp: recordedAt,
    consentHash: 'f'.repeat(64),
    batchId: null,
    metadataTags: [],
    policy,
  },
});

const recorded = (consentGiven: boolean): ConsentRecorded => ({
  type: 'ConsentRecorded',
  data: {
    consentId,
    policyVersionId,
    policyType: 'cookie_policy',
    policyVersion: '2.0.1',
    policyTitle: 'Cookies we set',
    policyContentHash: 'c'.repeat(64),
    subject,
    consentGiven,
    timestamp: recordedAt,
    personal,
    consentHash: 'f'.repeat(64),
    batchId: null,
  },
});
const withdrawn: ConsentEvent = { type: 'ConsentWithdrawn', data: { consentId, subject, reason: sealedReason('moved on'), withdrawnAt } };
const withdraw = (reason: string | null = 'changed my mind', now = withdrawnAt): ConsentCommand => ({
  type: 'WithdrawConsent',
  data: { reason: reason === null ? null : sealedReason(reason), now },
});

describe('consent decider › when recording against an active policy version', () => {
  it('records the decision with the policy type, version, title and content hash taken from the policy', () => {
    spec
      .given([])
      .when(record(activePolicy))
      .then([recorded(true)]);
  });

  it('records a rejection the same way', () => {
    spec
      .given([])
      .when(record(activePolicy, false))
      .then([recorded(false)]);
  });

  it('keeps the batch id of a batch item', () => {
    const command = record(activePolicy);
    const inBatch: RecordConsent = { ...command, data: { ...command.data, batchId: 'batch-1' } };
    const expected = recorded(true);
    spec
      .given([])
      .when(inBatch)
      .then([{ ...expected, data: { ...expected.data, batchId: 'batch-1' } }]);
  });

  it('takes the policy details from the policy version, even when a re-activated version is used', () => {
    const reactivated = policyAfter(policyEvents.published, policyEvents.deactivated, {
      type: 'PolicyVersionActivated',
      data: { policyVersionId, at: publishedAt },
    });
    spec
      .given([])
      .when(record(reactivated))
      .then([recorded(true)]);
  });
});

describe('consent decider › when the version names a purpose with a validity', () => {
  const ofPurpose = policyAfter({
    ...policyEvents.published,
    data: { ...policyEvents.published.data, policyType: 'custom', purpose: 'newsletter', consentValidFor: 'P13M' },
  });
  const expected = (consentGiven: boolean) => {
    const r = recorded(consentGiven);
    return { ...r, data: { ...r.data, policyType: 'custom' as const, purpose: 'newsletter' } };
  };

  it('records the purpose, and when a consent given expires: its time plus the validity', () => {
    const e = expected(true);
    spec
      .given([])
      .when(record(ofPurpose))
      .then([{ ...e, data: { ...e.data, expiresAt: '2027-02-02T10:00:00.000Z' } }]);
  });

  it('gives a rejection no expiry', () => {
    spec
      .given([])
      .when(record(ofPurpose, false))
      .then([expected(false)]);
  });
});

describe('consent decider › when a consent given reaches its expiry', () => {
  const expiresAt = '2026-01-02T11:00:00.000Z';
  const expiring: ConsentEvent = { ...recorded(true), data: { ...recorded(true).data, expiresAt } };
  const expire = (now: string): ConsentCommand => ({ type: 'ExpireConsent', data: { now } });
  const expired: ConsentEvent = { type: 'ConsentExpired', data: { consentId, subject, expiredAt: expiresAt } };

  it('records nothing before expiresAt, and ConsentExpired from that instant on', () => {
    spec.given([expiring]).when(expire('2026-01-02T10:59:59.999Z')).then([]);
    spec.given([expiring]).when(expire(expiresAt)).then([expired]);
  });

  it('records nothing for one recorded already past its expiry (imported history)', () => {
    const lapsed: ConsentEvent = { ...expiring, data: { ...expiring.data, expiresAt: expiring.data.timestamp } } as ConsentEvent;
    spec.given([lapsed]).when(expire(withdrawnAt)).then([]);
  });

  it('records nothing for one already expired, withdrawn, without expiry, or a refusal', () => {
    spec.given([expiring, expired]).when(expire(withdrawnAt)).then([]);
    spec.given([expiring, withdrawn]).when(expire(withdrawnAt)).then([]);
    spec
      .given([recorded(true)])
      .when(expire(withdrawnAt))
      .then([]);
    spec
      .given([recorded(false)])
      .when(expire(withdrawnAt))
      .then([]);
  });

  it('records a withdrawal imported with its record after the expiry, as it happened on the other platform', () => {
    spec
      .given([expiring])
      .when({ type: 'WithdrawConsent', data: { reason: null, now: '2026-03-01T00:00:00.000Z', at: '2026-02-01T00:00:00.000Z' } })
      .then([
        { type: 'ConsentWithdrawn', data: { consentId, subject, reason: null, withdrawnAt: '2026-02-01T00:00:00.000Z', imported: true } },
      ]);
  });

  it('refuses to withdraw it, marked or not, as CONSENT_NOT_WITHDRAWABLE', () => {
    spec.given([expiring, expired]).when(withdraw()).thenThrows('CONSENT_NOT_WITHDRAWABLE');
    spec.given([expiring]).when(withdraw('late', expiresAt)).thenThrows('CONSENT_NOT_WITHDRAWABLE');
    const imported = (at: string): ConsentCommand => ({
      type: 'WithdrawConsent',
      data: { reason: null, now: '2026-03-01T00:00:00.000Z', at },
    });
    spec.given([expiring, expired]).when(imported('2026-02-01T00:00:00.000Z')).thenThrows('CONSENT_NOT_WITHDRAWABLE');
    spec
      .given([expiring])
      .when(withdraw('in time', '2026-01-02T10:00:00.000Z'))
      .then([
        {
          type: 'ConsentWithdrawn',
          data: { consentId, subject, reason: sealedReason('in time'), withdrawnAt: '2026-01-02T10:00:00.000Z' },
        },
      ]);
  });
});

describe('consent decider › when recording against a policy version that cannot take decisions', () => {
  it('refuses an unknown policy version as NOT_FOUND', () => {
    spec.given([]).when(record(initialPolicyState())).thenThrows('NOT_FOUND');
  });

  it('refuses an inactive policy version as POLICY_VERSION_INACTIVE', () => {
    spec.given([]).when(record(inactivePolicy)).thenThrows('POLICY_VERSION_INACTIVE');
    spec.given([]).when(record(inactivePolicy, false)).thenThrows('POLICY_VERSION_INACTIVE');
  });

  it('refuses a deleted policy version as POLICY_VERSION_INACTIVE', () => {
    spec.given([]).when(record(deletedPolicy)).thenThrows('POLICY_VERSION_INACTIVE');
  });
});

describe('consent decider › when the consent was given', () => {
  it('withdraws it, with the reason and the time of the command', () => {
    spec
      .given([recorded(true)])
      .when(withdraw('changed my mind'))
      .then([{ type: 'ConsentWithdrawn', data: { consentId, subject, reason: sealedReason('changed my mind'), withdrawnAt } }]);
  });

  it('withdraws it without a reason', () => {
    spec
      .given([recorded(true)])
      .when(withdraw(null))
      .then([{ type: 'ConsentWithdrawn', data: { consentId, subject, reason: null, withdrawnAt } }]);
  });

  it('refuses a second withdrawal as CONSENT_NOT_WITHDRAWABLE', () => {
    spec
      .given([recorded(true), withdrawn])
      .when(withdraw())
      .thenThrows('CONSENT_NOT_WITHDRAWABLE');
  });
});

describe('consent decider › when the consent was rejected', () => {
  it('refuses a withdrawal as CONSENT_NOT_WITHDRAWABLE', () => {
    spec
      .given([recorded(false)])
      .when(withdraw())
      .thenThrows('CONSENT_NOT_WITHDRAWABLE');
  });
});

describe('consent decider › when no consent exists', () => {
  it('refuses a withdrawal as NOT_FOUND', () => {
    spec.given([]).when(withdraw()).thenThrows('NOT_FOUND');
  });
});

describe('consent evolve › folds the history into the current record', () => {
  it('a recorded consent is active, keeps the recorded data and has no withdrawal', () => {
    expect(spec.given([recorded(true)]).state()).toEqual({
      status: 'active',
      record: recorded(true).data,
      withdrawnAt: null,
      reason: null,
    });
  });

  it('a withdrawal marks it withdrawn with its time and reason and leaves the recorded data as it was', () => {
    expect(spec.given([recorded(true), withdrawn]).state()).toEqual({
      status: 'withdrawn',
      record: recorded(true).data,
      withdrawnAt,
      reason: sealedReason('moved on'),
    });
  });
});

describe('policyRefusal › when asked whether a policy version can take a decision', () => {
  it('answers null for an active version', () => {
    expect(policyRefusal(activePolicy)).toBeNull();
  });

  it('answers NOT_FOUND for an unknown version', () => {
    expect(policyRefusal(initialPolicyState())?.code).toBe('NOT_FOUND');
  });

  it('answers POLICY_VERSION_INACTIVE for an inactive or a deleted version', () => {
    expect(policyRefusal(inactivePolicy)?.code).toBe('POLICY_VERSION_INACTIVE');
    expect(policyRefusal(deletedPolicy)?.code).toBe('POLICY_VERSION_INACTIVE');
    expect(policyRefusal(deletedPolicy)?.message).toMatch(/deleted/);
  });
});
