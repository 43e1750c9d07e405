import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, startTestService, type TestService } from '../../test/support/service.js';
import { dueWebhooks } from './dispatcher.js';
import { webhooksDb } from './webhooks.table.js';

let t: TestService;
const hooks: string[] = [];

// Eleven webhooks with deliveries due, most with a long backlog, as an outage leaves them; made
// inactive so that the service's own dispatcher leaves them be, and made active only inside a
// transaction the test rolls back.
beforeAll(async () => {
  t = await startTestService({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  const creds = await t.tenant();
  const api = client(t.app, creds);
  for (let i = 0; i < 11; i++) {
    const res = await api.post('/api/v1/webhooks', { url: `https://127.0.0.1:9/hook${i}`, events: ['*'], isActive: false });
    expect(res.statusCode).toBe(201);
    hooks.push(res.json().data.id);
    await sql`
      INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, status, next_attempt_at)
      SELECT gen_random_uuid(), ${creds.tenantId}::uuid, ${hooks[i]!}::uuid, gen_random_uuid(), 'policy.created', '{}', 'pending',
        now() - make_interval(secs => n)
      FROM generate_series(1, ${i === 10 ? 1 : 200}) AS n`.execute(t.service.store.db);
  }
  hooks.sort();
}, 60_000);
afterAll(async () => t?.close());

/** Runs `check` with the eleven webhooks active, in a transaction rolled back after. */
async function whileActive(check: (db: ReturnType<typeof webhooksDb>) => Promise<void>): Promise<void> {
  const rollback = new Error('rollback');
  await webhooksDb(t.service.store.db)
    .transaction()
    .execute(async (tx) => {
      await sql`UPDATE webhooks.endpoints SET is_active = true WHERE id = ANY(${hooks}::uuid[])`.execute(tx);
      await check(tx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
}

/** Each webhook due, after any last served, takes its turn in id order, wrapping round. */
async function expectTurnsInIdOrder(): Promise<void> {
  await whileActive(async (db) => {
    for (const [i, after] of hooks.entries()) {
      expect(await dueWebhooks(db, { after, upTo: null, saturated: [], limit: 3 })).toEqual(hooks.slice(i + 1, i + 4));
      // Wrapping round: from the first, up to and with the last served.
      expect(await dueWebhooks(db, { after: null, upTo: after, saturated: [], limit: 3 })).toEqual(hooks.slice(0, Math.min(3, i + 1)));
    }
    expect(await dueWebhooks(db, { after: null, upTo: null, saturated: hooks.slice(0, 2), limit: 2 })).toEqual(hooks.slice(2, 4));
  });
}

describe('webhooks › dispatcher turns', () => {
  // Without statistics (autovacuum off or not yet run) the planner hash-joined the checks and
  // returned the webhooks out of order: the newest webhook lost its turn until the backlog drained.
  it('takes the webhooks due in id order after the last served, on a table never analysed', expectTurnsInIdOrder);

  it('and on one analysed', async () => {
    await sql`ANALYZE webhooks.deliveries, webhooks.endpoints`.execute(t.service.store.db);
    await expectTurnsInIdOrder();
  });
});
