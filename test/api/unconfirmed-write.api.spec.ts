import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';
import { serverUrl } from '../support/stores.js';

/**
 * A write whose connection to the ledger is lost after it was sent may have been recorded (a
 * COMMIT whose answer was lost): the 503 must not say that nothing was, and the retry it advises
 * (the same Idempotency-Key) must record the decision once.
 */
describe.skipIf(!serverUrl)('a write the ledger did not confirm', () => {
  let t: TestService;
  let api: Client;
  let tenantId: string;
  let raw: pg.Client;
  beforeAll(async () => {
    t = await startTestService();
    const creds = await t.tenant();
    tenantId = creds.tenantId;
    api = client(t.app, creds);
    raw = new pg.Client({ connectionString: t.service.settings.databaseUrl });
    await raw.connect();
  }, 60_000);
  afterAll(async () => {
    await raw?.query('ROLLBACK').catch(() => undefined);
    await raw?.end();
    await t?.close();
  });

  it('answers 503 saying it may have been recorded; the same Idempotency-Key then records it once', async () => {
    const policyVersionId = await publishPolicy(api);
    const body = { policyVersionId, userReference: 'user-unconfirmed', consentGiven: true };
    const headers = { 'idempotency-key': 'unconfirmed-1' };
    // The ledger's table held (reads go on); the append waits for it, and its connection is cut.
    await raw.query('BEGIN');
    await raw.query('LOCK TABLE ledger.events IN SHARE MODE');
    const sent = api.post('/api/v1/consent', body, headers);
    const cut = await waitUntil(
      async () => {
        const { rows } = await raw.query<{ n: number }>(
          `SELECT count(pg_terminate_backend(l.pid))::int AS n FROM pg_locks l
           WHERE NOT l.granted AND l.relation = 'ledger.events'::regclass`,
        );
        return rows[0]!.n > 0 && rows[0]!.n;
      },
      { what: 'the append waiting on the ledger table' },
    );
    expect(cut).toBe(1);
    const res = await sent;
    await raw.query('ROLLBACK');
    expect(res.statusCode, res.body).toBe(503);
    const error = res.json().error;
    expect(error.code).toBe('SERVICE_UNAVAILABLE');
    expect(error.message).toMatch(/may have been recorded/);
    expect(error.message).not.toMatch(/nothing was recorded/);
    expect(error.details).toEqual({ recorded: 'unknown' });

    const again = await api.post(`/api/v1/consent`, body, headers);
    expect(again.statusCode, again.body).toBe(201);
    const repeat = await api.post('/api/v1/consent', body, headers);
    expect(repeat.json().data.id).toBe(again.json().data.id);
    const { rows } = await raw.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ledger.events WHERE event_type = 'ConsentRecorded' AND tenant_id = $1`,
      [tenantId],
    );
    expect(rows[0]!.n).toBe(1);
  });
});
