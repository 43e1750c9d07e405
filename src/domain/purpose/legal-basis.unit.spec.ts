import { describe, expect, it } from 'vitest';
import { LEGAL_BASIS_POINTS, legalBasisOf, legalBasisWords } from './purpose.events.js';

describe('legalBasisOf › the ways a legal basis is written', () => {
  it.each([
    ['consent', 'consent'],
    ['Legitimate_Interests', 'legitimate_interests'],
    ['Legitimate Interests', 'legitimate_interests'],
    ['legal-obligation', 'legal_obligation'],
    ['  Public  task ', 'public_task'],
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

  it.each(['', 'g', '6(2)(a)', 'Art. 9(2)(a)', 'because', 'a)b', 'consents', 'eu-gdpr:A9-2-a', 'legitimate', 'vital_interests_x'])(
    'refuses %j',
    (written) => {
      expect(legalBasisOf(written)).toBeNull();
    },
  );
});

describe('legal bases › as readers see them', () => {
  it.each([
    ['consent', 'consent, GDPR Art. 6(1)(a)'],
    ['legal_obligation', 'legal obligation, GDPR Art. 6(1)(c)'],
    ['legitimate_interests', 'legitimate interests, GDPR Art. 6(1)(f)'],
    ['something_else', 'something_else'],
  ])('%s in words: %s', (basis, words) => {
    expect(legalBasisWords(basis)).toBe(words);
  });

  it('lists every point of Art. 6(1) with its name, a to f', () => {
    expect(LEGAL_BASIS_POINTS).toBe(
      'GDPR Art. 6(1): (a) consent, (b) contract, (c) legal_obligation, (d) vital_interests, (e) public_task, (f) legitimate_interests',
    );
  });
});
