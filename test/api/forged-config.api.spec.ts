import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/common/hashing.js';
import { apiKeyStream } from '../../src/domain/config/config.events.js';
import { consentStream } from '../../src/domain/consent/consent.events.js';
import { hashSecret } from '../../src/tenants/tenants.service.js';
import { insertBehindTheService } from '../support/forgery.js';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { waitUntil } from '../support/process.js';
import { browserClient, client, publishPolicy, restartableStore, startTestService, type TestService } from '../support/service.js';

/**
 * Keys the database cannot mint, webhooks it cannot redirect (a hostile-DBA walk: a row added to
 * control.api_keys answered 200 as an admin key, and every event it recorded was signed and sealed
 * as the service's own; a webhook's URL changed in its row took the deliveries elsewhere). A key
 * authenticates only as the tenant's log issued it, a delivery goes only to the URL the log names:
 * a row added, changed or revived behind the service's back is refused (401, as an unknown key; a
 * delivery not sent), and the service says so at error level.
 */

/** Credentials of a key, for a tenant of its own, that no service issued. */
const unissuedKey = () => ({
  tenantId: randomUUID(),
  apiKey: `ck_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
  apiSecret: `cs_${randomUUID()}`,
});

/** As before the upgrade's first start: no mark that older rows were recorded (its trigger off, as the table's owner). */
async function forgetAdoption(store: Kysely<Database>): Promise<void> {
  await sql`ALTER TABLE control.config_adopted DISABLE TRIGGER USER`.execute(store);
  await sql`DELETE FROM control.config_adopted`.execute(store);
  await sql`ALTER TABLE control.config_adopted ENABLE TRIGGER USER`.execute(store);
}

let t: TestService;
const said: string[] = [];
const log = { warn: () => undefined, error: (_: object, message: string) => void said.push(message) };
const db = () => t.service.store.db;
const receivers: Receiver[] = [];

beforeAll(async () => {
  const { cert } = await testCertificate();
  t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { log, webhooks: { outbound: { ca: cert } } });
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await t?.close();
});

/** What a key's caller is answered on a read every scope but publishable may make. */
async function statusWith(apiKey: string, apiSecret: string): Promise<number> {
  // The row is read again, as it is once a key's cached entry expires (two seconds).
  t.service.tenants.invalidate();
  return (await client(t.app, { apiKey, apiSecret }).get('/api/v1/policies')).statusCode;
}

describe('forged keys › a key row added to control.api_keys', () => {
  it('authenticates nothing, and the service names the key at error level', async () => {
    const tenant = await t.tenant();
    expect(await statusWith(tenant.apiKey, tenant.apiSecret)).toBe(200);
    const apiKey = `ck_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const apiSecret = `cs_${randomUUID()}`;
    await sql`INSERT INTO control.api_keys (api_key, tenant_id, secret_hash, scope) VALUES (${apiKey}, ${tenant.tenantId}, ${hashSecret(apiSecret)}, 'admin')`.execute(
      db(),
    );
    expect(await statusWith(apiKey, apiSecret)).toBe(401);
    expect(said.join('\n')).toContain(`API key ${apiKey} refused: the tenant's log holds no ApiKeyIssued event for it`);
    expect(said.join('\n')).not.toContain(apiSecret);
  });

  it('with an ApiKeyIssued event the database wrote too, is refused: the event carries no authenticator of the service', async () => {
    const tenant = await t.tenant();
    const apiKey = `ck_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const apiSecret = `cs_${randomUUID()}`;
    const at = new Date().toISOString();
    await insertBehindTheService(db(), {
      id: randomUUID(),
      tenantId: tenant.tenantId,
      stream: apiKeyStream(tenant.tenantId, apiKey),
      revision: 0,
      type: 'ApiKeyIssued',
      data: { apiKey, scope: 'admin', name: null, expiresAt: null, at },
      metadata: {},
      recordedAt: at,
      prevHash: null,
    });
    await sql`INSERT INTO control.api_keys (api_key, tenant_id, secret_hash) VALUES (${apiKey}, ${tenant.tenantId}, ${hashSecret(apiSecret)})`.execute(
      db(),
    );
    expect(await statusWith(apiKey, apiSecret)).toBe(401);
    expect(said.join('\n')).toMatch(new RegExp(`API key ${apiKey} refused: its ApiKeyIssued event is not the service's`));
  });
});

