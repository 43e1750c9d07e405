import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rebuildReadModels } from '../../projections/rebuild.js';
import { testKeysDir } from '../../test/support/process.js';
import { client, publishPolicy } from '../../test/support/service.js';
import { connectingAs, dropServerRole, freshDatabase, serverUrl } from '../../test/support/stores.js';
import { loadSettings } from '../config.js';
import { createService, type Service } from '../service.js';
import { grantServiceRole } from './roles.js';

/**
 * A database writer who has only the service's own role cannot rewrite history: the role the owner
 * grants (`db grant`) reads and appends the ledger's events, and the database refuses it UPDATE,
 * DELETE and TRUNCATE on them, disabling their triggers and the replica mode that skips them.
 */
if (!serverUrl)
  console.log('[roles] DATABASE_URL is not set: the service-role tests need a PostgreSQL server (PGlite has no roles); skipped');

describe.runIf(serverUrl)('database roles › when the service runs as the role the owner granted', () => {
  const role = `cl_service_${randomBytes(4).toString('hex')}`;
  const masterKey = randomBytes(32).toString('hex');
  let fresh: Awaited<ReturnType<typeof freshDatabase>>;
  let owner: Service;
  let service: Service;
  let asRole: pg.Client;
  const urlAs = (user: string) => connectingAs(fresh.url, user);

  beforeAll(async () => {
    fresh = await freshDatabase();
    const settings = (url: string) =>
      loadSettings({ DATABASE_URL: url, DATA_DIR: testKeysDir(), MASTER_KEY: masterKey, LOG_LEVEL: 'silent' });
    // The owner's first start creates every schema; then it grants the service's role and stops.
    owner = await createService(settings(fresh.url), { pollMs: 50 });
    expect(await grantServiceRole(owner.store.db, role, { create: true })).toEqual({ created: true });
    await owner.close();
    service = await createService(settings(urlAs(role)), { pollMs: 50 });
    asRole = new pg.Client({ connectionString: urlAs(role) });
    await asRole.connect();
  }, 60_000);
  afterAll(async () => {
    await asRole?.end();
    await service?.close();
    await fresh?.drop();
    await dropServerRole(role);
  });

  it('starts with no DDL of its own and serves records, withdrawals, lists, verification and erasure', async () => {
    const creds = await service.tenants.create('role-tenant', 'enterprise');
    const api = client(service.app, creds);
    const policyVersionId = await publishPolicy(api);
    const recorded = await api.post('/api/v1/consent', { policyVersionId, userReference: 'role-user', consentGiven: true });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const id = recorded.json().data.id as string;
    expect((await api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'no' })).statusCode).toBe(200);
    expect((await api.get(`/api/v1/consent/${id}/verify`)).json().data.valid).toBe(true);
    expect((await api.get('/api/v1/consent/search')).json().pagination.total).toBe(1);
    expect((await api.post('/api/v1/subjects/erase', { userReference: 'role-user' })).statusCode).toBe(200);
    expect((await api.get(`/api/v1/consent/${id}`)).json().data.erased).toBe(true);
  });

  it.each([
    ['UPDATE', `UPDATE ledger.events SET event_type = 'Forged'`],
    ['DELETE', 'DELETE FROM ledger.events'],
    ['TRUNCATE', 'TRUNCATE ledger.events'],
    ['disabling the append-only triggers', 'ALTER TABLE ledger.events DISABLE TRIGGER events_refuse_update_delete'],
    ['replica mode, which skips triggers', 'SET session_replication_role = replica'],
    ['dropping the ledger', 'DROP TABLE ledger.events'],
  ])('is refused %s on the ledger by the database itself', async (_what, statement) => {
    const error = await asRole.query(statement).then(
      () => undefined,
      (e: { code?: string; message: string }) => e,
    );
    // Refused for want of privilege (42501), before any trigger could run: not the triggers' own
    // "append-only" refusal, which a role with UPDATE would meet.
    expect(error?.code, error?.message).toBe('42501');
    expect(error?.message).toMatch(/permission denied|must be owner/);
  });

  it('reads and appends the ledger, and writes the other tables', async () => {
    expect((await asRole.query('SELECT count(*)::int AS n FROM ledger.events')).rows[0].n).toBeGreaterThan(0);
    await asRole.query('UPDATE read.consents SET status = status');
  });

  it('keeps its rights on the read models after the owner rebuilds them', async () => {
    const ownerClient = await createService(loadSettings({ ...fresh.env, MASTER_KEY: masterKey, LOG_LEVEL: 'silent' }), {
      pollMs: 50,
    });
    try {
      await rebuildReadModels(ownerClient.store, ownerClient.ledger);
    } finally {
      await ownerClient.close();
    }
    const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM read.consents`.execute(service.store.db);
    expect(rows.rows[0]!.n).toBe(1);
  });
});
