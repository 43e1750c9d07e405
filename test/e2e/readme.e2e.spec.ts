import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, startServiceProcess, type ServiceProcess } from '../support/process.js';

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

  it('answers every step with success, exports a CSV and still verifies after the policy is deleted', async () => {
    const { apiKey, apiSecret } = await svc.credentials();
    const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Walk-through with curl'));
    const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block, 'the walk-through has a sh block').toBeDefined();
    const script = block!.replace(/^export KEY=.*$/m, '').replaceAll('http://127.0.0.1:3000', svc.url);
    const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], {
      cwd: dir,
      env: { ...process.env, KEY: apiKey, SECRET: apiSecret },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const answers = run.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { success: boolean; data: unknown });
    expect(answers.length).toBeGreaterThanOrEqual(11);
    for (const a of answers) expect(a, JSON.stringify(a)).toMatchObject({ success: true });
    const verifications = answers.filter((a) => (a.data as { valid?: boolean })?.valid !== undefined);
    expect(verifications.map((a) => (a.data as { valid: boolean }).valid)).toEqual([true, true]);
    const csv = readFileSync(join(dir, 'consents.csv'), 'utf8').split('\r\n');
    expect(csv[0]).toBe(
      'id,userReference,policyVersionId,policyType,policyVersion,consentGiven,status,ipAddress,userAgent,consentHash,createdAt,withdrawnAt,tampered',
    );
    expect(csv[1]).toContain('user-42');
  });
});