describe('forged keys › a key row changed behind the service', () => {
  it('given another secret, takes neither the new secret nor the old', async () => {
    const tenant = await t.tenant();
    const issued = await t.service.tenants.createKey(tenant.tenantId, { scope: 'read' });
    expect(await statusWith(issued.apiKey, issued.apiSecret!)).toBe(200);
    const mine = `cs_${randomUUID()}`;
    await sql`UPDATE control.api_keys SET secret_hash = ${hashSecret(mine)} WHERE api_key = ${issued.apiKey}`.execute(db());
    expect(await statusWith(issued.apiKey, mine)).toBe(401);
    expect(said.join('\n')).toContain(`API key ${issued.apiKey} refused: its secret is not what its ApiKeyIssued event says`);
  });

  it('given a wider scope, is refused rather than let do more than it was issued for', async () => {
    const tenant = await t.tenant();
    const issued = await t.service.tenants.createKey(tenant.tenantId, { scope: 'read' });
    await sql`UPDATE control.api_keys SET scope = 'admin' WHERE api_key = ${issued.apiKey}`.execute(db());
    expect(await statusWith(issued.apiKey, issued.apiSecret!)).toBe(401);
    expect(said.join('\n')).toContain(`API key ${issued.apiKey} refused: its scope is not what its ApiKeyIssued event says`);
  });

  it('revoked, then its revocation undone in the row, stays revoked', async () => {
    const tenant = await t.tenant();
    const issued = await t.service.tenants.createKey(tenant.tenantId, { scope: 'write' });
    await t.service.tenants.revokeKey(tenant.tenantId, issued.apiKey);
    await sql`UPDATE control.api_keys SET revoked_at = NULL WHERE api_key = ${issued.apiKey}`.execute(db());
    expect(await statusWith(issued.apiKey, issued.apiSecret!)).toBe(401);
    expect(said.join('\n')).toContain(`API key ${issued.apiKey} refused: the tenant's log says it was revoked`);
  });

  it('a publishable key given another origin and no expiry records nothing from it', async () => {
    const tenant = await t.tenant();
    const admin = client(t.app, tenant);
    const policyVersionId = await publishPolicy(admin);
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const pk = await t.service.tenants.createPublishableKey(tenant.tenantId, { origins: ['https://shop.example'], expiresAt });
    const record = (origin: string) =>
      browserClient(t.app, pk.apiKey, origin).post('/api/v1/consent', {
        policyVersionId,
        userReference: `u-${randomUUID()}`,
        consentGiven: true,
      });
    expect((await record('https://shop.example')).statusCode).toBe(201);
    await sql`UPDATE control.api_keys SET origins = ARRAY['https://shop.example', 'https://evil.example'], expires_at = NULL WHERE api_key = ${pk.apiKey}`.execute(
      db(),
    );
    t.service.tenants.invalidate();
    expect((await record('https://evil.example')).statusCode).toBe(401);
    expect(said.join('\n')).toContain(`API key ${pk.apiKey} refused: its expiry and origins are not what its ApiKeyIssued event says`);
  });

  it('of a tenant invented in control.tenants, authenticates nothing: the tenant has no log', async () => {
    const tenantId = randomUUID();
    const apiKey = `ck_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
    const apiSecret = `cs_${randomUUID()}`;
    await sql`INSERT INTO control.tenants (id, name, plan) VALUES (${tenantId}, 'invented', 'enterprise')`.execute(db());
    await sql`INSERT INTO control.api_keys (api_key, tenant_id, secret_hash) VALUES (${apiKey}, ${tenantId}, ${hashSecret(apiSecret)})`.execute(
      db(),
    );
    expect(await statusWith(apiKey, apiSecret)).toBe(401);
    expect(said.join('\n')).toContain(`API key ${apiKey} refused: the tenant's log holds no ApiKeyIssued event for it`);
  });

  it('moved to another tenant, authenticates for neither', async () => {
    const [a, b] = [await t.tenant(), await t.tenant()];
    const issued = await t.service.tenants.createKey(a.tenantId, { scope: 'read' });
    await sql`UPDATE control.api_keys SET tenant_id = ${b.tenantId} WHERE api_key = ${issued.apiKey}`.execute(db());
    expect(await statusWith(issued.apiKey, issued.apiSecret!)).toBe(401);
  });
});

