import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceWithIdleWebhook, type TestService } from '../../test/support/service.js';
import type { OutboundResult } from './outbound.js';
import { AttemptRecorder, MAX_ATTEMPTS, recordAttempts, type Attempt } from './dispatcher.js';
import { webhooksDb } from './webhooks.table.js';

let t: TestService;
let tenantId: string;
let webhookId: string;

beforeAll(async () => {
  ({ t, tenantId, webhookId } = await serviceWithIdleWebhook());
}, 60_000);
afterAll(async () => t?.close());

/** A pending delivery that has had `attempts` attempts. */
async function pending(attempts = 0): Promise<Attempt['delivery']> {
  const d = { id: randomUUID(), tenant_id: tenantId, webhook_id: webhookId, event_id: randomUUID(), event_type: 'consent.created' };
  await sql`
    INSERT INTO webhooks.deliveries (id, tenant_id, webhook_id, event_id, event_type, payload, status, attempts, next_attempt_at)
    VALUES (${d.id}::uuid, ${tenantId}::uuid, ${webhookId}::uuid, ${d.event_id}::uuid, 'consent.created', '{}', 'pending', ${attempts}, now())`.execute(
    t.service.store.db,
  );
  return d;
}

const ok: OutboundResult = { ok: true, statusCode: 200, responseTimeMs: 7, error: null };
const refused: OutboundResult = { ok: false, statusCode: 503, responseTimeMs: 9, error: 'HTTP 503' };

describe('webhooks › attempts recorded together', () => {
  it('records each attempt of a group as alone: its number, the delivery delivered, retried or failed; a gone one is null', async () => {
    const [delivered, retried, last] = [await pending(), await pending(1), await pending(MAX_ATTEMPTS - 1)];
    const gone = { ...delivered, id: randomUUID() };
    const at = new Date('2026-01-02T03:04:05Z');
    const numbers = await recordAttempts(
      webhooksDb(t.service.store.db),
      [
        { delivery: delivered, result: ok, attemptedAt: at },
        { delivery: gone, result: ok, attemptedAt: at },
        { delivery: retried, result: refused, attemptedAt: at },
        { delivery: last, result: refused, attemptedAt: at },
      ],
      { retryScale: 1 },
    );
    expect(numbers).toEqual([1, null, 2, MAX_ATTEMPTS]);
    const rows = await sql<{ id: string; status: string; attempts: number; retry_in: number | null }>`
      SELECT id, status, attempts, round(EXTRACT(EPOCH FROM next_attempt_at - now()))::int AS retry_in
      FROM webhooks.deliveries WHERE id IN (${delivered.id}::uuid, ${retried.id}::uuid, ${last.id}::uuid)`.execute(t.service.store.db);
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    expect(byId.get(delivered.id)).toMatchObject({ status: 'delivered', attempts: 1, retry_in: null });
    // The second attempt failed: the third is due 5 minutes on (RETRY_DELAYS_S).
    expect(byId.get(retried.id)).toMatchObject({ status: 'pending', attempts: 2 });
    expect(byId.get(retried.id)!.retry_in).toBeGreaterThan(290);
    expect(byId.get(last.id)).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS, retry_in: null });
    const history = await sql<{ delivery_id: string; attempt: number; success: boolean; status_code: number; error: string | null }>`
      SELECT delivery_id, attempt, success, status_code, error FROM webhooks.attempts
      WHERE delivery_id IN (${delivered.id}::uuid, ${retried.id}::uuid, ${last.id}::uuid) ORDER BY attempt`.execute(t.service.store.db);
    expect(history.rows).toEqual([
      { delivery_id: delivered.id, attempt: 1, success: true, status_code: 200, error: null },
      { delivery_id: retried.id, attempt: 2, success: false, status_code: 503, error: 'HTTP 503' },
      { delivery_id: last.id, attempt: MAX_ATTEMPTS, success: false, status_code: 503, error: 'HTTP 503' },
    ]);
  });

  it('refuses two attempts on one delivery in a group, recording neither', async () => {
    const d = await pending();
    const twice = [0, 1].map(() => ({ delivery: d, result: ok, attemptedAt: new Date() }));
    await expect(recordAttempts(webhooksDb(t.service.store.db), twice, { retryScale: 1 })).rejects.toThrow(/one attempt per delivery/);
    const row = await sql<{ attempts: number }>`SELECT attempts FROM webhooks.deliveries WHERE id = ${d.id}::uuid`.execute(
      t.service.store.db,
    );
    expect(row.rows[0]!.attempts).toBe(0);
  });
});

describe('webhooks › the dispatcher records its attempts in groups', () => {
  /** A recorder whose writes wait for the test to let them go, and say what each group held. */
  function gated() {
    const groups: string[][] = [];
    const gates: (() => void)[] = [];
    /** The groups (by their order, from 0) whose writes fail. */
    const failing = new Set<number>();
    const recorder = new AttemptRecorder(async (attempts) => {
      const index = groups.push(attempts.map((a) => a.delivery.event_id)) - 1;
      await new Promise<void>((resolve) => gates.push(resolve));
      if (failing.has(index)) throw new Error('store down');
    }, 3);
    const attempt = (name: string, id = randomUUID()): Attempt => ({
      delivery: { id, tenant_id: tenantId, webhook_id: webhookId, event_id: name, event_type: 'consent.created' },
      result: ok,
      attemptedAt: new Date(),
    });
    const open = async (n: number) => {
      await expect.poll(() => gates.length).toBe(n);
      gates[n - 1]!();
    };
    return { recorder, groups, attempt, open, failing };
  }

  it('records one at once, then those that ended meanwhile together, up to the most a group holds, one per delivery', async () => {
    const { recorder, groups, attempt, open } = gated();
    const same = randomUUID();
    const first = recorder.record(attempt('a'));
    const rest = ['b', 'c', 'd', 'e'].map((name) => recorder.record(attempt(name, name === 'c' ? same : undefined)));
    const again = recorder.record(attempt('c again', same));
    await open(1);
    await first;
    await open(2);
    await open(3);
    await Promise.all([...rest, again]);
    // b, c and d in one group of three; e, and c's delivery claimed again, in the next.
    expect(groups).toEqual([['a'], ['b', 'c', 'd'], ['e', 'c again']]);
  });

  it('tells each attempt of a group that could not be recorded, and goes on with the next group', async () => {
    const { recorder, groups, attempt, open, failing } = gated();
    failing.add(1);
    const first = recorder.record(attempt('a'));
    const lost = [recorder.record(attempt('b')), recorder.record(attempt('c'))];
    await open(1);
    await first;
    await open(2);
    for (const p of lost) await expect(p).rejects.toThrow('store down');
    const later = recorder.record(attempt('d'));
    await open(3);
    await later;
    expect(groups).toEqual([['a'], ['b', 'c'], ['d']]);
  });
});
