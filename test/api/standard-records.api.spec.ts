import jsonld from 'jsonld';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DPV_27560_RECORD, ISO27560_EVENT_REQUIRED, ISO27560_REQUIRED } from '../../src/export/iso27560.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';
import { waitUntil } from '../support/process.js';

/**
 * Issue 18, standard records: a consent record as ISO/IEC TS 27560 structures it, in JSON-LD with
 * the W3C DPV profile (https://w3id.org/dpv/guides/consent-27560), one at a time and as an
 * export. Every record produced here is checked against the profile's required fields and
 * expanded as JSON-LD in safe mode (a term that does not resolve to an IRI fails).
 */

let t: TestService;
let api: Client;
let tenantId: string;
let newsletter: string;
let newsHash: string;
let privacy: string;
const ids: Record<string, string> = {};

type Doc = Record<string, unknown>;
const at = (doc: Doc, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Doc)[k] : undefined), doc);

/** The profile's MUST fields, each present and not empty, on the record and on every event. */
async function validate(doc: Doc): Promise<void> {
  for (const path of ISO27560_REQUIRED) {
    const v = at(doc, path);
    expect(v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0), `${path} of ${JSON.stringify(doc)}`).toBe(
      false,
    );
  }
  expect(doc['@type']).toBe('dpv:ConsentRecord');
  expect(doc['dct:conformsTo']).toBe(DPV_27560_RECORD);
  const events = doc['dpv:hasConsentStatus'] as Doc[];
  expect(Array.isArray(events) && events.length > 0).toBe(true);
  for (const e of events) {
    for (const f of ISO27560_EVENT_REQUIRED) expect(e[f], `${f} of ${JSON.stringify(e)}`).toBeDefined();
    expect(Number.isNaN(Date.parse(e['dpv:isIndicatedAtTime'] as string))).toBe(false);
  }
  // JSON-LD: every term resolves to an IRI (safe mode throws on anything that would be dropped).
  const expanded = await jsonld.expand(doc as jsonld.JsonLdDocument, { safe: true } as jsonld.Options.Expand);
  expect(JSON.stringify(expanded)).toContain('https://w3id.org/dpv#hasConsentStatus');
  // What names a concept or a thing is a link (an IRI) to an RDF tool, not a string that looks like one.
  const linked = (node: unknown, property: string): string[] => {
    if (Array.isArray(node)) return node.flatMap((n) => linked(n, property));
    if (node === null || typeof node !== 'object') return [];
    const here = ((node as Record<string, unknown>)[property] as Record<string, unknown>[] | undefined) ?? [];
    for (const v of here) expect(v, `${property}: ${JSON.stringify(v)}`).not.toHaveProperty('@value');
    return [
      ...here.map((v) => v['@id'] as string),
      ...Object.values(node as Record<string, unknown>).flatMap((n) => (typeof n === 'object' ? linked(n, property) : [])),
    ];
  };
  expect(linked(expanded, 'https://w3id.org/dpv#hasLegalBasis')[0]).toMatch(/^https:\/\/w3id\.org\/dpv\/legal\/eu\/gdpr#A6-1-[a-f]$/);
  expect(linked(expanded, 'https://w3id.org/dpv#hasPersonalData')).toEqual(['https://w3id.org/dpv/pd#Identifier']);
  expect(linked(expanded, 'https://w3id.org/dpv#hasDataController')[0]).toMatch(/^urn:uuid:/);
  expect(linked(expanded, 'https://w3id.org/dpv#isIndicatedBy')).toContain('https://w3id.org/dpv#DataSubject');
  expect(linked(expanded, 'http://www.w3.org/2000/01/rdf-schema#seeAlso')[0]).toMatch(/^https?:\/\//);
  expect(linked(expanded, 'http://purl.org/dc/terms/conformsTo')).toEqual([DPV_27560_RECORD]);
}

async function record(body: Doc): Promise<string> {
  const res = await api.post('/api/v1/consent/batch', { consents: [body] });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json().data.consents as { id: string }[])[0]!.id;
}