describe('forged keys › keys as the service issued them', () => {
  it('authenticate, of every scope, with the key check on every lookup', async () => {
    const tenant = await t.tenant();
    for (const scope of ['admin', 'write', 'read'] as const) {
      const issued = await t.service.tenants.createKey(tenant.tenantId, { scope });
      expect(await statusWith(issued.apiKey, issued.apiSecret!)).toBe(200);
    }
  });
});

describe('forged console sessions › a row in control.console_sessions', () => {
  const signIn = (apiKey: string, apiSecret: string) =>
    t.app.inject({ method: 'POST', url: '/console/session', payload: { apiKey, apiSecret } });
  const keysWith = (cookie: string) => t.app.inject({ url: '/api/v1/keys', headers: { cookie } });

  it('added for an admin key, with a cookie of the writer’s choosing, opens nothing', async () => {
    const tenant = await t.tenant();
    const sid = `forged${randomUUID()}`;
    await sql`INSERT INTO control.console_sessions (id_hash, api_key, csrf_token, expires_at)
      VALUES (${sha256Hex(sid)}, ${tenant.apiKey}, 'csrf', now() + interval '1 hour')`.execute(db());
    for (const cookie of [`cl_session=${sid}`, `cl_session=${sid}.x`]) expect((await keysWith(cookie)).statusCode).toBe(401);
  });

  it('of a read key, moved to an admin key, opens nothing; as opened, it reads', async () => {
    const tenant = await t.tenant();
    const reader = await t.service.tenants.createKey(tenant.tenantId, { scope: 'read' });
    const opened = await signIn(reader.apiKey, reader.apiSecret!);
    expect(opened.statusCode, opened.body).toBe(201);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect((await t.app.inject({ url: '/api/v1/policies', headers: { cookie } })).statusCode).toBe(200);
    expect((await keysWith(cookie)).statusCode).toBe(403);
    await sql`UPDATE control.console_sessions SET api_key = ${tenant.apiKey} WHERE api_key = ${reader.apiKey}`.execute(db());
    expect((await keysWith(cookie)).statusCode).toBe(401);
  });
});

describe('forged tenants › a plan or limits changed in control.tenants', () => {
  it('widen nothing: the plan and limits are the ones the tenant’s log says, and the log says so', async () => {
    const tenant = await t.tenant('free', { planLimits: true });
    const api = client(t.app, tenant);
    expect((await api.get('/api/v1/consent/export')).statusCode).toBe(403);
    await sql`UPDATE control.tenants SET plan = 'enterprise', per_minute = 100000 WHERE id = ${tenant.tenantId}`.execute(db());
    t.service.tenants.invalidate();
    const res = await api.get('/api/v1/consent/export');
    expect(res.statusCode).toBe(403);
    expect(res.headers['x-ratelimit-limit']).toBe('10');
    expect(said.join('\n')).toContain(`Tenant ${tenant.tenantId}'s plan and limits refused: its row says enterprise 100000/min`);
  });
});

describe('forged webhooks › a webhook whose URL was changed in its row', () => {
  it('sends nothing there, test deliveries or events, and says why in its history and the log', async () => {
    const [honest, elsewhere] = [await startReceiver(), await startReceiver()];
    receivers.push(honest, elsewhere);
    const tenant = await t.tenant();
    const api = client(t.app, tenant);
    const created = await api.post('/api/v1/webhooks', { url: honest.url, events: ['policy.created'] });
    expect(created.statusCode, created.body).toBe(201);
    const webhookId = created.json().data.id as string;
    expect((await api.post(`/api/v1/webhooks/${webhookId}/test`)).json().data.delivered).toBe(true);

    await sql`UPDATE webhooks.endpoints SET url = ${elsewhere.url} WHERE id = ${webhookId}`.execute(db());
    const test = (await api.post(`/api/v1/webhooks/${webhookId}/test`)).json().data;
    expect(test).toMatchObject({ delivered: false, statusCode: null });
    expect(test.message).toContain('not sent: its URL is not the one its WebhookCreated event names');
    await publishPolicy(api);
    const attempt = await waitUntil(
      async () => {
        const rows = (await api.get(`/api/v1/webhooks/${webhookId}/deliveries`)).json().data as { event: string; error?: string }[];
        return rows.find((r) => r.event === 'policy.created');
      },
      { what: 'the policy.created attempt' },
    );
    expect(attempt.error).toContain('not sent: its URL is not the one');
    expect(elsewhere.received).toHaveLength(0);
    expect(honest.received).toHaveLength(1);
    expect(said.join('\n')).toContain(`Webhook ${webhookId}'s URL refused: its URL is not the one its WebhookCreated event names`);
  });
});

