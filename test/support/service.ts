import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { verifyReadModels, type VerifyResult } from '../../projections/verify.js';
import { loadSettings } from '../../src/config.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { createService, type Service, type ServiceOptions } from '../../src/service.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { Plan } from '../../src/tenants/plans.js';
import type { IssuedCredentials } from '../../src/tenants/tenants.service.js';
import { freshDatabase, serverUrl } from './stores.js';

/**
 * A test tenant's credentials, and how many events its log opens with (docs/audit-log.md):
 * `TenantCreated` and its first key's `ApiKeyIssued`, and `TenantSettingsChanged` when its limits
 * were raised. A test counting leaves counts from there.
 */
export type TestTenant = IssuedCredentials & { setupEvents: number };

export interface TestService {
  service: Service;
  app: FastifyInstance;
  /**
   * A new tenant with its first key. Its own rate limits are raised far above what a test sends
   * (tests measure behaviour, not the budget), unless `{ planLimits: true }` keeps the plan's.
   */
  tenant(plan?: Plan, options?: { planLimits?: boolean }): Promise<TestTenant>;
  close(): Promise<void>;
}

/** `projections verify` of a test service: its read models against a replay of its ledger in a scratch store. */
export async function verifyAgainstReplay(t: TestService): Promise<VerifyResult> {
  const scratch = await openStore({ dataDir: 'memory://', migrations: MIGRATIONS });
  try {
    return await verifyReadModels(t.service.store, t.service.ledger, scratch);
  } finally {
    await scratch.close();
  }
}

/** A tenant's own limit that no test reaches (the admin API's maximum). */
const HIGH_LIMIT = 1_000_000_000;

/**
 * The production service (same wiring as `npm start`) on a fresh database of the PostgreSQL
 * server when DATABASE_URL is set, else on an in-memory PGlite.
 */
export async function startTestService(
  env: Record<string, string> = {},
  options: Pick<NonNullable<Parameters<typeof createService>[1]>, 'limits' | 'webhooks' | 'log'> = {},
): Promise<TestService> {
  const fresh = serverUrl ? await freshDatabase() : undefined;
  // A fresh database gets a master key of its own; its signing key file is the test process's
  // (fresh.env's DATA_DIR), which the commands a test runs beside it find too.
  const store = fresh
    ? {
        ...fresh.env,
        ...(env.MASTER_KEY_FILE ? {} : { MASTER_KEY: randomBytes(32).toString('hex') }),
      }
    : { DATA_DIR: 'memory://' };
  const settings = loadSettings({ ...store, LOG_LEVEL: 'silent', ...env });
  const service = await createService(settings, { pollMs: 50, ...options });
  let n = 0;
  return {
    service,
    app: service.app,
    async tenant(plan = 'starter', { planLimits = false } = {}) {
      const created = await service.tenants.create(`tenant-${++n}`, plan);
      if (!planLimits) await service.tenants.update(created.tenantId, { limits: { perMinute: HIGH_LIMIT, perDay: HIGH_LIMIT } });
      return { ...created, setupEvents: planLimits ? 2 : 3 };
    },
    async close() {
      await service.close();
      await fresh?.drop();
    },
  };
}

/**
 * A store a test stops and starts the production service on, as an operator restarts it: a fresh
 * database of the PostgreSQL server (with a master key of its own) when DATABASE_URL is set, else
 * a data folder. `open` opens the store alone, as a database writer with the service stopped.
 */
export async function restartableStore(): Promise<{
  env: Record<string, string>;
  start(env?: Record<string, string>, options?: ServiceOptions): Promise<Service>;
  open(): Promise<Store>;
  remove(): Promise<void>;
}> {
  const fresh = serverUrl ? await freshDatabase() : undefined;
  const dir = fresh ? undefined : mkdtempSync(join(tmpdir(), 'cl-restartable-'));
  const env = fresh ? { ...fresh.env, MASTER_KEY: randomBytes(32).toString('hex') } : { DATA_DIR: dir! };
  return {
    env,
    start: (more = {}, options = {}) => createService(loadSettings({ ...env, LOG_LEVEL: 'silent', ...more }), { pollMs: 50, ...options }),
    open: () => openStore({ ...(fresh ? { databaseUrl: fresh.url } : { dataDir: dir! }), migrations: MIGRATIONS }),
    async remove() {
      await fresh?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface Client {
  get(url: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  post(url: string, body?: unknown, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  put(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, body?: unknown): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
}

/** Requests as a tenant's API client would send them (through `inject`, the real routing). */
export function client(app: FastifyInstance, creds: { apiKey: string; apiSecret: string }): Client {
  return clientWith(app, { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret });
}

/** A publishable key's client, as a page on `origin` calls the API (docs/browser.md): no secret, the page's Origin. */
export const browserClient = (app: FastifyInstance, apiKey: string, origin: string): Client =>
  clientWith(app, { 'x-api-key': apiKey, origin });

function clientWith(app: FastifyInstance, auth: Record<string, string>): Client {
  const send = (method: InjectOptions['method'], url: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method, url, headers: { ...auth, ...headers }, ...(body === undefined ? {} : { payload: body as object }) });
  return {
    get: (url, headers) => send('GET', url, undefined, headers),
    post: (url, body, headers) => send('POST', url, body, headers),
    put: (url, body) => send('PUT', url, body),
    patch: (url, body) => send('PATCH', url, body),
    delete: (url) => send('DELETE', url),
    inject: (options) => app.inject({ ...options, headers: { ...auth, ...(options.headers as Record<string, string>) } }),
  };
}

let versionCounter = 0;
/** Publishes a policy version and answers its id. */
export async function publishPolicy(c: Client, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await c.post('/api/v1/policies', {
    policyType: 'privacy_policy',
    version: `1.0.${++versionCounter}`,
    title: 'Privacy policy',
    content: 'We keep your data safe.',
    ...overrides,
  });
  if (res.statusCode !== 201) throw new Error(`publish failed: ${res.statusCode} ${res.body}`);
  return res.json().data.id as string;
}

/**
 * A test service with a tenant and one inactive webhook of its: the service's own dispatcher
 * leaves that webhook's deliveries alone, for a test to write and work on them directly.
 *
 * @example
 * const { t, tenantId, webhookId } = await serviceWithIdleWebhook();
 */
export async function serviceWithIdleWebhook(): Promise<{ t: TestService; tenantId: string; webhookId: string }> {
  const t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const creds = await t.tenant();
  const res = await client(t.app, creds).post('/api/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['*'], isActive: false });
  if (res.statusCode !== 201) throw new Error(`webhook not created: ${res.statusCode} ${res.body}`);
  return { t, tenantId: creds.tenantId, webhookId: res.json().data.id as string };
}

/** The tenant's newest checkpoint once it holds at least `size` leaves (the sealer follows within a second). */
export async function sealedCheckpoint(api: Client, size: number): Promise<{ checkpoint: string; treeSize: number; timestamp: string }> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const cp = (await api.get('/api/v1/ledger/checkpoint')).json().data;
    if (cp.treeSize >= size) return cp;
    if (Date.now() > deadline) throw new Error(`the log did not reach ${size} leaves in 10 s (at ${cp.treeSize})`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A new admin key as the key lists show it (admin API, CLI, /api/v1/keys): no name, no expiry, never a secret. */
export const listedAdminKey = (apiKey: string) => ({
  apiKey,
  scope: 'admin',
  name: null,
  createdAt: expect.any(String),
  expiresAt: null,
  lastUsedAt: expect.toBeOneOf([null, expect.any(String)]),
  revokedAt: null,
});