async function standard(id: string): Promise<Doc> {
  const res = await api.get(`/api/v1/consent/${id}?format=iso27560`);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
  const doc = res.json() as Doc;
  await validate(doc);
  return doc;
}

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('pro');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  const purpose = { key: 'newsletter', name: 'Newsletter', legalBasis: 'consent', consentValidFor: 'P13M', dpv: 'dpv:Marketing' };
  expect((await api.post('/api/v1/purposes', purpose)).statusCode).toBe(201);
  newsletter = await publishPolicy(api, {
    policyType: 'custom',
    purpose: 'newsletter',
    version: '1.0.0',
    effectiveDate: '2020-01-01T00:00:00Z',
  });
  newsHash = (await api.get(`/api/v1/policies/${newsletter}`)).json().data.contentHash as string;
  privacy = await publishPolicy(api, { policyType: 'privacy_policy', version: '1.0.0' });
  ids.given = await record({ policyVersionId: newsletter, userReference: 'alice@example.com', consentGiven: true });
  expect((await api.post(`/api/v1/consent/${ids.given}/withdraw`, { reason: 'no more' })).statusCode).toBe(200);
  ids.refused = await record({ policyVersionId: privacy, userReference: 'bob@example.com', consentGiven: false });
  ids.lapsed = await record({
    policyVersionId: newsletter,
    userReference: 'carl@example.com',
    consentGiven: true,
    collectedAt: '2021-01-10T09:00:00Z',
    withdrawnAt: '2022-06-01T12:00:00Z',
  });
  ids.expired = await record({
    policyVersionId: newsletter,
    userReference: 'carla@example.com',
    consentGiven: true,
    collectedAt: '2021-01-10T09:00:00Z',
  });
}, 60_000);
afterAll(() => t?.close());

