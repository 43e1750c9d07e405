import { describe, expect, it } from 'vitest';
import { dpvPurposeProblem } from './dpv-purposes.js';

describe('dpvPurposeProblem', () => {
  it('takes the core purposes of every DPV release, in either form', () => {
    for (const term of [
      'dpv:Marketing',
      'dpv:Purpose',
      'dpv:AntiTerrorismOperations', // 1.0
      'dpv:PublicBenefit', // 2.0 and 2.1
      'dpv:RecruitmentManagement', // 2.1
      'dpv:UsageAnalytics', // before 1.0, now ServiceUsageAnalytics
      'https://w3id.org/dpv#ServiceProvision',
      'https://w3id.org/dpv/owl#Advertising',
    ]) {
      expect(dpvPurposeProblem(term), term).toBeUndefined();
    }
  });

  it('refuses a core term DPV does not have, with the nearest one in the same form', () => {
    expect(dpvPurposeProblem('dpv:marketing')).toEqual({
      problem: 'dpv:marketing is not a purpose of the W3C DPV (did you mean dpv:Marketing?)',
      suggestion: 'dpv:Marketing',
    });
    expect(dpvPurposeProblem('https://w3id.org/dpv#ServicProvision')).toEqual({
      problem: 'https://w3id.org/dpv#ServicProvision is not a purpose of the W3C DPV (did you mean https://w3id.org/dpv#ServiceProvision?)',
      suggestion: 'https://w3id.org/dpv#ServiceProvision',
    });
    expect(dpvPurposeProblem('https://w3id.org/dpv/owl#advertising')?.suggestion).toBe('https://w3id.org/dpv/owl#Advertising');
    expect(dpvPurposeProblem('dpv:ConsentGiven')?.problem).toMatch(/^dpv:ConsentGiven is not a purpose of the W3C DPV/);
    expect(dpvPurposeProblem('dpv:Zzzzzzzzzzzz')).toEqual({
      problem:
        'dpv:Zzzzzzzzzzzz is not a purpose of the W3C DPV (only its purposes are taken, such as dpv:Marketing; a purpose of a later release: give its IRI with the release, https://w3id.org/dpv/2.2#Name)',
    });
  });

  it('refuses a name alone, with its prefixed form', () => {
    expect(dpvPurposeProblem('Marketing')).toEqual({
      problem: 'Marketing is not a W3C DPV term: give it with its prefix (did you mean dpv:Marketing?)',
      suggestion: 'dpv:Marketing',
    });
    expect(dpvPurposeProblem('directmarketing')?.suggestion).toBe('dpv:DirectMarketing');
    expect(dpvPurposeProblem('Zzzzzzzzzzzz')).toEqual({
      problem: 'Zzzzzzzzzzzz is not a W3C DPV term: give it with its prefix (such as dpv:Marketing)',
    });
  });

  it('takes an extension’s IRI, and a release’s, as written', () => {
    expect(dpvPurposeProblem('https://w3id.org/dpv/sector/health#ClinicalTrial')).toBeUndefined();
    expect(dpvPurposeProblem('https://w3id.org/dpv/2.2#SomeLaterPurpose')).toBeUndefined();
  });
});
