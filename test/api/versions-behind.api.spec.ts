import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * A decision that names its version by purpose or policy type finds it in the read models. While
 * they lag behind the ledger past the read fence (`projections rebuild` refilling them, a stopped
 * projector), a version they do not hold yet is not known yet: 503 and try again, never the 404 or
 * 400 "no such purpose" a client would take as final and drop the decision.
 */

let t: TestService;
let api: Client;

beforeAll(async () => {
  t = await startTestService();
  api = client(t.app, await t.tenant('pro'));
}, 60_000);
afterAll(() => t?.close());

describe('versions named by purpose › while the read models lag behind the ledger', () => {
  it('answers 503 with Retry-After and records nothing, single or batch; once caught up, records', async () => {
    await t.service.runner.stop();
    let position: unknown;
    try {
      // Defined and published while the projections are stopped: only the ledger holds them.
      expect((await api.post('/api/v1/purposes', { key: 'loyalty', name: 'Loyalty', legalBasis: 'consent' })).statusCode).toBe(201);
      const published = await api.post('/api/v1/policies', {
        policyType: 'custom',
        purpose: 'loyalty',
        version: '1.0.0',
        title: 'L',
        content: 'L',
      });
      expect(published.statusCode, published.body).toBe(201);
      position = await t.service.ledger.headPosition();
      const decision = { purpose: 'loyalty', userReference: 'u-1', consentGiven: true };
      for (const res of [
        await api.post('/api/v1/consent', decision),
        await api.post('/api/v1/consent/batch', { consents: [decision] }),
        await api.post('/api/v1/consent/batch', { consents: [{ ...decision, collectedAt: '2024-01-01T00:00:00Z' }] }),
      ]) {
        expect(res.statusCode, res.body).toBe(503);
        expect(res.json().error).toMatchObject({
          code: 'SERVICE_UNAVAILABLE',
          message: expect.stringMatching(/nothing was recorded, try again/),
        });
        expect(res.headers['retry-after']).toBe('5');
      }
      expect(await t.service.ledger.headPosition()).toEqual(position);
    } finally {
      await t.service.runner.start();
    }
    const res = await api.post('/api/v1/consent', { purpose: 'loyalty', userReference: 'u-1', consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
  }, 60_000);

  it('still refuses a purpose never defined with 404 once the read models hold every write', async () => {
    const res = await api.post('/api/v1/consent', { purpose: 'never-defined', userReference: 'u-2', consentGiven: true });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().error.code).toBe('NO_ACTIVE_POLICY');
  });
});
