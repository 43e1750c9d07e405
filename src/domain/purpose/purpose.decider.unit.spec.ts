import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { decidePurpose, evolvePurpose, type PurposeState } from './purpose.decider.js';
import { isDuration } from './purpose.events.js';

const now = '2026-11-25T12:00:00.000Z';
const fields = { name: 'Newsletter', description: '', legalBasis: 'consent' as const, consentValidFor: 'P13M', dpv: null };
const defined = (): PurposeState =>
  decidePurpose({ type: 'DefinePurpose', data: { key: 'newsletter', ...fields, now } }, { status: 'none' }).reduce(evolvePurpose, {
    status: 'none',
  } as PurposeState);

describe('purpose decider', () => {
  it('defines a key once', () => {
    expect(defined()).toMatchObject({ status: 'defined', key: 'newsletter', consentValidFor: 'P13M', createdAt: now });
    expect(() => decidePurpose({ type: 'DefinePurpose', data: { key: 'newsletter', ...fields, now } }, defined())).toThrow(DomainError);
  });

  it('records only the fields that change, and nothing when none does', () => {
    expect(decidePurpose({ type: 'ChangePurpose', data: { name: 'Newsletter', consentValidFor: 'P24M', now } }, defined())).toEqual([
      { type: 'PurposeChanged', data: { key: 'newsletter', consentValidFor: 'P24M', at: now } },
    ]);
    expect(decidePurpose({ type: 'ChangePurpose', data: { name: 'Newsletter', now } }, defined())).toEqual([]);
    expect(() => decidePurpose({ type: 'ChangePurpose', data: { name: 'x', now } }, { status: 'none' })).toThrow(/not found/);
  });

  it('takes ISO 8601 durations longer than zero', () => {
    for (const d of ['P13M', 'P1Y', 'P1Y6M', 'P90D', 'P2W', 'PT12H', 'P1DT1S', 'P100Y', 'P1200M', 'P36525D'])
      expect(isDuration(d), d).toBe(true);
    for (const d of ['P', 'PT', 'P0D', 'P0Y0M', '13M', 'P1.5Y', 'p1y', 'P1H', '']) expect(isDuration(d), d).toBe(false);
    // Longer than 100 years: an expiry past year 9999 has no ISO 8601 form the ledger and read models share.
    for (const d of ['P101Y', 'P100Y1D', 'P1201M', 'P36526D', 'P9999Y']) expect(isDuration(d), d).toBe(false);
  });
});
