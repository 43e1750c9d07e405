import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReceipt } from '../../src/receipts/receipt.renderer.js';
import type { Service } from '../../src/service.js';
import { cli, cliStarted, createTenantWithCli, withService } from '../support/cli.js';
import { freePort, waitUntil } from '../support/process.js';
import { client, publishPolicy, type Client } from '../support/service.js';

/**
 * What an auditor keeps outlives a signing-key rotation: a receipt, a saved proof and a kept
 * checkpoint from before it check with the new key and the retired one given together, online
 * too. A receipt with no proof is no proof. `audit monitor` keeps watching, pass after pass, an
 * outage included, until it is stopped.
 */

const dir = mkdtempSync(join(tmpdir(), 'cl-auditor-'));
const env = { DATA_DIR: join(dir, 'data') };
const file = (name: string, content: string | Buffer) => {
  writeFileSync(join(dir, name), content);
  return join(dir, name);
};
/** The JSON reports a long-running command printed so far (each pretty-printed, one after another). */
const reports = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split(/\n(?=\{)/)
    .filter((s) => s.trim())
    .map((s) => JSON.parse(s) as Record<string, unknown>);

let tenantId: string;
let creds: { apiKey: string; apiSecret: string };
let port: number;
let base: string;
let oldVkey: string;
let newVkey: string;
let receiptPdf: Buffer;
let proofJson: string;
let keptNote: string;
let consent: Record<string, unknown>;

/** `audit monitor --once` as an auditor who pinned only the key from before the rotation. */
const watchArgs = () => [
  'audit',
  'monitor',
  '--url',
  base,
  '--tenant',
  tenantId,
  '--key',
  oldVkey,
  '--state',
  join(dir, 'watch'),
  '--once',
];

async function serving<T>(fn: (api: Client, service: Service) => Promise<T>): Promise<T> {
  return withService({ ...env, PUBLIC_BASE_URL: base }, async (service) => {
    await service.app.listen({ port, host: '127.0.0.1' });
    return fn(client(service.app, creds), service);
  });
}

/** A consent recorded and sealed: its proof answers. */
async function sealedConsent(api: Client, policyVersionId: string): Promise<string> {
  const res = await api.post('/api/v1/consent', { policyVersionId, userReference: `u-${randomUUID()}`, consentGiven: true });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().data.id as string;
  await waitUntil(async () => (await api.get(`/api/v1/consent/${id}/proof`)).statusCode === 200, { what: 'the consent sealed' });
  return id;
}

beforeAll(async () => {
  port = await freePort();
  base = `http://127.0.0.1:${port}`;
  const tenant = await createTenantWithCli(env, 'Auditor', 'pro');
  tenantId = tenant.tenantId;
  creds = tenant;
  await serving(async (api, service) => {
    oldVkey = (await service.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys[0].vkey;
    const policyVersionId = await publishPolicy(api);
    const id = await sealedConsent(api, policyVersionId);
    const pdf = await api.post(`/api/v1/consent/${id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    receiptPdf = pdf.rawPayload;
    proofJson = (await api.get(`/api/v1/consent/${id}/proof`)).body;
    keptNote = (await api.get('/api/v1/ledger/checkpoint')).json().data.checkpoint;
    consent = (await api.get(`/api/v1/consent/${id}`)).json().data;
    // An auditor's monitor that knows only the key of that time.
    const watched = await cli(watchArgs(), {});
    expect(watched.code, watched.stderr).toBe(0);
  });
  const rotated = await cli(['keys', 'rotate-signing'], env);
  expect(rotated.code, rotated.stderr).toBe(0);
  newVkey = rotated.json.current;
  // The log grows under the new key.
  await serving(async (api) => {
    await sealedConsent(api, (await api.get('/api/v1/policies')).json().data[0].id);
  });
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('auditor tools › after keys rotate-signing › what was kept before still checks', () => {
  it('a receipt: offline with the new key and the retired one, online against a log signed by the new key', async () => {
    const pdf = file('receipt.pdf', receiptPdf);
    const newOnly = await cli(['audit', 'receipt', pdf, '--key', newVkey], {});
    expect(newOnly.code).toBe(1);
    expect(newOnly.json.error.message).toContain('no signature by');
    const offline = await cli(['audit', 'receipt', pdf, '--key', newVkey, '--key', oldVkey], {});
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.json).toMatchObject({ valid: true, consentId: consent.id });
    // Today's checkpoint must be the first key's: the retired key first is refused online.
    const [online, retiredFirst] = await serving(() =>
      Promise.all([
        cli(['audit', 'receipt', pdf, '--key', newVkey, '--key', oldVkey, '--url', base], {}),
        cli(['audit', 'receipt', pdf, '--key', oldVkey, '--key', newVkey, '--url', base], {}),
      ]),
    );
    expect(online.code, online.stderr).toBe(0);
    expect(online.json.consistentWith.treeSize).toBeGreaterThan(online.json.record.treeSize);
    expect(retiredFirst.code).toBe(1);
  });

  it('a saved proof, with both keys', async () => {
    const proof = file('proof.json', proofJson);
    expect((await cli(['audit', 'prove', proof, '--key', newVkey], {})).code).toBe(1);
    const both = await cli(['audit', 'prove', proof, '--key', newVkey, '--key', oldVkey], {});
    expect(both.code, both.stderr).toBe(0);
    expect(both.json).toMatchObject({ valid: true, consentId: consent.id });
  });

  it('a checkpoint saved with an extra newline (jq -r) or CRLF line ends is the note it holds', async () => {
    const notes = [
      ['jq.note', `${keptNote}\n`],
      ['crlf.note', keptNote.replaceAll('\n', '\r\n')],
      ['bare.note', keptNote.replace(/\n$/, '')],
    ] as const;
    const runs = await serving(() =>
      Promise.all(
        notes.map(([name, note]) =>
          cli(['audit', 'consistency', '--old', file(name, note), '--key', newVkey, '--key', oldVkey, '--url', base], {}),
        ),
      ),
    );
    runs.forEach((run, i) => {
      expect(run.code, `${notes[i]![0]}: ${run.stderr}`).toBe(0);
      expect(run.json.consistent).toBe(true);
    });
  });
});

describe('auditor tools › audit monitor given only the retired key', () => {
  it("trusts the new key by the retired key's own signed handover, and keeps it in its state", async () => {
    const [forged, first, again] = await serving(async (_api, service) => {
      const db = service.store.db;
      const { handover_signature: real } = (
        await sql<{ handover_signature: string }>`
          SELECT handover_signature FROM transparency.key_history WHERE retired_at IS NOT NULL`.execute(db)
      ).rows[0]!;
      // A handover the retired key did not sign (written with the database's credentials) hands over nothing.
      const bad = Buffer.from(real, 'base64');
      bad[0]! ^= 1;
      await sql`UPDATE transparency.key_history SET handover_signature = ${bad.toString('base64')} WHERE retired_at IS NOT NULL`.execute(
        db,
      );
      const forged = await cli(watchArgs(), {});
      await sql`UPDATE transparency.key_history SET handover_signature = ${real} WHERE retired_at IS NOT NULL`.execute(db);
      return [forged, await cli(watchArgs(), {}), await cli(watchArgs(), {})];
    });
    expect(forged.code).toBe(1);
    expect(forged.json.error).toMatchObject({ code: 'AUDIT_FAILED' });
    expect(forged.json.error.message).toContain('the checkpoint is refused');
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ valid: true, handedOver: [{ from: oldVkey, to: newVkey }] });
    expect(first.json.newLeaves).toBeGreaterThan(0);
    expect(first.stderr).toContain(`${oldVkey} handed over to ${newVkey}`);
    expect(JSON.parse(readFileSync(join(dir, 'watch', `${tenantId}.json`), 'utf8')).handovers).toEqual([{ from: oldVkey, to: newVkey }]);
    // The next pass opens the checkpoint with the key it kept: nothing to learn again.
    expect(again.code, again.stderr).toBe(0);
    expect(again.json.valid).toBe(true);
    expect(again.json.handedOver).toBeUndefined();
  });
});

describe('auditor tools › a receipt that carries no proof', () => {
  it('fails: nothing in it can be checked, whatever it prints', async () => {
    const pdf = await renderReceipt({
      consent: consent as never,
      receiptId: randomUUID(),
      generatedAt: new Date().toISOString(),
      verifyUrl: `${base}/verify/${String(consent.id)}?hash=${String(consent.consentHash)}`,
    });
    const run = await cli(['audit', 'receipt', file('proofless.pdf', pdf), '--key', newVkey], {});
    expect(run.code).toBe(1);
    expect(run.json.error).toMatchObject({ code: 'AUDIT_FAILED' });
    expect(run.json.error.message).toContain('carries no proof');
  });
});

describe('auditor tools › audit monitor without --once', () => {
  const args = () => ['audit', 'monitor', '--url', base, '--tenant', tenantId, '--key', newVkey, '--key', oldVkey, '--interval', '1'];

  it('checks pass after pass until stopped, then exits 0', async () => {
    await serving(async () => {
      const monitor = cliStarted([...args(), '--state', join(dir, 'monitor')], {});
      try {
        await waitUntil(() => reports(monitor.output.stdout).filter((r) => r.valid === true).length >= 2, {
          what: 'two passes of the monitor',
          timeoutMs: 20_000,
        });
      } finally {
        monitor.child.kill('SIGTERM');
      }
      expect(await monitor.exited, monitor.output.stderr).toBe(0);
    });
  });

  it('goes on through an outage, which it reports as UNREACHABLE, not as a failed check', async () => {
    const monitor = cliStarted([...args(), '--state', join(dir, 'monitor')], {});
    try {
      const down = await waitUntil(() => reports(monitor.output.stdout).find((r) => r.checked === false), { what: 'an outage report' });
      expect(down).toMatchObject({ checked: false, tenantId, error: { code: 'UNREACHABLE' } });
      expect(monitor.child.exitCode).toBeNull();
      // The service comes back: the next pass checks, from the state kept before the outage.
      await serving(() =>
        waitUntil(() => reports(monitor.output.stdout).some((r) => r.valid === true), { what: 'a pass once the service is back' }),
      );
    } finally {
      monitor.child.kill('SIGTERM');
    }
    expect(await monitor.exited, monitor.output.stderr).toBe(0);
    // --once, for cron: the outage exits 1 with its own code.
    const once = await cli([...args(), '--state', join(dir, 'monitor'), '--once'], {});
    expect(once.code).toBe(1);
    expect(once.json.error.code).toBe('UNREACHABLE');
  });
});
