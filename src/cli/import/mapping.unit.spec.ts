import { describe, expect, it } from 'vitest';
import { columnAtAppend, mappingFor, parseTarget, type Target } from './mapping.js';

const mapping = (header: string[], maps: Record<string, string> = {}) =>
  mappingFor(header, {
    preset: 'auto',
    maps: new Map(Object.entries(maps).map(([column, target]) => [column, parseTarget(target) as Target])),
    defaults: [],
    timeZone: undefined,
  }).mapping;

describe('import › the column an append-time error names', () => {
  it('names the column that named the version: its id, else its label, else its purpose or type', () => {
    expect(
      columnAtAppend(
        mapping(['email', 'vid', 'ver', 'list'], { vid: 'policyVersionId', ver: 'policyVersion', list: 'purpose' }),
        'policyVersionId',
      ),
    ).toBe('vid');
    expect(columnAtAppend(mapping(['email', 'ver', 'list'], { ver: 'policyVersion', list: 'purpose' }), 'policyVersionId')).toBe('ver');
    expect(columnAtAppend(mapping(['email', 'list'], { list: 'purpose' }), 'policyVersionId')).toBe('list');
    expect(columnAtAppend(mapping(['email', 'policy_type'], {}), 'policyVersionId')).toBe('policy_type');
  });

  it("names this service's export by its version label: its version ids are the source tenant's", () => {
    const exported = ['id', 'userReference', 'policyVersionId', 'policyType', 'policyVersion', 'consentGiven', 'consentHash', 'createdAt'];
    expect(columnAtAppend(mapping(exported), 'policyVersionId')).toBe('policyVersion');
  });

  it('names the field when no column gave it (a --default), and other fields by their column', () => {
    expect(columnAtAppend(mapping(['email']), 'policyVersionId')).toBe('policyVersionId');
    expect(columnAtAppend(mapping(['email', 'when'], { when: 'collectedAt' }), 'collectedAt')).toBe('when');
  });
});
