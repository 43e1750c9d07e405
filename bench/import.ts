/**
 * `npm run bench:import`: how fast `npx consent-ledger import` moves history in (issue 18, goal:
 * at least 20,000 rows/s into a PostgreSQL server). Creates a database of its own on the server
 * DATABASE_URL names (dropped afterwards), a tenant with a purpose and its policy, writes a CSV of
 * BENCH_IMPORT_ROWS rows (default 200,000), runs the built CLI as an operator would, and prints
 * its rows/s, then runs it again to time the pass that finds every row imported. On Linux it also
 * prints the CPU each row costs: in the import's process (and on its thread that reads the file,
 * which no number of recording threads shares), and in the server when it runs on this machine
 * (its postmaster and every process it started), which bounds what one machine can reach.
 *
 *   BENCH_IMPORT_ROWS   rows in the file (default 200000)
 *   BENCH_IMPORT_DATA   set to 1 to run on the embedded store instead (a temporary DATA_DIR)
 *   BENCH_IMPORT_NODE   node flags for the import's process, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`
 *   BENCH_IMPORT_THREADS  the import's --threads (default: the command's own choice)
 *   BENCH_IMPORT_PROCESSES  split the rows over this many files (every n-th row), imported at once
 *                       by as many processes into the one tenant (default 1)
 *   BENCH_IMPORT_FIRST_ONLY  set to 1 to skip the second pass (comparing CPU profiles of the first)
 *   BENCH_IMPORT_ARGS   more arguments for the command, e.g. `--dry-run` (the cost of reading and checking alone)
 *   BENCH_IMPORT_REBUILD  set to 1 to time, last, `projections rebuild` of the store the import filled: the
 *                       replay an upgrade that changes the read models' shape makes on its first start
 *
 * Last, it times alone, with the service's own functions, the cryptography every imported row
 * carries whatever the code around it: what the import's CPU per row could never go below here.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { canonicalJson, sha256Hex } from '../src/common/hashing.js';
import { deriveId } from '../src/common/ids.js';
import { loadSettings } from '../src/config.js';
import { hmacHex, sealBytes, secureRandom, wrapKey } from '../src/privacy/envelope.js';
import { createService } from '../src/service.js';
import { nodeHash } from '../src/transparency/merkle.js';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 200_000);
const EMBEDDED = process.env.BENCH_IMPORT_DATA === '1';
const root = new URL('../', import.meta.url).pathname;
const bin = join(root, 'bin', 'consent-ledger.js');
const NODE_FLAGS = (process.env.BENCH_IMPORT_NODE ?? '').split(' ').filter(Boolean);
const PROCESSES = Math.max(1, Number(process.env.BENCH_IMPORT_PROCESSES ?? 1));
const THREADS = process.env.BENCH_IMPORT_THREADS ? ['--threads', process.env.BENCH_IMPORT_THREADS] : [];
const ARGS = (process.env.BENCH_IMPORT_ARGS ?? '').split(' ').filter(Boolean);

function run(
  args: string[],
  env: Record<string, string>,
  flags: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string; mainThreadMs: number | null }> {
  return new Promise((resolve, reject) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, LOG_LEVEL: 'silent' };
    // The embedded store is chosen by the absence of DATABASE_URL.
    if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
    const child = spawn(process.execPath, [...flags, bin, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    // The CPU of the command's own thread (reading the file), sampled while it runs: its task's
    // /proc entry goes with the process. With threads recording, it bounds rows/s on any number of cores.
    let mainThreadMs: number | null = null;
    const sample = setInterval(() => {
      const cpu = cpuOf(`${child.pid}/task/${child.pid}`);
      if (cpu) mainThreadMs = cpu.own;
    }, 50);
    child.once('error', reject);
    child.once('close', (code) => {
      clearInterval(sample);
      resolve({ code, stdout, stderr, mainThreadMs });
    });
  });
}

const TICK_MS = 10; // USER_HZ is 100 on every Linux the bench runs on

/** utime+stime and cutime+cstime of a process, in ms, from /proc (null when there is none). */
function cpuOf(pid: number | string): { own: number; children: number; ppid: number } | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces): state is field 3, ppid 4, utime 14.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const n = (i: number) => Number(f[i - 3]) * TICK_MS;
  return { own: n(14) + n(15), children: n(16) + n(17), ppid: Number(f[1]) };
}

