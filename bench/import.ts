/**
 * `npm run bench:import`: how fast `npx consent-ledger import` moves history in (issue 18, goal:
 * at least 20,000 rows/s into a PostgreSQL server). Creates a database of its own on the server
 * DATABASE_URL names (dropped afterwards), a tenant with a purpose and its policy, writes a CSV of
 * BENCH_IMPORT_ROWS rows (default 200,000), runs the built CLI as an operator would, and prints
 * its rows/s, then runs it again to time the pass that finds every row imported.
 *
 *   BENCH_IMPORT_ROWS   rows in the file (default 200000)
 *   BENCH_IMPORT_DATA   set to 1 to run on the embedded store instead (a temporary DATA_DIR)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadSettings } from '../src/config.js';
import { createService } from '../src/service.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 200_000);
const EMBEDDED = process.env.BENCH_IMPORT_DATA === '1';
const root = new URL('../', import.meta.url).pathname;
const bin = join(root, 'bin', 'consent-ledger.js');

function run(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, LOG_LEVEL: 'silent' };
    // The embedded store is chosen by the absence of DATABASE_URL.
    if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
    const child = spawn(process.execPath, [bin, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cl-bench-import-'));
  let env: Record<string, string>;
  let drop = async () => undefined as void;
  if (EMBEDDED) env = { DATA_DIR: join(dir, 'data') };
  else {
    const server = process.env.DATABASE_URL;
    if (!server) throw new Error('DATABASE_URL must name a PostgreSQL server (or set BENCH_IMPORT_DATA=1)');
    const name = `bench_import_${Date.now()}`;
    const admin = new pg.Client({ connectionString: server });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString(), DATA_DIR: join(dir, 'data') };
    drop = async () => {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    };
  }
  try {
    const created = await run(['tenant', 'create', '--name', 'Bench import', '--plan', 'enterprise'], env);
    const tenant = JSON.parse(created.stdout) as { tenantId: string; apiKey: string; apiSecret: string };
    const service = await createService(loadSettings({ ...env, LOG_LEVEL: 'silent' }));
    try {
      const headers = { 'x-api-key': tenant.apiKey, 'x-api-secret': tenant.apiSecret, 'content-type': 'application/json' };
      const post = async (url: string, body: unknown) => {
        const res = await service.app.inject({ method: 'POST', url, headers, payload: JSON.stringify(body) });
        if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
      };
      await post('/api/v1/purposes', { key: 'newsletter', name: 'Newsletter', legalBasis: 'consent', consentValidFor: 'P24M' });
      await post('/api/v1/policies', {
        policyType: 'custom',
        purpose: 'newsletter',
        version: '1.0.0',
        title: 'Newsletter',
        content: 'We send news.',
        effectiveDate: '2019-01-01T00:00:00Z',
      });
    } finally {
      await service.close();
    }
    const file = join(dir, 'history.csv');
    const lines = ['user_reference,consent_given,collected_at,purpose,policy_version,ip_address,user_agent,metadata.source'];
    const start = Date.parse('2020-01-01T00:00:00Z');
    for (let i = 0; i < ROWS; i++) {
      const at = new Date(start + i * 60_000).toISOString();
      lines.push(
        `crm-${i},${i % 4 === 0 ? 'no' : 'yes'},${at},newsletter,1.0.0,198.51.100.${i % 250},"Mozilla/5.0 (X11; Linux x86_64) Legacy/${i % 7}",web`,
      );
    }
    writeFileSync(file, `${lines.join('\n')}\n`);
    const mib = (statSync(file).size / 1024 / 1024).toFixed(1);
    console.log(`${ROWS} rows (${mib} MiB) into ${EMBEDDED ? 'the embedded store' : 'a PostgreSQL server'}`);

    for (const pass of ['first pass', 'again (every row found imported)']) {
      const t0 = performance.now();
      const r = await run(['import', '--tenant', tenant.tenantId, '--file', file], env);
      const seconds = (performance.now() - t0) / 1000;
      if (r.code !== 0) throw new Error(`import failed (${r.code}): ${r.stdout}\n${r.stderr.slice(-2000)}`);
      const summary = JSON.parse(r.stdout) as { imported: number; alreadyImported: number; rowsPerSecond: number };
      console.log(
        `${pass}: imported ${summary.imported}, found ${summary.alreadyImported}; ${summary.rowsPerSecond} rows/s by the command's own clock, ` +
          `${Math.round(ROWS / seconds)} rows/s from process start to exit (${seconds.toFixed(1)} s)`,
      );
    }
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
