import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import {
  connectionRefused,
  freePort,
  httpClient,
  repoRoot,
  startServiceProcess,
  tenantClient,
  testKeysDir,
  waitUntil,
  type ServiceProcess,
} from '../support/process.js';
import { client } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * docs/contract.md "Rate limits" with the counters in Redis (REDIS_URL): budgets hold across
 * processes, and Redis going away never costs an answer. Every run uses its own key prefix, so
 * test files running at the same time never share counters.
 */

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) console.warn('[test] REDIS_URL is not set: the Redis rate-limit tests are skipped (CI sets it; .ci/run starts Redis)');
if (!serverUrl) console.warn('[test] DATABASE_URL is not set: the rate-limit tests that need two processes on one database are skipped');
const describeRedis = redisUrl ? describe : describe.skip;
const describeShared = redisUrl && serverUrl ? describe : describe.skip;

const START = Date.parse('2031-03-04T05:06:15Z');
const ADMIN_TOKEN = 'rate-limits-redis-admin-token';
const runPrefix = () => `cl-test:${randomBytes(6).toString('hex')}:`;

interface Logged {
  msg: string;
}

/** The production service on its own database (or in-memory PGlite), with the limiter's clock and key prefix given. */
async function serviceWith(
  env: Record<string, string>,
  options: { prefix: string; clock: () => number; databaseUrl?: string },
): Promise<{ service: Service; warnings: Logged[]; close(): Promise<void> }> {
  const fresh = options.databaseUrl || !serverUrl ? undefined : await freshDatabase();
  const databaseUrl = options.databaseUrl ?? fresh?.url;
  const settings = loadSettings({
    ...(databaseUrl ? { DATABASE_URL: databaseUrl, DATA_DIR: testKeysDir() } : { DATA_DIR: 'memory://' }),
    LOG_LEVEL: 'silent',
    ...env,
  });
  const warnings: Logged[] = [];
  const service = await createService(settings, {
    pollMs: 50,
    log: { warn: (_o, msg) => warnings.push({ msg }), error: (_o, msg) => warnings.push({ msg }) },
    limits: { prefix: options.prefix, clock: options.clock },
  });
  return {
    service,
    warnings,
    async close() {
      await service.close();
      await fresh?.drop();
    },
  };
}

const lift = { perMinute: 1_000_000_000, perDay: 1_000_000_000 };

/** Sends `request` until it answers `status` (within a second: a NOTIFY is heard asynchronously), and answers that response. */
async function pollUntilStatus(
  request: () => Promise<LightMyRequestResponse>,
  status: number,
  what: string,
): Promise<LightMyRequestResponse> {
  let last = await request();
  await waitUntil(
    async () => {
      if (last.statusCode !== status) last = await request();
      return last.statusCode === status;
    },
    { timeoutMs: 1_000, intervalMs: 20, what },
  );
  return last;
}

const headersOf = (res: LightMyRequestResponse) => [
  res.headers['x-ratelimit-limit'],
  res.headers['x-ratelimit-remaining'],
  res.headers['x-ratelimit-reset'],
  res.headers['x-ratelimit-daily-limit'],
  res.headers['x-ratelimit-daily-remaining'],
  res.headers['x-ratelimit-daily-reset'],
];
const MINUTE_RESET = String(Date.parse('2031-03-04T05:07:00Z') / 1000);
const DAY_RESET = String(Date.parse('2031-03-05T00:00:00Z') / 1000);

