import { sealUnsealed } from '../../src/webhooks/delivery-seal.js';
import { createServer } from 'node:http';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedClient, literalRefusal, nonPublicReason, NOT_PUBLIC, type Resolver } from '../../src/webhooks/outbound.js';
import { REBIND_HOST, startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, startTestService, type TestService } from '../support/service.js';

/**
 * The guarded outbound client (docs/contract.md, Webhooks): every refusal is proven against a real
 * receiver that would have answered, so "refused" cannot be mistaken for "unreachable".
 */

/** A resolver as a rebinding DNS server would answer: the name resolves to whatever the test says. */
const rebinding =
  (...addresses: string[]): Resolver =>
  async (hostname) => {
    if (hostname !== REBIND_HOST) throw Object.assign(new Error(`unknown host ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('webhooks › guarded client', () => {
  let ca: string;
  let receiver: Receiver;
  const post = (c: GuardedClient, url: string) => c.post(url, '{"id":"x"}', { 'x-test': '1' });

  beforeAll(async () => {
    ca = (await testCertificate()).cert;
    receiver = await startReceiver();
  });
  afterAll(() => receiver?.close());

  describe('webhooks › guarded client › when private networks are not allowed › non-public addresses are refused before any byte is sent', () => {
    it.each([
      ['loopback (the receiver itself)', () => receiver.url, 'loopback'],
      ['loopback, another 127/8 address', () => `https://127.0.0.2:${receiver.port}/hook`, 'loopback'],
      ['IPv6 loopback ::1', () => `https://[::1]:${receiver.port}/hook`, 'loopback'],
      ['IPv4-mapped ::ffff:127.0.0.1', () => `https://[::ffff:127.0.0.1]:${receiver.port}/hook`, 'IPv4-mapped'],
      ['private 10/8', () => 'https://10.1.2.3/hook', 'private'],
      ['private 172.16/12', () => 'https://172.20.0.1/hook', 'private'],
      ['private 192.168/16', () => 'https://192.168.1.1/hook', 'private'],
      ['link-local (cloud metadata)', () => 'https://169.254.169.254/latest/meta-data', 'link-local'],
      ['IPv6 link-local', () => 'https://[fe80::1]/hook', 'link-local'],
      ['IPv6 unique-local', () => 'https://[fd12:3456::1]/hook', 'unique-local'],
      ['unspecified 0.0.0.0', () => `https://0.0.0.0:${receiver.port}/hook`, 'unspecified'],
      ['multicast', () => 'https://224.0.0.1/hook', 'multicast'],
      ['a decimal-encoded 127.0.0.1', () => `https://2130706433:${receiver.port}/hook`, 'loopback'],
    ])('%s', async (_name, url, reason) => {
      const before = receiver.received.length;
      const r = await post(new GuardedClient({ allowPrivateNetworks: false, allowHttp: false, ca }), url());
      expect(r).toMatchObject({ ok: false, statusCode: null });
      expect(r.error).toContain(`(${reason})`);
      expect(receiver.received.length).toBe(before);
    });

    it('a host name that resolves to loopback at connect time (DNS rebinding) is refused; allowed, the same name reaches the receiver', async () => {
      const url = `https://${REBIND_HOST}:${receiver.port}/hook`;
      const before = receiver.received.length;
      const refused = await post(
        new GuardedClient({ allowPrivateNetworks: false, allowHttp: false, ca, resolver: rebinding('127.0.0.1') }),
        url,
      );
      expect(refused).toMatchObject({ ok: false, statusCode: null });
      // It says only that the destination is not public: not where the name led, nor what kind of address that is.
      expect(refused.error).toBe(NOT_PUBLIC);
      // One public and one private answer: refused as a whole, never "try the next".
      const mixed = await post(
        new GuardedClient({ allowPrivateNetworks: false, allowHttp: false, ca, resolver: rebinding('93.184.216.34', '10.0.0.1') }),
        url,
      );
      expect(mixed.error).toBe(NOT_PUBLIC);
      expect(receiver.received.length).toBe(before);
      // The control: the same name, allowed, does connect. The refusal above was the guard's.
      const allowed = await post(
        new GuardedClient({ allowPrivateNetworks: true, allowHttp: false, ca, resolver: rebinding('127.0.0.1') }),
        url,
      );
      expect(allowed).toMatchObject({ ok: true, statusCode: 200, error: null });
      expect(receiver.received.length).toBe(before + 1);
    });

    it('public addresses pass the check', () => {
      for (const a of ['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111']) expect(nonPublicReason(a)).toBeNull();
      for (const a of ['127.0.0.1', '::1', '::ffff:10.0.0.1', '100.64.0.1', 'fc00::1', '::']) expect(nonPublicReason(a)).not.toBeNull();
      // IPv4-translated (embedding 127.0.0.1 and 169.254.169.254), documentation (RFC 9637), the old 6to4 relays, unassigned.
      for (const a of ['::ffff:0:7f00:1', '::ffff:0:127.0.0.1', '0::ffff:0:a9fe:a9fe', '3fff::1', '192.88.99.1', '4000::1'])
        expect(nonPublicReason(a), a).not.toBeNull();
    });
  });

  describe('webhooks › guarded client › when the scheme is http:// › it is refused unless allowed', () => {
    it('refuses http:// without WEBHOOK_ALLOW_HTTP, and sends with it', async () => {
      let hits = 0;
      const server = createServer((_req, res) => {
        hits += 1;
        res.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as { port: number }).port;
      try {
        const refused = await post(new GuardedClient({ allowPrivateNetworks: true, allowHttp: false }), `http://127.0.0.1:${port}/`);
        expect(refused.error).toMatch(/http:\/\/ is not allowed/);
        expect(hits).toBe(0);
        const sent = await post(new GuardedClient({ allowPrivateNetworks: true, allowHttp: true }), `http://127.0.0.1:${port}/`);
        expect(sent).toMatchObject({ ok: true, statusCode: 200 });
        expect(hits).toBe(1);
      } finally {
        server.close();
      }
    });
  });

  describe('webhooks › guarded client › when the receiver misbehaves › the attempt ends, bounded', () => {
    it('a redirect is not followed: the 3xx is the answer, and its Location gets nothing', async () => {
      const target = await startReceiver();
      const redirecting = await startReceiver(() => ({ status: 307, headers: { location: target.url } }));
      try {
        const r = await post(new GuardedClient({ allowPrivateNetworks: true, allowHttp: false, ca }), redirecting.url);
        expect(r).toMatchObject({ ok: false, statusCode: 307 });
        expect(r.error).toMatch(/redirects are not followed/);
        expect(redirecting.received).toHaveLength(1);
        expect(target.received).toHaveLength(0);
      } finally {
        await Promise.all([target.close(), redirecting.close()]);
      }
    });

    it('a receiver that never answers is given up at the time-out; one that resets is an error; a huge body is not read', async () => {
      const hanging = await startReceiver(() => 'hang');
      const resetting = await startReceiver(() => 'reset');
      const huge = await startReceiver(() => ({ status: 200, body: 'x'.repeat(5 * 1024 * 1024) }));
      try {
        const c = new GuardedClient({ allowPrivateNetworks: true, allowHttp: false, ca, timeoutMs: 300 });
        const timedOut = await post(c, hanging.url);
        expect(timedOut).toMatchObject({ ok: false, statusCode: null, error: 'timed out after 300 ms' });
        expect(timedOut.responseTimeMs).toBeGreaterThanOrEqual(290);
        expect(timedOut.responseTimeMs).toBeLessThan(3000);
        // The others with the default time-out: a TLS handshake and a 5 MiB answer took over 300 ms
        // on a loaded machine, and what they check is not the time-out.
        const patient = new GuardedClient({ allowPrivateNetworks: true, allowHttp: false, ca });
        const reset = await post(patient, resetting.url);
        expect(reset).toMatchObject({ ok: false, statusCode: null });
        expect(reset.error).toMatch(/ECONNRESET|socket hang up/);
        expect(await post(patient, huge.url)).toMatchObject({ ok: true, statusCode: 200, error: null });
      } finally {
        await Promise.all([hanging.close(), resetting.close(), huge.close()]);
      }
    });
  });
});

