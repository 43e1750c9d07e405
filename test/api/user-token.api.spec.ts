import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserClient, client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';
import { signedUserToken } from '../support/user-token.js';

/**
 * A publishable key given a user-token key records a decision only for the user reference a token
 * signed by the tenant's backend names (docs/browser.md, "Only for the signed-in user"): the key is
 * public, so without it a page could record a rejection for anyone.
 */

const SHOP = 'https://shop.example.com';
const backend = generateKeyPairSync('ed25519');

/** A user token as a tenant's backend signs it: a JWT (EdDSA) whose sub is the user reference. */
const userToken = (claims: Record<string, unknown>, signer: KeyObject = backend.privateKey): string =>
  signedUserToken(signer, { exp: Math.floor(Date.now() / 1000) + 300, ...claims });

let t: TestService;
let admin: Client;
let shop: Client;
let pk: string;
const decision = (userReference: string, consentGiven = false) => ({ purpose: 'newsletter', userReference, consentGiven });

beforeAll(async () => {
  t = await startTestService();
  admin = client(t.app, await t.tenant('pro'));
  expect(
    (await admin.post('/api/v1/purposes', { key: 'newsletter', name: 'News', description: 'Monthly', legalBasis: 'consent' })).statusCode,
  ).toBe(201);
  await publishPolicy(admin, { purpose: 'newsletter', policyType: 'marketing_consent' });
  const res = await admin.post('/api/v1/keys', {
    scope: 'publishable',
    origins: [SHOP],
    userTokenKey: backend.publicKey.export({ format: 'pem', type: 'spki' }),
  });
  expect(res.statusCode, res.body).toBe(201);
  pk = res.json().data.apiKey as string;
  shop = browserClient(t.app, pk, SHOP);
}, 60_000);
afterAll(() => t?.close());

describe('user tokens › a key that needs one', () => {
  it('shows its user-token key as its 32 bytes, at issue, in the list and in the audit trail', async () => {
    const raw = backend.publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64url');
    const listed = ((await admin.get('/api/v1/keys')).json().data as { apiKey: string }[]).find((k) => k.apiKey === pk);
    expect(listed).toMatchObject({ scope: 'publishable', userTokenKey: raw });
    const audit = (await admin.get('/api/v1/audit-log?action=key.issued')).json().data as { target: { id: string }; details: object }[];
    expect(audit.find((e) => e.target.id === pk)?.details).toMatchObject({ userTokenKey: raw });
    // A publishable key without one shows null: it records for any user reference.
    const plain = await admin.post('/api/v1/keys', { scope: 'publishable', origins: [SHOP] });
    expect(plain.json().data.userTokenKey).toBeNull();
    const entries = (await admin.get('/api/v1/audit-log?action=key.issued')).json().data as { target: { id: string }; details: object }[];
    expect(entries.find((e) => e.target.id === plain.json().data.apiKey)?.details).toMatchObject({ userTokenKey: null });
  });

  it('records the decision of the user its token names', async () => {
    const res = await shop.post('/api/v1/consent', decision('user-42', true), { 'x-user-token': userToken({ sub: 'user-42', aud: pk }) });
    expect(res.statusCode, res.body).toBe(201);
    const record = (await admin.get(`/api/v1/consent/${res.json().data.id}`)).json().data;
    expect(record).toMatchObject({ userReference: 'user-42', consentGiven: true, recordedBy: { type: 'key', id: pk } });
  });

  it('refuses, recording nothing, without a token (401), with a bad one (401), or for another user (403)', async () => {
    const stranger = generateKeyPairSync('ed25519').privateKey;
    const cases: [Record<string, string>, number, RegExp][] = [
      [{}, 401, /send X-User-Token/],
      [{ 'x-user-token': 'not-a-token' }, 401, /JWT/],
      [{ 'x-user-token': userToken({ sub: 'victim' }, stranger) }, 401, /signature does not verify/],
      [{ 'x-user-token': userToken({ sub: 'victim', exp: Math.floor(Date.now() / 1000) - 3600 }) }, 401, /expired/],
      [{ 'x-user-token': userToken({ sub: 'victim', aud: 'pk_000000000000000000000000' }) }, 401, /another key/],
      // A good token of one user does not record for another.
      [{ 'x-user-token': userToken({ sub: 'attacker' }) }, 403, /another userReference/],
    ];
    for (const [headers, status, message] of cases) {
      const res = await shop.post('/api/v1/consent', decision('victim'), headers);
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().error.code).toBe(status === 401 ? 'UNAUTHORIZED' : 'FORBIDDEN');
      expect(res.json().error.message).toMatch(message);
      // A page on the allowed origin reads why.
      expect(res.headers['access-control-allow-origin']).toBe(SHOP);
    }
    expect((await admin.get('/api/v1/consent/search?userReference=victim')).json().data).toEqual([]);
  });

  it('still checks the body: a bad one is 400 once the token holds', async () => {
    const res = await shop.post(
      '/api/v1/consent',
      { purpose: 'newsletter', userReference: 'user-42' },
      { 'x-user-token': userToken({ sub: 'user-42' }) },
    );
    expect(res.statusCode, res.body).toBe(400);
  });

  it('lets a page send the token: the preflight allows the header', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/consent',
      headers: {
        origin: SHOP,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type, x-api-key, x-user-token',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(String(res.headers['access-control-allow-headers'])).toMatch(/x-user-token/);
  });
});

describe('user tokens › issuing', () => {
  it('takes the key as PEM, hex or base64, and refuses anything else, a private key, or a key that is not publishable', async () => {
    const raw = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).subarray(12);
    for (const userTokenKey of [raw.toString('hex'), raw.toString('base64')]) {
      const res = await admin.post('/api/v1/keys', { scope: 'publishable', origins: [SHOP], userTokenKey });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data.userTokenKey).toBe(raw.toString('base64url'));
    }
    const privatePem = backend.privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    for (const body of [
      { scope: 'publishable', origins: [SHOP], userTokenKey: 'abc' },
      // The all-zero key: a point of small order, for which anyone can make signatures that verify.
      { scope: 'publishable', origins: [SHOP], userTokenKey: '00'.repeat(32) },
      { scope: 'publishable', origins: [SHOP], userTokenKey: privatePem },
      { scope: 'write', userTokenKey: raw.toString('hex') },
    ]) {
      const res = await admin.post('/api/v1/keys', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.details.errors[0].field).toBe('userTokenKey');
      expect(res.body).not.toContain('PRIVATE KEY');
    }
  });
});