describe('standard records › one record (GET /consent/:id?format=iso27560)', () => {
  it('states the identifier, the pseudonymous subject, the controller, the notice and purpose, and the history', async () => {
    const doc = await standard(ids.given!);
    expect(doc['dct:identifier']).toBe(ids.given);
    expect((doc['dpv:hasDataSubject'] as Doc)['dct:identifier']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(doc)).not.toContain('alice');
    expect(doc['dpv:hasEntity']).toMatchObject({ 'dpv:hasIdentifier': tenantId, 'dpv:hasName': expect.any(String) });
    expect(doc['dpv:hasNotice']).toMatchObject({ 'dct:identifier': newsletter, 'schema:sha256': newsHash, 'dct:hasVersion': '1.0.0' });
    expect(doc['dpv:hasProcess']).toMatchObject({
      'dpv:hasPurpose': { '@type': ['dpv:Purpose', 'dpv:Marketing'], 'dct:identifier': 'newsletter', 'dct:title': 'Newsletter' },
      'dpv:hasLegalBasis': 'eu-gdpr:A6-1-a',
    });
    const view = (await api.get(`/api/v1/consent/${ids.given}`)).json().data as {
      consentHash: string;
      createdAt: string;
      withdrawnAt: string;
      expiresAt: string;
    };
    expect(doc['schema:sha256']).toBe(view.consentHash);
    // Its proof link is the record's inclusion proof in the signed log, which a read key fetches
    // (the public page checks only records whose receipt was issued: it said "not verified" here).
    const link = new URL(doc['rdfs:seeAlso'] as string);
    expect(link.pathname).toBe(`/api/v1/consent/${ids.given}/proof`);
    await waitUntil(async () => (await api.get(link.pathname)).statusCode === 200, { what: 'the record sealed' });
    expect((await api.get(link.pathname)).json().data.event).toMatchObject({ type: 'ConsentRecorded' });
    expect(doc['dpv:hasConsentStatus']).toEqual([
      expect.objectContaining({
        '@type': 'dpv:ConsentGiven',
        'dpv:isIndicatedAtTime': view.createdAt,
        'dpv:hasDuration': { '@type': 'dpv:UntilTimeDuration', 'rdf:value': view.expiresAt },
      }),
      expect.objectContaining({ '@type': 'dpv:ConsentWithdrawn', 'dpv:isIndicatedAtTime': view.withdrawnAt }),
    ]);
  });

  it('a refusal on a policy type of the spec, and an imported consent that expired', async () => {
    const refused = await standard(ids.refused!);
    expect((refused['dpv:hasConsentStatus'] as Doc[]).map((e) => e['@type'])).toEqual(['dpv:ConsentRefused']);
    expect(refused['dpv:hasProcess']).toMatchObject({ 'dpv:hasPurpose': { '@type': 'dpv:Purpose', 'dct:identifier': 'privacy_policy' } });
    const expired = await standard(ids.expired!);
    expect(expired['dpv:hasConsentStatus']).toEqual([
      expect.objectContaining({ '@type': 'dpv:ConsentGiven', 'dpv:isIndicatedAtTime': '2021-01-10T09:00:00.000Z' }),
      expect.objectContaining({ '@type': 'dpv:ConsentExpired', 'dpv:isIndicatedAtTime': '2022-02-10T09:00:00.000Z' }),
    ]);
    expect(expired['dct:provenance']).toMatch(/imported/);
    // Withdrawn on the platform it came from after its validity here ran out: expired, then withdrawn.
    const lapsed = await standard(ids.lapsed!);
    expect((lapsed['dpv:hasConsentStatus'] as Doc[]).map((e) => [e['@type'], e['dpv:isIndicatedAtTime']])).toEqual([
      ['dpv:ConsentGiven', '2021-01-10T09:00:00.000Z'],
      ['dpv:ConsentExpired', '2022-02-10T09:00:00.000Z'],
      ['dpv:ConsentWithdrawn', '2022-06-01T12:00:00.000Z'],
    ]);
  });

  it('answers the same document to Accept: application/ld+json', async () => {
    const res = await api.get(`/api/v1/consent/${ids.refused}`, { accept: 'application/ld+json' });
    expect(res.headers['content-type']).toMatch(/^application\/ld\+json/);
    expect(res.json()).toEqual(await standard(ids.refused!));
  });

  it('the usual form is unchanged without format, and a bad format or id is a 4xx', async () => {
    const res = await api.get(`/api/v1/consent/${ids.given}`);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({ success: true, data: { id: ids.given } });
    const xml = await api.get(`/api/v1/consent/${ids.given}?format=xml`);
    expect(xml.statusCode).toBe(400);
    expect(xml.json().error.message).toBe('invalid request: format must be "iso27560"');
    expect((await api.get(`/api/v1/consent/00000000-0000-4000-8000-000000000000?format=iso27560`)).statusCode).toBe(404);
  });
});

