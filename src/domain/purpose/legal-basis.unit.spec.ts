import { describe, expect, it } from 'vitest';
import { legalBasisOf } from './purpose.events.js';

describe('legalBasisOf › the ways a legal basis is written', () => {
  it.each([
    ['consent', 'consent'],
    ['Legitimate_Interests', 'legitimate_interests'],
    ['a', 'consent'],
    ['F', 'legitimate_interests'],
    ['(b)', 'contract'],
    ['6(1)(c)', 'legal_obligation'],
    ['Art. 6(1)(d)', 'vital_interests'],
    ['art 6 (1) (e)', 'public_task'],
    ['Article 6(1)(f)', 'legitimate_interests'],
    ['GDPR Art. 6(1)(a)', 'consent'],
    ['6(1)(a) GDPR', 'consent'],
    [' eu-gdpr:A6-1-b ', 'contract'],
    ['https://w3id.org/dpv/legal/eu/gdpr#A6-1-f', 'legitimate_interests'],
  ])('%s is %s', (written, name) => {
    expect(legalBasisOf(written)).toBe(name);
  });

  it.each(['', 'g', '6(2)(a)', 'Art. 9(2)(a)', 'because', 'a)b', 'consents', 'eu-gdpr:A9-2-a'])('refuses %j', (written) => {
    expect(legalBasisOf(written)).toBeNull();
  });
});
