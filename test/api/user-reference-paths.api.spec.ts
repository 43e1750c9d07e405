import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * A user reference may be any 1..255 characters, and every route that takes one in its path takes
 * all of them, percent-encoded: 255 characters (a 4-byte character is 12 once encoded), `/`, `?`,
 * `%`, `#`, spaces and non-ASCII text. Erasure also takes it in a body (POST /subjects/erase).
 */

let t: TestService;
let api: Client;
let policyId: string;

beforeAll(async () => {
  t = await startTestService();
  api = client(t.app, await t.tenant('enterprise'));
  policyId = await publishPolicy(api);
});
afterAll(() => t?.close());

const references: [string, string][] = [
  ['101 characters', 'a'.repeat(101)],
  ['129 characters', 'b'.repeat(129)],
  ['255 characters', 'c'.repeat(255)],
  ['255 four-byte characters', '🙂'.repeat(255)],
  ['255 characters of every kind', `/?%# +&=;:@ü${'ä😀/?%'.repeat(48)}`.slice(0, 255)],
  ['slashes', 'tenant/users/42'],
  ['a query in it', 'who?x=1&y=2'],
  ['percent signs', '100% sure %2F %zz'],
  ['spaces and non-ASCII', '  Zoë Ångström 山田 '],
];

async function record(userReference: string): Promise<string> {
  const res = await api.post('/api/v1/consent', { policyVersionId: policyId, userReference, consentGiven: true });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

describe('user references in paths › when a reference is long or holds any character › every route takes it', () => {
  it.each(references)('%s: user list, status and erasure, under both prefixes', async (_name, reference) => {
    expect([...reference].length).toBeLessThanOrEqual(255);
    const id = await record(reference);
    const encoded = encodeURIComponent(reference);
    for (const prefix of ['/api/v1', '/v1']) {
      const list = await api.get(`${prefix}/consent/user/${encoded}`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().data.map((r: { id: string; userReference: string }) => [r.id, r.userReference])).toEqual([[id, reference]]);
      const status = await api.get(`${prefix}/consent/user/${encoded}/status`);
      expect(status.statusCode, status.body).toBe(200);
      expect(status.json().data.userReference).toBe(reference);
      expect(status.json().data.policies).toHaveLength(1);
    }
    const erased = await api.post(`/api/v1/subjects/${encoded}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().data.consentIds).toEqual([id]);
    expect((await api.get(`/api/v1/consent/${id}`)).json().data).toMatchObject({ erased: true, userReference: null });
    const again = await api.post(`/v1/subjects/${encoded}/erase`);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('a reference of 256 characters is refused as the value it is, naming the parameter', async () => {
    for (const url of [`/api/v1/consent/user/${'d'.repeat(256)}`, `/api/v1/consent/user/${encodeURIComponent('🙂'.repeat(256))}/status`]) {
      const res = await api.get(url);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details.errors.map((e: { field: string }) => e.field)).toEqual(['userReference']);
    }
    const res = await api.post(`/api/v1/subjects/${'d'.repeat(256)}/erase`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
    // Past what any reference needs, the router refuses the path itself, and says so.
    const overLong = await api.get(`/api/v1/consent/user/${'d'.repeat(3061)}`);
    expect(overLong.statusCode).toBe(400);
    expect(overLong.json().error.message).toMatch(/path parameter over 3060 characters/);
  });
});

describe('user references in paths › when erasure is asked with the reference in the body', () => {
  it('erases as the path form does, for any reference; a repeat answers the same erasure', async () => {
    const reference = `body/form?x=%2F ${'é'.repeat(230)}`;
    const id = await record(reference);
    const res = await api.post('/api/v1/subjects/erase', { userReference: reference });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ erased: true, erasedAt: expect.any(String), consentIds: [id], receiptsDeleted: 0 });
    expect((await api.get(`/api/v1/consent/${id}`)).json().data.erased).toBe(true);
    const again = await api.post('/v1/subjects/erase', { userReference: reference });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().data.erasedAt).toBe(res.json().data.erasedAt);
  });

  it.each([
    ['no reference', {}],
    ['an empty one', { userReference: '' }],
    ['one of 256 characters', { userReference: 'e'.repeat(256) }],
    ['a number', { userReference: 42 }],
    ['an unknown field', { userReference: 'x', reason: 'asked' }],
  ])('refuses %s with 400', async (_name, body) => {
    const res = await api.post('/api/v1/subjects/erase', body);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
  });
});
