import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { advisoryExclusive, WEBHOOK_HISTORY_LOCK } from '../../projections/verify.js';
import { serviceWithIdleWebhook, type TestService } from '../../test/support/service.js';
import { serverUrl } from '../../test/support/stores.js';
import { silentLog } from '../common/log.js';
import { WebhookHistoryPruner } from './retention.js';

const DAY = 86_400_000;
let t: TestService;
let tenantId: string;
let webhookId: string;

beforeAll(async () => {
  ({ t, tenantId, webhookId } = await serviceWithIdleWebhook());
}, 60_000);
afterAll(async () => t?.close());

/** A delivery last changed `ageDays` ago, with attempts made at the given ages. */
async function delivery(status: string, ageDays: number, attemptAges: number[]): Promise<string> {
  const id = randomUUID();
  const at = (days: number) => new Date(Date.now() - days * DAY).toISOString();
  await sql`
    INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, status, attempts, next_attempt_at, created_at, updated_at)
    VALUES (${id}::uuid, ${tenantId}::uuid, ${webhookId}::uuid, ${randomUUID()}::uuid, 'consent.created', '{}', ${status}, ${attemptAges.length},
      ${status === 'pending' ? at(-1) : null}::timestamptz, ${at(ageDays + 1)}::timestamptz, ${at(ageDays)}::timestamptz)`.execute(
    t.service.store.db,
  );
  for (const [i, age] of attemptAges.entries()) {
    await sql`
      INSERT INTO webhooks.attempts (id, delivery_id, tenant_id, webhook_id, event_id, event_type, attempt, status_code, success, error, response_time_ms, attempted_at)
      VALUES (${randomUUID()}::uuid, ${id}::uuid, ${tenantId}::uuid, ${webhookId}::uuid, ${randomUUID()}::uuid, 'consent.created', ${i + 1}, 500, false, 'x', 5,
        ${at(age)}::timestamptz)`.execute(t.service.store.db);
  }
  return id;
}

const remaining = async () => {
  const d = await sql<{ id: string }>`SELECT id FROM webhooks.deliveries WHERE webhook_id = ${webhookId}::uuid`.execute(t.service.store.db);
  const a = await sql<{ delivery_id: string; n: number }>`
    SELECT delivery_id, count(*)::int AS n FROM webhooks.attempts WHERE webhook_id = ${webhookId}::uuid GROUP BY 1`.execute(
    t.service.store.db,
  );
  return { deliveries: new Set(d.rows.map((r) => r.id)), attempts: new Map(a.rows.map((r) => [r.delivery_id, r.n])) };
};

describe('webhooks › history retention (WEBHOOK_HISTORY_DAYS)', () => {
  it('removes attempts and settled deliveries older than the days, in small batches; never a pending delivery', async () => {
    const oldDelivered = await Promise.all(Array.from({ length: 5 }, () => delivery('delivered', 100, [101, 100])));
    const oldFailed = await delivery('failed', 95, [99, 98, 97, 96, 95]);
    const oldPending = await delivery('pending', 120, [121, 120]);
    const recentFailed = await delivery('failed', 2, [120, 3, 2]);
    const recentDelivered = await delivery('delivered', 10, [10]);
    const pruner = new WebhookHistoryPruner(t.service.store.db, { days: 90, batchSize: 3, log: silentLog });
    const steps: { attempts: number; deliveries: number }[] = [];
    for (;;) {
      const step = (await pruner.runOnce())!;
      steps.push(step);
      if (step.attempts === 0 && step.deliveries === 0) break;
    }
    // Batches of at most 3: 17 old attempts and 6 old settled deliveries take several rounds.
    expect(steps.length).toBeGreaterThanOrEqual(6);
    expect(steps.every((s) => s.attempts <= 3 && s.deliveries <= 3)).toBe(true);
    const left = await remaining();
    for (const id of [...oldDelivered, oldFailed]) expect(left.deliveries.has(id)).toBe(false);
    expect(left.deliveries.has(oldPending)).toBe(true);
    expect(left.attempts.get(oldPending)).toBeUndefined();
    expect(left.deliveries.has(recentFailed)).toBe(true);
    expect(left.attempts.get(recentFailed)).toBe(2);
    expect(left.deliveries.has(recentDelivered)).toBe(true);
    expect(left.attempts.get(recentDelivered)).toBe(1);
  });

  it.runIf(serverUrl)('on a shared server, one process prunes at a time: another finds the lock held and skips', async () => {
    const other = new pg.Client({ connectionString: (t.service.settings.databaseUrl as string | undefined) ?? serverUrl });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1)', [WEBHOOK_HISTORY_LOCK]);
      const pruner = new WebhookHistoryPruner(t.service.store.db, {
        days: 90,
        log: silentLog,
        exclusive: advisoryExclusive(t.service.store.db, WEBHOOK_HISTORY_LOCK),
      });
      expect(await pruner.runOnce()).toBeNull();
      await other.query('SELECT pg_advisory_unlock($1)', [WEBHOOK_HISTORY_LOCK]);
      expect(await pruner.runOnce()).not.toBeNull();
    } finally {
      await other.end();
    }
  });
});
