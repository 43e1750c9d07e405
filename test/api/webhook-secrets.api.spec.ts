import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateMasterKey } from '../../src/privacy/key-store.js';
import { rewrapWebhookSecrets } from '../../src/webhooks/signing.js';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { client, publishPolicy, startTestService, type TestService } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * Webhook signing secrets are stored wrapped with the master key (docs/webhooks.md): the store
 * holds no secret in clear, deliveries are still signed with it, a secret an earlier version kept in
 * clear is wrapped at the next start, and `keys rotate-master` re-wraps them.
 */

const OWN_SECRET = 'my-own-signing-secret-0123456789';
const LEGACY_SECRET = 'legacy-clear-secret-abcdefghij';

let receiver: Receiver;
let cert: string;
let location: { env: Record<string, string>; dispose(): Promise<void> };

beforeAll(async () => {
  cert = (await testCertificate()).cert;
  receiver = await startReceiver();
  if (serverUrl) {
    const fresh = await freshDatabase();
    location = { env: fresh.env, dispose: fresh.drop };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'cl-webhook-secrets-'));
    location = { env: { DATA_DIR: dir }, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
  }
});
afterAll(async () => {
  await receiver?.close();
  await location?.dispose();
});

const start = (masterKey: Buffer): Promise<TestService> =>
  startTestService(
    { ...location.env, MASTER_KEY: masterKey.toString('hex'), WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    { webhooks: { outbound: { ca: cert } } },
  );

/** Every column of every endpoint row, as text. */
async function endpointsText(t: TestService): Promise<string> {
  const rows = await sql<{ row: string }>`SELECT row_to_json(e)::text AS row FROM webhooks.endpoints e`.execute(t.service.store.db);
  return rows.rows.map((r) => r.row).join('\n');
}

/** Publishes a policy and answers the delivery the receiver got for it, once it came. */
async function deliveryOf(api: ReturnType<typeof client>): Promise<{ body: string; signature: string }> {
  const before = receiver.received.length;
  await publishPolicy(api);
  await receiver.waitFor((r) => r.length > before, 'a delivery', 10_000);
  const got = receiver.received[receiver.received.length - 1]!;
  return { body: got.body, signature: String(got.headers['x-signature']) };
}

const signed = (secret: string, body: string) => createHmac('sha256', Buffer.from(secret, 'utf8')).update(body, 'utf8').digest('hex');

describe('webhook secrets › when a webhook is registered › the store holds its secret wrapped, and deliveries are signed with it', () => {
  it('no clear secret in the store; a legacy clear secret is wrapped at the next start; rotate-master re-wraps them', async () => {
    const oldKey = randomBytes(32);
    let t = await start(oldKey);
    const creds = await t.tenant('pro');
    let api = client(t.app, creds);
    const own = await api.post('/api/v1/webhooks', { url: receiver.url, events: ['policy.created'], secret: OWN_SECRET });
    expect(own.statusCode, own.body).toBe(201);
    expect(own.json().data.secret).toBe(OWN_SECRET);
    const webhookId = own.json().data.id as string;
    const generated = await api.post('/api/v1/webhooks', { url: `${receiver.url}?unused`, events: ['consent.created'] });
    expect(generated.statusCode).toBe(201);
    const generatedSecret = generated.json().data.secret as string;

    const stored = await endpointsText(t);
    expect(stored).not.toContain(OWN_SECRET);
    expect(stored).not.toContain(generatedSecret.slice('whsec_'.length));
    const row = (
      await sql<{
        secret: string;
        secret_wrapped: string | null;
      }>`SELECT secret, secret_wrapped FROM webhooks.endpoints WHERE id = ${webhookId}`.execute(t.service.store.db)
    ).rows[0]!;
    expect(row.secret).toBe('');
    expect(row.secret_wrapped).toMatch(/^\S{40,}$/);

    let d = await deliveryOf(api);
    expect(d.signature).toBe(signed(OWN_SECRET, d.body));
    // The test delivery opens it too.
    expect((await api.post(`/api/v1/webhooks/${webhookId}/test`)).json().data.delivered).toBe(true);

    // As an earlier version left it: the secret in clear, nothing wrapped. The next start wraps it.
    await sql`UPDATE webhooks.endpoints SET secret = ${LEGACY_SECRET}, secret_wrapped = NULL WHERE id = ${webhookId}`.execute(
      t.service.store.db,
    );
    await t.close();
    t = await start(oldKey);
    api = client(t.app, creds);
    expect(await endpointsText(t)).not.toContain(LEGACY_SECRET);
    d = await deliveryOf(api);
    expect(d.signature).toBe(signed(LEGACY_SECRET, d.body));

    // Rotation (the CLI runs it with the service stopped; here on the store the service opened, closed right after).
    const newKey = randomBytes(32);
    const rotated = await rotateMasterKey(t.service.store.db, oldKey, newKey, { webhookSecrets: rewrapWebhookSecrets });
    expect(rotated.webhookSecrets).toBe(2);
    await t.close();
    t = await start(newKey);
    try {
      api = client(t.app, creds);
      d = await deliveryOf(api);
      expect(d.signature).toBe(signed(LEGACY_SECRET, d.body));
      expect(await endpointsText(t)).not.toContain(LEGACY_SECRET);
    } finally {
      await t.close();
    }
  });
});