describeRedis('rate limits › with Redis › one service', () => {
  let svc: Awaited<ReturnType<typeof serviceWith>>;
  let probe: Redis;
  let now = START;
  const prefix = runPrefix();

  beforeAll(async () => {
    svc = await serviceWith({ REDIS_URL: redisUrl! }, { prefix, clock: () => now });
    probe = new Redis(redisUrl!);
  });
  afterAll(async () => {
    await svc?.close();
    probe?.disconnect();
  });

  it('when a starter tenant sends 61 requests in one minute › the 61st is 429 with Retry-After and the headers, counted in Redis', async () => {
    const creds = await svc.service.tenants.create('starter-redis', 'starter');
    const api = client(svc.service.app, creds);
    for (let i = 1; i <= 60; i++) {
      const res = await api.get('/api/v1/policies');
      expect(res.statusCode).toBe(200);
      expect(headersOf(res)).toEqual(['60', String(60 - i), MINUTE_RESET, '1000', String(1000 - i), DAY_RESET]);
    }
    const refused = await api.get('/api/v1/policies');
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toBe('45');
    expect(refused.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(headersOf(refused)).toEqual(['60', '0', MINUTE_RESET, '1000', '940', DAY_RESET]);
    // The counters are Redis's, under this run's prefix, with an expiry.
    const key = `${prefix}{tenant:${creds.tenantId}}:m:${Date.parse('2031-03-04T05:06:00Z') / 1000}`;
    expect(await probe.get(key)).toBe('60');
    expect(await probe.pttl(key)).toBeGreaterThan(0);
  });

  it('when the day budget is smaller than the minute one › the day window trips on its own and a new minute does not help', async () => {
    const creds = await svc.service.tenants.create('daily-redis', 'starter');
    await svc.service.tenants.update(creds.tenantId, { limits: { perMinute: 1_000, perDay: 5 } });
    const api = client(svc.service.app, creds);
    for (let i = 0; i < 5; i++) expect((await api.get('/api/v1/policies')).statusCode).toBe(200);
    const refused = await api.get('/api/v1/policies');
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.details).toMatchObject({ window: 'day', limit: 5 });
    expect(headersOf(refused)).toEqual(['1000', '995', MINUTE_RESET, '5', '0', DAY_RESET]);
    now = Date.parse('2031-03-04T05:09:00Z');
    expect((await api.get('/api/v1/policies')).statusCode).toBe(429);
    now = START;
  });
});

