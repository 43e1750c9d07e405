import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purposeStream } from '../../src/domain/purpose/purpose.events.js';
import { client, startTestService, type Client, type TestService } from '../support/service.js';

/** Purposes (issue: two `custom` purposes collided): a tenant defines its own, each change a ledger event. */

let t: TestService;
let api: Client;
let tenantId: string;

const newsletter = {
  key: 'newsletter',
  name: 'Newsletter',
  description: 'A monthly email about our products',
  legalBasis: 'consent',
  consentValidFor: 'P24M',
  dpv: 'dpv:Marketing',
};

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('starter');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
}, 60_000);
afterAll(() => t?.close());

describe('purposes', () => {
  it('defines a purpose, answers it, and refuses the same key again with 409 PURPOSE_EXISTS', async () => {
    const res = await api.post('/api/v1/purposes', newsletter);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ ...newsletter, createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect((await api.get('/api/v1/purposes/newsletter')).json().data).toMatchObject(newsletter);
    const again = await api.post('/api/v1/purposes', { ...newsletter, name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('PURPOSE_EXISTS');
  });

  it('keeps two purposes apart and lists them by key, optional fields null', async () => {
    const sms = await api.post('/api/v1/purposes', { key: 'sms-offers', name: 'SMS offers', legalBasis: 'consent' });
    expect(sms.statusCode, sms.body).toBe(201);
    expect(sms.json().data).toMatchObject({ description: '', consentValidFor: null, dpv: null });
    const list = await api.get('/api/v1/purposes');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((p: { key: string }) => p.key)).toEqual(['newsletter', 'sms-offers']);
    expect(list.json().pagination).toMatchObject({ total: 2 });
  });

  it('changes only what differs, each change a ledger event; the list follows', async () => {
    const res = await api.patch('/api/v1/purposes/newsletter', { consentValidFor: 'P13M', name: 'Newsletter' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ key: 'newsletter', name: 'Newsletter', consentValidFor: 'P13M' });
    const unchanged = await api.patch('/api/v1/purposes/newsletter', { consentValidFor: 'P13M' });
    expect(unchanged.statusCode).toBe(200);
    const events = await t.service.ledger.readStream(purposeStream(tenantId, 'newsletter'));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['PurposeDefined', expect.objectContaining({ key: 'newsletter', consentValidFor: 'P24M' })],
      ['PurposeChanged', { key: 'newsletter', consentValidFor: 'P13M', at: expect.any(String) }],
    ]);
    const listed = (await api.get('/api/v1/purposes')).json().data.find((p: { key: string }) => p.key === 'newsletter');
    expect(listed).toMatchObject({ consentValidFor: 'P13M' });
    // PUT too, as every update of the API (docs/contract.md).
    const put = await api.put('/api/v1/purposes/newsletter', { description: 'Monthly news, by email' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().data).toMatchObject({ key: 'newsletter', description: 'Monthly news, by email', consentValidFor: 'P13M' });
  });

  it('takes a legal basis by its letter of Art. 6(1) or its DPV GDPR term, and answers its name', async () => {
    const forms: [string, string][] = [
      ['a', 'consent'],
      ['Art. 6(1)(b)', 'contract'],
      ['6(1)(c)', 'legal_obligation'],
      ['eu-gdpr:A6-1-d', 'vital_interests'],
      ['PUBLIC_TASK', 'public_task'],
    ];
    for (const [i, [written, name]] of forms.entries()) {
      const res = await api.post('/api/v1/purposes', { key: `basis-${i}`, name: written, legalBasis: written });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.legalBasis).toBe(name);
    }
    const changed = await api.patch('/api/v1/purposes/basis-0', { legalBasis: '(f)' });
    expect(changed.json().data.legalBasis).toBe('legitimate_interests');
    const refused = await api.post('/api/v1/purposes', { key: 'basis-x', name: 'x', legalBasis: '6(1)(g)' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.details.errors).toEqual([{ field: 'legalBasis', message: expect.stringContaining('consent, contract') }]);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const bad = [
      { ...newsletter, key: 'Newsletter' },
      { ...newsletter, key: '' },
      { ...newsletter, key: 'x'.repeat(65) },
      { ...newsletter, key: 'other', legalBasis: 'because' },
      { ...newsletter, key: 'other', consentValidFor: '13 months' },
      { ...newsletter, key: 'other', consentValidFor: 'P0D' },
      { ...newsletter, key: 'other', consentValidFor: 'PT' },
      { ...newsletter, key: 'other', consentValidFor: 'P9999Y' },
      { ...newsletter, key: 'other', consentValidFor: 'P101Y' },
      { ...newsletter, key: 'other', dpv: 'marketing' },
      { ...newsletter, key: 'other', dpv: 'dpv:Marketting' },
      { ...newsletter, key: 'other', dpv: 'https://w3id.org/dpv#NotAPurpose' },
      { ...newsletter, key: 'other', extra: true },
      { ...newsletter, key: 'other', name: '' },
      { ...newsletter, key: 'other', name: '   ' },
    ];
    for (const body of bad) {
      const res = await api.post('/api/v1/purposes', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await api.patch('/api/v1/purposes/newsletter', {})).statusCode).toBe(400);
    expect((await api.patch('/api/v1/purposes/newsletter', { consentValidFor: 'P0M' })).statusCode).toBe(400);
    expect((await api.patch('/api/v1/purposes/newsletter', { consentValidFor: 'P95700M' })).json().error.message).toContain(
      'at most 100 years',
    );
    expect((await api.patch('/api/v1/purposes/newsletter', { dpv: 'dpv:Newsletter' })).statusCode).toBe(400);
    expect((await t.service.ledger.readStream(purposeStream(tenantId, 'other'))).length).toBe(0);
    const blank = await api.patch('/api/v1/purposes/newsletter', { name: ' \t ' });
    expect(blank.json().error.details.errors).toEqual([{ field: 'name', message: 'must hold a character other than spaces' }]);
    // Too long is said as such, not as blank.
    for (const res of [
      await api.post('/api/v1/purposes', { ...newsletter, key: 'long-name', name: 'n'.repeat(201) }),
      await api.patch('/api/v1/purposes/newsletter', { name: 'n'.repeat(201) }),
    ]) {
      expect(res.json().error.details.errors).toEqual([{ field: 'name', message: 'must be at most 200 characters long' }]);
    }
  });

  it('takes a description of null as none, on define and on change', async () => {
    const res = await api.post('/api/v1/purposes', {
      key: 'null-description',
      name: 'N',
      legalBasis: 'Legitimate Interests',
      description: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ description: '', legalBasis: 'legitimate_interests' });
    expect((await api.patch('/api/v1/purposes/null-description', { description: 'Said' })).json().data.description).toBe('Said');
    const cleared = await api.patch('/api/v1/purposes/null-description', { description: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().data.description).toBe('');
  });

  it('says in words what a key, a duration, a DPV term and a version must be, never as a regular expression', async () => {
    const cases: [string, Record<string, unknown>, string, RegExp][] = [
      ['/api/v1/purposes', { ...newsletter, key: 'Bad Key' }, 'key', /lower-case letters, digits/],
      ['/api/v1/purposes', { ...newsletter, key: 'other', consentValidFor: '13 months' }, 'consentValidFor', /ISO 8601 duration.*P13M/],
      ['/api/v1/purposes', { ...newsletter, key: 'other', consentValidFor: 'PT0.5S' }, 'consentValidFor', /in whole units/],
      ['/api/v1/purposes', { ...newsletter, key: 'other', dpv: 'dpv: Marketing' }, 'dpv', /DPV purpose term, such as dpv:Marketing/],
      ['/api/v1/policies', { policyType: 'custom', version: 'v2', title: 'T', content: 'C' }, 'version', /major\.minor\.patch/],
      ['/api/v1/policies', { policyType: 'custom', purpose: 'No', version: '1.0.0', title: 'T', content: 'C' }, 'purpose', /lower-case/],
    ];
    for (const [url, body, field, words] of cases) {
      const res = await api.post(url, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      const error = res.json().error;
      expect(error.details.errors).toContainEqual({ field, message: expect.stringMatching(words) });
      expect(error.message).not.toMatch(/pattern|\^|\$/);
    }
  });

  it('takes only a purpose of the W3C DPV, says which one was meant, and takes an extension IRI as written', async () => {
    const typo = await api.post('/api/v1/purposes', { ...newsletter, key: 'typo', dpv: 'dpv:DirectMarkting' });
    expect(typo.statusCode).toBe(400);
    expect(typo.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'dpv: dpv:DirectMarkting is not a purpose of the W3C DPV (did you mean dpv:DirectMarketing?)',
      details: { errors: [{ field: 'dpv', message: 'must be a purpose of the W3C DPV: did you mean dpv:DirectMarketing?' }] },
    });
    // A core name in the wrong case, or without its prefix, gets the term it would be.
    for (const [dpv, meant] of [
      ['dpv:marketing', 'dpv:Marketing'],
      ['Marketing', 'dpv:Marketing'],
      ['https://w3id.org/dpv#serviceProvision', 'https://w3id.org/dpv#ServiceProvision'],
    ]) {
      const res = await api.post('/api/v1/purposes', { ...newsletter, key: 'near', dpv });
      expect(res.statusCode, dpv).toBe(400);
      expect(res.json().error.message, dpv).toContain(`did you mean ${meant}?`);
      expect(res.json().error.details.errors, dpv).toEqual([
        { field: 'dpv', message: `must be a purpose of the W3C DPV: did you mean ${meant}?` },
      ]);
    }
    expect((await api.get('/api/v1/purposes/near')).statusCode, 'nothing was defined').toBe(404);
    for (const [key, dpv] of [
      ['service', 'dpv:ServiceProvision'],
      ['research', 'https://w3id.org/dpv#ScientificResearch'],
      ['hiring', 'dpv:PersonnelHiring'],
      ['sector', 'https://w3id.org/dpv/sector/finance#CreditScoring'],
      ['later', 'https://w3id.org/dpv/2.2#SomeLaterPurpose'],
    ]) {
      const res = await api.post('/api/v1/purposes', { ...newsletter, key, dpv });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.dpv).toBe(dpv);
    }
  });

  it('answers 404 for a key never defined, and another tenant sees none of them', async () => {
    expect((await api.get('/api/v1/purposes/nothing')).statusCode).toBe(404);
    expect((await api.patch('/api/v1/purposes/nothing', { name: 'x' })).statusCode).toBe(404);
    const other = client(t.app, await t.tenant('starter'));
    expect((await other.get('/api/v1/purposes/newsletter')).statusCode).toBe(404);
    expect((await other.get('/api/v1/purposes')).json().data).toEqual([]);
  });
});