/** CPU used so far by a server's postmaster and every process it started, in ms. */
function serverCpu(postmaster: number): number | null {
  const root = cpuOf(postmaster);
  if (!root) return null;
  let total = root.own + root.children;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = cpuOf(Number(name));
    if (p?.ppid === postmaster) total += p.own;
  }
  return total;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'cl-bench-import-'));
  let env: Record<string, string>;
  let drop = async () => undefined as void;
  let postmaster: number | null = null;
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
    const backend = await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    postmaster = cpuOf(backend.rows[0]!.pid)?.ppid ?? null;
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
    // Every n-th row to the n-th file: each subject's rows stay in one file, in their order.
    const files =
      PROCESSES === 1
        ? [file]
        : Array.from({ length: PROCESSES }, (_, k) => {
            const part = join(dir, `part-${k}.csv`);
            writeFileSync(part, `${[lines[0], ...lines.slice(1).filter((_, i) => i % PROCESSES === k)].join('\n')}\n`);
            return part;
          });
    if (PROCESSES > 1) console.log(`split over ${PROCESSES} files, imported at once by ${PROCESSES} processes`);

    const passes = process.env.BENCH_IMPORT_FIRST_ONLY === '1' ? ['first pass'] : ['first pass', 'again (every row found imported)'];
    for (const pass of passes) {
      const cli0 = cpuOf('self')?.children;
      const server0 = postmaster === null ? null : serverCpu(postmaster);
      const t0 = performance.now();
      const runs = await Promise.all(
        files.map((f) => run(['import', '--tenant', tenant.tenantId, '--file', f, ...THREADS, ...ARGS], env, NODE_FLAGS)),
      );
      const seconds = (performance.now() - t0) / 1000;
      const cli1 = cpuOf('self')?.children;
      const server1 = postmaster === null ? null : serverCpu(postmaster);
      const summaries = runs.map((r) => {
        if (r.code !== 0) throw new Error(`import failed (${r.code}): ${r.stdout}\n${r.stderr.slice(-2000)}`);
        return JSON.parse(r.stdout) as { imported: number; alreadyImported: number; rowsPerSecond: number; threads: number };
      });
      const sum = (k: 'imported' | 'alreadyImported' | 'rowsPerSecond') => summaries.reduce((t, x) => t + x[k], 0);
      console.log(
        `${pass}: imported ${sum('imported')}, found ${sum('alreadyImported')}; ${sum('rowsPerSecond')} rows/s by the command's own clock` +
          `${PROCESSES > 1 ? ' (summed)' : ''}, ${Math.round(ROWS / seconds)} rows/s from process start to exit (${seconds.toFixed(1)} s)` +
          `, ${summaries[0]!.threads} thread(s) each`,
      );
      const perRow = (ms: number) => `${Math.round((ms * 1000) / ROWS)} µs`;
      if (cli0 !== undefined && cli1 !== undefined) {
        const reading = runs.reduce((t, r) => t + (r.mainThreadMs ?? 0), 0);
        console.log(
          `  CPU per row: ${perRow(cli1 - cli0)} in the import's process${PROCESSES > 1 ? 'es' : ''}` +
            ` (${perRow(reading)} of it on the thread reading the file)` +
            (server0 !== null && server1 !== null ? `, ${perRow(server1 - server0)} in the server` : ''),
        );
      }
    }
    if (process.env.BENCH_IMPORT_REBUILD === '1') {
      const server0 = postmaster === null ? null : serverCpu(postmaster);
      const cli0 = cpuOf('self')?.children;
      const t0 = performance.now();
      const rebuilt = await run(['projections', 'rebuild'], env);
      const seconds = (performance.now() - t0) / 1000;
      if (rebuilt.code !== 0) throw new Error(`rebuild failed (${rebuilt.code}): ${rebuilt.stderr.slice(-2000)}`);
      const { events } = JSON.parse(rebuilt.stdout) as { events: number };
      const cli1 = cpuOf('self')?.children;
      const server1 = postmaster === null ? null : serverCpu(postmaster);
      const perEvent = (ms: number) => `${Math.round((ms * 1000) / events)} µs`;
      console.log(
        `projections rebuild: ${events} events in ${seconds.toFixed(1)} s, ${Math.round(events / seconds)} events/s from process start` +
          (cli0 !== undefined && cli1 !== undefined ? `; CPU per event ${perEvent(cli1 - cli0)} in the command` : '') +
          (server0 !== null && server1 !== null ? `, ${perEvent(server1 - server0)} in the server` : ''),
      );
    }
  } finally {
    await drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * µs per row of the cryptography each imported record needs, timed alone: its data key (random,
 * wrapped under the master key), its sealed personal fields, three keyed hashes (subject, a
 * metadata tag, the row's id), its id (SHA-1), consentHash and eventHash (SHA-256 of their
 * canonical JSON) and two Merkle nodes of its append's authenticator.
 */
function cryptoPerRow(rows = 100_000): number {
  const master = secureRandom(32);
  const consent = { a: 'x'.repeat(64), b: 'user-00000042', c: true, d: '2024-03-01T10:00:00.000Z', e: randomUUID() };
  const event = { ...consent, f: 'y'.repeat(400), g: { ct: 'z'.repeat(160), iv: 'i'.repeat(16), kid: randomUUID() } };
  const personal = Buffer.from(
    JSON.stringify({ userReference: 'user-00000042', ipAddress: null, userAgent: null, metadata: { channel: 'web' } }),
  );
  const left = secureRandom(32);
  const one = (i: number) => {
    const key = secureRandom(32);
    wrapKey(master, 'data-key', key, secureRandom);
    sealBytes(key, 'kid', 'ConsentRecorded', personal, secureRandom);
    hmacHex(master, `user-${i}`);
    hmacHex(master, `channel\u0000web`);
    hmacHex(master, `import\u0000row-${i}`);
    deriveId('tenant', 'consent', String(i));
    sha256Hex(canonicalJson(consent));
    nodeHash(left, Buffer.from(sha256Hex(canonicalJson(event)), 'hex'));
    nodeHash(left, left);
  };
  for (let i = 0; i < 10_000; i++) one(i);
  const t0 = performance.now();
  for (let i = 0; i < rows; i++) one(i);
  return ((performance.now() - t0) * 1000) / rows;
}

await main();
console.log(`the cryptography every row carries, timed alone here: ${cryptoPerRow().toFixed(1)} µs per row (one core)`);
