import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * Reliability: "Two service processes on one PostgreSQL deliver each attempt once between them."
 * Two services (each with its subscription and dispatcher) share one database; writes go through
 * both; each receiver counts what it gets per event id.
 */

if (!serverUrl) console.log('[webhooks-workers] DATABASE_URL is not set: two services on one PostgreSQL need a server; skipped');

describe.skipIf(!serverUrl)('webhooks › when two services share one PostgreSQL › each attempt is made once', () => {
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  const services: Service[] = [];
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    fresh = await freshDatabase();
    const { cert } = await testCertificate();
    const settings = loadSettings({
      ...fresh.env,
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      WEBHOOK_RETRY_SCALE: '0.0005',
    });
    for (let i = 0; i < 2; i++) services.push(await createService(settings, { pollMs: 20, webhooks: { outbound: { ca: cert } } }));
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    for (const s of services) await s.close();
    await fresh?.drop();
  });

  it(
    'every event reaches each receiver once (twice where the first attempt fails), and the history has each attempt once',
    { timeout: 60_000 },
    async () => {
      const [a, b] = services as [Service, Service];
      const creds = await a.tenants.create('shared', 'enterprise');
      await a.tenants.update(creds.tenantId, { limits: { perMinute: 1e9, perDay: 1e9 } });
      const viaA = client(a.app, creds);
      const viaB = client(b.app, creds);
      const failedOnce = new Set<string>();
      const ok = await startReceiver();
      const flaky = await startReceiver((r) => {
        if (failedOnce.has(r.json.id)) return 200;
        failedOnce.add(r.json.id);
        return 500;
      });
      receivers.push(ok, flaky);
      const hooks: string[] = [];
      for (const r of [ok, flaky]) {
        const res = await viaA.post('/api/v1/webhooks', { url: r.url, events: ['*'] });
        expect(res.statusCode).toBe(201);
        hooks.push(res.json().data.id);
      }
      const N = 40;
      await Promise.all(Array.from({ length: N }, (_, i) => publishPolicy(i % 2 ? viaA : viaB, { version: `9.${i}.0` })));

      const ids = (r: Receiver) => r.received.map((d) => d.json.id as string);
      await ok.waitFor((x) => new Set(x.map((d) => d.json.id)).size === N, `${N} events at the healthy receiver`, 30_000);
      await flaky.waitFor((x) => x.length === 2 * N, `${2 * N} attempts at the flaky receiver`, 30_000);
      const db = a.store.db;
      // The receiver may hear the last answer before its attempt is recorded: wait for the records.
      await waitUntil(
        async () =>
          (await sql<{ n: number }>`SELECT count(*)::int AS n FROM webhooks.deliveries WHERE status <> 'pending'`.execute(db)).rows[0]!
            .n ===
          2 * N,
        { what: 'every delivery settled' },
      );
      const rows = await sql<{ webhook_id: string; n: number; attempts: number; delivered: number }>`
      SELECT webhook_id, count(*)::int AS n, sum(attempts)::int AS attempts, count(*) FILTER (WHERE status = 'delivered')::int AS delivered
      FROM webhooks.deliveries GROUP BY webhook_id ORDER BY webhook_id`.execute(db);
      expect(rows.rows.map((r) => ({ ...r }))).toEqual(
        [
          { webhook_id: hooks[0], n: N, attempts: N, delivered: N },
          { webhook_id: hooks[1], n: N, attempts: 2 * N, delivered: N },
        ].sort((x, y) => x.webhook_id!.localeCompare(y.webhook_id!)),
      );
      expect(ids(ok)).toHaveLength(N);
      expect(new Set(ids(ok)).size).toBe(N);
      const perEvent = new Map<string, number>();
      for (const id of ids(flaky)) perEvent.set(id, (perEvent.get(id) ?? 0) + 1);
      expect([...perEvent.values()].every((n) => n === 2)).toBe(true);
      const attempts = await sql<{ n: number; distinct_n: number }>`
      SELECT count(*)::int AS n, count(DISTINCT (delivery_id, attempt))::int AS distinct_n FROM webhooks.attempts`.execute(db);
      expect(attempts.rows[0]).toEqual({ n: 3 * N, distinct_n: 3 * N });
    },
  );
});
