import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { repoRoot } from '../test/support/process.js';

/** The q-th percentile (0..100) of `values`, nearest rank; NaN when empty. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((q / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Milliseconds with one decimal, or "n/a". */
export const ms = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : 'n/a');
/** A count with thousands separators. */
export const num = (v: number, digits = 0): string =>
  Number.isFinite(v) ? v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : 'n/a';
export const mib = (bytes: number): string => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MiB` : 'n/a');

/** Times `fn` once, in milliseconds. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/** Runs `fn` `n` times, sequentially, and answers the durations (ms). */
export async function sample(n: number, fn: (i: number) => Promise<void>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await timed(() => fn(i))).ms);
  return out;
}

/** The resident set size of a process (Linux /proc), in bytes; NaN elsewhere or once it ended. */
export function rssOf(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1];
    return kb ? Number(kb) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Samples a process's RSS every `everyMs` until stopped; answers the peak seen. */
export function rssSampler(pid: number, everyMs = 10): { stop(): number } {
  let peak = rssOf(pid);
  const timer = setInterval(() => {
    const v = rssOf(pid);
    if (v > peak || !Number.isFinite(peak)) peak = v;
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      const v = rssOf(pid);
      return Math.max(peak, Number.isFinite(v) ? v : 0);
    },
  };
}

export interface Machine {
  cpuModel: string;
  cores: number;
  memory: string;
  node: string;
  os: string;
  postgres: string | undefined;
}

export function machine(postgresVersion?: string): Machine {
  const list = cpus();
  let os = `${process.platform} ${process.arch}`;
  try {
    const pretty = /PRETTY_NAME="([^"]+)"/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
    if (pretty) os = `${pretty} (${process.arch})`;
  } catch {
    // not Linux: keep the platform name
  }
  return {
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memory: `${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    node: process.version,
    os,
    postgres: postgresVersion,
  };
}

/** The commit the bench ran on, with "+ uncommitted changes" when the tree is dirty. */
export function commit(): string {
  // A run from an exported copy of the tree (no .git) names its commit itself.
  if (process.env.BENCH_COMMIT) return process.env.BENCH_COMMIT;
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
  try {
    const head = git('rev-parse', '--short=12', 'HEAD');
    const dirty = git('status', '--porcelain', '--untracked-files=no') !== '';
    return dirty ? `${head} + uncommitted changes` : head;
  } catch {
    return 'unknown';
  }
}

/** A Markdown (and console) table. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map(String))];
  const width = head.map((_, i) => Math.max(3, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(width[i]!)).join(' | ')} |`;
  return [line(head), `| ${width.map((w) => '-'.repeat(w)).join(' | ')} |`, ...rows.map((r) => line(r.map(String)))].join('\n');
}

/**
 * What the CSV export's crypto-shredding costs per row on this machine, alone: what its worker
 * threads do for each row (`openStored`: unwrap the row's data key under the master key, open its
 * sealed personal fields, two AES-256-GCM, and parse them). Answers microseconds per row, best of
 * 3 rounds.
 */
export async function decryptionCost(rows = 20_000): Promise<number> {
  const { sealBytes, secureRandom, wrapKey } = await import('../src/privacy/envelope.js');
  const { openStored } = await import('../src/privacy/bulk-open.js');
  const { dataKeyAad } = await import('../src/privacy/key-store.js');
  const { sealedAad } = await import('../src/privacy/privacy.js');
  const master = secureRandom(32);
  const personal = Buffer.from(
    JSON.stringify({
      userReference: 'user-0001234',
      ipAddress: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (bench)',
      metadata: { source: 'bench', campaign: 'c1' },
    }),
  );
  const sample = Array.from({ length: 1000 }, (_, i) => {
    const kid = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    const key = secureRandom(32);
    const aad = sealedAad('ConsentRecorded', '00000000-0000-4000-8000-000000000000', kid, 'subject');
    return { aad, wrapped: wrapKey(master, dataKeyAad(kid), key, secureRandom), sealed: sealBytes(key, kid, aad, personal, secureRandom) };
  });
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    const started = performance.now();
    for (let i = 0; i < rows; i++) openStored(master, sample[i % sample.length]!);
    best = Math.min(best, ((performance.now() - started) * 1000) / rows);
  }
  return best;
}

/** What the machine did during a step, beside the service (see `watchMachine`). */
export interface MachineSeen {
  /** The longest the bench's own event loop was held (autocannon times requests on it). */
  loopMaxMs: number;
  /** One-row commits on a connection of their own, every 20 ms (PostgreSQL server only, else NaN). */
  commitP99Ms: number;
  commitMaxMs: number;
}

/**
 * Watches the machine while a step runs, so that a tail can be told from a stall of the machine:
 * the bench process's own event-loop delay (a stall there reads as latency of every request in
 * flight) and, with a PostgreSQL server, a one-row INSERT committed every 20 ms on a connection
 * of its own (a stall of the server or of its disk). Two runs of the same code read a PostgreSQL
 * p99 of 15 and 74 ms before the machine's own stalls were measured beside it.
 *
 * @example
 * const watch = await watchMachine(databaseUrl, { fromMs: 2000 }); // after the step's warm-up
 * await step();
 * const seen = await watch.stop(); // { loopMaxMs: 12.3, commitP99Ms: 1.9, commitMaxMs: 7.5 }
 */
export async function watchMachine(
  databaseUrl?: string,
  { fromMs = 0 }: { fromMs?: number } = {},
): Promise<{ stop(): Promise<MachineSeen> }> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const enable = setTimeout(() => loop.enable(), fromMs);
  const commits: number[] = [];
  let running = true;
  let probe: Promise<void> = Promise.resolve();
  if (databaseUrl) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(
      'CREATE SCHEMA IF NOT EXISTS bench; CREATE TABLE IF NOT EXISTS bench.heartbeat (at timestamptz NOT NULL DEFAULT clock_timestamp())',
    );
    probe = (async () => {
      try {
        await sleep(fromMs);
        while (running) {
          const started = performance.now();
          await client.query('INSERT INTO bench.heartbeat DEFAULT VALUES');
          commits.push(performance.now() - started);
          await sleep(20);
        }
      } finally {
        await client.end();
      }
    })();
  }
  return {
    async stop() {
      running = false;
      clearTimeout(enable);
      await probe;
      loop.disable();
      return {
        loopMaxMs: loop.max / 1e6,
        commitP99Ms: percentile(commits, 99),
        commitMaxMs: commits.length > 0 ? Math.max(...commits) : Number.NaN,
      };
    },
  };
}

/** "bench's event loop max 12 ms; a one-row commit beside it p99 1.9 ms, max 7.5 ms". */
export const machineText = (m: MachineSeen | undefined): string =>
  m === undefined
    ? ''
    : `bench's event loop max ${m.loopMaxMs.toFixed(0)} ms${Number.isFinite(m.commitMaxMs) ? `; a one-row commit beside it p99 ${ms(m.commitP99Ms)}, max ${ms(m.commitMaxMs)}` : ''}`;
