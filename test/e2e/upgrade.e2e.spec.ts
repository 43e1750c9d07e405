import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { READ_SCHEMA_VERSION } from '../../projections/read-schema.js';
import { publishThrough, startServiceProcess, tenantClient, type ServiceProcess } from '../support/process.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * An upgrade whose read models have another shape: the service started on a store an older
 * version left finds read models of another version, says so, rebuilds them from the ledger, and
 * answers what was recorded before, as it was.
 */

if (!serverUrl) console.log('[upgrade.e2e] DATABASE_URL is not set: the upgrade of a server store is not tested');

describe.skipIf(!serverUrl)('upgrade › read models of another version', () => {
  let db: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let svc: ServiceProcess | undefined;
  afterAll(async () => {
    await svc?.kill('SIGTERM');
    await db?.drop();
  });

  it('are rebuilt from the ledger on start, with a notice, and answer as before', async () => {
    db = await freshDatabase();
    svc = await startServiceProcess({ ...db.env });
    const creds = await svc.credentials();
    let api = tenantClient(svc.url, creds);
    const policyVersionId = await publishThrough(api);
    const recorded = await api.post('/api/v1/consent', { policyVersionId, userReference: 'u-1', consentGiven: true });
    expect(recorded.status).toBe(201);
    const before = (await api.get('/api/v1/consent/user/u-1')).body.data;
    expect(svc.stderr()).not.toMatch(/read models of this version/);
    await svc.kill('SIGTERM');

    // What an older version leaves: its version number in read.meta (and tables of its shape).
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query(`UPDATE read.meta SET value = $1 WHERE key = 'version'`, [String(READ_SCHEMA_VERSION - 1)]);
    await client.end();

    svc = await startServiceProcess({ ...db.env });
    await svc.waitForOutput(/the read models of this version have another shape; they are being rebuilt from the ledger/, {
      stream: 'stderr',
    });
    api = tenantClient(svc.url, creds);
    // Read-your-writes holds across the rebuild: the read waits for the replay to reach the tenant's writes.
    const after = (await api.get('/api/v1/consent/user/u-1')).body.data;
    expect(after).toEqual(before);
    expect((await api.get('/api/v1/consent/stats/daily?startDate=2026-01-01&endDate=2026-01-01')).status).toBe(200);
  });
});
