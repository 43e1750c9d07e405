import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliStarted, createTenantWithCli, withService } from '../support/cli.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * The operator's long commands stop cleanly on Ctrl-C, as the import does: `ledger copy` after the
 * append under way (a run again resumes), `projections rebuild` after the batch under way (the
 * service's projectors go on from there). Each is stopped once the work is seen under way in the
 * database it writes, never after a guessed delay.
 */

const ROWS = 40_000;

/** `SELECT count(*)` of a table of the database at `url`; 0 while the table does not exist. */
async function rows(url: string, table: string): Promise<number> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return Number((await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${table}`)).rows[0]!.n);
  } catch {
    return 0;
  } finally {
    await db.end();
  }
}

describe.skipIf(!serverUrl)('long commands › Ctrl-C stops them cleanly, and a run again goes on', () => {
  let source: Awaited<ReturnType<typeof freshDatabase>>;
  let tenant: { tenantId: string; apiKey: string; apiSecret: string };
  let events: number;
  const files = mkdtempSync(join(tmpdir(), 'cl-stopping-'));

  beforeAll(async () => {
    source = await freshDatabase();
    tenant = await createTenantWithCli(source.env, 'Stopping', 'pro');
    await withService(source.env, async (service) => {
      const api = client(service.app, tenant);
      expect((await api.post('/api/v1/purposes', { key: 'newsletter', name: 'Newsletter', legalBasis: 'consent' })).statusCode).toBe(201);
      await publishPolicy(api, { policyType: 'custom', purpose: 'newsletter', version: '1.0.0', content: 'Monthly' });
    });
    const file = join(files, 'history.csv');
    const body = ['userReference,consentGiven,collectedAt'];
    for (let i = 0; i < ROWS; i++) body.push(`user-${i},${i % 3 === 0 ? 'no' : 'yes'},2021-01-01T00:00:00Z`);
    writeFileSync(file, `${body.join('\n')}\n`);
    const imported = await cli(
      ['import', '--tenant', tenant.tenantId, '--file', file, '--default', 'purpose=newsletter', '--default', 'policyVersion=1.0.0'],
      source.env,
    );
    expect(imported.code, imported.stderr).toBe(0);
    events = await rows(source.url, 'ledger.events');
    expect(events).toBeGreaterThan(ROWS);
  }, 180_000);

  afterAll(async () => {
    await source?.drop();
    rmSync(files, { recursive: true, force: true });
  });

  it('ledger copy: stops after the append under way, says so, exits 130; a run again copies the rest and verifies', async () => {
    const target = await freshDatabase();
    try {
      const args = ['ledger', 'copy', '--from', source.url, '--to', target.url];
      const copy = cliStarted(args, source.env);
      await waitUntil(async () => (await rows(target.url, 'ledger.events')) >= 2000, { what: 'the first appends', timeoutMs: 60_000 });
      copy.child.kill('SIGINT');
      expect(await copy.exited, copy.output.stderr).toBe(130);
      const stopped = JSON.parse(copy.output.stdout);
      // What it says it copied is what the destination holds: whole appends, nothing half-written.
      expect(stopped).toMatchObject({ stoppedBy: 'SIGINT', complete: false, alreadyThere: 0 });
      expect(stopped.copied).toBe(await rows(target.url, 'ledger.events'));
      expect(stopped.copied).toBeLessThan(events);
      expect(copy.output.stderr).toMatch(/Stopped by SIGINT after \d+ events; run the same command again to go on/);

      const again = await cli(args, source.env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.json).toMatchObject({ complete: true, alreadyThere: stopped.copied, copied: events - stopped.copied });
      expect(again.json.verified).toMatchObject({ events, sourceEvents: events });
      expect(again.json.state['control.tenants']).toBe(1);
    } finally {
      await target.drop();
    }
  }, 180_000);

  it('projections rebuild: stops after the batch under way, exits 130; the service then brings the read models to the ledger', async () => {
    const rebuild = cliStarted(['projections', 'rebuild'], source.env);
    // The read models as they were count until the rebuild drops them: wait for it to say it has.
    await waitUntil(() => rebuild.output.stderr.includes('Dropped the read models'), { what: 'the drop', timeoutMs: 60_000 });
    await waitUntil(async () => (await rows(source.url, 'read.consents')) >= 2000, { what: 'the first batches', timeoutMs: 60_000 });
    rebuild.child.kill('SIGINT');
    expect(await rebuild.exited, rebuild.output.stderr).toBe(130);
    const stopped = JSON.parse(rebuild.output.stdout);
    expect(stopped.stoppedBy).toBe('SIGINT');
    expect(stopped.events).toBeGreaterThan(0);
    expect(stopped.events).toBeLessThan(events);
    expect(rebuild.output.stderr).toMatch(/The read models go on from there when the service runs/);

    // The service's projectors start from where the rebuild stopped and reach the ledger's head.
    await withService(source.env, async (service) => {
      const api = client(service.app, tenant);
      const stats = await waitUntil(
        async () => {
          const data = (await api.get('/api/v1/consent/stats')).json().data;
          return data.totalConsents === ROWS && data;
        },
        { what: 'the projectors to catch up', timeoutMs: 120_000 },
      );
      expect(stats.rejectedConsents).toBe(Math.ceil(ROWS / 3));
    });
    const verified = await cli(['projections', 'verify'], source.env);
    expect(verified.code, verified.stderr).toBe(0);
    expect(verified.json).toMatchObject({ consistent: true, events });
  }, 180_000);
});
