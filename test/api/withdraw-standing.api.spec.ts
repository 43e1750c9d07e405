import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, startTestService, type Client, type TestService } from '../support/service.js';

/** Issue 18: "withdraw user X from marketing", by purpose or by policy type, without the record's id. */

let t: TestService;
let api: Client;
const versions: Record<string, string> = {};

beforeAll(async () => {
  t = await startTestService();
  api = client(t.app, await t.tenant('starter'));
  for (const [purpose, validFor] of [
    ['newsletter', null],
    ['sms-offers', null],
    ['short', 'PT2S'],
  ] as const) {
    await api.post('/api/v1/purposes', {
      key: purpose,
      name: purpose,
      legalBasis: 'consent',
      ...(validFor ? { consentValidFor: validFor } : {}),
    });
    const res = await api.post('/api/v1/policies', { policyType: 'custom', purpose, version: '1.0.0', title: purpose, content: purpose });
    expect(res.statusCode, res.body).toBe(201);
    versions[purpose] = res.json().data.id;
  }
  const terms = await api.post('/api/v1/policies', { policyType: 'marketing_consent', version: '1.0.0', title: 'M', content: 'M' });
  versions.marketing = terms.json().data.id;
}, 60_000);
afterAll(() => t?.close());

async function record(purpose: string, userReference: string, consentGiven = true): Promise<string> {
  const res = await api.post('/api/v1/consent', { policyVersionId: versions[purpose], userReference, consentGiven });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}
const withdraw = (userReference: string, body: unknown, headers: Record<string, string> = {}) =>
  api.post(`/api/v1/consent/user/${encodeURIComponent(userReference)}/withdraw`, body, headers);
const statusOf = async (userReference: string, purpose: string) =>
  (
    (await api.get(`/api/v1/consent/user/${encodeURIComponent(userReference)}/status`)).json().data.policies as {
      purpose: string;
      status: string;
    }[]
  ).find((p) => p.purpose === purpose)?.status;

