import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';

/**
 * A SIGTERM drain (src/main.ts) first serves on for a grace period, every answer telling the
 * client to leave its connection: /ready must say so then, so that a load balancer takes the
 * instance out before it closes, while the requests still coming are answered. Its 503 is a
 * readiness signal, not a failure: logged at warn, without a stack.
 */
let service: Service;
const logs: { level: number; msg: string }[] = [];
beforeAll(async () => {
  service = await createService(loadSettings({ DATA_DIR: 'memory://', MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'info' }), {
    pollMs: 50,
    logger: { level: 'info', stream: { write: (line: string) => void logs.push(JSON.parse(line)) } },
  });
});
afterAll(() => service?.close());

describe('readiness › while the service drains', () => {
  it('answers /ready 503 NOT_READY with draining: true, logged as an answer, and still serves every other request', async () => {
    expect((await service.app.inject({ url: '/ready' })).statusCode).toBe(200);
    const quiesced = service.quiesce(1_000);
    try {
      const ready = await service.app.inject({ url: '/ready' });
      expect(ready.statusCode, ready.body).toBe(503);
      expect(ready.json().error).toMatchObject({ code: 'NOT_READY', details: { draining: true, ledger: true, readStore: true } });
      expect(ready.json().error.message).toMatch(/draining/);
      expect((await service.app.inject({ url: '/health' })).statusCode).toBe(200);
    } finally {
      await quiesced;
    }
    expect(logs.filter((l) => l.msg === 'request failed')).toEqual([]);
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, msg: 'request answered 503', code: 'NOT_READY' }));
  });
});
