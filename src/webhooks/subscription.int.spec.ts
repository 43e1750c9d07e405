import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../../test/support/process.js';
import { client, publishPolicy, startTestService, type TestService } from '../../test/support/service.js';
import { comparePositions } from '../ledger/ledger.port.js';
import { SUBSCRIPTION_NAME, WebhookSubscription } from './subscription.js';

/**
 * The checkpointed webhook subscription (PostgreSQL and embedded ledgers), driven batch by batch on
 * the real store with the service's own subscription stopped.
 */
describe('webhook subscription › batches that queue nothing write nothing', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
    await t.service.webhooks.stop();
  });
  afterAll(() => t?.close());

  const checkpoint = async () =>
    (
      await sql<{
        c: string;
        p: string;
      }>`SELECT commit_position::text AS c, prepare_position::text AS p FROM webhooks.checkpoints WHERE name = ${SUBSCRIPTION_NAME}`.execute(
        t.service.store.db,
      )
    ).rows[0];
  const deliveries = async (tenantId: string) =>
    (
      await sql<{
        event_type: string;
      }>`SELECT event_type FROM webhooks.deliveries WHERE tenant_id = ${tenantId}::uuid ORDER BY created_at`.execute(t.service.store.db)
    ).rows.map((r) => r.event_type);
  /**
   * Until `condition` holds (bounded). On a server, `readAll` holds back events behind any
   * transaction still open on the cluster (another test file's too): a read may need a retry.
   */
  const until = (condition: () => Promise<boolean>, what: string) => waitUntil(condition, { timeoutMs: 10_000, intervalMs: 10, what });
  const subscription = () =>
    new WebhookSubscription(t.service.store.db, t.service.ledger, { privacy: t.service.privacy, checkpointIdleMs: 600_000 });

  it('reads past events no webhook wants without a transaction, then queues and saves the checkpoint with the next that one does', async () => {
    const quiet = await t.tenant();
    const hooked = await t.tenant();
    const before = await checkpoint();
    const s = subscription();
    // A policy of a tenant without webhooks: read, nothing queued, the checkpoint row untouched.
    await publishPolicy(client(t.app, quiet));
    await until(async () => (await s.runOnce()) > 0, 'the policy event read');
    expect(await checkpoint()).toEqual(before);
    // Then a tenant with a webhook: its event is queued, and the checkpoint moves past both.
    const h = client(t.app, hooked);
    expect((await h.post('/api/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).statusCode).toBe(201);
    await publishPolicy(h);
    await until(async () => (await s.runOnce(), (await deliveries(hooked.tenantId)).length > 0), 'the delivery queued');
    expect(await deliveries(hooked.tenantId)).toEqual(['policy.created']);
    const after = await checkpoint();
    expect(after).not.toEqual(before);
    expect(await s.runOnce()).toBe(0);
    // A process that starts from the saved checkpoint finds nothing more to queue.
    expect(await subscription().runOnce()).toBe(0);
    expect(await deliveries(hooked.tenantId)).toEqual(['policy.created']);
  });

  it('reads again, and queues nothing twice, when it restarts from a checkpoint left behind', async () => {
    const hooked = await t.tenant();
    const h = client(t.app, hooked);
    expect((await h.post('/api/v1/webhooks', { url: 'https://hooks.example.com/y', events: ['policy.created'] })).statusCode).toBe(201);
    const first = subscription();
    while ((await first.runOnce()) > 0);
    const saved = await checkpoint();
    await publishPolicy(h);
    await until(async () => (await first.runOnce(), (await deliveries(hooked.tenantId)).length > 0), 'the delivery queued');
    expect(await deliveries(hooked.tenantId)).toEqual(['policy.created']);
    // Put the checkpoint back, as if the process had died before saving it.
    await sql`UPDATE webhooks.checkpoints SET commit_position = ${saved!.c}::bigint, prepare_position = ${saved!.p}::bigint WHERE name = ${SUBSCRIPTION_NAME}`.execute(
      t.service.store.db,
    );
    const restarted = subscription();
    await until(async () => (await restarted.runOnce()) > 0, 'the events after the old checkpoint read again');
    expect(await deliveries(hooked.tenantId)).toEqual(['policy.created']);
  });

  it('leaves pending a delivery sent again after a deactivation and re-activation it has not yet reached', async () => {
    const hooked = await t.tenant();
    const h = client(t.app, hooked);
    const created = await h.post('/api/v1/webhooks', { url: 'https://hooks.example.com/z', events: ['policy.created'] });
    const webhookId = created.json().data.id as string;
    const s = subscription();
    while ((await s.runOnce()) > 0);
    await publishPolicy(h);
    await until(async () => (await s.runOnce(), (await deliveries(hooked.tenantId)).length > 0), 'the delivery queued');
    const status = async () =>
      (
        await sql<{ id: string; status: string }>`SELECT id, status FROM webhooks.deliveries WHERE webhook_id = ${webhookId}::uuid`.execute(
          t.service.store.db,
        )
      ).rows[0]!;
    // Deactivated (its delivery cancelled), re-activated, and the delivery sent again: all before
    // the subscription has read either change.
    expect((await h.patch(`/api/v1/webhooks/${webhookId}`, { isActive: false })).statusCode).toBe(200);
    expect((await h.patch(`/api/v1/webhooks/${webhookId}`, { isActive: true })).statusCode).toBe(200);
    const { id, status: cancelled } = await status();
    expect(cancelled).toBe('cancelled');
    const sent = await h.post(`/api/v1/webhooks/${webhookId}/deliveries/${id}/redeliver`);
    expect(sent.statusCode, sent.body).toBe(202);
    // The subscription then reaches the deactivation: what it cancels was pending before it, not this.
    const head = (await t.service.ledger.headPosition())!;
    await until(async () => {
      await s.runOnce();
      const at = await checkpoint();
      return at !== undefined && comparePositions({ commit: Number(at.c), prepare: Number(at.p) }, head) >= 0;
    }, 'both changes read');
    expect((await status()).status).toBe('pending');
  });
});
