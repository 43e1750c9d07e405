import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { consentStream } from '../../src/domain/consent/consent.events.js';
import { insertBehindTheService } from '../support/forgery.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, restartableStore, sealedCheckpoint } from '../support/service.js';

/**
 * A tenant's Merkle tree rewritten in its tables while the service is stopped (a hostile-DBA walk:
 * nodes overwritten with forged leaves' hashes and the tenant's checkpoints deleted; after a
 * restart the sealer extended the rewritten tree and signed a checkpoint over the forged leaves).
 * The sealer extends a tree read from the tables only when a checkpoint the log signed has its
 * root; else it stops the tenant, named in /ready, and holds its events.
 */
describe('forged tree › nodes rewritten and checkpoints deleted while the service was stopped', () => {
  it('are not extended after the restart: the tenant stops, nothing is signed over them', async () => {
    const stored = await restartableStore();
    const start = () => stored.start();
    let service = await start();
    try {
      const tenant = await service.tenants.create('rewritten', 'starter');
      const api = client(service.app, tenant);
      const policyVersionId = await publishPolicy(api);
      const recorded = await api.post('/api/v1/consent', { policyVersionId, userReference: 'before', consentGiven: true });
      expect(recorded.statusCode, recorded.body).toBe(201);
      const size = (await sealedCheckpoint(api, 4)).treeSize;
      const other = await service.tenants.create('untouched', 'starter');
      await service.close();

      const store = await stored.open();
      await sql`UPDATE transparency.nodes SET hash = ${randomBytes(32).toString('hex')} WHERE tenant_id = ${tenant.tenantId} AND level = 0 AND idx = 0`.execute(
        store.db,
      );
      await sql`UPDATE transparency.nodes SET hash = ${randomBytes(32).toString('hex')} WHERE tenant_id = ${tenant.tenantId} AND level > 0`.execute(
        store.db,
      );
      await sql`DELETE FROM transparency.checkpoints WHERE tenant_id = ${tenant.tenantId}`.execute(store.db);
      await store.close();

      service = await start();
      const after = client(service.app, tenant);
      expect((await after.post('/api/v1/consent', { policyVersionId, userReference: 'after', consentGiven: true })).statusCode).toBe(201);
      const halted = await waitUntil(
        async () =>
          ((await service.app.inject({ url: '/ready' })).json().data.sealing.halted as { tenantId: string; reason: string }[]).find(
            (h) => h.tenantId === tenant.tenantId,
          ),
        { what: 'the rewritten tenant stopped' },
      );
      expect(halted.reason).toContain('not those of a checkpoint the log signed');
      const signed = await sql<{
        n: number;
      }>`SELECT count(*)::int AS n FROM transparency.checkpoints WHERE tenant_id = ${tenant.tenantId}`.execute(service.store.db);
      expect(signed.rows[0]!.n).toBe(0);
      expect(size).toBeGreaterThan(0);
      // Another tenant's log goes on.
      const untouched = client(service.app, other);
      await publishPolicy(untouched);
      await sealedCheckpoint(untouched, 3);
    } finally {
      await service.close();
      await stored.remove();
    }
  }, 90_000);
});

describe('forged tree › a halt and what it held, deleted while the service was stopped', () => {
  it('is found on the restart: the events read past are held again and the tenant stops, named in /ready', async () => {
    const stored = await restartableStore();
    const start = () => stored.start();
    const halts = async (app: Awaited<ReturnType<typeof start>>['app']) =>
      (await app.inject({ url: '/ready' })).json().data.sealing.halted as { tenantId: string; eventId: string; reason: string }[];
    let service = await start();
    try {
      const tenant = await service.tenants.create('dropped', 'starter');
      const api = client(service.app, tenant);
      const policyVersionId = await publishPolicy(api);
      const consentId = (await api.post('/api/v1/consent', { policyVersionId, userReference: 'kept', consentGiven: true })).json().data
        .id as string;
      await sealedCheckpoint(api, 4);
      const at = new Date().toISOString();
      const forged = randomUUID();
      await insertBehindTheService(service.store.db, {
        id: forged,
        tenantId: tenant.tenantId,
        stream: `consent-${tenant.tenantId}-${randomUUID()}`,
        revision: 0,
        type: 'ConsentRecorded',
        data: { forged: true },
        metadata: {},
        recordedAt: at,
        prevHash: null,
      });
      await waitUntil(async () => (await halts(service.app)).some((h) => h.eventId === forged), { what: 'the forged event refused' });
      // An honest withdrawal, held while the tenant is stopped.
      expect((await api.post(`/api/v1/consent/${consentId}/withdraw`, {})).statusCode).toBe(200);
      const withdrawal = (await service.ledger.readStream(consentStream(tenant.tenantId, consentId)))[1]!;
      await waitUntil(
        async () =>
          (await sql`SELECT 1 AS one FROM transparency.held WHERE event->>'id' = ${withdrawal.id}`.execute(service.store.db)).rows.length >
          0,
        { what: 'the withdrawal held' },
      );
      await service.close();

      const store = await stored.open();
      await sql`DELETE FROM transparency.held`.execute(store.db);
      await sql`DELETE FROM transparency.halts`.execute(store.db);
      await store.close();

      service = await start();
      // The first batch looks: an event is needed for one to run.
      const other = await service.tenants.create('other', 'starter');
      await sealedCheckpoint(client(service.app, other), 2);
      const halt = (await halts(service.app)).find((h) => h.tenantId === tenant.tenantId);
      expect(halt).toMatchObject({ eventId: forged });
      expect(halt!.reason).toContain('neither in the log nor held');
      const held = await sql<{ id: string }>`SELECT event->>'id' AS id FROM transparency.held WHERE tenant_id = ${tenant.tenantId}`.execute(
        service.store.db,
      );
      expect(held.rows.map((r) => r.id).sort()).toEqual([forged, withdrawal.id].sort());
    } finally {
      await service.close();
      await stored.remove();
    }
  }, 90_000);
});

describe('forged tree › the honest case: a service renamed (PUBLIC_BASE_URL changed, or a restore served elsewhere)', () => {
  it('goes on sealing under the new name from the checkpoint signed under the old one, and back again', async () => {
    const stored = await restartableStore();
    const at = (host: string) => stored.start({ PUBLIC_BASE_URL: `http://${host}` });
    const halted = async (app: FastifyInstance) => (await app.inject({ url: '/ready' })).json().data.sealing.halted as unknown[];
    let service = await at('ledger.example.com');
    try {
      const tenant = await service.tenants.create('renamed', 'starter');
      let api = client(service.app, tenant);
      const policyVersionId = await publishPolicy(api);
      const size = (await sealedCheckpoint(api, 3)).treeSize;
      await service.close();

      for (const [host, grown] of [
        ['localhost:3303', size + 1],
        ['ledger.example.com', size + 2],
      ] as const) {
        service = await at(host);
        api = client(service.app, tenant);
        const recorded = await api.post('/api/v1/consent', { policyVersionId, userReference: host, consentGiven: true });
        expect(recorded.statusCode, recorded.body).toBe(201);
        const signed = await sealedCheckpoint(api, grown);
        expect(signed.checkpoint.split('\n')[0]).toBe(`${host}/ledger/${tenant.tenantId}`);
        expect(await halted(service.app)).toEqual([]);
        const proof = await api.get(`/api/v1/consent/${recorded.json().data.id}/proof`);
        expect(proof.statusCode, proof.body).toBe(200);
        await service.close();
      }
    } finally {
      await service.close();
      await stored.remove();
    }
  }, 90_000);
});