describeShared('rate limits › with Redis › two services on one database and one Redis', () => {
  let a: Awaited<ReturnType<typeof serviceWith>>;
  let b: Awaited<ReturnType<typeof serviceWith>>;
  const prefix = runPrefix();

  beforeAll(async () => {
    a = await serviceWith({ REDIS_URL: redisUrl!, ADMIN_TOKEN }, { prefix, clock: () => START });
    b = await serviceWith(
      { REDIS_URL: redisUrl!, ADMIN_TOKEN },
      { prefix, clock: () => START, databaseUrl: a.service.settings.databaseUrl! },
    );
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('share one budget: 30 requests on each, then the 61st is refused by both, while another tenant is untouched', async () => {
    const creds = await a.service.tenants.create('shared', 'starter');
    const other = await a.service.tenants.create('bystander', 'starter');
    const onA = client(a.service.app, creds);
    const onB = client(b.service.app, creds);
    const seen: string[] = [];
    for (let i = 0; i < 30; i++) {
      for (const api of [onA, onB]) {
        const res = await api.get('/api/v1/policies');
        expect(res.statusCode).toBe(200);
        seen.push(res.headers['x-ratelimit-remaining'] as string);
      }
    }
    // One count between them: 59, 58, ... 0, whichever process answered.
    expect(seen).toEqual(Array.from({ length: 60 }, (_, i) => String(59 - i)));
    expect((await onA.get('/api/v1/policies')).statusCode).toBe(429);
    expect((await onB.get('/v1/policies')).statusCode).toBe(429);
    const bystander = await client(b.service.app, other).get('/api/v1/policies');
    expect(bystander.statusCode).toBe(200);
    expect(bystander.headers['x-ratelimit-remaining']).toBe('59');
  });

  it('a plan change made through one process takes effect on the next request the other one answers', async () => {
    const creds = await a.service.tenants.create('upgraded', 'free');
    const onB = client(b.service.app, creds);
    for (let i = 0; i < 10; i++) expect((await onB.get('/api/v1/policies')).statusCode).toBe(200);
    // B has this key cached now, and the tenant is out of budget.
    expect((await onB.get('/api/v1/policies')).statusCode).toBe(429);
    const changed = await a.service.app.inject({
      method: 'PATCH',
      url: `/admin/v1/tenants/${creds.tenantId}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { plan: 'pro' },
    });
    expect(changed.statusCode).toBe(200);
    // The change reaches B through PostgreSQL NOTIFY, asynchronously: B answers under the new plan
    // as soon as it arrives, well before its cached entry (2 s, refreshed by the request above)
    // would expire. A refused request counts in no window, so the polls leave the budget as it was.
    const next = await pollUntilStatus(() => onB.get('/api/v1/policies'), 200, 'B to answer under the new plan before its cache expires');
    expect(headersOf(next).slice(0, 2)).toEqual(['300', '289']);

    // A revoked key is refused by the other process as soon as the NOTIFY reaches it: well before
    // B's cached entry (2 s, refreshed by the request above) would expire. The notification is
    // asynchronous, so a request sent in the same instant may still find the key, as CI saw.
    await a.service.tenants.revokeKey(creds.tenantId, creds.apiKey);
    await waitUntil(async () => (await onB.get('/api/v1/policies')).statusCode === 401, {
      timeoutMs: 1_000,
      intervalMs: 20,
      what: 'B to refuse the revoked key before its cache expires',
    });
  });

  it('a plan change made with the CLI (its own process) takes effect on the next request', async () => {
    const creds = await a.service.tenants.create('cli-downgraded', 'pro');
    const onB = client(b.service.app, creds);
    for (let i = 0; i < 10; i++) expect((await onB.get('/api/v1/policies')).statusCode).toBe(200);
    const cli = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/cli.ts', 'tenant', 'set-plan', '--id', creds.tenantId, '--plan', 'free'],
      {
        cwd: repoRoot,
        env: { ...process.env, DATABASE_URL: a.service.settings.databaseUrl!, DATA_DIR: a.service.settings.dataDir, LOG_LEVEL: 'silent' },
        encoding: 'utf8',
      },
    );
    expect(cli.status, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ tenantId: creds.tenantId, plan: 'free', limits: { perMinute: 10, perDay: 100 } });
    // Ten used this minute, and free allows ten: refused as soon as B hears of the change (NOTIFY,
    // sent when it committed, before the CLI answered, but heard asynchronously).
    const next = await pollUntilStatus(() => onB.get('/api/v1/policies'), 429, 'B to refuse under the new plan');
    expect(headersOf(next).slice(0, 2)).toEqual(['10', '0']);
  }, 60_000);
});

describeShared('rate limits › with Redis › two service processes', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const procs: ServiceProcess[] = [];

  beforeAll(async () => {
    db = await freshDatabase();
    const env = { DATABASE_URL: db.url, REDIS_URL: redisUrl!, ADMIN_TOKEN };
    procs.push(await startServiceProcess(env));
    procs.push(await startServiceProcess(env));
  }, 180_000);
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGTERM').catch(() => p.kill('SIGKILL'));
    await db?.drop();
  }, 60_000);

  it('hold one starter budget between them over real HTTP: the 61st request is a 429 whichever process answers', async () => {
    const [a, b] = procs as [ServiceProcess, ServiceProcess];
    const admin = httpClient(a.url, { authorization: `Bearer ${ADMIN_TOKEN}` });
    // The real clock: a round that straddles a minute boundary proves nothing, so it is run again.
    for (let attempt = 1; ; attempt++) {
      const created = await admin.post('/admin/v1/tenants', { name: `two-processes-${attempt}`, plan: 'starter' });
      expect(created.status).toBe(201);
      const creds = created.body.data as { apiKey: string; apiSecret: string };
      const answers: { status: number; remaining: string | null; reset: string | null }[] = [];
      for (let i = 0; i < 61; i++) {
        const target = i % 2 === 0 ? a : b;
        const res = await fetch(`${target.url}/api/v1/policies`, {
          headers: { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret },
        });
        await res.arrayBuffer();
        answers.push({
          status: res.status,
          remaining: res.headers.get('x-ratelimit-remaining'),
          reset: res.headers.get('x-ratelimit-reset'),
        });
      }
      if (new Set(answers.map((x) => x.reset)).size > 1 && attempt < 3) continue;
      expect(answers.slice(0, 60).map((x) => x.status)).toEqual(Array(60).fill(200));
      expect(answers.slice(0, 60).map((x) => x.remaining)).toEqual(Array.from({ length: 60 }, (_, i) => String(59 - i)));
      expect(answers[60]).toMatchObject({ status: 429, remaining: '0' });
      const other = await tenantClient(b.url, (await admin.post('/admin/v1/tenants', { name: 'other', plan: 'starter' })).body.data).get(
        '/api/v1/policies',
      );
      expect(other.status).toBe(200);
      break;
    }
  }, 60_000);
});

describeRedis('rate limits › when Redis stops and starts mid-run › no request gets a 5xx', () => {
  let redisServer: ChildProcess | undefined;
  let port: number;
  let svc: Awaited<ReturnType<typeof serviceWith>>;
  let probe: Redis;
  const prefix = runPrefix();

  /** A private redis-server (never the shared one on 6379: other tests use it). */
  const startRedis = async () => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    redisServer = child;
    await waitUntil(async () => !(await connectionRefused(port)), { what: `redis-server on port ${port}`, timeoutMs: 10_000 });
  };
  const stopRedis = async () => {
    const child = redisServer!;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
    await waitUntil(() => connectionRefused(port), { what: 'redis-server to be gone' });
  };

  beforeAll(async () => {
    // A missing tool must not make this test pass: REDIS_URL is set, so redis-server must exist.
    expect(spawnSync('redis-server', ['--version']).status, 'redis-server must be installed (apt-get install redis-server)').toBe(0);
    port = await freePort();
    await startRedis();
    svc = await serviceWith({ REDIS_URL: `redis://127.0.0.1:${port}` }, { prefix, clock: () => START });
    probe = new Redis(`redis://127.0.0.1:${port}`, { lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => 100 });
    probe.on('error', () => {});
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    probe?.disconnect();
    redisServer?.kill('SIGKILL');
  });

  it('answers every request through the outage, still limits in memory meanwhile, warns once, and shares counters again once Redis is back', async () => {
    const creds = await svc.service.tenants.create('outage', 'starter');
    const api = client(svc.service.app, creds);
    const statuses: number[] = [];
    const send = async () => {
      const res = await api.get('/api/v1/policies');
      statuses.push(res.statusCode);
      // Headers throughout, outage or not.
      expect(res.headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
      return res;
    };
    for (let i = 0; i < 5; i++) await send();
    await probe.connect();
    expect(await probe.get(`${prefix}{tenant:${creds.tenantId}}:m:${Date.parse('2031-03-04T05:06:00Z') / 1000}`)).toBe('5');

    await stopRedis();
    // Many requests during the outage, one warning. The budget is then counted in this process.
    for (let i = 0; i < 60; i++) await send();
    const limited = await send();
    expect(limited.statusCode).toBe(429);
    expect(svc.warnings.filter((w) => /Redis is unreachable/.test(w.msg))).toHaveLength(1);

    await startRedis();
    // Back on Redis (which starts empty): the counts come from there again.
    await svc.service.tenants.update(creds.tenantId, { limits: lift });
    await waitUntil(async () => (await send()).headers['x-ratelimit-remaining'] === String(lift.perMinute - 1) || undefined, {
      what: 'the limiter to count in the restarted Redis',
      timeoutMs: 15_000,
    });
    expect(svc.warnings.filter((w) => /Redis is back/.test(w.msg))).toHaveLength(1);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200, 429]));
  }, 60_000);
});

describeRedis('rate limits › when the service starts while Redis is down › it says so', () => {
  it('logs the outage once, though it began before the service had a log to say it in', async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'cl-redis-down-'));
    const svc = await startServiceProcess({ DATA_DIR: dir, REDIS_URL: `redis://127.0.0.1:${port}` });
    try {
      await svc.waitForOutput(/Redis is unreachable/, { timeoutMs: 15_000 });
      expect(svc.stdout().match(/Redis is unreachable/g)).toHaveLength(1);
    } finally {
      await svc.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
