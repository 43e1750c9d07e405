import { describe, expect, it } from 'vitest';
import { deciderSpec } from '../../../test/support/given-when-then.js';
import type { PolicyCommand, PublishPolicyVersion } from './policy.commands.js';
import { decidePolicy, evolvePolicy, initialPolicyState } from './policy.decider.js';
import type { PolicyEvent, PolicyVersionPublished } from './policy.events.js';

const spec = deciderSpec<PolicyCommand, PolicyEvent, ReturnType<typeof initialPolicyState>>({
  decide: decidePolicy,
  evolve: evolvePolicy,
  initialState: initialPolicyState,
});

const id = '0b7c9a6e-2f1d-5c3b-9a8e-1f2e3d4c5b6a';
const publishedAt = '2026-01-01T10:00:00.000Z';
const later = '2026-02-01T10:00:00.000Z';
const latest = '2026-03-01T10:00:00.000Z';

const publish: PublishPolicyVersion = {
  type: 'PublishPolicyVersion',
  data: {
    policyVersionId: id,
    policyType: 'privacy_policy',
    purpose: null,
    version: '1.2.3',
    title: 'Privacy policy',
    content: 'We keep what you agree to.',
    contentHash: 'a'.repeat(64),
    effectiveDate: '2026-01-15T00:00:00.000Z',
    requiresReconsent: true,
    consentValidFor: null,
    now: publishedAt,
  },
};
const published: PolicyVersionPublished = {
  type: 'PolicyVersionPublished',
  data: {
    policyVersionId: id,
    policyType: 'privacy_policy',
    version: '1.2.3',
    title: 'Privacy policy',
    content: 'We keep what you agree to.',
    contentHash: 'a'.repeat(64),
    effectiveDate: '2026-01-15T00:00:00.000Z',
    publishedAt,
    requiresReconsent: true,
  },
};
/** The same version as published before re-consent existed: no requiresReconsent field. */
const { requiresReconsent: _explicit, ...legacyData } = published.data;
const legacy: PolicyVersionPublished = { ...published, data: legacyData };
const deactivated: PolicyEvent = { type: 'PolicyVersionDeactivated', data: { policyVersionId: id, at: later } };
const activated: PolicyEvent = { type: 'PolicyVersionActivated', data: { policyVersionId: id, at: later } };
const deleted: PolicyEvent = { type: 'PolicyVersionDeleted', data: { policyVersionId: id, at: later } };

const setActive = (isActive: boolean, now = latest): PolicyCommand => ({ type: 'SetPolicyVersionActive', data: { isActive, now } });
const remove = (now = latest): PolicyCommand => ({ type: 'DeletePolicyVersion', data: { now } });

describe('policy decider › when no version exists', () => {
  it('publishes the version with every field of the command, stamped with now', () => {
    spec.given([]).when(publish).then([published]);
  });

  it('refuses activation and deactivation as NOT_FOUND', () => {
    spec.given([]).when(setActive(true)).thenThrows('NOT_FOUND');
    spec.given([]).when(setActive(false)).thenThrows('NOT_FOUND');
  });

  it('refuses deletion as NOT_FOUND', () => {
    spec.given([]).when(remove()).thenThrows('NOT_FOUND');
  });
});

describe('policy decider › when a version is a minor change of a purpose with a validity', () => {
  it('stores requiresReconsent false and the validity, which the version keeps', () => {
    const minor: PublishPolicyVersion = { ...publish, data: { ...publish.data, requiresReconsent: false, consentValidFor: 'P13M' } };
    spec
      .given([])
      .when(minor)
      .then([{ ...published, data: { ...published.data, requiresReconsent: false, consentValidFor: 'P13M' } }]);
    const state = spec.given([{ ...published, data: { ...published.data, requiresReconsent: false, consentValidFor: 'P13M' } }]).state();
    expect(state).toMatchObject({ requiresReconsent: false, consentValidFor: 'P13M' });
  });
});

describe('policy decider › when a version requiring re-consent takes effect', () => {
  const announce = (now: string): PolicyCommand => ({ type: 'AnnounceReconsent', data: { outdated: 7, now } });
  const explicit = published;
  const announced: PolicyEvent = {
    type: 'PolicyReconsentRequired',
    data: { policyVersionId: id, purpose: 'privacy_policy', outdated: 7, effectiveAt: '2026-01-15T00:00:00.000Z', at: latest },
  };

  it('announces it once, from its effectiveDate on, with the count it is given', () => {
    spec.given([explicit]).when(announce('2026-01-14T23:59:59.999Z')).then([]);
    spec.given([explicit]).when(announce(latest)).then([announced]);
    spec.given([explicit, announced]).when(announce(latest)).then([]);
  });

  it('does not announce a minor version, an inactive one, or one published before re-consent existed', () => {
    spec
      .given([{ ...published, data: { ...published.data, requiresReconsent: false } }])
      .when(announce(latest))
      .then([]);
    spec.given([explicit, deactivated]).when(announce(latest)).then([]);
    spec.given([legacy]).when(announce(latest)).then([]);
    expect(spec.given([legacy]).state()).toMatchObject({ requiresReconsent: true, reconsentDue: false });
  });
});

