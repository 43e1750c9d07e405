import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, repoRoot, startServiceProcess, type ServiceProcess } from '../support/process.js';

// The bin runs dist/: built once per run, never while another file's CLI loads it.

/** The README's curl walk-through, as a new user runs it, against a freshly started service. */
describe('README › curl walk-through › on a first start of the embedded service', () => {
  let dir: string;
  let svc: ServiceProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cl-readme-'));
    svc = await startServiceProcess({ DATA_DIR: join(dir, 'data') });
  });
  afterAll(async () => {
    await svc?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every step with success, exports a CSV, still verifies after the policy is deleted, then runs a witness, the monitor and a receipt check', async () => {
    const { apiKey, apiSecret } = await svc.credentials();
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const blocks = [...readme.slice(readme.indexOf('## Walk-through with curl')).matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks[1], 'the second block runs a witness').toContain('consent-ledger witness');
    const port = await freePort();
    // The second block continues the first in the same shell; npx is the project's own bin, which
    // the temporary folder the walk-through runs in has not; the witness is stopped at the end.
    const script = `${blocks[0]!}\n${blocks[1]!}\nkill $!\n`
      .replace(/^export KEY=.*$/m, '')
      .replaceAll('http://127.0.0.1:3000', svc.url)
      .replaceAll('127.0.0.1:7380', `127.0.0.1:${port}`)
      .replaceAll('npx consent-ledger', `node ${join(repoRoot, 'bin', 'consent-ledger.js')}`);
    const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: dir,
      env: { ...process.env, KEY: apiKey, SECRET: apiSecret },
      encoding: 'utf8',
      timeout: 90_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const answers = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{"'))
      .map((l) => JSON.parse(l) as { success: boolean; data: unknown; '@type'?: string });
    // The ISO/IEC TS 27560 record is JSON-LD, not the envelope.
    const standard = answers.filter((a) => a['@type'] !== undefined);
    expect(standard.map((a) => a['@type'])).toEqual(['dpv:ConsentRecord']);
    answers.splice(0, answers.length, ...answers.filter((a) => a['@type'] === undefined));
    expect(answers.length).toBeGreaterThanOrEqual(11);
    for (const a of answers) expect(a, JSON.stringify(a)).toMatchObject({ success: true });
    const verifications = answers.filter((a) => (a.data as { valid?: boolean })?.valid !== undefined);
    expect(verifications.map((a) => (a.data as { valid: boolean }).valid)).toEqual([true, true]);
    const status = answers.find((a) => (a.data as { policies?: unknown })?.policies !== undefined)!.data as {
      policies: { purpose: string; status: string }[];
    };
    expect(status.policies.map((p) => [p.purpose, p.status])).toEqual([
      ['newsletter', 'outdated'],
      ['privacy_policy', 'withdrawn'],
    ]);
    const csv = readFileSync(join(dir, 'consents.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'id,userReference,policyVersionId,policyType,policyVersion,consentGiven,status,ipAddress,userAgent,consentHash,createdAt,withdrawnAt,tampered,purpose,collectedAt,expiresAt,metadata',
    );
    expect(csv[1]).toContain('user-42');

    // The CLI's answers are pretty-printed objects: the witness's, the monitor's, the receipt check's.
    expect(run.stderr).toMatch(/witness \S+ listening on http:\/\/127\.0\.0\.1:\d+/);
    const printed = [...run.stdout.matchAll(/^\{\n[\s\S]*?^\}$/gm)].map((m) => JSON.parse(m[0]) as Record<string, unknown>);
    expect(printed.find((o) => 'vkey' in o)).toMatchObject({ vkey: expect.stringMatching(/\+[0-9a-f]{8}\+/) });
    expect(printed.find((o) => 'newLeaves' in o)).toMatchObject({ valid: true, treeSize: expect.any(Number) });
    expect(printed.find((o) => 'receiptId' in o)).toMatchObject({ valid: true, record: { leafIndex: expect.any(Number) } });
  }, 120_000);
});