describe('webhooks › delivery guard in the service', () => {
  let t: TestService;
  const receivers: Receiver[] = [];
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t?.close();
  });

  describe('webhooks › when private networks are not allowed › a rebinding name is refused at delivery and on the test route, and recorded', () => {
    it('never reaches the receiver; every attempt says why', async () => {
      const { cert } = await testCertificate();
      t = await startTestService(
        { WEBHOOK_RETRY_SCALE: '0.0001' },
        { webhooks: { outbound: { ca: cert, resolver: rebinding('127.0.0.1') } } },
      );
      const r = await startReceiver();
      receivers.push(r);
      const api = client(t.app, await t.tenant('pro'));
      const created = await api.post('/api/v1/webhooks', { url: `https://${REBIND_HOST}:${r.port}/hook`, events: ['policy.created'] });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id as string;
      const test = await api.post(`/api/v1/webhooks/${id}/test`);
      expect(test.json().data).toMatchObject({ delivered: false, statusCode: null, message: expect.stringContaining(NOT_PUBLIC) });
      expect(test.body).not.toMatch(/127\.0\.0\.1|loopback|resolved/);
      await publishPolicy(api);
      await waitUntil(async () => (await api.get(`/api/v1/webhooks/${id}/deliveries`)).json().pagination.total === 6, {
        what: 'the test and five refused attempts',
      });
      const rows = (await api.get(`/api/v1/webhooks/${id}/deliveries?limit=10`)).json().data as {
        success: boolean;
        statusCode: number | null;
        error: string;
      }[];
      expect(rows.every((x) => !x.success && x.statusCode === null && x.error === NOT_PUBLIC)).toBe(true);
      expect(JSON.stringify(rows)).not.toMatch(/127\.0\.0\.1|loopback|resolved/);
      expect(r.received).toHaveLength(0);
    });
  });

  describe('webhooks › when a non-public address is written in the URL › refused at registration', () => {
    // One service for the cases, a tenant of its own for each: "nothing stored" is per tenant.
    let strict: TestService;
    beforeAll(async () => {
      strict = await startTestService();
    }, 60_000);
    afterAll(() => strict?.close());

    it.each([
      ['https://127.0.0.1/hook', 'a loopback address'],
      ['https://127.0.0.2:8443/hook', 'a loopback address'],
      ['https://[::1]/hook', 'a loopback address'],
      ['https://[::ffff:127.0.0.1]/hook', 'a IPv4-mapped address'],
      ['https://2130706433/hook', 'a loopback address'],
      ['https://0x7f.1/hook', 'a loopback address'],
      ['https://10.1.2.3/hook', 'a private address'],
      ['https://192.168.1.1/hook', 'a private address'],
      ['https://169.254.169.254/latest/meta-data', 'a link-local address'],
      ['https://[fe80::1]/hook', 'a link-local address'],
      ['https://[fd12:3456::1]/hook', 'a unique-local address'],
      ['https://0.0.0.0/hook', 'the unspecified address'],
      ['https://localhost/hook', 'a loopback address'],
      ['https://LOCALHOST./hook', 'a loopback address'],
      ['https://api.localhost/hook', 'a loopback address'],
    ])('%s: 400 naming the rule, nothing stored', async (url, rule) => {
      const api = client(strict.app, await strict.tenant('pro'));
      const res = await api.post('/api/v1/webhooks', { url, events: ['*'] });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
      expect(res.json().error.details.errors).toEqual([{ field: 'url', message: expect.stringContaining(`is ${rule}`) }]);
      expect(res.json().error.message).toContain('must reach a public address');
      expect((await api.get('/api/v1/webhooks')).json().pagination.total).toBe(0);
    });

    it('a public literal and any name are accepted; with WEBHOOK_ALLOW_PRIVATE_NETWORKS a loopback literal is too', async () => {
      const strict = await startTestService();
      const allowing = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
      try {
        const api = client(strict.app, await strict.tenant('pro'));
        for (const url of ['https://93.184.216.34/hook', 'https://[2606:4700:4700::1111]/hook', `https://${REBIND_HOST}/hook`]) {
          expect((await api.post('/api/v1/webhooks', { url, events: ['*'] })).statusCode, url).toBe(201);
        }
        const dev = client(allowing.app, await allowing.tenant('pro'));
        expect((await dev.post('/api/v1/webhooks', { url: 'https://127.0.0.1:8443/hook', events: ['*'] })).statusCode).toBe(201);
        expect((await dev.post('/api/v1/webhooks', { url: 'https://localhost/hook', events: ['*'] })).statusCode).toBe(201);
      } finally {
        await Promise.all([strict.close(), allowing.close()]);
      }
    });

    it('the literal check is the connect-time check: the same ranges', () => {
      for (const a of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '[::1]', '[fc00::1]', '[::ffff:10.0.0.1]']) {
        expect(literalRefusal(new URL(`https://${a}/`)), a).toBe(nonPublicReason(a.replace(/^\[(.*)\]$/, '$1')));
      }
      expect(literalRefusal(new URL('https://hooks.example.com/'))).toBeNull();
    });
  });

  describe('webhooks › when one receiver hangs › the others are still delivered to', () => {
    it('a hanging and a resetting receiver do not hold up a healthy one', async () => {
      const { cert } = await testCertificate();
      const service = await startTestService(
        { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
        { webhooks: { outbound: { ca: cert }, dispatcher: { concurrency: 4, perWebhook: 2 } } },
      );
      const hanging = await startReceiver(() => 'hang');
      const resetting = await startReceiver(() => 'reset');
      const healthy = await startReceiver();
      receivers.push(hanging, resetting, healthy);
      try {
        const api = client(service.app, await service.tenant('pro'));
        for (const r of [hanging, resetting, healthy])
          expect((await api.post('/api/v1/webhooks', { url: r.url, events: ['policy.created'] })).statusCode).toBe(201);
        const N = 12;
        for (let i = 0; i < N; i++) await publishPolicy(api);
        await healthy.waitFor((x) => new Set(x.map((d) => d.json.id)).size === N, `all ${N} events at the healthy receiver`, 8000);
        // Within the 10 s time-out: the hanging receiver still holds requests open.
        expect(hanging.hanging()).toBeGreaterThan(0);
      } finally {
        await Promise.all([hanging.close(), resetting.close()]);
        await service.close();
      }
    });

    it('receivers that hang on more webhooks than the process has slots do not hold up a healthy one', async () => {
      const { cert } = await testCertificate();
      // Four slots, two per webhook: three hanging webhooks would hold every slot until their 10 s time-out.
      const service = await startTestService(
        { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
        { webhooks: { outbound: { ca: cert }, dispatcher: { concurrency: 4, perWebhook: 2, perWebhookMax: 2 } } },
      );
      const hanging = await startReceiver(() => 'hang');
      const healthy = await startReceiver();
      receivers.push(hanging, healthy);
      try {
        const api = client(service.app, await service.tenant('pro'));
        for (let i = 0; i < 3; i++)
          expect((await api.post('/api/v1/webhooks', { url: `${hanging.url}/${i}`, events: ['policy.created'] })).statusCode).toBe(201);
        const N = 6;
        for (let i = 0; i < N; i++) await publishPolicy(api);
        await hanging.waitFor((x) => x.length >= 6, 'every hanging webhook holding its two attempts', 8000);
        expect((await api.post('/api/v1/webhooks', { url: healthy.url, events: ['policy.created'] })).statusCode).toBe(201);
        await publishPolicy(api);
        // Within the hanging attempts' 10 s time-out: the healthy one went on beside them.
        await healthy.waitFor((x) => x.length === 1, 'the new event at the healthy receiver', 8000);
        expect(hanging.hanging()).toBeGreaterThanOrEqual(6);
      } finally {
        await hanging.close();
        await service.close();
      }
    });

    it('requests slow on one host do not queue another webhook’s request to that host behind them', async () => {
      const { cert } = await testCertificate();
      // A gateway that serves many webhooks: one path slow (2.5 s, inside the time-out), another at once.
      const shared = await startReceiver((r) =>
        r.path.startsWith('/slow') ? new Promise<number>((resolve) => setTimeout(() => resolve(200), 2500)) : 200,
      );
      receivers.push(shared);
      const c = new GuardedClient({ allowPrivateNetworks: true, allowHttp: false, ca: cert, timeoutMs: 3000 });
      const post = (url: string) => c.post(url, '{"id":"x"}', { 'x-test': '1' });
      const slow = Array.from({ length: 40 }, (_, i) => post(`https://127.0.0.1:${shared.port}/slow/${i}`));
      await shared.waitFor((x) => x.length >= 16, 'sixteen slow requests at the receiver', 8000);
      // Its time-out counts its own request: not a wait behind the slow ones for a connection.
      const answered = await post(`https://127.0.0.1:${shared.port}/ok`);
      expect(answered).toMatchObject({ ok: true, statusCode: 200, error: null });
      expect(answered.responseTimeMs).toBeLessThan(2000);
      expect((await Promise.all(slow)).every((r) => r.ok)).toBe(true);
    });

    it('a receiver gone (connections refused at once), with a backlog overdue, does not hold up a healthy one', async () => {
      const { cert } = await testCertificate();
      const service = await startTestService(
        { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
        { webhooks: { outbound: { ca: cert }, dispatcher: {} } },
      );
      const gone = await startReceiver();
      await gone.close();
      const healthy = await startReceiver();
      receivers.push(healthy);
      try {
        const tenant = await service.tenant('pro');
        const api = client(service.app, tenant);
        // What an outage leaves: deliveries for receivers now gone, all due an hour ago; more of
        // them than the dispatcher has attempts in flight at once.
        const backlog = 200;
        const gones: string[] = [];
        for (let i = 0; i < 10; i++) {
          const hook = await api.post('/api/v1/webhooks', { url: gone.url, events: ['policy.created'] });
          expect(hook.statusCode).toBe(201);
          gones.push(hook.json().data.id);
          // Sealed as the service seals the rows it writes (the dispatcher sends no other), in one commit.
          await service.service.store.db.transaction().execute(async (tx) => {
            await sql`
              INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, status, next_attempt_at)
              SELECT gen_random_uuid(), ${tenant.tenantId}::uuid, ${hook.json().data.id}::uuid, gen_random_uuid(), 'policy.created',
                '{}', 'pending', now() - interval '1 hour' - make_interval(secs => n)
              FROM generate_series(1, ${backlog}) AS n`.execute(tx);
            await sealUnsealed(tx, service.service.privacy);
          });
        }
        const registered = await api.post('/api/v1/webhooks', { url: healthy.url, events: ['policy.created'] });
        expect(registered.statusCode).toBe(201);
        const healthyHook: string = registered.json().data.id;
        // The healthy webhook's new delivery, due now, made here rather than by the subscription:
        // its created_at is when the dispatcher could first see it (a subscription slowed by the
        // load of the run would date it from its transaction's start, before it was visible).
        await service.service.store.db.transaction().execute(async (tx) => {
          await sql`
            INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, status, next_attempt_at)
            VALUES (gen_random_uuid(), ${tenant.tenantId}::uuid, ${healthyHook}::uuid, gen_random_uuid(), 'policy.created', '{}', 'pending', now())`.execute(
            tx,
          );
          await sealUnsealed(tx, service.service.privacy);
        });
        const db = service.service.store.db;
        // From when the dispatcher could see it: its insert committed (a load that slows the commit is not the dispatcher's).
        const visible = (await sql<{ at: string }>`SELECT clock_timestamp()::text AS at`.execute(db)).rows[0]!.at;
        await healthy.waitFor((x) => x.length === 1, 'the new event at the healthy receiver', 30_000);
        const attempted = async () =>
          (
            await sql<{ at: string | null }>`
              SELECT min(a.attempted_at)::text AS at FROM webhooks.attempts a WHERE a.webhook_id = ${healthyHook}::uuid`.execute(db)
          ).rows[0]?.at ?? undefined;
        await waitUntil(async () => (await attempted()) !== undefined, { what: "the healthy delivery's attempt recorded" });
        // Served in turn: between the new event's delivery becoming visible and the start of its
        // first attempt, the gone receivers had a turn or so each, not every overdue delivery of theirs.
        const between = await sql<{ n: number }>`
          SELECT count(*)::int AS n FROM webhooks.attempts a
          WHERE a.webhook_id = ANY(${gones}::uuid[])
            AND a.attempted_at > ${visible}::timestamptz
            AND a.attempted_at < ${(await attempted())!}::timestamptz`.execute(db);
        expect(between.rows[0]!.n).toBeLessThan(backlog);
      } finally {
        await healthy.close();
        await service.close();
      }
    });

    it('a receiver that answers fast earns more attempts at once; a slow one keeps its four', async () => {
      const { cert } = await testCertificate();
      const service = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { webhooks: { outbound: { ca: cert } } });
      // Fast for its first 12 deliveries, then holding each one open: what it holds is what it was given.
      const fast = await startReceiver((_r, n) => (n <= 12 ? 200 : 'hang'));
      const slow = await startReceiver(() => 'hang');
      receivers.push(fast, slow);
      try {
        const api = client(service.app, await service.tenant('pro'));
        for (const r of [fast, slow])
          expect((await api.post('/api/v1/webhooks', { url: r.url, events: ['policy.created'] })).statusCode).toBe(201);
        for (let i = 0; i < 40; i++) await publishPolicy(api);
        // 12 fast answers took it from 4 slots to 16, all of them now held open.
        await waitUntil(() => fast.hanging() === 16, { timeoutMs: 8000, what: 'the fast receiver holding 16 attempts' });
        expect(slow.hanging()).toBe(4);
      } finally {
        await Promise.all([fast.close(), slow.close()]);
        await service.close();
      }
    });
  });
});
