import { afterAll, describe, expect, it } from 'vitest';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { provisionTenant, startServiceProcess, tenantClient, type ServiceProcess } from '../support/process.js';
import { defaultFaultEngine, printFigures, type FaultEngine } from './support.js';

/**
 * Issue 7, fault suite: webhook receivers that hang, reset and flap. One receiver never answers
 * (unhealthy); one resets the connection on the first attempt of every event; one flaps, down in
 * runs of requests (503 and resets), never more than three times in a row for one event; one is
 * steady. Every event must reach every healthy receiver with a 2xx, and the hanging one must not hold
 * the others back. Delivery is at least once: duplicates are counted, not failed.
 */

const ADMIN_TOKEN = 'faults-webhooks-admin-token-0123456789';

describe('faults › when webhook receivers hang, reset and flap › every event reaches every healthy receiver', () => {
  let engine: FaultEngine | undefined;
  let svc: ServiceProcess | undefined;
  const receivers: Receiver[] = [];
  afterAll(async () => {
    if (svc && !svc.exit()) await svc.kill('SIGKILL');
    await Promise.all(receivers.map((r) => r.close()));
    await engine?.dispose();
  });

  it('steady, resetting and flapping receivers each get every event answered 2xx; the hanging one blocks nobody', async () => {
    engine = await defaultFaultEngine();
    const { caFile } = await testCertificate();
    svc = await startServiceProcess({
      ...engine.env,
      ADMIN_TOKEN,
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCALE: '0.001',
      NODE_EXTRA_CA_CERTS: caFile,
    });

    const attempts = new Map<string, number>();
    const per = (name: string, id: string) => {
      const k = `${name} ${id}`;
      attempts.set(k, (attempts.get(k) ?? 0) + 1);
      return attempts.get(k)!;
    };
    /** Event ids each receiver answered 2xx (a reset or a 503 is not a delivery). */
    const answered = { steady: new Set<string>(), reset: new Set<string>(), flap: new Set<string>() };
    const ok = (name: keyof typeof answered, id: string) => (answered[name].add(id), 200);
    const steady = await startReceiver((r) => ok('steady', r.json?.id));
    const resetting = await startReceiver((r) => (per('reset', r.json?.id) === 1 ? 'reset' : ok('reset', r.json?.id)));
    const flapping = await startReceiver((r, n) => {
      const down = Math.floor(n / 7) % 2 === 1;
      if (down && per('flap', r.json?.id) <= 3) return n % 2 === 0 ? 503 : 'reset';
      return ok('flap', r.json?.id);
    });
    const hanging = await startReceiver(() => 'hang');
    receivers.push(steady, resetting, flapping, hanging);

    const creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'webhook-faults');
    const api = tenantClient(svc.url, creds);
    for (const r of receivers) expect((await api.post('/api/v1/webhooks', { url: r.url, events: ['*'] })).status).toBe(201);
    const policy = await api.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'c' });
    expect(policy.status).toBe(201);
    const policyVersionId = policy.body.data.id as string;
    const batch = await api.post('/api/v1/consent/batch', {
      consents: Array.from({ length: 40 }, (_, i) => ({ policyVersionId, userReference: `hook-${i}`, consentGiven: true })),
    });
    expect(batch.status).toBe(201);
    const singles: string[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await api.post('/api/v1/consent', { policyVersionId, userReference: `single-${i}`, consentGiven: true });
      expect(r.status).toBe(201);
      singles.push(r.body.data.id as string);
    }
    for (const id of singles.slice(0, 10))
      expect((await api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'faults' })).status).toBe(200);
    // policy.created + 40 consent.created + consent.batch_created + 20 consent.created + 10 withdrawals
    const expected = 1 + 40 + 1 + 20 + 10;

    for (const [r, name] of [
      [steady, 'steady'],
      [resetting, 'reset'],
      [flapping, 'flap'],
    ] as const) {
      await r.waitFor(() => answered[name].size >= expected, `${expected} events answered 2xx by the ${name} receiver`, 120_000);
    }

    const steadyIds = answered.steady;
    const resetIds = answered.reset;
    const flapIds = answered.flap;
    const lost = [...steadyIds].filter((id) => !resetIds.has(id) || !flapIds.has(id)).length;
    const duplicated = steady.received.length - steadyIds.size;
    printFigures('webhook receivers hang, reset, flap', {
      acknowledged: expected,
      found: steadyIds.size,
      lost,
      duplicated,
      fiveHundreds: 0,
      'requests to flapping': flapping.received.length,
      'requests to resetting': resetting.received.length,
      'hanging requests': hanging.hanging(),
    });
    expect(steadyIds.size).toBe(expected);
    expect(resetIds).toEqual(steadyIds);
    expect(flapIds).toEqual(steadyIds);
    expect(lost).toBe(0);
    expect(hanging.received.length, 'the hanging receiver was tried').toBeGreaterThan(0);
  }, 200_000);
});
