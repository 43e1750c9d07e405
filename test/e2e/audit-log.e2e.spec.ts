import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliEngines, onEngine } from '../support/cli.js';
import { client } from '../support/service.js';

/**
 * Issue 19, the audit trail from the operator's command line: `tenant create`, `tenant set-plan`,
 * `key create`, `key revoke` and the key rotations are events in the tenant's log naming the CLI,
 * which the tenant's read key then lists through `GET /api/v1/audit-log`.
 */

interface Entry {
  action: string;
  actor: { type: string; id: string | null } | null;
  target: { type: string; id: string | null };
  details: Record<string, unknown>;
}

describe.each(cliEngines('audit-log'))('audit log › changes made with the CLI › on $name', (engine) => {
  const { env, withService, createTenant } = onEngine(engine);
  const embedded = engine.name.includes('embedded');

  it('names the CLI as the actor of each, in order, and rotations land in every tenant’s log', async () => {
    const tenant = await createTenant('Audited Ltd', 'starter');
    const other = await createTenant('Other Ltd', 'free');
    const ok = async (args: string[]) => {
      const run = await cli(args, env);
      expect(run.code, run.stderr).toBe(0);
      return run.json;
    };
    await ok(['tenant', 'set-plan', '--id', tenant.tenantId, '--plan', 'pro', '--per-minute', '500']);
    const reader = await ok(['key', 'create', '--tenant', tenant.tenantId, '--scope', 'read', '--name', 'auditor']);
    const spare = await ok(['key', 'create', '--tenant', tenant.tenantId, '--scope', 'write']);
    await ok(['key', 'revoke', '--tenant', tenant.tenantId, '--key', spare.apiKey]);
    // Refused before anything is written: a key revoked twice.
    expect((await cli(['key', 'revoke', '--tenant', tenant.tenantId, '--key', spare.apiKey], env)).code).toBe(1);

    let signing: { retired: string; current: string } | undefined;
    if (embedded) {
      // The data folder's keys exist once the service has started on it.
      await withService(async () => undefined);
      signing = await ok(['keys', 'rotate-signing']);
      const oldKey = join(env.DATA_DIR!, 'master.key');
      const newKey = join(env.DATA_DIR!, 'master.next');
      writeFileSync(newKey, randomBytes(32).toString('hex'));
      // A rotation it could not record (here: a signing key that is not the log's) is refused
      // with nothing changed: the old key still opens the store, and rotates it below.
      const unrecorded = await cli(['keys', 'rotate-master', '--old-key-file', oldKey, '--new-key-file', newKey], {
        ...env,
        TRANSPARENCY_SIGNING_KEY: randomBytes(32).toString('hex'),
      });
      expect(unrecorded.code, unrecorded.stderr).toBe(1);
      expect(unrecorded.stderr).toMatch(/is not the log's current key/);
      await ok(['keys', 'rotate-master', '--old-key-file', oldKey, '--new-key-file', newKey]);
      writeFileSync(oldKey, readFileSync(newKey));
    }

    await withService(async (service) => {
      const auditor = client(service.app, reader);
      const res = await auditor.get('/api/v1/audit-log?limit=100');
      expect(res.statusCode, res.body).toBe(200);
      const entries = (res.json().data as Entry[]).reverse();
      expect(entries.map((e) => e.action)).toEqual([
        'tenant.created',
        'key.issued',
        'tenant.changed',
        'key.issued',
        'key.issued',
        'key.revoked',
        ...(embedded ? ['signing_key.rotated', 'master_key.rotated'] : []),
      ]);
      expect(entries.every((e) => e.actor?.type === 'cli')).toBe(true);
      expect(entries[0]!.details).toEqual({ name: 'Audited Ltd', plan: 'starter' });
      expect(entries[2]!.details).toEqual({ plan: 'pro', perMinute: 500 });
      expect(entries[3]).toMatchObject({ target: { type: 'key', id: reader.apiKey }, details: { scope: 'read', name: 'auditor' } });
      expect(entries[5]!.target.id).toBe(spare.apiKey);
      if (signing) expect(entries[6]!.details).toEqual({ retired: signing.retired, current: signing.current });

      // The other tenant's log holds its own creation, and the rotations too.
      const otherAdmin = client(service.app, other);
      const others = (await otherAdmin.get('/api/v1/audit-log?format=csv')).body.trim().split('\r\n');
      expect(others.slice(1).map((line) => line.split(',')[2])).toEqual([
        '"tenant.created"',
        '"key.issued"',
        ...(embedded ? ['"signing_key.rotated"', '"master_key.rotated"'] : []),
      ]);
      expect(others.join('\n')).not.toContain(tenant.apiKey);
    });
  }, 180_000);
});
