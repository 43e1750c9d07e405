import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli } from '../support/cli.js';
import {
  provisionTenant,
  publishThrough,
  spawnServiceProcess,
  startServiceProcess,
  tenantClient,
  freePort,
  type ServiceProcess,
} from '../support/process.js';
import { connectingAs, dropServerRole, freshDatabase, serverUrl } from '../support/stores.js';

/**
 * The service under a role of its own (docs/verifying.md, Database roles), as an operator sets it
 * up: `db grant` as the owner, then the service with the role's DATABASE_URL, on a new database
 * and again after an upgrade that changes the read models' shape. The role creates nothing, so
 * whatever needs the owner is done by `db grant`; a start that would need it says so.
 */

if (!serverUrl) console.log('[service-role.e2e] DATABASE_URL is not set: the service under a role of its own is not tested');

const ADMIN_TOKEN = 'role-test-admin-token-0123456789';

describe.skipIf(!serverUrl)('the service under a role db grant made', () => {
  const role = `cl_role_${Date.now().toString(36)}`;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let owner: pg.Client;
  let asRole: Record<string, string>;
  let svc: ServiceProcess | undefined;
  let creds: { apiKey: string; apiSecret: string };

  /** A start as the role that must fail: its exit status and what it wrote. */
  const failedStart = async () => {
    const started = spawnServiceProcess({ ...asRole, PORT: String(await freePort()) });
    const exit = await started.waitForExit(60_000);
    return { code: exit.code, stderr: started.stderr() };
  };

  beforeAll(async () => {
    db = await freshDatabase();
    owner = new pg.Client({ connectionString: db.url });
    await owner.connect();
    await owner.query(`CREATE ROLE ${role} LOGIN`);
    asRole = { ...db.env, DATABASE_URL: connectingAs(db.url, role), ADMIN_TOKEN, LOG_LEVEL: 'warn' };
  }, 60_000);

  afterAll(async () => {
    await svc?.kill('SIGTERM');
    await owner?.end();
    await db?.drop();
    await dropServerRole(role);
  });

  it('refuses to start on a database the owner has not prepared, naming the command that does', async () => {
    const { code, stderr } = await failedStart();
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(`the store must be created .*the database role ${role} may not: run \`npx consent-ledger db grant --role ${role}\``),
    );
    expect(stderr).not.toMatch(/\n\s+at /);
  }, 90_000);

  it('a DATABASE_URL it cannot open (no server there, no such database), or a PORT taken, is said in one line naming it, the password hidden', async () => {
    const url = new URL(db.url);
    const wrong = [
      Object.assign(new URL(url), { port: String(await freePort()) }),
      Object.assign(new URL(url), { pathname: '/cl_no_such_database' }),
    ];
    for (const target of wrong) {
      target.password = 'hunter2-secret';
      const started = spawnServiceProcess({ ...db.env, DATABASE_URL: target.toString(), PORT: String(await freePort()) });
      const exit = await started.waitForExit(60_000);
      const stderr = started.stderr();
      expect(exit.code, stderr).toBe(1);
      expect(stderr).toMatch(
        /^consent-ledger: could not start: cannot open the PostgreSQL database DATABASE_URL names \(postgres:\/\/\w+:\*\*\*@/m,
      );
      expect(stderr).not.toContain('hunter2-secret');
      expect(stderr).not.toMatch(/\n\s+at /);
    }
    // Its port taken by another process: named, in one line.
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const started = spawnServiceProcess({ ...db.env, PORT: String(port) });
      const exit = await started.waitForExit(60_000);
      expect(exit.code, started.stderr()).toBe(1);
      expect(started.stderr()).toContain(
        `consent-ledger: could not start: cannot listen on 127.0.0.1:${port} (HOST, PORT): another process listens there`,
      );
      expect(started.stderr()).not.toMatch(/\n\s+at /);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 90_000);

  it('starts once the owner ran db grant, and records and reads back', async () => {
    const granted = await cli(['db', 'grant', '--role', role], db.env);
    expect(granted.code, granted.stderr).toBe(0);
    svc = await startServiceProcess(asRole);
    creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'Role');
    const api = tenantClient(svc.url, creds);
    const policyVersionId = await publishThrough(api);
    const recorded = await api.post('/api/v1/consent', { policyVersionId, userReference: 'user-1', consentGiven: true });
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
    expect((await api.get('/api/v1/consent/search')).body.pagination.total).toBe(1);
    await svc.kill('SIGTERM');
    svc = undefined;
  }, 120_000);

  it('after an upgrade that changes the read models, starts again once db grant rebuilt them, the records intact', async () => {
    // What an upgrade whose read models have another shape finds: a version this build does not know.
    await owner.query(`UPDATE read.meta SET value = '1' WHERE key = 'version'`);
    const { code, stderr } = await failedStart();
    expect(code).toBe(2);
    expect(stderr).toMatch(/the read models must be rebuilt for this version \(they are of read schema 1, this version needs \d+\)/);
    expect(stderr).toMatch(`db grant --role ${role}`);

    const granted = await cli(['db', 'grant', '--role', role], db.env);
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stderr).toMatch(/recreated empty; the service rebuilds them from the ledger/);
    svc = await startServiceProcess(asRole);
    const reader = tenantClient(svc.url, creds);
    // The read fence waits for the replay of the tenant's writes.
    const found = await reader.get('/api/v1/consent/user/user-1');
    expect(found.status).toBe(200);
    expect(found.body.data).toHaveLength(1);
    await svc.kill('SIGTERM');
    svc = undefined;
  }, 120_000);

  it('leaves projections rebuild to the owner, whose rebuilt read models the role reads', async () => {
    const refused = await cli(['projections', 'rebuild'], asRole);
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ error: { code: 'STORE_PRIVILEGE' } });
    expect(refused.stderr).toMatch(
      new RegExp(
        `the read models must be dropped to be rebuilt, and the database role ${role} may not: run \`npx consent-ledger projections rebuild\` with the store owner's DATABASE_URL`,
      ),
    );
    // Untouched: the role's verify still finds them whole.
    const before = await cli(['projections', 'verify'], asRole);
    expect(before.code, before.stderr).toBe(0);

    const rebuilt = await cli(['projections', 'rebuild'], db.env);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    const after = await cli(['projections', 'verify'], asRole);
    expect(after.code, after.stderr).toBe(0);
    expect(after.json).toMatchObject({ consistent: true });
  }, 120_000);
});