describe('withdraw by purpose', () => {
  it('withdraws the standing consent on the purpose with its reason, and refuses a second time with 409', async () => {
    const id = await record('newsletter', 'ivan');
    const res = await withdraw('ivan', { purpose: 'newsletter', reason: 'too many emails' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      userReference: 'ivan',
      withdrawn: [{ id, status: 'withdrawn', withdrawalReason: 'too many emails', purpose: 'newsletter', userReference: 'ivan' }],
    });
    expect((await api.get(`/api/v1/consent/${id}`)).json().data).toMatchObject({
      status: 'withdrawn',
      withdrawalReason: 'too many emails',
    });
    expect(await statusOf('ivan', 'newsletter')).toBe('withdrawn');
    const again = await withdraw('ivan', { purpose: 'newsletter' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('CONSENT_NOT_WITHDRAWABLE');
  });

  it('withdraws only the latest decision: a newer rejection leaves nothing to withdraw', async () => {
    const older = await record('newsletter', 'judy');
    await record('newsletter', 'judy', false);
    const res = await withdraw('judy', { purpose: 'newsletter' });
    expect(res.statusCode).toBe(409);
    expect((await api.get(`/api/v1/consent/${older}`)).json().data.status).toBe('active');
  });

  it('refuses an expired consent: there is no standing consent to withdraw', async () => {
    await record('short', 'ken');
    await vi.waitFor(async () => expect(await statusOf('ken', 'short')).toBe('expired'), { timeout: 10_000, interval: 200 });
    expect((await withdraw('ken', { purpose: 'short' })).statusCode).toBe(409);
  });
});

describe('withdraw by policy type', () => {
  it('withdraws every purpose of the type the user stands by, in one call, and leaves other types alone', async () => {
    const news = await record('newsletter', 'leo');
    const sms = await record('sms-offers', 'leo');
    const marketing = await record('marketing', 'leo');
    const res = await withdraw('leo', { policyType: 'custom' });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      res
        .json()
        .data.withdrawn.map((r: { id: string }) => r.id)
        .sort(),
    ).toEqual([news, sms].sort());
    expect(await statusOf('leo', 'marketing_consent')).toBe('given');
    const byType = await withdraw('leo', { policyType: 'marketing_consent' });
    expect(byType.json().data.withdrawn.map((r: { id: string }) => r.id)).toEqual([marketing]);
  });

  it('accepts a policy type as a purpose too', async () => {
    const id = await record('marketing', 'mia');
    const res = await withdraw('mia', { purpose: 'marketing_consent' });
    expect(res.json().data.withdrawn.map((r: { id: string }) => r.id)).toEqual([id]);
  });
});

describe('withdraw by purpose › the body form and Idempotency-Key', () => {
  it('takes a long reference in the body; a repeat with the same key, by either form, answers the first call', async () => {
    const reference = `crm/${'x'.repeat(200)}?id=42&tenant=a b`;
    const id = await record('newsletter', reference);
    const body = { userReference: reference, purpose: 'newsletter', reason: 'asked by phone' };
    const first = await api.post('/api/v1/consent/user/withdraw', body, { 'idempotency-key': 'call-77' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.withdrawn.map((r: { id: string }) => r.id)).toEqual([id]);
    const repeat = await api.post('/api/v1/consent/user/withdraw', body, { 'idempotency-key': 'call-77' });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json().data).toEqual(first.json().data);
    const byPath = await withdraw(reference, { purpose: 'newsletter', reason: 'asked by phone' }, { 'idempotency-key': 'call-77' });
    expect(byPath.statusCode).toBe(200);
    expect(byPath.headers['idempotent-replayed']).toBe('true');
    const other = await api.post('/api/v1/consent/user/withdraw', { ...body, purpose: 'sms-offers' }, { 'idempotency-key': 'call-77' });
    expect(other.statusCode).toBe(422);
    expect(other.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('withdraw by purpose › bad input', () => {
  it('answers 400 for neither or both of purpose and policyType, an unknown purpose or type, and writes nothing', async () => {
    const id = await record('newsletter', 'nina');
    const position = await t.service.ledger.headPosition();
    for (const body of [
      {},
      { purpose: 'newsletter', policyType: 'custom' },
      { purpose: 'no-such-purpose' },
      { policyType: 'nope' },
      { purpose: 'Bad Key' },
    ]) {
      const res = await withdraw('nina', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await withdraw('nina', {})).json().error.message).toBe(
      'invalid request: purpose or policyType is required, and only one of the two',
    );
    const tooLong = await api.post('/api/v1/consent/user/withdraw', { userReference: 'x'.repeat(256), purpose: 'newsletter' });
    expect(tooLong.statusCode).toBe(400);
    expect(await t.service.ledger.headPosition()).toEqual(position);
    expect((await api.get(`/api/v1/consent/${id}`)).json().data.status).toBe('active');
  });
});

describe('withdraw by purpose › while the read models lag behind the ledger', () => {
  it('answers 503 and withdraws nothing rather than miss a consent just given; once caught up it withdraws', async () => {
    await record('newsletter', 'olga');
    await t.service.runner.stop();
    let late: string;
    try {
      // Given while the projections are stopped: only the ledger holds it.
      late = await record('sms-offers', 'olga');
      const position = await t.service.ledger.headPosition();
      const res = await withdraw('olga', { policyType: 'custom' });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/nothing was withdrawn, try again/),
      });
      expect(res.headers['retry-after']).toBe('5');
      expect(res.headers['x-read-models-behind']).toBe('true');
      expect(await t.service.ledger.headPosition()).toEqual(position);
    } finally {
      await t.service.runner.start();
    }
    const res = await withdraw('olga', { policyType: 'custom' });
    expect(res.statusCode, res.body).toBe(200);
    expect((res.json().data.withdrawn as { id: string }[]).map((w) => w.id)).toContain(late);
  }, 30_000);
});