describe('forged webhooks › a webhook the log deleted, revived in its rows', () => {
  it('is not sent to', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const tenant = await t.tenant();
    const api = client(t.app, tenant);
    const created = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['policy.created'] });
    const webhookId = created.json().data.id as string;
    await publishPolicy(api);
    await receiver.waitFor((r) => r.length === 1, 'the first delivery');
    expect((await api.delete(`/api/v1/webhooks/${webhookId}`)).statusCode).toBe(200);
    // Once the subscription closed the webhook's window at its deletion, both rows are put back.
    await waitUntil(
      async () =>
        (await sql`SELECT 1 AS one FROM webhooks.windows WHERE webhook_id = ${webhookId} AND until_commit IS NOT NULL`.execute(db())).rows
          .length > 0,
      { what: 'the window closed' },
    );
    await sql`UPDATE webhooks.endpoints SET deleted_at = NULL, is_active = true, secret = ${'whsec_' + randomBytes(24).toString('base64')} WHERE id = ${webhookId}`.execute(
      db(),
    );
    await sql`UPDATE webhooks.windows SET until_commit = NULL, until_prepare = NULL WHERE webhook_id = ${webhookId}`.execute(db());
    await publishPolicy(api);
    const attempt = await waitUntil(
      async () => {
        const rows = (await db()
          .selectFrom('webhooks.attempts' as never)
          .selectAll()
          .where('webhook_id' as never, '=', webhookId as never)
          .execute()) as { error: string | null }[];
        return rows.find((r) => r.error?.includes('deleted'));
      },
      { what: 'the refused attempt', timeoutMs: 5000 },
    );
    expect(attempt.error).toBe("not sent: the tenant's log says it was deleted");
    expect(receiver.received).toHaveLength(1);
  });
});

/** A webhook of a fresh tenant whose receiver has taken one policy.created delivery: its row's id and the tenant's client. */
async function deliveredOnce(receiver: Receiver, events: string[] = ['policy.created']) {
  const tenant = await t.tenant();
  const api = client(t.app, tenant);
  const webhookId = (await api.post('/api/v1/webhooks', { url: receiver.url, events })).json().data.id as string;
  await publishPolicy(api);
  await receiver.waitFor((r) => r.length === 1, 'the first delivery');
  const row = await waitUntil(
    async () =>
      (
        await sql<{ id: string; status: string }>`SELECT id, status FROM webhooks.deliveries WHERE webhook_id = ${webhookId}`.execute(db())
      ).rows.find((r) => r.status === 'delivered'),
    { what: 'the delivery recorded' },
  );
  return { tenant, api, webhookId, deliveryId: row.id };
}

/** The error of the delivery's attempt `n`, once it has one. */
async function attemptError(deliveryId: string, n: number, store = db()): Promise<string | null> {
  const rows = await waitUntil(
    async () => {
      const r = await sql<{
        error: string | null;
      }>`SELECT error FROM webhooks.attempts WHERE delivery_id = ${deliveryId} ORDER BY attempt`.execute(store);
      return r.rows.length >= n ? r.rows : undefined;
    },
    { what: `attempt ${n} of delivery ${deliveryId}` },
  );
  return rows[n - 1]!.error;
}

const NOT_SEALED_ERROR = 'not sent: its body is not the one the service queued (the seal of its row does not match)';

