import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

/**
 * A SIGTERM drain (src/main.ts) first serves on for a grace period, every answer telling the
 * client to leave its connection: /ready must say so then, so that a load balancer takes the
 * instance out before it closes, while the requests still coming are answered.
 */
let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(() => t?.close());

describe('readiness › while the service drains', () => {
  it('answers /ready 503 NOT_READY with draining: true, and still serves every other request', async () => {
    expect((await t.app.inject({ url: '/ready' })).statusCode).toBe(200);
    const quiesced = t.service.quiesce(1_000);
    try {
      const ready = await t.app.inject({ url: '/ready' });
      expect(ready.statusCode, ready.body).toBe(503);
      expect(ready.json().error).toMatchObject({ code: 'NOT_READY', details: { draining: true, ledger: true, readStore: true } });
      expect(ready.json().error.message).toMatch(/draining/);
      expect((await t.app.inject({ url: '/health' })).statusCode).toBe(200);
    } finally {
      await quiesced;
    }
  });
});
