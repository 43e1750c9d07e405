import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { consentStream } from '../../src/domain/consent/consent.events.js';
import { createService, type Service } from '../../src/service.js';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { waitUntil } from '../support/process.js';
import { client } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * Issue 18: the deadlines follower "runs once across processes". Two services share one
 * PostgreSQL; consents recorded through both expire; each gets one ConsentExpired and each
 * receiver one consent.expired, however the two processes' steps interleave.
 */

if (!serverUrl) console.log('[deadlines-workers] DATABASE_URL is not set: two services on one PostgreSQL need a server; skipped');

describe.skipIf(!serverUrl)('deadlines › when two services share one PostgreSQL', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  const services: Service[] = [];
  let receiver: Receiver;

  beforeAll(async () => {
    fresh = await freshDatabase();
    const { cert } = await testCertificate();
    const settings = loadSettings({
      ...fresh.env,
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    for (let i = 0; i < 2; i++) services.push(await createService(settings, { pollMs: 20, webhooks: { outbound: { ca: cert } } }));
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    for (const s of services) await s.close();
    await fresh?.drop();
  });

  it('expires each consent once and sends consent.expired once per consent', { timeout: 60_000 }, async () => {
    const [a, b] = services as [Service, Service];
    const creds = await a.tenants.create('shared', 'enterprise');
    await a.tenants.update(creds.tenantId, { limits: { perMinute: 1e9, perDay: 1e9 } });
    const [viaA, viaB] = [client(a.app, creds), client(b.app, creds)];
    expect((await viaA.post('/api/v1/webhooks', { url: receiver.url, events: ['consent.expired'] })).statusCode).toBe(201);
    await viaA.post('/api/v1/purposes', { key: 'flash', name: 'Flash sale', legalBasis: 'consent', consentValidFor: 'PT1S' });
    const version = await viaB.post('/api/v1/policies', {
      policyType: 'custom',
      purpose: 'flash',
      version: '1.0.0',
      title: 'F',
      content: 'F',
    });
    const policyVersionId = version.json().data.id as string;
    const N = 20;
    const ids = await Promise.all(
      Array.from({ length: N }, async (_, i) => {
        const res = await (i % 2 ? viaA : viaB).post('/api/v1/consent', { policyVersionId, userReference: `f-${i}`, consentGiven: true });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data.id as string;
      }),
    );
    // Both processes step at once, again and again, while the deadlines pass.
    await waitUntil(
      async () => {
        await Promise.all([a.deadlines.runOnce(), b.deadlines.runOnce()]);
        return receiver.received.length >= N;
      },
      { what: `${N} consent.expired deliveries`, timeoutMs: 30_000 },
    );
    await Promise.all([a.deadlines.runOnce(), b.deadlines.runOnce()]);
    for (const id of ids) {
      expect((await a.ledger.readStream(consentStream(creds.tenantId, id))).map((e) => e.type)).toEqual([
        'ConsentRecorded',
        'ConsentExpired',
      ]);
    }
    expect(receiver.received.map((r) => r.json.data.id).sort()).toEqual([...ids].sort());
  });
});
