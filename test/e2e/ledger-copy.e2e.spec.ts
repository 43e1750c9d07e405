import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  runCommand,
  startServiceProcess,
  tenantClient,
  type CommandRun,
  type HttpClient,
  type ServiceProcess,
} from '../support/process.js';
import { freshDatabase, serverUrl, tablesIn } from '../support/stores.js';

/**
 * Issue 9: "ledger copy from embedded to the PostgreSQL server is tested here end to end: every
 * record readable and verifying at the destination". The real service records on an embedded
 * DATA_DIR, stops; the real CLI copies in two steps (--limit, then the rest), then once more
 * (nothing to do); the real service starts on the server database with the same master key and
 * answers every record, decrypted and verifying, the receipts, the webhooks and the same
 * transparency log; `audit export` / `audit verify` pass on the destination.
 */

/** `npx consent-ledger <args>` from the sources: a child process on the CLI's own entry point. */
const cli = (args: string[], env: Record<string, string> = {}): Promise<CommandRun> =>
  runCommand(process.execPath, ['--import', 'tsx', 'src/cli/cli.ts', ...args], env);

const ADMIN_TOKEN = 'copy-test-admin-token-0123456789';
const PUBLIC_BASE_URL = 'https://consent.example.org';

if (!serverUrl)
  console.log('[ledger-copy.e2e] DATABASE_URL is not set: the copy from the embedded store to a PostgreSQL server is not tested');

