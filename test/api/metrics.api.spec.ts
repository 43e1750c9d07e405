import { sql } from 'kysely';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheus, valueOf, type Exposition } from '../support/prometheus.js';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';
import { serverUrl } from '../support/stores.js';

/**
 * Issue 21: GET /metrics in the Prometheus text format, behind ADMIN_TOKEN, scraped and parsed
 * as Prometheus would, on both stores: every figure moves with what the service did.
 */

const ADMIN_TOKEN = randomBytes(24).toString('hex');
let t: TestService;
let api: Client;
let receiver: Receiver;

const scrape = async (token = ADMIN_TOKEN) =>
  t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
const metrics = async (): Promise<Exposition> => {
  const res = await scrape();
  expect(res.statusCode, res.body).toBe(200);
  return parsePrometheus(res.body);
};

beforeAll(async () => {
  const { cert } = await testCertificate();
  t = await startTestService({ ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { webhooks: { outbound: { ca: cert } } });
  api = client(t.app, await t.tenant('pro'));
  receiver = await startReceiver((r) => (r.body.includes('refuse-me') ? 500 : 200));
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

describe('metrics › GET /metrics', () => {
  it('is 404 without ADMIN_TOKEN, 401 with a wrong token, Prometheus text with the right one', async () => {
    const bare = await startTestService();
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
    } finally {
      await bare.close();
    }
    const wrong = await scrape('not-the-token');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain(ADMIN_TOKEN);
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const e = parsePrometheus(res.body);
    // Process and event-loop figures.
    expect(valueOf(e, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(e, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(e.types.get('nodejs_eventloop_lag_p99_seconds')).toBe('gauge');
    // Every family of the service's own has a HELP line.
    for (const [name] of e.types) if (name.startsWith('consent_ledger_')) expect(e.help.get(name), name).toBeTruthy();
    expect(e.types.get('consent_ledger_ledger_read_horizon_doubts_total')).toBe('counter');
  });

  it('counts requests per route template and status, with their latency', async () => {
    const before = await metrics();
    const labels = { method: 'POST', route: '/api/v1/consent', status: '201' };
    const count0 = valueOf(before, 'consent_ledger_http_requests_total', labels) ?? 0;
    const policyVersionId = await publishPolicy(api);
    for (let i = 0; i < 3; i++) {
      const res = await api.post('/api/v1/consent', { policyVersionId, userReference: `metrics-${i}`, consentGiven: true });
      expect(res.statusCode).toBe(201);
    }
    await api.get('/api/v1/no-such-route/12345');
    const after = await metrics();
    expect(valueOf(after, 'consent_ledger_http_requests_total', labels)).toBe(count0 + 3);
    expect(valueOf(after, 'consent_ledger_http_request_duration_seconds_count', labels)).toBe(count0 + 3);
    expect(valueOf(after, 'consent_ledger_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' })).toBe(count0 + 3);
    expect(valueOf(after, 'consent_ledger_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);
    // A path no route has is one label value, whatever the path.
    expect(
      valueOf(after, 'consent_ledger_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(1);
    expect(after.samples.some((s) => s.labels.route?.includes('12345'))).toBe(false);
    // Appends: latency per command, and the group transactions' sizes.
    expect(
      valueOf(after, 'consent_ledger_ledger_append_duration_seconds_count')! -
        (valueOf(before, 'consent_ledger_ledger_append_duration_seconds_count') ?? 0),
    ).toBeGreaterThanOrEqual(4);
    expect(valueOf(after, 'consent_ledger_ledger_group_events_count')).toBeGreaterThanOrEqual(4 - 0);
    expect(valueOf(after, 'consent_ledger_ledger_group_events_sum')).toBeGreaterThanOrEqual(4);
    expect(valueOf(after, 'consent_ledger_ledger_group_appends_sum')).toBeGreaterThanOrEqual(4);
  });

  it("reports each follower's lag in events and seconds, and 0 once caught up; counts reads that could not wait for it", async () => {
    const policyVersionId = await publishPolicy(api);
    await t.service.runner.stop();
    try {
      for (let i = 0; i < 5; i++) await api.post('/api/v1/consent', { policyVersionId, userReference: `lag-${i}`, consentGiven: true });
      await new Promise((r) => setTimeout(r, 1100));
      const behind = await metrics();
      expect(valueOf(behind, 'consent_ledger_follower_lag_events', { follower: 'projections' })).toBeGreaterThanOrEqual(5);
      expect(valueOf(behind, 'consent_ledger_follower_lag_seconds', { follower: 'projections' })).toBeGreaterThanOrEqual(1);
      // A read the fence cannot see through answers from the models as they are, and is counted.
      const timeouts = valueOf(behind, 'consent_ledger_read_fence_timeouts_total');
      expect(timeouts).toBeDefined();
      expect((await api.get('/api/v1/consent/search')).statusCode).toBe(200);
      expect(valueOf(await metrics(), 'consent_ledger_read_fence_timeouts_total')).toBe(timeouts! + 1);
    } finally {
      await t.service.runner.start();
    }
    const caughtUp = await waitUntil(
      async () => {
        const e = await metrics();
        return (
          ['projections', 'sealer', 'webhooks'].every((f) => valueOf(e, 'consent_ledger_follower_lag_events', { follower: f }) === 0) && e
        );
      },
      { what: 'every follower to catch up' },
    );
    for (const f of ['projections', 'sealer', 'webhooks', 'expiry']) {
      expect(valueOf(caughtUp, 'consent_ledger_follower_lag_events', { follower: f }), f).toBe(0);
      expect(valueOf(caughtUp, 'consent_ledger_follower_lag_seconds', { follower: f }), f).toBe(0);
    }
  });

  it('reports consents past their expiry and not yet marked as the expiry follower lag', async () => {
    await t.service.deadlines.stop();
    let deadlinesStopped = true;
    let runnerStopped = false;
    try {
      await api.post('/api/v1/purposes', { key: 'metrics-trial', name: 'Trial', legalBasis: 'consent', consentValidFor: 'PT1S' });
      const version = await api.post('/api/v1/policies', {
        policyType: 'custom',
        purpose: 'metrics-trial',
        version: '1.0.0',
        title: 'Trial',
        content: 'One second.',
      });
      expect(version.statusCode, version.body).toBe(201);
      const res = await api.post('/api/v1/consent', {
        policyVersionId: version.json().data.id,
        userReference: 'expiring',
        consentGiven: true,
      });
      expect(res.statusCode).toBe(201);
      const due = await waitUntil(
        async () => {
          const e = await metrics();
          return (valueOf(e, 'consent_ledger_follower_lag_seconds', { follower: 'expiry' }) ?? 0) > 0.5 && e;
        },
        { what: 'the consent to be overdue' },
      );
      expect(valueOf(due, 'consent_ledger_follower_lag_events', { follower: 'expiry' })).toBe(1);
      // Recorded while the read models stand still: the expiry is no longer behind, whatever they show.
      await t.service.runner.stop();
      runnerStopped = true;
      t.service.deadlines.start();
      deadlinesStopped = false;
      await waitUntil(
        async () =>
          Number(
            (
              await sql<{ n: string }>`SELECT count(*) AS n FROM ledger.events WHERE event_type = 'ConsentExpired'`.execute(
                t.service.store.db,
              )
            ).rows[0]!.n,
          ) > 0,
        { what: 'the ConsentExpired appended' },
      );
      expect(valueOf(await metrics(), 'consent_ledger_follower_lag_events', { follower: 'expiry' })).toBe(0);
    } finally {
      if (deadlinesStopped) t.service.deadlines.start();
      if (runnerStopped) await t.service.runner.start();
    }
    await waitUntil(async () => valueOf(await metrics(), 'consent_ledger_follower_lag_events', { follower: 'expiry' }) === 0, {
      what: 'the expiry to be recorded',
    });
  });

  it('reports the webhook queue and the attempts by outcome', async () => {
    const hook = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['consent.created'] });
    expect(hook.statusCode, hook.body).toBe(201);
    const policyVersionId = await publishPolicy(api);
    const before = await metrics();
    await api.post('/api/v1/consent', { policyVersionId, userReference: 'hooked-ok', consentGiven: true });
    await api.post('/api/v1/consent', { policyVersionId, userReference: 'hooked-refuse-me', consentGiven: true });
    const after = await waitUntil(
      async () => {
        const e = await metrics();
        const delivered =
          (valueOf(e, 'consent_ledger_webhook_attempts_total', { outcome: 'delivered' }) ?? 0) -
          (valueOf(before, 'consent_ledger_webhook_attempts_total', { outcome: 'delivered' }) ?? 0);
        const refused =
          (valueOf(e, 'consent_ledger_webhook_attempts_total', { outcome: 'refused' }) ?? 0) -
          (valueOf(before, 'consent_ledger_webhook_attempts_total', { outcome: 'refused' }) ?? 0);
        return delivered >= 1 && refused >= 1 && e;
      },
      { what: 'one delivered and one refused attempt' },
    );
    // Counted once recorded, so the same scrape shows the refused one waiting for its retry.
    expect(valueOf(after, 'consent_ledger_webhook_queue_depth')).toBe(1);
  });

  it('counts no attempt its delivery did not record', async () => {
    const { cert } = await testCertificate();
    const own = await startTestService({ ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { webhooks: { outbound: { ca: cert } } });
    const listening = await startReceiver(() => 200);
    try {
      const mine = client(own.app, await own.tenant('pro'));
      expect((await mine.post('/api/v1/webhooks', { url: listening.url, events: ['consent.created'] })).statusCode).toBe(201);
      const policyVersionId = await publishPolicy(mine);
      // The store refuses every attempt row: the receiver is reached, the attempt not recorded.
      await sql`
        CREATE FUNCTION public.refuse_attempts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no attempts today'; END $$;
        CREATE TRIGGER refuse_attempts BEFORE INSERT ON webhooks.attempts FOR EACH ROW EXECUTE FUNCTION public.refuse_attempts();`.execute(
        own.service.store.db,
      );
      await mine.post('/api/v1/consent', { policyVersionId, userReference: 'unrecorded', consentGiven: true });
      await listening.waitFor((r) => r.length === 1, 'the delivery at the receiver');
      // Stopping waits for the attempt in flight to settle, its record refused.
      await own.service.webhooks.stop();
      const res = await own.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      const e = parsePrometheus(res.body);
      expect(valueOf(e, 'consent_ledger_webhook_attempts_total', { outcome: 'delivered' }) ?? 0).toBe(0);
    } finally {
      await listening.close();
      await own.close();
    }
  });

  it('counts rate-limit refusals by window', async () => {
    const before = valueOf(await metrics(), 'consent_ledger_rate_limited_total', { window: 'minute' }) ?? 0;
    // From an address of its own: the scrapes' address keeps its budget.
    const stranger = (): Promise<{ statusCode: number }> =>
      t.app.inject({
        method: 'GET',
        url: '/api/v1/policies',
        remoteAddress: '203.0.113.9',
        headers: { 'x-api-key': 'ck_nobody', 'x-api-secret': 'cs_nothing' },
      });
    let refused = 0;
    // Up to twice the budget and more: a minute boundary crossed mid-loop restarts the count.
    for (let i = 0; i < 250 && refused === 0; i++) if ((await stranger()).statusCode === 429) refused += 1;
    expect(refused).toBe(1);
    expect(valueOf(await metrics(), 'consent_ledger_rate_limited_total', { window: 'minute' })).toBe(before + 1);
  });

  it.runIf(serverUrl)(
    "on a PostgreSQL server: the age of the oldest transaction holding readers back, one in the ledger's database, not another's",
    async () => {
      const holdOpen = async (url: string) => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query('BEGIN');
        await c.query('SELECT pg_current_xact_id()');
        return c;
      };
      const elsewhere = await holdOpen(serverUrl!);
      const here = await holdOpen(t.service.settings.databaseUrl!);
      try {
        const e = await waitUntil(
          async () => {
            const m = await metrics();
            return (valueOf(m, 'consent_ledger_postgres_oldest_transaction_seconds') ?? 0) >= 1 && m;
          },
          { what: 'the open transaction to show' },
        );
        expect(valueOf(e, 'consent_ledger_postgres_oldest_transaction_seconds')).toBeGreaterThanOrEqual(1);
        await here.query('ROLLBACK');
        // Only the other database's transaction is open now, older than a second: it holds no
        // reader back. The service's own writes may hold an xid for a moment as this reads.
        expect(valueOf(await metrics(), 'consent_ledger_postgres_oldest_transaction_seconds')).toBeLessThan(1);
      } finally {
        await here.end();
        await elsewhere.query('ROLLBACK');
        await elsewhere.end();
      }
    },
  );

  it.runIf(serverUrl)(
    'on a PostgreSQL server: events the followers cannot pass yet (behind an open transaction) count as their lag, never 0',
    async () => {
      const policyVersionId = await publishPolicy(api);
      const here = new pg.Client({ connectionString: t.service.settings.databaseUrl! });
      await here.connect();
      await here.query('BEGIN');
      await here.query('SELECT pg_current_xact_id()');
      try {
        for (let i = 0; i < 3; i++) {
          const res = await api.post('/api/v1/consent', { policyVersionId, userReference: `held-${i}`, consentGiven: true });
          expect(res.statusCode, res.body).toBe(201);
        }
        const held = await metrics();
        for (const f of ['projections', 'sealer', 'webhooks']) {
          expect(valueOf(held, 'consent_ledger_follower_lag_events', { follower: f }), f).toBeGreaterThanOrEqual(3);
        }
      } finally {
        await here.query('ROLLBACK');
        await here.end();
      }
      await waitUntil(async () => valueOf(await metrics(), 'consent_ledger_follower_lag_events', { follower: 'projections' }) === 0, {
        what: 'the followers to pass them once the transaction ended',
      });
    },
  );

  it.runIf(!serverUrl)('on the embedded store: no PostgreSQL server figure', async () => {
    expect((await metrics()).types.has('consent_ledger_postgres_oldest_transaction_seconds')).toBe(false);
  });
});
