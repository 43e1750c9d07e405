import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 21: whether an event goes to a webhook is decided by the event's position in the ledger
 * against the webhook's own events (created, changed, deleted), not by the webhook's state when the
 * subscription gets to the event. Each scenario stops the subscription, makes the changes, starts
 * it again: the outcome is what it would have been had the subscription kept up.
 */

let t: TestService;
let api: Client;
let receiver: Receiver;
let policyVersionId: string;

beforeAll(async () => {
  const { cert } = await testCertificate();
  t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, { webhooks: { outbound: { ca: cert } } });
  api = client(t.app, await t.tenant('pro'));
  receiver = await startReceiver();
  policyVersionId = await publishPolicy(api);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

const subscription = () =>
  t.service.webhooks.subscription as unknown as { stop(): Promise<void>; start(): Promise<void>; catchUp(): Promise<number> };

async function record(userReference: string): Promise<string> {
  const res = await api.post('/api/v1/consent', { policyVersionId, userReference, consentGiven: true });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

/** The delivery rows of a webhook, by consent id: their status. */
async function deliveries(webhookId: string): Promise<Map<string, string>> {
  const rows = await sql<{ status: string; consent_id: string }>`
    SELECT status, payload::jsonb #>> '{data,id}' AS consent_id FROM webhooks.deliveries WHERE webhook_id = ${webhookId}::uuid`.execute(
    t.service.store.db,
  );
  return new Map(rows.rows.map((r) => [r.consent_id, r.status]));
}

async function webhook(events: string[]): Promise<string> {
  const res = await api.post('/api/v1/webhooks', { url: receiver.url, events });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

/** Runs `changes` while the subscription is stopped, then lets it catch up. */
async function behindTheSubscription(changes: () => Promise<void>): Promise<void> {
  await subscription().stop();
  try {
    await changes();
  } finally {
    await subscription().start();
  }
  await subscription().catchUp();
}

describe('webhooks › decided by ledger position', () => {
  it('an event written before a deactivation is cancelled with what was pending, not dropped; one after it gets nothing', async () => {
    const id = await webhook(['consent.created']);
    let before = '';
    let after = '';
    await behindTheSubscription(async () => {
      before = await record('window-before');
      expect((await api.patch(`/api/v1/webhooks/${id}`, { isActive: false })).statusCode).toBe(200);
      after = await record('window-after');
    });
    const rows = await deliveries(id);
    expect(rows.get(before)).toBe('cancelled');
    expect(rows.has(after)).toBe(false);
  });

  it('an event written while inactive is not delivered after re-activation; one after it is', async () => {
    const id = await webhook(['consent.created']);
    expect((await api.patch(`/api/v1/webhooks/${id}`, { isActive: false })).statusCode).toBe(200);
    let inactive = '';
    let reactivated = '';
    await behindTheSubscription(async () => {
      inactive = await record('window-inactive');
      expect((await api.patch(`/api/v1/webhooks/${id}`, { isActive: true })).statusCode).toBe(200);
      reactivated = await record('window-reactivated');
    });
    const rows = await deliveries(id);
    expect(rows.has(inactive)).toBe(false);
    expect(rows.get(reactivated)).toMatch(/pending|delivered/);
    await receiver.waitFor((r) => r.some((x) => x.json?.data?.id === reactivated), 'the delivery after re-activation');
  });

  it('the events a webhook takes are those it subscribed to at the event, not at the time the subscription reads it', async () => {
    const id = await webhook(['consent.created']);
    let created = '';
    let later = '';
    await behindTheSubscription(async () => {
      created = await record('window-events-1');
      expect((await api.patch(`/api/v1/webhooks/${id}`, { events: ['consent.withdrawn'] })).statusCode).toBe(200);
      later = await record('window-events-2');
    });
    const rows = await deliveries(id);
    expect(rows.get(created)).toMatch(/pending|delivered/);
    expect(rows.has(later)).toBe(false);
  });

  it('a deleted webhook takes nothing, even events written before the deletion', async () => {
    const id = await webhook(['consent.created']);
    await behindTheSubscription(async () => {
      await record('window-deleted');
      expect((await api.delete(`/api/v1/webhooks/${id}`)).statusCode).toBe(200);
    });
    expect((await deliveries(id)).size).toBe(0);
  });
});
