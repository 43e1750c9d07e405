import { describe, expect, it } from 'vitest';
import { ofTypeAlone, severalPurposes, versionInForceAt } from './standing.js';

const v = (id: string, purpose: string, version: string, effective: string) => ({
  id,
  purpose,
  version,
  effectiveDate: new Date(effective),
});

describe('versionInForceAt', () => {
  const versions = [
    v('a', 'p', '1.0.0', '2020-01-01T00:00:00Z'),
    v('b', 'p', '2.0.0', '2021-01-01T00:00:00Z'),
    v('c', 'p', '1.5.0', '2021-01-01T00:00:00Z'),
  ];

  it('takes the latest effectiveDate at or before the time, ties to the highest version', () => {
    expect(versionInForceAt(versions, new Date('2020-06-01T00:00:00Z'))?.id).toBe('a');
    expect(versionInForceAt(versions, new Date('2021-01-01T00:00:00Z'))?.id).toBe('b');
    expect(versionInForceAt(versions, new Date('2019-12-31T23:59:59Z'))).toBeNull();
  });
});

describe('ofTypeAlone', () => {
  it('names the type’s own purpose when it has versions, whatever other purposes have', () => {
    const own = v('own', 'custom', '1.0.0', '2020-01-01T00:00:00Z');
    const scope = ofTypeAlone([v('n', 'newsletter', '1.0.0', '2024-01-01T00:00:00Z'), own], 'custom');
    expect(scope).toEqual({ versions: [own] });
  });

  it('else names the only purpose of the type', () => {
    const versions = [v('p1', 'promo', '1.0.0', '2020-01-01T00:00:00Z'), v('p2', 'promo', '2.0.0', '2021-01-01T00:00:00Z')];
    expect(ofTypeAlone(versions, 'marketing_consent')).toEqual({ versions });
    expect(ofTypeAlone([], 'custom')).toEqual({ versions: [] });
  });

  it('names no version when several purposes could be meant, and says which', () => {
    const scope = ofTypeAlone(
      [v('s', 'sms', '1.0.0', '2020-01-01T00:00:00Z'), v('n', 'newsletter', '1.0.0', '2024-01-01T00:00:00Z')],
      'custom',
    );
    expect(scope).toEqual({ severalPurposes: ['newsletter', 'sms'] });
    expect(severalPurposes(['newsletter', 'sms'])).toBe('has versions of several purposes (newsletter, sms): give the purpose');
  });
});