describe('forged deliveries › a row in webhooks.deliveries the service did not write', () => {
  it('is not sent, whatever its seal, and the service names it at error level', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { tenant, webhookId } = await deliveredOnce(receiver);
    // The service's own signature on a body of the writer's choosing would make receivers act on it.
    const forged = JSON.stringify({
      id: randomUUID(),
      type: 'policy.created',
      created_at: new Date().toISOString(),
      data: { forged: true },
    });
    const ids = [randomUUID(), randomUUID()];
    for (const [i, seal] of [null, randomBytes(32).toString('hex')].entries()) {
      await sql`INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, seal, status, next_attempt_at)
        VALUES (${ids[i]}, ${tenant.tenantId}, ${webhookId}, ${randomUUID()}, 'policy.created', ${forged}, ${seal}, 'pending', now())`.execute(
        db(),
      );
    }
    for (const id of ids) expect(await attemptError(id, 1)).toBe(NOT_SEALED_ERROR);
    expect(receiver.received).toHaveLength(1);
    expect(said.join('\n')).toContain(`Webhook delivery ${ids[0]} refused: its body is not the one the service queued`);
  });

  it('an honest row given another body, or moved to another webhook, is not sent; as written, it is sent again', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const { api, webhookId, deliveryId } = await deliveredOnce(receiver);
    const redeliver = async (hook: string, id: string) => {
      const res = await api.post(`/api/v1/webhooks/${hook}/deliveries/${id}/redeliver`);
      expect(res.statusCode, res.body).toBe(202);
    };
    await redeliver(webhookId, deliveryId);
    await receiver.waitFor((r) => r.length === 2, 'the honest delivery sent again');
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);

    await sql`UPDATE webhooks.deliveries SET payload = replace(payload, '"policy_type":"privacy_policy"', '"policy_type":"terms_of_service"')
      WHERE id = ${deliveryId}`.execute(db());
    await redeliver(webhookId, deliveryId);
    expect(await attemptError(deliveryId, 3)).toBe(NOT_SEALED_ERROR);

    // The same row, seal and all, for another webhook of the tenant (the seal names its webhook).
    const other = (await api.post('/api/v1/webhooks', { url: receiver.url, events: ['consent.created'] })).json().data.id as string;
    const copied = randomUUID();
    await sql`INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, seal, status, next_attempt_at)
      SELECT ${copied}, tenant_id, ${other}, event_id, event_type, payload, seal, 'pending', now() FROM webhooks.deliveries WHERE id = ${deliveryId}`.execute(
      db(),
    );
    expect(await attemptError(copied, 1)).toBe(NOT_SEALED_ERROR);
    expect(receiver.received).toHaveLength(2);
  });

  it('an event the database wrote into the ledger is not delivered: it is not the service’s', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const tenant = await t.tenant();
    const api = client(t.app, tenant);
    const hook = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['consent.created', 'consent.withdrawn'] });
    expect(hook.statusCode, hook.body).toBe(201);
    const policyVersionId = await publishPolicy(api);
    const consentId = (
      await api.post('/api/v1/consent', { policyVersionId, userReference: 'forged-withdrawal', consentGiven: true })
    ).json().data.id as string;
    await receiver.waitFor((r) => r.length === 1, 'consent.created');
    const [recorded] = await t.service.ledger.readStream(consentStream(tenant.tenantId, consentId));
    const forgedId = randomUUID();
    await insertBehindTheService(db(), {
      id: forgedId,
      tenantId: tenant.tenantId,
      stream: recorded!.stream,
      revision: 1,
      type: 'ConsentWithdrawn',
      data: { consentId, subject: recorded!.data.subject, reason: null, withdrawnAt: '2025-01-01T00:00:00.000Z' },
      metadata: {},
      recordedAt: new Date().toISOString(),
      prevHash: recorded!.hash,
    });
    // An honest event after it: once it is delivered, the subscription has passed the forged one.
    await api.post('/api/v1/consent', { policyVersionId, userReference: 'after-the-forgery', consentGiven: true });
    await receiver.waitFor((r) => r.length >= 2, 'the consent.created after the forgery');
    expect(receiver.received.map((r) => r.json.type)).toEqual(['consent.created', 'consent.created']);
    expect(said.join('\n')).toContain(`webhook subscription refused event ${forgedId} (ConsentWithdrawn): it is not the service's`);
  });

  it('a delivery an erasure cleared is sealed anew: sent again, its personal fields null', async () => {
    const receiver = await startReceiver();
    receivers.push(receiver);
    const tenant = await t.tenant();
    const api = client(t.app, tenant);
    const webhookId = (await api.post('/api/v1/webhooks', { url: receiver.url, events: ['consent.created'] })).json().data.id as string;
    const policyVersionId = await publishPolicy(api);
    const recorded = await api.post('/api/v1/consent', { policyVersionId, userReference: 'sealed-erased', consentGiven: true });
    expect(recorded.statusCode, recorded.body).toBe(201);
    await receiver.waitFor((r) => r.length === 1, 'consent.created');
    expect(receiver.received[0]!.json.data.subject_id).toBe('sealed-erased');
    const deliveryId = await waitUntil(
      async () =>
        (
          await sql<{ id: string }>`SELECT id FROM webhooks.deliveries WHERE webhook_id = ${webhookId} AND status = 'delivered'`.execute(
            db(),
          )
        ).rows[0]?.id,
      { what: 'the delivery recorded' },
    );
    expect((await api.post('/api/v1/subjects/erase', { userReference: 'sealed-erased' })).statusCode).toBe(200);
    const res = await api.post(`/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`);
    expect(res.statusCode, res.body).toBe(202);
    await receiver.waitFor((r) => r.length === 2, 'the cleared delivery sent again');
    expect(receiver.received[1]!.json.data).toMatchObject({ subject_id: null, erased: true });
    expect(receiver.received[1]!.json.id).toBe(receiver.received[0]!.json.id);
  });
});