describe('purposes › policy versions name their purpose', () => {
  const publish = (body: Record<string, unknown>) =>
    api.post('/api/v1/policies', { policyType: 'custom', version: '1.0.0', title: 'Terms', content: 'Text', ...body });

  it('keeps two custom purposes apart: the same type and version for each, and the active version per purpose', async () => {
    const a = await publish({ purpose: 'newsletter', content: 'Newsletter terms' });
    const b = await publish({ purpose: 'sms-offers', content: 'SMS terms' });
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([201, 201]);
    expect(a.json().data).toMatchObject({ policyType: 'custom', purpose: 'newsletter' });
    expect(b.json().data.id).not.toBe(a.json().data.id);
    const again = await publish({ purpose: 'newsletter' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('POLICY_VERSION_EXISTS');

    const active = await api.get('/api/v1/policies/active?purpose=sms-offers');
    expect(active.statusCode, active.body).toBe(200);
    expect(active.json().data).toMatchObject({ id: b.json().data.id, purpose: 'sms-offers', content: 'SMS terms' });
    expect((await api.get('/api/v1/policies/active?purpose=newsletter')).json().data.id).toBe(a.json().data.id);
    expect((await api.get('/api/v1/policies/active/custom')).statusCode).toBe(200);
    // The typed route narrowed to one purpose: custom holds both purposes' versions.
    expect((await api.get('/api/v1/policies/active/custom?purpose=sms-offers')).json().data.id).toBe(b.json().data.id);
    expect((await api.get('/api/v1/policies/active/custom?purpose=newsletter')).json().data.id).toBe(a.json().data.id);
    const otherType = await api.get('/api/v1/policies/active/privacy_policy?purpose=newsletter');
    expect(otherType.statusCode).toBe(404);
    expect(otherType.json().error).toMatchObject({
      code: 'NO_ACTIVE_POLICY',
      message: 'no active privacy_policy version for purpose newsletter',
    });
    expect((await api.get('/api/v1/policies/active/custom?purpose=Bad Key')).statusCode).toBe(400);
    const listed = (await api.get('/api/v1/policies?purpose=newsletter')).json().data;
    expect(listed.map((p: { id: string; purpose: string }) => [p.id, p.purpose])).toEqual([[a.json().data.id, 'newsletter']]);
  });

  it('numbers a purpose’s versions once across types: the same number under another type is a 409 that writes nothing', async () => {
    const first = await publish({ purpose: 'newsletter', version: '3.0.0', content: 'Newsletter, third' });
    expect(first.statusCode, first.body).toBe(201);
    const total = (await api.get('/api/v1/policies')).json().pagination.total;
    const namesake = await api.post('/api/v1/policies', {
      policyType: 'cookie_policy',
      purpose: 'newsletter',
      version: '3.0.0',
      title: 'Newsletter cookies',
      content: 'Cookies',
    });
    expect(namesake.statusCode, namesake.body).toBe(409);
    expect(namesake.json().error).toMatchObject({
      code: 'POLICY_VERSION_EXISTS',
      message: expect.stringContaining('version 3.0.0 of purpose newsletter already exists, as a custom version'),
      details: { policyType: 'cookie_policy', version: '3.0.0', purpose: 'newsletter', existingPolicyType: 'custom' },
    });
    expect((await api.get('/api/v1/policies')).json().pagination.total).toBe(total);
    // Another number of the purpose under that type, and the number for another purpose, are new versions.
    const next = await api.post('/api/v1/policies', {
      policyType: 'cookie_policy',
      purpose: 'newsletter',
      version: '3.0.1',
      title: 'N',
      content: 'C',
    });
    expect(next.statusCode, next.body).toBe(201);
    expect((await publish({ purpose: 'sms-offers', version: '3.0.0' })).statusCode).toBe(201);
    const status = (await api.get('/api/v1/policies/active?purpose=newsletter')).json().data;
    expect(status).toMatchObject({ id: next.json().data.id, version: '3.0.1' });
  });

  it('without a purpose a version is its type’s, as before purposes; an undefined purpose is a 400 and writes nothing', async () => {
    const plain = await api.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'Privacy', content: 'x' });
    expect(plain.statusCode).toBe(201);
    expect(plain.json().data.purpose).toBe('privacy_policy');
    expect((await api.get('/api/v1/policies/active?purpose=privacy_policy')).json().data.id).toBe(plain.json().data.id);
    const before = (await api.get('/api/v1/policies')).json().pagination.total;
    const unknown = await publish({ purpose: 'nothing-defined', version: '9.9.9' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: { errors: [{ field: 'purpose' }] } });
    expect((await api.get('/api/v1/policies')).json().pagination.total).toBe(before);
    // Reading the active version of a purpose never defined is bad input, as on every other read.
    for (const url of ['/api/v1/policies/active?purpose=nothing-defined', '/api/v1/policies/active/custom?purpose=nothing-defined']) {
      const res = await api.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: 'purpose nothing-defined is not defined',
        details: { errors: [{ field: 'purpose' }] },
      });
    }
    // A defined purpose with no version of the type: none active, a state, not an error of input.
    expect((await api.get('/api/v1/policies/active/terms_of_service?purpose=newsletter')).statusCode).toBe(404);
    expect((await api.get('/api/v1/policies/active?purpose=Bad Key')).statusCode).toBe(400);
  });

  it('a decision named by its type alone takes the type’s own purpose, else its only one, and is refused when several could be meant', async () => {
    // custom holds versions of newsletter and sms-offers (above) and none of its own.
    const mine = async () => (await api.get('/api/v1/consent/user/typed')).json().pagination.total as number;
    const one = await api.post('/api/v1/consent', { policyType: 'custom', userReference: 'typed', consentGiven: true });
    expect(one.statusCode, one.body).toBe(400);
    expect(one.json().error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'policy type custom has versions of several purposes (newsletter, sms-offers): give the purpose',
      details: {
        errors: [{ field: 'policyType', message: 'has versions of several purposes (newsletter, sms-offers): give the purpose' }],
      },
    });
    const batch = await api.post('/api/v1/consent/batch', {
      consents: [
        { policyType: 'custom', userReference: 'typed', consentGiven: true },
        { policyType: 'custom', userReference: 'typed', consentGiven: true, collectedAt: '2025-01-01T00:00:00Z' },
        { purpose: 'newsletter', userReference: 'typed', consentGiven: true },
      ],
    });
    expect(batch.statusCode, batch.body).toBe(400);
    expect(batch.json().error.details.errors.map((e: { field: string }) => e.field)).toEqual([
      'consents[0].policyType',
      'consents[1].policyType',
    ]);
    expect(await mine()).toBe(0);

    // A type whose versions are all of one purpose names that purpose.
    expect((await api.post('/api/v1/purposes', { key: 'promo', name: 'Promotions', legalBasis: 'consent' })).statusCode).toBe(201);
    const promo = await publish({ policyType: 'marketing_consent', purpose: 'promo' });
    expect(promo.statusCode, promo.body).toBe(201);
    const onPromo = await api.post('/api/v1/consent', { policyType: 'marketing_consent', userReference: 'typed', consentGiven: true });
    expect(onPromo.statusCode, onPromo.body).toBe(201);
    expect(onPromo.json().data).toMatchObject({ policyVersionId: promo.json().data.id, purpose: 'promo' });

    // Once the type has a version of its own (no purpose given), the type alone names it.
    const plain = await publish({ content: 'Custom terms' });
    expect(plain.statusCode, plain.body).toBe(201);
    const onPlain = await api.post('/api/v1/consent/batch', {
      consents: [
        { policyType: 'custom', userReference: 'typed', consentGiven: true },
        { policyType: 'custom', userReference: 'typed', consentGiven: false, collectedAt: plain.json().data.effectiveDate },
      ],
    });
    expect(onPlain.statusCode, onPlain.body).toBe(201);
    for (const c of onPlain.json().data.consents) {
      expect((await api.get(`/api/v1/consent/${c.id}`)).json().data).toMatchObject({ policyVersionId: plain.json().data.id });
    }
    expect(await mine()).toBe(3);
  });
});