describe('policy decider › when the version is published', () => {
  it('refuses a second publication as POLICY_VERSION_EXISTS, naming the type and version', () => {
    const error = spec.given([published]).when(publish).thenThrows('POLICY_VERSION_EXISTS');
    expect(error.details).toEqual({ policyType: 'privacy_policy', version: '1.2.3' });
  });

  it('refuses a number its purpose already has under another type, naming that type', () => {
    const namesake: PublishPolicyVersion = { ...publish, data: { ...publish.data, numberedUnder: 'custom' } };
    const error = spec.given([]).when(namesake).thenThrows('POLICY_VERSION_EXISTS');
    expect(error.message).toContain('version 1.2.3 of purpose privacy_policy already exists, as a custom version');
    expect(error.details).toEqual({
      policyType: 'privacy_policy',
      version: '1.2.3',
      purpose: 'privacy_policy',
      existingPolicyType: 'custom',
    });
  });

  it('refuses a republication with other content too: content is never edited', () => {
    const edited: PublishPolicyVersion = { ...publish, data: { ...publish.data, content: 'Other words.', contentHash: 'b'.repeat(64) } };
    spec.given([published]).when(edited).thenThrows('POLICY_VERSION_EXISTS');
  });

  it('deactivates an active version', () => {
    spec
      .given([published])
      .when(setActive(false))
      .then([{ type: 'PolicyVersionDeactivated', data: { policyVersionId: id, at: latest } }]);
  });

  it('activates an inactive version again', () => {
    spec
      .given([published, deactivated])
      .when(setActive(true))
      .then([{ type: 'PolicyVersionActivated', data: { policyVersionId: id, at: latest } }]);
  });

  it('records nothing when the version already has the asked isActive', () => {
    spec.given([published]).when(setActive(true)).thenNothingHappened();
    spec.given([published, deactivated]).when(setActive(false)).thenNothingHappened();
    spec.given([published, deactivated, activated]).when(setActive(true)).thenNothingHappened();
  });

  it('deletes an active or an inactive version', () => {
    const expected: PolicyEvent[] = [{ type: 'PolicyVersionDeleted', data: { policyVersionId: id, at: latest } }];
    spec.given([published]).when(remove()).then(expected);
    spec.given([published, deactivated]).when(remove()).then(expected);
  });
});

describe('policy decider › when the version was deleted', () => {
  it('refuses a publication of the same id as POLICY_VERSION_EXISTS, saying the number was deleted and is not reused', () => {
    const error = spec.given([published, deleted]).when(publish).thenThrows('POLICY_VERSION_EXISTS');
    expect(error.message).toBe(
      'version 1.2.3 of privacy_policy already exists (deleted, and a number is never used twice: publish another)',
    );
    // A version that stands is named as it was.
    expect(spec.given([published]).when(publish).thenThrows('POLICY_VERSION_EXISTS').message).toBe(
      'version 1.2.3 of privacy_policy already exists',
    );
  });

  it('refuses activation and deactivation as NOT_FOUND', () => {
    spec.given([published, deleted]).when(setActive(true)).thenThrows('NOT_FOUND');
    spec.given([published, deleted]).when(setActive(false)).thenThrows('NOT_FOUND');
  });

  it('refuses a second deletion as NOT_FOUND', () => {
    spec.given([published, deleted]).when(remove()).thenThrows('NOT_FOUND');
  });
});

describe('policy evolve › folds the history into the current version', () => {
  it('a publication makes an active version whose createdAt and updatedAt are the publication time; without a purpose its type is its purpose', () => {
    expect(spec.given([published]).state()).toEqual({
      status: 'published',
      id,
      policyType: 'privacy_policy',
      purpose: 'privacy_policy',
      version: '1.2.3',
      title: 'Privacy policy',
      content: 'We keep what you agree to.',
      contentHash: 'a'.repeat(64),
      effectiveDate: '2026-01-15T00:00:00.000Z',
      requiresReconsent: true,
      consentValidFor: null,
      reconsentDue: true,
      isActive: true,
      createdAt: publishedAt,
      updatedAt: publishedAt,
    });
  });

  it('deactivation and activation flip isActive and move updatedAt, keeping createdAt', () => {
    const off = spec.given([published, deactivated]).state();
    expect(off).toMatchObject({ status: 'published', isActive: false, createdAt: publishedAt, updatedAt: later });
    const on = spec.given([published, deactivated, { type: 'PolicyVersionActivated', data: { policyVersionId: id, at: latest } }]).state();
    expect(on).toMatchObject({ status: 'published', isActive: true, createdAt: publishedAt, updatedAt: latest });
  });

  it('deletion makes the version deleted and inactive and moves updatedAt', () => {
    expect(spec.given([published, deleted]).state()).toMatchObject({
      status: 'deleted',
      isActive: false,
      createdAt: publishedAt,
      updatedAt: later,
      contentHash: 'a'.repeat(64),
    });
  });

  it('ignores changes to a version it never saw published', () => {
    expect(spec.given([deactivated, deleted]).state()).toEqual({ status: 'none' });
  });
});