describe.skipIf(!serverUrl)(
  'ledger copy › when a customer moves from the embedded store to a PostgreSQL server › every record is readable and verifies there',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-copy-'));
    const dataDir = join(dir, 'data');
    // The source's key files, which the destination's service and commands are given.
    const keyFiles = () => ({ MASTER_KEY_FILE: join(dataDir, 'master.key'), TRANSPARENCY_SIGNING_KEY_FILE: join(dataDir, 'signing.key') });
    let target: { url: string; drop(): Promise<void> };
    let svc: ServiceProcess | undefined;
    let creds: { tenantId: string; apiKey: string; apiSecret: string };
    // What the source answered, to compare with the destination's answers.
    const records = new Map<string, unknown>();
    let batchIds: string[] = [];
    let withdrawnId: string;
    let receipt: { consentId: string; sha256: string };
    let webhookId: string;
    let checkpoint: { treeSize: number; rootHash: string };
    let vkey: string;
    let stats: unknown;
    let searchTotal: number;
    let sourceEvents: number;

    const receiptOf = async (base: string, id: string, method: 'GET' | 'POST') => {
      const res = await fetch(`${base}/api/v1/consent/${id}/pdf`, {
        method,
        headers: { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret },
      });
      const pdf = Buffer.from(await res.arrayBuffer());
      return { status: res.status, header: res.headers.get('x-receipt-sha256'), sha256: createHash('sha256').update(pdf).digest('hex') };
    };

    beforeAll(async () => {
      target = await freshDatabase();
      svc = await startServiceProcess({ DATA_DIR: dataDir, ADMIN_TOKEN, PUBLIC_BASE_URL, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
      creds = await svc.credentials();
      const api: HttpClient = tenantClient(svc.url, creds);
      const hook = await api.post('/api/v1/webhooks', {
        url: 'https://127.0.0.1:9/unreachable',
        events: ['*'],
        description: 'carried over',
      });
      expect(hook.status).toBe(201);
      webhookId = hook.body.data.id;
      const policy = async (policyType: string) => {
        const res = await api.post('/api/v1/policies', {
          policyType,
          version: '1.0.0',
          title: `${policyType} ✓`,
          content: `The ${policyType}, in full.`,
        });
        expect(res.status).toBe(201);
        return res.body.data.id as string;
      };
      const privacy = await policy('privacy_policy');
      const terms = await policy('terms_of_service');
      for (let i = 0; i < 6; i++) {
        const res = await api.post(
          '/api/v1/consent',
          {
            policyVersionId: i % 2 ? privacy : terms,
            userReference: `user-${i}@example.org`,
            consentGiven: i !== 3,
            ipAddress: `203.0.113.${i}`,
            userAgent: `Browser/${i}`,
            metadata: { source: 'signup', email: `user-${i}@example.org`, n: i },
          },
          { 'idempotency-key': `signup-${i}` },
        );
        expect(res.status).toBe(201);
        records.set(res.body.data.id, undefined);
      }
      withdrawnId = [...records.keys()][1]!;
      expect((await api.post(`/api/v1/consent/${withdrawnId}/withdraw`, { reason: 'asked by e-mail' })).status).toBe(200);
      const batch = await api.post('/api/v1/consent/batch', {
        consents: Array.from({ length: 5 }, (_, i) => ({
          policyVersionId: privacy,
          userReference: `batch-${i}`,
          consentGiven: i % 2 === 0,
          metadata: { campaign: 'b' },
        })),
      });
      expect(batch.status).toBe(201);
      batchIds = (batch.body.data.consents ?? batch.body.data.records ?? batch.body.data).map((c: { id: string }) => c.id);
      expect(batchIds).toHaveLength(5);
      for (const id of batchIds) records.set(id, undefined);
      const issued = await receiptOf(svc.url, withdrawnId, 'POST');
      expect(issued.status).toBe(200);
      receipt = { consentId: withdrawnId, sha256: issued.sha256 };
      for (const id of records.keys()) {
        const got = await api.get(`/api/v1/consent/${id}`);
        expect(got.status).toBe(200);
        records.set(id, got.body.data);
      }
      // Answers once the newest write is sealed into the transparency log.
      expect((await api.get(`/api/v1/consent/${batchIds[4]}/proof`)).status).toBe(200);
      checkpoint = (await api.get('/api/v1/ledger/checkpoint')).body.data;
      vkey = ((await fetch(`${svc.url}/.well-known/consent-ledger/keys`).then((r) => r.json())) as { keys: { vkey: string }[] }).keys[0]!
        .vkey;
      stats = (await api.get('/api/v1/consent/stats')).body.data;
      searchTotal = (await api.get('/api/v1/consent/search?limit=100')).body.pagination.total;
      expect(searchTotal).toBe(11);
      expect((await svc.kill('SIGTERM')).code).toBe(0);
      svc = undefined;
    }, 180_000);

    afterAll(async () => {
      await svc?.kill('SIGKILL');
      await target?.drop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('copies in steps: a run stopped by --limit, then a rerun that resumes after it', async () => {
      const first = await cli(['ledger', 'copy', '--from', dataDir, '--to', target.url, '--limit', '5', '--batch-size', '2']);
      expect(first.code, first.stderr).toBe(0);
      expect(first.json).toMatchObject({ complete: false, alreadyThere: 0 });
      expect(first.json.copied).toBeGreaterThanOrEqual(5);
      expect(first.stderr).toMatch(/run the same command again/);

      const second = await cli(['ledger', 'copy', '--from', `file:${dataDir}`, '--to', target.url]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.json).toMatchObject({ complete: true, alreadyThere: first.json.copied });
      sourceEvents = second.json.verified.sourceEvents;
      expect(second.json.verified.events).toBe(sourceEvents);
      expect(second.json.alreadyThere + second.json.copied).toBe(sourceEvents);
      expect(second.json.state).toMatchObject({
        'control.tenants': 1,
        'receipts.receipts': 1,
        'webhooks.endpoints': 1,
        'transparency.key_history': 1,
      });
      expect(second.json.state['privacy.data_keys']).toBeGreaterThanOrEqual(11);
      expect(second.stderr).toMatch(/Verified: \d+ events in \d+ streams/);
      // Not a terminal: plain progress lines, no bar drawing.
      expect(second.stderr).toMatch(/copying: \d+\/\d+ events/);
    }, 120_000);

    it('copies again without change: nothing to append, still verified', async () => {
      const again = await cli(['ledger', 'copy', '--from', dataDir, '--to', target.url]);
      expect(again.code, again.stderr).toBe(0);
      expect(again.json).toMatchObject({
        complete: true,
        alreadyThere: sourceEvents,
        copied: 0,
        appends: 0,
        verified: { events: sourceEvents },
      });
    }, 120_000);

    it('refuses to copy a ledger onto itself, and an empty folder as the source', async () => {
      const self = await cli(['ledger', 'copy', '--from', dataDir, '--to', `file:${dataDir}`]);
      expect(self.code).toBe(2);
      expect(self.json.error.message).toMatch(/same ledger/);
      // One database under two spellings of its URL: found out before anything is written.
      const alias = `${target.url}${target.url.includes('?') ? '&' : '?'}application_name=copy-alias`;
      const aliased = await cli(['ledger', 'copy', '--from', target.url, '--to', alias]);
      expect(aliased.code, aliased.stderr).toBe(2);
      expect(aliased.json.error.message).toMatch(/same database under different URLs/);
      const missing = await cli(['ledger', 'copy', '--from', join(dir, 'nothing-here'), '--to', target.url]);
      expect(missing.code).toBe(2);
      expect(missing.json.error.message).toMatch(/no embedded store in this folder/);
      expect(existsSync(join(dir, 'nothing-here'))).toBe(false);
      // A database with no store as the source: refused, and neither it nor the destination written to.
      const empty = await freshDatabase();
      try {
        const fromEmpty = await cli(['ledger', 'copy', '--from', empty.url, '--to', join(dir, 'never-made')]);
        expect(fromEmpty.code, fromEmpty.stderr).toBe(2);
        expect(fromEmpty.json.error.message).toMatch(/this database holds no store/);
        expect(existsSync(join(dir, 'never-made'))).toBe(false);
        expect(await tablesIn(empty.url)).toBe(0);
      } finally {
        await empty.drop();
      }
    }, 60_000);

    it('has no read models to verify before the service first starts there, and says so', async () => {
      const verified = await cli(['projections', 'verify'], { DATABASE_URL: target.url, ...keyFiles() });
      expect(verified.code, verified.stderr).toBe(1);
      expect(verified.json.error.code).toBe('READ_MODELS_NOT_READY');
      expect(verified.json.error.message).toMatch(/no read models yet.*start the service.*projections rebuild/);
    }, 60_000);

    describe('when the service starts on the destination', () => {
      let api: HttpClient;
      beforeAll(async () => {
        svc = await startServiceProcess({
          DATABASE_URL: target.url,
          ...keyFiles(),
          ADMIN_TOKEN,
          PUBLIC_BASE_URL,
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
        });
        api = tenantClient(svc.url, creds);
      }, 120_000);

      it('lets the same API key in, and creates no first-start tenant', async () => {
        expect((await api.get('/api/v1/policies')).status).toBe(200);
        expect(svc!.stdout()).not.toMatch(/X-API-Secret/);
        // Where authenticators begin was recorded by the copy: no alarm of a deleted row.
        expect(svc!.stderr()).not.toMatch(/authenticated_from was missing/);
      });

      it('answers every record as the source did, personal fields decrypted, and each verifies against the ledger', async () => {
        for (const [id, before] of records) {
          const got = await api.get(`/api/v1/consent/${id}`);
          expect(got.status, id).toBe(200);
          expect(got.body.data).toEqual(before);
          const verify = await api.get(`/api/v1/consent/${id}/verify`);
          expect(verify.body.data, id).toMatchObject({ valid: true });
          const hash = (before as { consentHash: string }).consentHash;
          const page = await fetch(`${svc!.url}/verify/${id}?hash=${hash}`, { headers: { accept: 'application/json' } });
          expect(page.status).toBe(200);
        }
        const first = records.get([...records.keys()][0]!) as { userReference: string; metadata: Record<string, unknown> };
        expect(first.userReference).toBe('user-0@example.org');
        expect(first.metadata).toMatchObject({ email: 'user-0@example.org', n: 0 });
        const withdrawn = await api.get(`/api/v1/consent/${withdrawnId}`);
        expect(withdrawn.body.data).toMatchObject({ status: 'withdrawn' });
      });

      it('rebuilds the read models: search, stats and user status equal the source', async () => {
        expect((await api.get('/api/v1/consent/search?limit=100')).body.pagination.total).toBe(searchTotal);
        expect((await api.get('/api/v1/consent/stats')).body.data).toEqual(stats);
        const status = await api.get(`/api/v1/consent/user/${encodeURIComponent('user-1@example.org')}/status`);
        expect(status.status).toBe(200);
        expect(JSON.stringify(status.body.data)).toMatch(/withdrawn/);
        const verified = await cli(['projections', 'verify'], { DATABASE_URL: target.url, ...keyFiles() });
        expect(verified.code, verified.stderr).toBe(0);
        expect(verified.json).toMatchObject({ consistent: true, drift: [] });
      });

      it('keeps the receipt, the webhook and the transparency log with its signing key', async () => {
        const kept = await receiptOf(svc!.url, receipt.consentId, 'GET');
        expect(kept).toMatchObject({ status: 200, sha256: receipt.sha256, header: receipt.sha256 });
        expect((await api.get(`/api/v1/webhooks/${webhookId}`)).body.data).toMatchObject({ id: webhookId, description: 'carried over' });
        const keys = (await fetch(`${svc!.url}/.well-known/consent-ledger/keys`).then((r) => r.json())) as { keys: { vkey: string }[] };
        expect(keys.keys[0]!.vkey).toBe(vkey);
        const now = (await api.get('/api/v1/ledger/checkpoint')).body.data;
        expect({ treeSize: now.treeSize, rootHash: now.rootHash }).toEqual({
          treeSize: checkpoint.treeSize,
          rootHash: checkpoint.rootHash,
        });
      });

      it('goes on: a new record is written, sealed after the copied ones, and provable', async () => {
        const policy = (await api.get('/api/v1/policies/active/privacy_policy')).body.data.id;
        const res = await api.post('/api/v1/consent', { policyVersionId: policy, userReference: 'after-the-move', consentGiven: true });
        expect(res.status).toBe(201);
        expect((await api.get(`/api/v1/consent/${res.body.data.id}/proof`)).status).toBe(200);
        const now = (await api.get('/api/v1/ledger/checkpoint')).body.data;
        expect(now.treeSize).toBe(checkpoint.treeSize + 1);
      });

      it('passes audit export and audit verify at the destination', async () => {
        expect((await svc!.kill('SIGTERM')).code).toBe(0);
        svc = undefined;
        const file = join(dir, 'export.jsonl');
        const exported = await cli(['audit', 'export', '--tenant', creds.tenantId, '--out', file], { DATABASE_URL: target.url });
        expect(exported.code, exported.stderr).toBe(0);
        const verified = await cli(['audit', 'verify', file, '--key', vkey]);
        expect(verified.code, verified.stderr).toBe(0);
        expect(verified.json).toMatchObject({ valid: true, events: checkpoint.treeSize + 1 });
      }, 60_000);
    });
  },
);