describe('an older version’s tenants, keys and webhooks (no events)', () => {
  it('are recorded in their tenants’ logs on the first start, once, its queued deliveries sealed: a row added after that is refused', async () => {
    const stored = await restartableStore();
    const receiver = await startReceiver();
    receivers.push(receiver);
    // What an older version left: rows, and nothing in the tenants' logs.
    const olderRows = async (name: string) => {
      const store = await stored.open();
      const tenantId = randomUUID();
      const apiKey = `ck_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
      const apiSecret = `cs_${randomUUID()}`;
      const webhookId = randomUUID();
      await sql`INSERT INTO control.tenants (id, name, plan, per_minute) VALUES (${tenantId}, ${name}, 'pro', 5000)`.execute(store.db);
      await sql`INSERT INTO control.api_keys (api_key, tenant_id, secret_hash) VALUES (${apiKey}, ${tenantId}, ${hashSecret(apiSecret)})`.execute(
        store.db,
      );
      await sql`INSERT INTO webhooks.endpoints (id, tenant_id, url, events, secret, is_active, from_commit, from_prepare, created_at, updated_at)
        VALUES (${webhookId}, ${tenantId}, ${receiver.url}, ${['policy.created']}, ${'whsec_' + randomBytes(24).toString('base64')}, true, 0, 0, now(), now())`.execute(
        store.db,
      );
      await store.close();
      return { tenantId, apiKey, apiSecret, webhookId };
    };
    const { cert } = await testCertificate();
    const start = () => stored.start({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { log, webhooks: { outbound: { ca: cert } } });
    // A delivery an older version queued (no seal), pending when it stopped.
    const olderDelivery = async (webhook: { tenantId: string; webhookId: string }) => {
      const store = await stored.open();
      const id = randomUUID();
      const payload = JSON.stringify({ id: randomUUID(), type: 'policy.created', created_at: new Date().toISOString(), data: { id } });
      await sql`INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, status, next_attempt_at)
        VALUES (${id}, ${webhook.tenantId}, ${webhook.webhookId}, ${randomUUID()}, 'policy.created', ${payload}, 'pending', now())`.execute(
        store.db,
      );
      await store.close();
      return { id, payload };
    };
    const older = await olderRows('older');
    const queued = await olderDelivery(older);
    let service = await start();
    try {
      const api = client(service.app, older);
      await receiver.waitFor((r) => r.some((x) => x.body === queued.payload), 'the delivery the older version queued');
      expect((await api.get('/api/v1/policies')).statusCode).toBe(200);
      expect((await api.post(`/api/v1/webhooks/${older.webhookId}/test`)).json().data.delivered).toBe(true);
      const trail = (await api.get('/api/v1/audit-log')).json().data as { action: string; details: Record<string, unknown> }[];
      expect(trail.map((e) => e.action).sort()).toEqual(['key.issued', 'tenant.changed', 'tenant.created', 'webhook.created']);
      expect(trail.find((e) => e.action === 'key.issued')?.details).toMatchObject({ scope: 'admin', adopted: true });
      await service.close();

      // Rows written after the upgrade's first start, then a restart: not recorded, refused.
      const later = await olderRows('later');
      const unsealed = await olderDelivery(older);
      service = await start();
      expect((await client(service.app, later).get('/api/v1/policies')).statusCode).toBe(401);
      expect((await client(service.app, older).get('/api/v1/policies')).statusCode).toBe(200);
      expect(await attemptError(unsealed.id, 1, service.store.db)).toBe(NOT_SEALED_ERROR);
      expect(receiver.received.filter((r) => r.body === unsealed.payload)).toHaveLength(0);
    } finally {
      await service.close();
      await stored.remove();
    }
  }, 60_000);

  it('a tenant from before the trail that the trail then recorded only a key or webhook of is adopted, with its older key', async () => {
    const stored = await restartableStore();
    const start = () => stored.start({}, { log });
    const storeOf = () => stored.open();
    let service = await start();
    try {
      // The trail began with another tenant (its TenantCreated is the ledger's first configuration event).
      await service.tenants.create('made since', 'starter');
      await service.close();
      // What the first version left: a tenant and its key, no events, no consent recorded yet.
      const store = await storeOf();
      await forgetAdoption(store.db);
      const older = unissuedKey();
      await sql`INSERT INTO control.tenants (id, name, plan) VALUES (${older.tenantId}, 'first version', 'pro')`.execute(store.db);
      await sql`INSERT INTO control.api_keys (api_key, tenant_id, secret_hash) VALUES (${older.apiKey}, ${older.tenantId}, ${hashSecret(older.apiSecret)})`.execute(
        store.db,
      );
      await store.close();
      // A version with the trail (and no check) issued it a key: an ApiKeyIssued, still no TenantCreated.
      service = await start();
      const issued = await service.tenants.createKey(older.tenantId, { scope: 'read' });
      await service.close();
      const reset = await storeOf();
      await forgetAdoption(reset.db);
      // A writer's invented tenant with a key and an ApiKeyIssued event of its own: not the service's.
      const invented = unissuedKey();
      const at = new Date().toISOString();
      await sql`INSERT INTO control.tenants (id, name, plan) VALUES (${invented.tenantId}, 'invented', 'enterprise')`.execute(reset.db);
      await sql`INSERT INTO control.api_keys (api_key, tenant_id, secret_hash) VALUES (${invented.apiKey}, ${invented.tenantId}, ${hashSecret(invented.apiSecret)})`.execute(
        reset.db,
      );
      await insertBehindTheService(reset.db, {
        id: randomUUID(),
        tenantId: invented.tenantId,
        stream: apiKeyStream(invented.tenantId, invented.apiKey),
        revision: 0,
        type: 'ApiKeyIssued',
        data: { apiKey: invented.apiKey, scope: 'admin', name: null, expiresAt: null, at },
        metadata: {},
        recordedAt: at,
        prevHash: null,
      });
      await reset.close();

      service = await start();
      expect((await client(service.app, older).get('/api/v1/policies')).statusCode).toBe(200);
      expect((await client(service.app, issued).get('/api/v1/policies')).statusCode).toBe(200);
      expect((await client(service.app, invented).get('/api/v1/policies')).statusCode).toBe(401);
      const trail = (await client(service.app, older).get('/api/v1/audit-log')).json().data as { action: string }[];
      expect(trail.map((e) => e.action)).toContain('tenant.created');
    } finally {
      await service.close();
      await stored.remove();
    }
  }, 90_000);

  it('a store made since the audit trail began: a row written before the upgrade is not adopted', async () => {
    const stored = await restartableStore();
    const start = () => stored.start({}, { log });
    let service = await start();
    try {
      const honest = await service.tenants.create('honest', 'starter');
      await service.close();
      // The previous version left no mark (it had none), and a writer added rows before the upgrade.
      const store = await stored.open();
      await forgetAdoption(store.db);
      const invented = randomUUID();
      const forged = [`ck_${randomUUID().replaceAll('-', '').slice(0, 24)}`, `ck_${randomUUID().replaceAll('-', '').slice(0, 24)}`];
      const apiSecret = `cs_${randomUUID()}`;
      await sql`INSERT INTO control.tenants (id, name, plan) VALUES (${invented}, 'invented', 'enterprise')`.execute(store.db);
      await sql`INSERT INTO control.api_keys (api_key, tenant_id, secret_hash) VALUES
        (${forged[0]}, ${honest.tenantId}, ${hashSecret(apiSecret)}), (${forged[1]}, ${invented}, ${hashSecret(apiSecret)})`.execute(
        store.db,
      );
      await store.close();
      service = await start();
      expect((await client(service.app, honest).get('/api/v1/policies')).statusCode).toBe(200);
      for (const apiKey of forged) expect((await client(service.app, { apiKey, apiSecret }).get('/api/v1/policies')).statusCode).toBe(401);
    } finally {
      await service.close();
      await stored.remove();
    }
  }, 60_000);
});