describe('standard records › the purpose as it was when the decision was recorded', () => {
  it('a later change of name, legal basis or DPV term leaves earlier records as they were', async () => {
    const promo = { key: 'promo', name: 'Promotions', legalBasis: 'consent', dpv: 'dpv:DirectMarketing' };
    expect((await api.post('/api/v1/purposes', promo)).statusCode).toBe(201);
    const version = await publishPolicy(api, { policyType: 'custom', purpose: 'promo', version: '1.0.0' });
    ids.promoBefore = await record({ policyVersionId: version, userReference: 'dora@example.com', consentGiven: true });
    const changed = await api.patch('/api/v1/purposes/promo', {
      name: 'Offers',
      legalBasis: 'legitimate_interests',
      dpv: 'dpv:Advertising',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    ids.promoAfter = await record({ policyVersionId: version, userReference: 'ed@example.com', consentGiven: true });

    const process = (doc: Doc) => doc['dpv:hasProcess'] as Doc;
    const before = process(await standard(ids.promoBefore));
    expect(before).toMatchObject({
      'dpv:hasPurpose': { '@type': ['dpv:Purpose', 'dpv:DirectMarketing'], 'dct:title': 'Promotions' },
      'dpv:hasLegalBasis': 'eu-gdpr:A6-1-a',
    });
    expect(process(await standard(ids.promoAfter))).toMatchObject({
      'dpv:hasPurpose': { '@type': ['dpv:Purpose', 'dpv:Advertising'], 'dct:title': 'Offers' },
      'dpv:hasLegalBasis': 'eu-gdpr:A6-1-f',
    });
    // The export says the same as the single record.
    const lines = (await api.get('/api/v1/consent/export?format=iso27560&purpose=promo')).body.split('\n').filter(Boolean);
    const exported = lines.map((l) => JSON.parse(l) as Doc).find((d) => d['dct:identifier'] === ids.promoBefore)!;
    expect(process(exported)).toEqual(before);
  });

  it('a policy type defined as a purpose after a decision leaves that decision under consent', async () => {
    const cookies = await publishPolicy(api, { policyType: 'cookie_policy', version: '1.0.0' });
    ids.cookiesBefore = await record({ policyVersionId: cookies, userReference: 'fay@example.com', consentGiven: true });
    const defined = await api.post('/api/v1/purposes', { key: 'cookie_policy', name: 'Cookies', legalBasis: 'legitimate_interests' });
    expect(defined.statusCode, defined.body).toBe(201);
    ids.cookiesAfter = await record({ policyVersionId: cookies, userReference: 'gus@example.com', consentGiven: true });
    const before = (await standard(ids.cookiesBefore))['dpv:hasProcess'] as Doc;
    expect(before).toMatchObject({
      'dpv:hasPurpose': { '@type': 'dpv:Purpose', 'dct:identifier': 'cookie_policy' },
      'dpv:hasLegalBasis': 'eu-gdpr:A6-1-a',
    });
    expect(before['dpv:hasPurpose']).not.toHaveProperty('dct:title');
    expect((await standard(ids.cookiesAfter))['dpv:hasProcess']).toMatchObject({
      'dpv:hasPurpose': { 'dct:title': 'Cookies' },
      'dpv:hasLegalBasis': 'eu-gdpr:A6-1-f',
    });
  });
});

describe('standard records › export (GET /consent/export?format=iso27560)', () => {
  it('answers one record per line, as many as the search, each valid; the filters apply', async () => {
    const res = await api.get('/api/v1/consent/export?format=iso27560');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(res.headers['content-disposition']).toMatch(/\.iso27560\.jsonl"$/);
    const lines = res.body.split('\n').filter((l) => l !== '');
    const total = (await api.get('/api/v1/consent/search')).json().pagination.total as number;
    expect(lines).toHaveLength(total);
    const docs = lines.map((l) => JSON.parse(l) as Doc);
    for (const doc of docs) await validate(doc);
    expect(docs.map((d) => d['dct:identifier']).sort()).toEqual(Object.values(ids).sort());
    // The single record and the exported one say the same.
    expect(docs.find((d) => d['dct:identifier'] === ids.given)).toEqual(await standard(ids.given!));

    const filtered = (await api.get('/api/v1/consent/export?format=iso27560&purpose=newsletter')).body.split('\n').filter(Boolean);
    expect(filtered.map((l) => (JSON.parse(l) as Doc)['dct:identifier']).sort()).toEqual([ids.given, ids.expired, ids.lapsed].sort());
  });

  it('is gated by plan like the CSV export', async () => {
    const free = client(t.app, await t.tenant('free'));
    const res = await free.get('/api/v1/consent/export?format=iso27560');
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toMatchObject({
      code: 'PLAN_RESTRICTED',
      message: 'The export (ISO 27560 records and CSV alike) needs the Starter plan or above; this tenant is on free',
    });
  });
});
