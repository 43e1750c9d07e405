import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestService, type Client, type TestService } from '../../test/support/service.js';
import { waitUntil } from '../../test/support/process.js';
import { INTERRUPTED_TEST } from './dispatcher.js';

let t: TestService;
let api: Client;
let tenantId: string;
let webhookId: string;

beforeAll(async () => {
  t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const creds = await t.tenant();
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  const res = await api.post('/api/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['*'], isActive: false });
  expect(res.statusCode).toBe(201);
  webhookId = res.json().data.id;
}, 60_000);
afterAll(async () => t?.close());

describe('webhooks › a test delivery whose process stopped while sending it', () => {
  it('is recorded failed, saying so, not left pending for ever', async () => {
    // What POST /webhooks/:id/test leaves behind a kill -9 mid-send: pending, no due time, no attempt.
    const deliveryId = randomUUID();
    await sql`
      INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, status, next_attempt_at, created_at, updated_at)
      VALUES (${deliveryId}, ${tenantId}, ${webhookId}, ${randomUUID()}, 'webhook.test', '{}', 'pending', NULL,
        now() - interval '1 hour', now() - interval '1 hour')`.execute(t.service.store.db);
    const history = await waitUntil(
      async () => {
        const rows = (await api.get(`/api/v1/webhooks/${webhookId}/deliveries`)).json().data as Record<string, unknown>[];
        return rows.find((r) => r.deliveryId === deliveryId);
      },
      { what: 'the interrupted test in the history' },
    );
    expect(history).toMatchObject({
      event: 'webhook.test',
      attempt: 1,
      success: false,
      statusCode: null,
      deliveryStatus: 'failed',
      nextAttemptAt: null,
    });
    expect(history.error).toBe(INTERRUPTED_TEST);
    const { status } = (
      await sql<{ status: string }>`SELECT status FROM webhooks.deliveries WHERE id = ${deliveryId}`.execute(t.service.store.db)
    ).rows[0]!;
    expect(status).toBe('failed');
  });
});
