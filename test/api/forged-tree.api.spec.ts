import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { MIGRATIONS } from '../../src/migrations.js';
import { createService } from '../../src/service.js';
import { openStore } from '../../src/store/store.js';
import { waitUntil } from '../support/process.js';
import { client, publishPolicy, sealedCheckpoint } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * A tenant's Merkle tree rewritten in its tables while the service is stopped (a hostile-DBA walk:
 * nodes overwritten with forged leaves' hashes and the tenant's checkpoints deleted; after a
 * restart the sealer extended the rewritten tree and signed a checkpoint over the forged leaves).
 * The sealer extends a tree read from the tables only when a checkpoint the log signed has its
 * root; else it stops the tenant, named in /ready, and holds its events.
 */
describe('forged tree › nodes rewritten and checkpoints deleted while the service was stopped', () => {
  it('are not extended after the restart: the tenant stops, nothing is signed over them', async () => {
    const fresh = serverUrl ? await freshDatabase() : undefined;
    const dir = fresh ? undefined : mkdtempSync(join(tmpdir(), 'cl-tree-'));
    const env = fresh ? { ...fresh.env, MASTER_KEY: randomBytes(32).toString('hex') } : { DATA_DIR: dir! };
    const start = () => createService(loadSettings({ ...env, LOG_LEVEL: 'silent' }), { pollMs: 50 });
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

      const store = await openStore({ ...(fresh ? { databaseUrl: fresh.url } : { dataDir: dir! }), migrations: MIGRATIONS });
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
      await fresh?.drop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
