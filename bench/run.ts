/**
 * `npm run bench`: issue 7's benchmark. Runs the real service as a child process on the embedded
 * store and, when DATABASE_URL is set, on a fresh database of that PostgreSQL server; measures it
 * with autocannon and plain HTTP clients; prints a table and writes docs/benchmarks.md.
 *
 * Settings (environment):
 *   DATABASE_URL   a PostgreSQL server: the bench creates (and drops) a fresh database on it
 *   BENCH_QUICK=1  a short run that proves the harness (figures are indicative only)
 *   BENCH_ROWS     consents filled for the "at scale" measures (default 20,000 quick, 200,000 full)
 *   BENCH_ENGINES  embedded,postgres (default: both that are available)
 *   BENCH_OUT      where to write the Markdown (default docs/benchmarks.md; "-" = don't write)
 *   BENCH_STEPS    record,batch,lag,webhooks,scale (default all); a partial run never writes the doc
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { startReceiver, testCertificate } from '../test/support/https-receiver.js';
import {
  provisionTenant,
  repoRoot,
  startServiceProcess,
  tenantClient,
  waitUntil,
  type HttpClient,
  type ServiceProcess,
} from '../test/support/process.js';
import { freshDatabase } from '../test/support/stores.js';
import {
  commit,
  decryptionCost,
  machine,
  machineText,
  mib,
  ms,
  num,
  percentile,
  rssSampler,
  sample,
  table,
  timed,
  watchMachine,
  type Machine,
  type MachineSeen,
} from './lib.js';

const QUICK = process.env.BENCH_QUICK === '1' || process.env.BENCH_QUICK === 'true';
const ROWS = Number(process.env.BENCH_ROWS ?? (QUICK ? 20_000 : 200_000));
const DURATION_S = QUICK ? 3 : 10;
/**
 * Each measured load step first runs the same load unmeasured for this long. The machine was seen
 * to stall every process on it (idle ones too) for 40-80 ms right after the baseline's TRUNCATE and
 * CHECKPOINT, as the next step began: that is the bench's own doing, not the service's latency.
 */
const WARMUP_S = QUICK ? 1 : 2;
const CONCURRENCY = [1, 4, 16, 64];
const ADMIN_TOKEN = 'bench-admin-token-0123456789abcdef';
const SERVER_URL = process.env.DATABASE_URL;
const ALL_STEPS = ['record', 'batch', 'lag', 'webhooks', 'scale'] as const;
const STEPS = new Set((process.env.BENCH_STEPS ?? ALL_STEPS.join(',')).split(',').map((s) => s.trim()));
const unknownStep = [...STEPS].find((s) => !(ALL_STEPS as readonly string[]).includes(s));
if (unknownStep !== undefined) throw new Error(`BENCH_STEPS: unknown step ${unknownStep} (steps: ${ALL_STEPS.join(',')})`);
const PARTIAL = ALL_STEPS.some((s) => !STEPS.has(s));
const OUT = PARTIAL ? '-' : (process.env.BENCH_OUT ?? join(repoRoot, 'docs', 'benchmarks.md'));
if (!Number.isInteger(ROWS) || ROWS < 4_000) throw new Error(`BENCH_ROWS must be an integer ≥ 4000 (got ${process.env.BENCH_ROWS})`);

type EngineName = 'embedded' | 'postgres';
const wanted = (process.env.BENCH_ENGINES ?? 'embedded,postgres').split(',').map((s) => s.trim());
const engines: EngineName[] = (['embedded', 'postgres'] as const).filter((e) => wanted.includes(e) && (e === 'embedded' || SERVER_URL));
if (wanted.includes('postgres') && !SERVER_URL)
  console.log('[bench] DATABASE_URL is not set: the PostgreSQL-server runs are skipped, the embedded ones run');

interface Goal {
  engine: EngineName;
  what: string;
  target: string;
  measured: string;
  met: boolean;
}

interface LoadRow {
  concurrency: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  baselineRps?: number;
  baselineP50?: number;
  baselineP99?: number;
}

interface ScaleRow {
  rows: number;
  fillSeconds: number;
  exportMs: number;
  exportRowsPerS: number;
  exportPeakRss: number;
  idleRss: number;
  stats: number[];
  searchPage: number[];
  searchUser: number[];
  verify: number[];
  /** Issue 18: search (a page, with its total) and stats with one filter each, and the re-consent list's first page. */
  filtered: Record<FilterName, { search: number[]; stats: number[] }>;
  reconsent: number[];
  /** Erasure of one subject (one record each), distinct subjects, after the reads. */
  erase: number[];
  /** Embedded store: the longest one table's vacuum held the connection in the last round (ms), from /metrics. */
  vacuumLongestMs?: number;
  /** Embedded store: the longest hold any round reported while the step's fill wrote (read from /metrics every 2 s). */
  vacuumLongestDuringFillMs?: number;
  /** Embedded store: POST /admin/v1/backup read to its end at rest, and verify reads sent one after another beside it. */
  backup?: { ms: number; bytes: number; readsBeside: number[] };
}

/** The filters measured at scale, each alone, and the query that states it (the outdated version's id filled in). */
const FILTERS = {
  purpose: () => 'purpose=bench-news',
  policyVersionId: (outdatedId: string) => `policyVersionId=${outdatedId}`,
  'status=outdated': () => 'status=outdated',
  'status=expired': () => 'status=expired',
  'metadata.source': () => 'metadata.source=web',
} as const;
type FilterName = keyof typeof FILTERS;

interface EngineResult {
  engine: EngineName;
  load: LoadRow[];
  halfRate: { rate: number; rps: number; p50: number; p99: number; machine?: MachineSeen };
  batch: number[];
  lag: number[];
  /** From a write's 2xx to its inclusion proof (the transparency log holds it). */
  sealLag: number[];
  lagWriteRps: number;
  /** The machine during the lag step (`watchMachine`). */
  lagMachine?: MachineSeen;
  scale: ScaleRow[];
  receipt: number[];
  webhooks: { deliveries: number; seconds: number; perSecond: number; lagP50: number; lagP99: number; webhooks: number };
  notes: string[];
}

const log = (message: string) => console.log(`[bench] ${message}`);

/** One consent as the API takes it. */
const consentBody = (policyVersionId: string, userReference: string, i = 0) => ({
  policyVersionId,
  userReference,
  consentGiven: i % 5 !== 0,
  ipAddress: '203.0.113.7',
  userAgent: 'Mozilla/5.0 (bench)',
  metadata: { source: SOURCES[i % SOURCES.length]!, campaign: `c${i % 10}` },
});
/** Where a bench record says it came from: each a quarter of the rows, for the metadata filter. */
const SOURCES = ['web', 'app', 'store', 'import'] as const;

function authHeaders(creds: { apiKey: string; apiSecret: string }): Record<string, string> {
  return { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret, 'content-type': 'application/json' };
}

/** autocannon against POST /api/v1/consent; every request has its own userReference. */
async function recordLoad(
  svc: ServiceProcess,
  creds: { apiKey: string; apiSecret: string },
  policyVersionId: string,
  connections: number,
  options: { overallRate?: number; seconds?: number; warmupSeconds?: number } = {},
) {
  let n = 0;
  const prefix = randomUUID().slice(0, 8);
  const result = await autocannon({
    url: svc.url,
    connections,
    duration: options.seconds ?? DURATION_S,
    ...(options.overallRate ? { overallRate: options.overallRate } : {}),
    // The same load first, unmeasured (autocannon's warm-up: same rate and requests).
    ...(options.warmupSeconds ? { warmup: { connections, duration: options.warmupSeconds } } : {}),
    requests: [
      {
        method: 'POST',
        path: '/api/v1/consent',
        headers: authHeaders(creds),
        setupRequest: (req) => ({ ...req, body: JSON.stringify(consentBody(policyVersionId, `load-${prefix}-${++n}`, n)) }),
      },
    ],
  });
  return {
    rps: result.requests.total / (result.duration || DURATION_S),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/**
 * The physical limit: the same event row inserted straight into the same PostgreSQL database (a
 * copy of ledger.events' shape, indexes and defaults; no trigger work differs since the ledger's
 * trigger fires on UPDATE/DELETE only), one autocommit INSERT per consent, default durability
 * (synchronous_commit as the server has it), `connections` pool clients: no HTTP, no hashing.
 */
async function baseline(databaseUrl: string, connections: number, seconds: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: connections });
  try {
    const template = await pool.query(
      `SELECT tenant_id, event_type, data::text AS data, metadata::text AS metadata, prev_hash, event_hash FROM ledger.events WHERE event_type = 'ConsentRecorded' LIMIT 1`,
    );
    const row = template.rows[0] as {
      tenant_id: string;
      event_type: string;
      data: string;
      metadata: string;
      prev_hash: string | null;
      event_hash: string;
    };
    const latencies: number[] = [];
    const deadline = performance.now() + seconds * 1000;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (performance.now() < deadline) {
          const id = randomUUID();
          const t0 = performance.now();
          await pool.query(
            `INSERT INTO bench.events (event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash)
             VALUES ($1, $2, $3, 0, $4, $5::json, $6::json, now(), $7, $8)`,
            [id, row.tenant_id, `${row.tenant_id}:consent:${id}`, row.event_type, row.data, row.metadata, row.prev_hash, row.event_hash],
          );
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const elapsed = (performance.now() - started) / 1000;
    // The service's next step is not measured on a server still writing out (and vacuuming) the
    // baseline's rows: they are dropped and flushed now (CHECKPOINT needs a superuser or
    // pg_checkpoint; without it the step goes on).
    await pool.query('TRUNCATE bench.events');
    await pool.query('CHECKPOINT').catch(() => undefined);
    return { rps: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  } finally {
    await pool.end();
  }
}

/** Posts one batch of `size` consents; answers the ids (throws unless 201). */
async function postBatch(api: HttpClient, policyVersionId: string | string[], prefix: string, size: number, offset = 0): Promise<string[]> {
  const versions = typeof policyVersionId === 'string' ? [policyVersionId] : policyVersionId;
  const consents = Array.from({ length: size }, (_, i) =>
    consentBody(versions[(offset + i) % versions.length]!, `${prefix}-${offset + i}`, offset + i),
  );
  const res = await api.post('/api/v1/consent/batch', { consents });
  if (res.status !== 201) throw new Error(`batch: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
  return (res.body.data.consents as { id: string }[]).map((c) => c.id);
}

/**
 * Projection and sealing lag: while autocannon writes at the peak, a separate client writes one
 * consent, then polls search for it and, at the same time, asks for its inclusion proof (issue 8:
 * the transparency log must hold it within a second).
 */
async function projectionLag(
  svc: ServiceProcess,
  creds: { apiKey: string; apiSecret: string },
  policyVersionId: string,
  connections: number,
  databaseUrl?: string,
) {
  const watch = await watchMachine(databaseUrl, { fromMs: WARMUP_S * 1000 });
  const api = tenantClient(svc.url, creds);
  const lags: number[] = [];
  const seals: number[] = [];
  /** When each counted probe was written, in seconds from the start of the measured load. */
  const startedAt: number[] = [];
  let running = true;
  const load = recordLoad(svc, creds, policyVersionId, connections, { warmupSeconds: WARMUP_S }).finally(() => {
    running = false;
  });
  // Probes during autocannon's warm-up are not counted (approximately: it starts as this does).
  const measuredFrom = performance.now() + WARMUP_S * 1000;
  const probe = (async () => {
    let i = 0;
    while (running) {
      const probeStart = performance.now();
      const ref = `lag-${randomUUID()}`;
      const written = await api.post('/api/v1/consent', consentBody(policyVersionId, ref, ++i));
      if (written.status !== 201) throw new Error(`lag probe write: ${written.status}`);
      const acked = performance.now();
      const searched = (async () => {
        for (;;) {
          const found = await api.get(`/api/v1/consent/search?userReference=${encodeURIComponent(ref)}&limit=1`);
          if (found.status === 200 && found.body.pagination.total >= 1) return performance.now() - acked;
          if (performance.now() - acked > 30_000) throw new Error(`consent ${ref} not in search after 30 s`);
        }
      })();
      const sealed = (async () => {
        for (;;) {
          // The route itself waits (bounded) for the sealer, then answers 503 PROOF_NOT_READY.
          const proof = await api.get(`/api/v1/consent/${written.body.data.id}/proof`);
          if (proof.status === 200) return performance.now() - acked;
          if (proof.status !== 503) throw new Error(`lag probe proof: ${proof.status}`);
          if (performance.now() - acked > 30_000) throw new Error(`consent ${ref} not sealed after 30 s`);
        }
      })();
      const [searchLag, sealLag] = await Promise.all([searched, sealed]);
      if (probeStart < measuredFrom) continue;
      lags.push(searchLag);
      seals.push(sealLag);
      startedAt.push((probeStart - measuredFrom) / 1000);
    }
  })();
  const [loaded] = await Promise.all([load, probe]);
  const slowest = lags
    .map((lag, k) => ({ lag, at: startedAt[k]! }))
    .sort((a, b) => b.lag - a.lag)
    .slice(0, 3)
    .map((p) => `${ms(p.lag)} at ${p.at.toFixed(1)} s`);
  const seen = await watch.stop();
  log(`slowest probes: ${slowest.join(', ')}; ${machineText(seen)}`);
  return { lags, seals, writeRps: loaded.rps, machine: seen };
}

/** GET the CSV export, streaming; answers rows, time and the server's peak RSS while it ran. */
async function exportCsv(svc: ServiceProcess, creds: { apiKey: string; apiSecret: string }) {
  const sampler = rssSampler(svc.pid);
  const started = performance.now();
  const res = await fetch(`${svc.url}/api/v1/consent/export`, { headers: { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret } });
  if (res.status !== 200 || !res.body) throw new Error(`export: ${res.status}`);
  let lines = 0;
  for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
    for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines += 1;
  }
  const elapsed = performance.now() - started;
  return { rows: lines - 1, ms: elapsed, peakRss: sampler.stop() };
}

async function withEngine(engine: EngineName): Promise<EngineResult> {
  const { caFile } = await testCertificate();
  const dataDir = engine === 'embedded' ? mkdtempSync(join(tmpdir(), 'cl-bench-')) : undefined;
  const fresh = engine === 'postgres' ? await freshDatabase() : undefined;
  const svc = await startServiceProcess({
    // The embedded store vacuums every minute here (10 by default), so that every figure below is
    // measured with rounds running beside it; the scale step reports the longest hold.
    ...(dataDir ? { DATA_DIR: dataDir, EMBEDDED_VACUUM_MINUTES: '1' } : { DATABASE_URL: fresh!.url }),
    ADMIN_TOKEN,
    LOG_LEVEL: 'error',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    NODE_EXTRA_CA_CERTS: caFile,
  });
  const notes: string[] = [];
  try {
    const creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'bench-load');
    const api = tenantClient(svc.url, creds);
    const policy = await api.post('/api/v1/policies', {
      policyType: 'privacy_policy',
      version: '1.0.0',
      title: 'Privacy policy',
      content: 'We keep your data safe. '.repeat(40),
    });
    if (policy.status !== 201) throw new Error(`policy: ${policy.status}`);
    const policyVersionId = policy.body.data.id as string;
    // Warm-up: JIT, pools, caches; and the export's worker threads, started on first use.
    await recordLoad(svc, creds, policyVersionId, 4, { seconds: 1 });
    await exportCsv(svc, creds);

    // 1. Record consent at rising concurrency, and the baseline beside it.
    const load: LoadRow[] = [];
    if (fresh) {
      const c = new pg.Client({ connectionString: fresh.url });
      await c.connect();
      await c.query(
        `CREATE SCHEMA IF NOT EXISTS bench; CREATE TABLE IF NOT EXISTS bench.events (LIKE ledger.events INCLUDING DEFAULTS INCLUDING IDENTITY INCLUDING CONSTRAINTS INCLUDING INDEXES)`,
      );
      await c.end();
    }
    for (const connections of STEPS.has('record') ? CONCURRENCY : []) {
      const http = await recordLoad(svc, creds, policyVersionId, connections, { warmupSeconds: WARMUP_S });
      const row: LoadRow = { concurrency: connections, ...http };
      if (fresh) {
        const b = await baseline(fresh.url, connections, DURATION_S);
        Object.assign(row, { baselineRps: b.rps, baselineP50: b.p50, baselineP99: b.p99 });
      }
      load.push(row);
      log(
        `${engine} record c=${connections}: ${num(http.rps)}/s p50 ${http.p50} ms p99 ${http.p99} ms non2xx ${http.non2xx}${row.baselineRps ? `; baseline ${num(row.baselineRps)}/s` : ''}`,
      );
    }
    const peak = load.length > 0 ? load.reduce((a, b) => (b.rps > a.rps ? b : a)) : ({ concurrency: 16, rps: Number.NaN } as LoadRow);
    let halfRate: EngineResult['halfRate'] = { rate: Number.NaN, rps: Number.NaN, p50: Number.NaN, p99: Number.NaN };
    if (STEPS.has('record')) {
      const watch = await watchMachine(fresh?.url, { fromMs: WARMUP_S * 1000 });
      const half = await recordLoad(svc, creds, policyVersionId, 16, {
        overallRate: Math.max(1, Math.floor(peak.rps / 2)),
        warmupSeconds: WARMUP_S,
      });
      halfRate = { rate: Math.floor(peak.rps / 2), ...half, machine: await watch.stop() };
      log(`${engine} at half the peak (${halfRate.rate}/s): p50 ${half.p50} ms p99 ${half.p99} ms; ${machineText(halfRate.machine)}`);
    }

    // 2. Batch of 1,000: time to 201.
    const batchRuns = QUICK ? 3 : 10;
    const batch = await sample(
      STEPS.has('batch') ? batchRuns : 0,
      async (i) => void (await postBatch(api, policyVersionId, `batch-${i}`, 1000)),
    );
    if (STEPS.has('batch')) log(`${engine} batch of 1,000: p50 ${ms(percentile(batch, 50))}, max ${ms(Math.max(...batch))}`);

    // 3. Projection lag at the peak write rate.
    const {
      lags,
      seals,
      writeRps,
      machine: lagMachine,
    } = STEPS.has('lag')
      ? await projectionLag(svc, creds, policyVersionId, peak.concurrency, fresh?.url)
      : { lags: [], seals: [], writeRps: Number.NaN, machine: undefined };
    log(
      `${engine} projection lag under ${num(writeRps)} writes/s: ${lags.length} probes, p50 ${ms(percentile(lags, 50))} p99 ${ms(percentile(lags, 99))}`,
    );
    log(`${engine} sealing lag: ${seals.length} probes, p50 ${ms(percentile(seals, 50))} p99 ${ms(percentile(seals, 99))}`);

    // 5. Webhook fan-out (before the scale fill, so the webhooks see only their own events).
    const webhooks = STEPS.has('webhooks')
      ? await fanOut(svc, api, policyVersionId)
      : { webhooks: 0, deliveries: 0, seconds: Number.NaN, perSecond: Number.NaN, lagP50: Number.NaN, lagP99: Number.NaN };
    log(
      `${engine} webhooks: ${webhooks.deliveries} deliveries in ${webhooks.seconds.toFixed(1)} s = ${num(webhooks.perSecond)}/s, lag p99 ${ms(webhooks.lagP99)}`,
    );

    // 4. At scale: a tenant of its own, filled in steps.
    const scaleCreds = await provisionTenant(svc.url, ADMIN_TOKEN, 'bench-scale');
    const scaleApi = tenantClient(svc.url, scaleCreds);
    const scalePolicy = await scaleApi.post('/api/v1/policies', {
      policyType: 'privacy_policy',
      version: '1.0.0',
      title: 'Privacy policy',
      content: 'We keep your data safe.',
    });
    const scalePolicyId = scalePolicy.body.data.id as string;
    // Issue 18's filters: half the rows on a purpose of the tenant's own, whose first version a
    // second one (requiring re-consent) outdates, so that the re-consent list and status=outdated
    // hold a quarter of the rows (the consents given on it).
    await scaleApi.post('/api/v1/purposes', { key: 'bench-news', name: 'Newsletter', legalBasis: 'consent' });
    const newsVersion = async (version: string) => {
      const res = await scaleApi.post('/api/v1/policies', {
        policyType: 'custom',
        purpose: 'bench-news',
        version,
        title: 'News',
        content: `News ${version}`,
      });
      if (res.status !== 201) throw new Error(`news policy: ${res.status}`);
      return res.body.data.id as string;
    };
    const outdatedId = await newsVersion('1.0.0');
    await newsVersion('2.0.0');
    const steps = STEPS.has('scale') ? [Math.round(ROWS / 4), Math.round(ROWS / 2), ROWS].map((r) => Math.ceil(r / 1000) * 1000) : [];
    const scale: ScaleRow[] = [];
    const someIds: string[] = [];
    let filled = 0;
    const vacuumHold = async (): Promise<number | undefined> => {
      const text = await fetch(`${svc.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }).then((r) => r.text());
      const m = /^consent_ledger_embedded_vacuum_longest_seconds ([0-9.eE+-]+)$/m.exec(text);
      return m ? Number(m[1]) * 1000 : undefined;
    };
    for (const target of steps) {
      // The vacuum rounds the fill's writes start (every 16 MiB of WAL, and each minute): their longest hold.
      let holdDuringFill: number | undefined;
      const watch =
        engine === 'embedded'
          ? setInterval(() => void vacuumHold().then((h) => (holdDuringFill = Math.max(holdDuringFill ?? 0, h ?? 0))), 2_000)
          : undefined;
      const fill = await timed(async () => {
        let next = filled;
        await Promise.all(
          Array.from({ length: 4 }, async () => {
            while (next < target) {
              const offset = next;
              next += 1000;
              const ids = await postBatch(scaleApi, [scalePolicyId, outdatedId], 'scale-user', 1000, offset);
              if (someIds.length < 2000) someIds.push(...ids.filter((_, k) => k % 50 === 0));
            }
          }),
        );
        // The reads' fence waits (bounded) for the projections; wait until they hold every row.
        await waitUntil(async () => (await scaleApi.get('/api/v1/consent/search?limit=1')).body.pagination.total === target, {
          timeoutMs: 900_000,
          intervalMs: 200,
          what: `search total ${target}`,
        });
      });
      if (watch) clearInterval(watch);
      filled = target;
      // And for the sealer (the tenant's log holds its policy and every consent): the measures
      // below are of a service at rest, not of reads queued behind a backlog being sealed.
      await waitUntil(async () => (await scaleApi.get('/api/v1/ledger/checkpoint')).body.data.treeSize >= target + 1, {
        timeoutMs: 900_000,
        intervalMs: 200,
        what: `checkpoint tree size ${target + 1}`,
      });
      const idleRss = rssSampler(svc.pid).stop();
      const exported = await exportCsv(svc, scaleCreds);
      if (exported.rows !== target) throw new Error(`export answered ${exported.rows} rows, expected ${target}`);
      // Sequential samples of each read: enough that the p99 is not the one slowest sample.
      const n = QUICK ? 30 : 300;
      const pick = (i: number) => someIds[(i * 7919) % someIds.length]!;
      const get = async (path: string) => {
        const r = await scaleApi.get(path);
        if (r.status !== 200) throw new Error(`${path}: ${r.status}`);
      };
      const row: ScaleRow = {
        rows: target,
        fillSeconds: fill.ms / 1000,
        exportMs: exported.ms,
        exportRowsPerS: exported.rows / (exported.ms / 1000),
        exportPeakRss: exported.peakRss,
        idleRss,
        stats: await sample(n, () => get('/api/v1/consent/stats')),
        searchPage: await sample(n, () => get('/api/v1/consent/search?limit=20&consentGiven=true')),
        searchUser: await sample(n, (i) => get(`/api/v1/consent/search?userReference=scale-user-${(i * 7919) % target}`)),
        verify: await sample(n, (i) => get(`/api/v1/consent/${pick(i)}/verify`)),
        filtered: {} as ScaleRow['filtered'],
        reconsent: await sample(n, () => get('/api/v1/consent/reconsent?purpose=bench-news&limit=20')),
        erase: [],
      };
      for (const [name, query] of Object.entries(FILTERS) as [FilterName, (id: string) => string][]) {
        row.filtered[name] = {
          search: await sample(n, () => get(`/api/v1/consent/search?limit=20&${query(outdatedId)}`)),
          stats: await sample(n, () => get(`/api/v1/consent/stats?${query(outdatedId)}`)),
        };
      }
      // Last, as it changes what it measures: subjects of this step's newest records, each once.
      row.erase = await sample(QUICK ? 5 : 30, async (i) => {
        const r = await scaleApi.post(`/api/v1/subjects/${encodeURIComponent(`scale-user-${target - 1 - i * 17}`)}/erase`);
        if (r.status !== 200) throw new Error(`erase: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
      });
      if (engine === 'embedded') {
        row.vacuumLongestMs = await vacuumHold();
        row.vacuumLongestDuringFillMs = holdDuringFill;
        // The online backup, read to its end as a client downloading it would, with reads beside it.
        const readsBeside: number[] = [];
        let downloading = true;
        const started = performance.now();
        const download = (async () => {
          const res = await fetch(`${svc.url}/admin/v1/backup`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
          if (res.status !== 200 || !res.body) throw new Error(`backup: ${res.status}`);
          let bytes = 0;
          for await (const chunk of res.body) bytes += (chunk as Uint8Array).length;
          downloading = false;
          return { ms: performance.now() - started, bytes };
        })();
        for (let i = 0; downloading; i++) readsBeside.push((await timed(() => get(`/api/v1/consent/${pick(i)}/verify`))).ms);
        row.backup = { ...(await download), readsBeside };
      }
      scale.push(row);
      log(
        `${engine} ${num(target)} rows (filled in ${row.fillSeconds.toFixed(1)} s): export ${num(row.exportRowsPerS)} rows/s, peak RSS ${mib(row.exportPeakRss)}; ` +
          `stats p99 ${ms(percentile(row.stats, 99))}, search p99 ${ms(percentile(row.searchPage, 99))} / ${ms(percentile(row.searchUser, 99))}, verify p99 ${ms(percentile(row.verify, 99))}; ` +
          `re-consent page p99 ${ms(percentile(row.reconsent, 99))}; erasure p99 ${ms(percentile(row.erase, 99))}; ` +
          (row.vacuumLongestMs === undefined
            ? ''
            : `longest vacuum hold ${ms(row.vacuumLongestMs)} at rest, ${ms(row.vacuumLongestDuringFillMs ?? NaN)} during the fill; `) +
          (row.backup
            ? `backup ${(row.backup.ms / 1000).toFixed(1)} s, ${mib(row.backup.bytes)}, verify p99 beside it ${ms(percentile(row.backup.readsBeside, 99))} (${row.backup.readsBeside.length} reads); `
            : '') +
          Object.entries(row.filtered)
            .map(([f, m]) => `${f}: search p99 ${ms(percentile(m.search, 99))}, stats p99 ${ms(percentile(m.stats, 99))}`)
            .join('; '),
      );
    }
    const receipt = await sample(STEPS.has('scale') ? (QUICK ? 3 : 10) : 0, async (i) => {
      const r = await scaleApi.post(`/api/v1/consent/${someIds[i]}/pdf`);
      if (r.status !== 200 && r.status !== 201) throw new Error(`receipt: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
    });
    log(`${engine} receipt: p50 ${ms(percentile(receipt, 50))}`);
    return {
      engine,
      load,
      halfRate,
      batch,
      lag: lags,
      sealLag: seals,
      lagWriteRps: writeRps,
      ...(lagMachine ? { lagMachine } : {}),
      scale,
      receipt,
      webhooks,
      notes,
    };
  } finally {
    await svc.kill('SIGTERM', 60_000).catch(() => svc.kill('SIGKILL'));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await fresh?.drop();
  }
}

/** W webhooks on one local HTTPS receiver; K consents in batches of 100; deliveries/s and lag from each batch's 201. */
async function fanOut(svc: ServiceProcess, api: HttpClient, policyVersionId: string) {
  const W = 4;
  const K = QUICK ? 500 : 2000;
  const receiver = await startReceiver(() => 200);
  try {
    for (let w = 0; w < W; w++) {
      const r = await api.post('/api/v1/webhooks', { url: `${receiver.url}?w=${w}`, events: ['consent.created'] });
      if (r.status !== 201) throw new Error(`webhook: ${r.status} ${JSON.stringify(r.body)}`);
    }
    const ackedAt = new Map<string, number>();
    const started = Date.now();
    for (let offset = 0; offset < K; offset += 100) {
      const ids = await postBatch(api, policyVersionId, 'hook-user', 100, offset);
      const at = Date.now();
      for (const id of ids) ackedAt.set(id, at);
    }
    const expected = W * K;
    const mine = () => receiver.received.filter((r) => r.json?.type === 'consent.created' && ackedAt.has(r.json.data?.id));
    await receiver.waitFor(
      () => new Set(mine().map((r) => `${r.path} ${r.json.data.id}`)).size >= expected,
      `${expected} deliveries`,
      600_000,
    );
    const got = mine();
    const last = Math.max(...got.map((r) => r.at));
    const lags = got.map((r) => r.at - ackedAt.get(r.json.data.id)!);
    const seconds = (last - started) / 1000;
    return {
      webhooks: W,
      deliveries: expected,
      seconds,
      perSecond: expected / seconds,
      lagP50: percentile(lags, 50),
      lagP99: percentile(lags, 99),
    };
  } finally {
    await receiver.close();
  }
}

function goals(r: EngineResult): Goal[] {
  const out: Goal[] = [];
  const peak = r.load.length > 0 ? r.load.reduce((a, b) => (b.rps > a.rps ? b : a)) : ({ concurrency: 0, rps: Number.NaN } as LoadRow);
  if (r.engine === 'postgres') {
    const ratio = peak.baselineRps ? peak.rps / peak.baselineRps : Number.NaN;
    out.push({
      engine: r.engine,
      what: `record: HTTP / direct INSERT at the HTTP peak (c=${peak.concurrency})`,
      target: '≥ 0.5',
      measured: ratio.toFixed(2),
      met: ratio >= 0.5,
    });
  } else {
    out.push({
      engine: r.engine,
      what: 'record: peak throughput',
      target: '≥ 1,000 consents/s',
      measured: `${num(peak.rps)}/s (c=${peak.concurrency})`,
      met: peak.rps >= 1000,
    });
  }
  out.push({
    engine: r.engine,
    what: `record: p99 at half the peak rate (${num(r.halfRate.rate)}/s)`,
    target: '< 25 ms',
    measured: ms(r.halfRate.p99),
    met: r.halfRate.p99 < 25,
  });
  const batchP50 = percentile(r.batch, 50);
  out.push({
    engine: r.engine,
    what: 'batch of 1,000: time to 201 (median)',
    target: '< 300 ms',
    measured: ms(batchP50),
    met: batchP50 < 300,
  });
  const lag = percentile(r.lag, 99);
  out.push({ engine: r.engine, what: 'projection lag p99 at the peak write rate', target: '< 250 ms', measured: ms(lag), met: lag < 250 });
  const seal = percentile(r.sealLag, 99);
  out.push({
    engine: r.engine,
    what: 'sealing lag p99 at the peak write rate (issue 8)',
    target: '< 1,000 ms',
    measured: ms(seal),
    met: seal < 1000,
  });
  // A partial run (BENCH_STEPS) judges only the goals it measured.
  if (r.scale.length === 0) return out.filter((g) => !/n\/a|NaN/.test(g.measured));
  const big = r.scale.at(-1)!;
  const small = r.scale[0]!;
  out.push({
    engine: r.engine,
    what: `CSV export at ${num(big.rows)} rows`,
    target: '≥ 100,000 rows/s',
    measured: `${num(big.exportRowsPerS)} rows/s`,
    met: big.exportRowsPerS >= 100_000,
  });
  // What the export itself adds over the process's RSS just before it (the process grows for other reasons: caches, the sealer).
  const added = (s: ScaleRow) => Math.max(0, s.exportPeakRss - s.idleRss);
  const flat = added(big) <= added(small) * 1.2 + 16 * 1024 * 1024;
  out.push({
    engine: r.engine,
    what: `RSS the export adds, from ${num(small.rows)} to ${num(big.rows)} rows`,
    target: '≤ 1.2 × + 16 MiB',
    measured: `${mib(added(small))} → ${mib(added(big))}`,
    met: flat,
  });
  const statsP99 = percentile(big.stats, 99);
  const searchP99 = Math.max(percentile(big.searchPage, 99), percentile(big.searchUser, 99));
  out.push({ engine: r.engine, what: `stats p99 at ${num(big.rows)} rows`, target: '< 20 ms', measured: ms(statsP99), met: statsP99 < 20 });
  out.push({
    engine: r.engine,
    what: `search p99 at ${num(big.rows)} rows (page, by user)`,
    target: '< 20 ms',
    measured: ms(searchP99),
    met: searchP99 < 20,
  });
  // Issue 18: the same goals with any one filter, and the re-consent list.
  const filterP99 = Object.entries(big.filtered).map(([f, m]) => ({
    f,
    search: percentile(m.search, 99),
    stats: percentile(m.stats, 99),
  }));
  const worstSearch = filterP99.reduce((a, b) => (b.search > a.search ? b : a));
  const worstStats = filterP99.reduce((a, b) => (b.stats > a.stats ? b : a));
  out.push({
    engine: r.engine,
    what: `search p99 at ${num(big.rows)} rows, any one filter (worst: ${worstSearch.f})`,
    target: '< 20 ms',
    measured: ms(worstSearch.search),
    met: worstSearch.search < 20,
  });
  out.push({
    engine: r.engine,
    what: `stats p99 at ${num(big.rows)} rows, any one filter (worst: ${worstStats.f})`,
    target: '< 20 ms',
    measured: ms(worstStats.stats),
    met: worstStats.stats < 20,
  });
  const reconsentP99 = percentile(big.reconsent, 99);
  out.push({
    engine: r.engine,
    what: `re-consent list p99 at ${num(big.rows)} rows (page of 20)`,
    target: '< 20 ms',
    measured: ms(reconsentP99),
    met: reconsentP99 < 20,
  });
  const eraseP99 = percentile(big.erase, 99);
  out.push({
    engine: r.engine,
    what: `erasure of one subject at ${num(big.rows)} rows (p99)`,
    target: '< 100 ms',
    measured: ms(eraseP99),
    met: eraseP99 < 100,
  });
  return out;
}

function report(
  results: EngineResult[],
  host: Machine,
  started: Date,
  seconds: number,
  decryptUs: number,
): { console: string; markdown: string } {
  const sections: string[] = [];
  for (const r of results) {
    const title = r.engine === 'postgres' ? 'PostgreSQL server' : 'Embedded store (PGlite, on disk)';
    const loadTable = table(
      [
        'concurrency',
        'consents/s',
        'p50',
        'p99',
        'non-2xx',
        ...(r.engine === 'postgres' ? ['INSERT/s (baseline)', 'baseline p50', 'baseline p99', 'ratio'] : []),
      ],
      r.load.map((l) => [
        l.concurrency,
        num(l.rps),
        `${l.p50} ms`,
        `${l.p99} ms`,
        l.non2xx + l.errors,
        ...(r.engine === 'postgres'
          ? [
              num(l.baselineRps ?? Number.NaN),
              ms(l.baselineP50 ?? Number.NaN),
              ms(l.baselineP99 ?? Number.NaN),
              (l.rps / (l.baselineRps ?? Number.NaN) || 0).toFixed(2),
            ]
          : []),
      ]),
    );
    const scaleTable = table(
      [
        'rows',
        'fill (batches)',
        'export rows/s',
        'export peak RSS',
        'RSS before export',
        'stats p50/p99',
        'search page p50/p99',
        'search by user p50/p99',
        'verify p50/p99',
      ],
      r.scale.map((s) => [
        num(s.rows),
        `${s.fillSeconds.toFixed(1)} s (${num((s.rows - (r.scale[r.scale.indexOf(s) - 1]?.rows ?? 0)) / s.fillSeconds)}/s)`,
        num(s.exportRowsPerS),
        mib(s.exportPeakRss),
        mib(s.idleRss),
        `${ms(percentile(s.stats, 50))} / ${ms(percentile(s.stats, 99))}`,
        `${ms(percentile(s.searchPage, 50))} / ${ms(percentile(s.searchPage, 99))}`,
        `${ms(percentile(s.searchUser, 50))} / ${ms(percentile(s.searchUser, 99))}`,
        `${ms(percentile(s.verify, 50))} / ${ms(percentile(s.verify, 99))}`,
      ]),
    );
    const filterTable = table(
      ['rows', 'filter', 'search p50/p99', 'stats p50/p99'],
      r.scale.flatMap((s) => [
        ...Object.entries(s.filtered).map(([f, m]) => [
          num(s.rows),
          f,
          `${ms(percentile(m.search, 50))} / ${ms(percentile(m.search, 99))}`,
          `${ms(percentile(m.stats, 50))} / ${ms(percentile(m.stats, 99))}`,
        ]),
        [num(s.rows), 're-consent list (page of 20)', `${ms(percentile(s.reconsent, 50))} / ${ms(percentile(s.reconsent, 99))}`, ''],
        [num(s.rows), 'erasure of one subject', `${ms(percentile(s.erase, 50))} / ${ms(percentile(s.erase, 99))}`, ''],
      ]),
    );
    const other = table(
      ['measure', 'figure'],
      [
        [
          `record at half the peak (${num(r.halfRate.rate)}/s offered, 16 connections)`,
          `${num(r.halfRate.rps)}/s done, p50 ${r.halfRate.p50} ms, p99 ${r.halfRate.p99} ms${r.halfRate.machine ? ` (${machineText(r.halfRate.machine)})` : ''}`,
        ],
        [`batch of 1,000 → 201 (${r.batch.length} runs)`, `p50 ${ms(percentile(r.batch, 50))}, max ${ms(Math.max(...r.batch))}`],
        [
          `projection lag (${r.lag.length} probes under ${num(r.lagWriteRps)} writes/s)`,
          `p50 ${ms(percentile(r.lag, 50))}, p99 ${ms(percentile(r.lag, 99))}${r.lagMachine ? ` (${machineText(r.lagMachine)})` : ''}`,
        ],
        [
          `sealing lag: 2xx → inclusion proof (${r.sealLag.length} probes)`,
          `p50 ${ms(percentile(r.sealLag, 50))}, p99 ${ms(percentile(r.sealLag, 99))}`,
        ],
        [`receipt PDF rendering (${r.receipt.length} runs)`, `p50 ${ms(percentile(r.receipt, 50))}, max ${ms(Math.max(...r.receipt))}`],
        [
          `webhook fan-out (${r.webhooks.webhooks} webhooks × ${num(r.webhooks.deliveries / r.webhooks.webhooks)} consents, local HTTPS)`,
          `${num(r.webhooks.perSecond)} deliveries/s; lag from 201 p50 ${ms(r.webhooks.lagP50)}, p99 ${ms(r.webhooks.lagP99)}`,
        ],
      ],
    );
    sections.push(
      `### ${title}\n\nRecord consent (POST /api/v1/consent, ${DURATION_S} s per step after ${WARMUP_S} s of the same load unmeasured, autocannon):\n\n${loadTable}\n\n${other}\n\nAt scale (one tenant filled with batches of 1,000, 4 in parallel):\n\n${scaleTable}\n\nFilters at scale (issue 18; search: a page of 20 with its total; each filter alone):\n\n${filterTable}\n`,
    );
  }
  const allGoals = results.flatMap(goals);
  const goalTable = table(
    ['engine', 'goal', 'target', 'measured', 'result'],
    allGoals.map((g) => [g.engine, g.what, g.target, g.measured, g.met ? 'met' : 'MISSED']),
  );
  const command = `${QUICK ? 'BENCH_QUICK=1 ' : ''}${process.env.BENCH_ROWS ? `BENCH_ROWS=${ROWS} ` : ''}${SERVER_URL ? 'DATABASE_URL=postgres://… ' : ''}npm run bench`;
  const header = [
    `- Run: ${QUICK ? "**quick run (BENCH_QUICK=1): short steps on a shared, busy machine; the figures prove the harness, they are not the service's capacity**" : 'full run'}`,
    `- Date: ${started.toISOString()} (${Math.round(seconds)} s)`,
    `- Commit: ${commit()}`,
    `- Command: \`${command}\``,
    `- Machine: ${host.cpuModel}, ${host.cores} cores, ${host.memory} memory; ${host.os}; Node ${host.node}${host.postgres ? `; PostgreSQL ${host.postgres} (same machine, loopback)` : ''}`,
    `- Rows at scale: ${num(ROWS)} (BENCH_ROWS; the issue asks for 1,000,000)`,
    `- Load generator, service and PostgreSQL share the machine's ${host.cores} cores.`,
    `- The export's decryption alone, on this machine: ${decryptUs.toFixed(1)} µs per row (what the export's workers do per row: unwrap its data key, open and parse its personal fields; two AES-256-GCM), so at most ${num(1e6 / decryptUs)} rows/s per core before a row is read from the database or written out.`,
  ].join('\n');
  const markdown = `${header}\n\n## Goals\n\n${goalTable}\n\n## Figures\n\n${sections.join('\n')}`;
  return { console: `${header}\n\n${goalTable}\n\n${sections.join('\n')}`, markdown };
}

async function main(): Promise<void> {
  const started = new Date();
  let pgVersion: string | undefined;
  if (SERVER_URL) {
    const c = new pg.Client({ connectionString: SERVER_URL });
    await c.connect();
    pgVersion = ((await c.query('SHOW server_version')).rows[0] as { server_version: string }).server_version;
    await c.end();
  }
  const host = machine(pgVersion);
  log(
    `${QUICK ? 'quick run' : 'full run'}; engines: ${engines.join(', ')}; ${num(ROWS)} rows at scale; ${host.cores} cores (${host.cpuModel})`,
  );
  const results: EngineResult[] = [];
  for (const engine of engines) results.push(await withEngine(engine));
  const decryptUs = await decryptionCost();
  const { console: text, markdown } = report(results, host, started, (Date.now() - started.getTime()) / 1000, decryptUs);
  console.log(`\n${text}`);
  if (OUT !== '-') {
    writeFileSync(OUT, renderDoc(markdown, results, existsSync(OUT) ? readFileSync(OUT, 'utf8') : ''));
    log(`wrote ${OUT}`);
  }
}

/** The page's part below its second rule (how figures are measured, why goals are missed): kept by hand. */
function handKept(previous: string): string {
  const parts = previous.split(/^---$/m);
  return parts.length >= 3
    ? parts.slice(2).join('---').replace(/^\n+/, '')
    : '## Why a goal is missed, and what would fix it\n\n(To be written from the figures above.)\n';
}

/** docs/benchmarks.md: the generated figures between a fixed introduction and the hand-kept analysis. */
function renderDoc(generated: string, results: EngineResult[], previous: string): string {
  const missed = results.flatMap(goals).filter((g) => !g.met);
  return `# Benchmarks

Issue 7: what the service does per second, side by side with the physical limit. Everything on
this page between the two rules is written by \`npm run bench\` (bench/run.ts); rerun it to
replace the figures. The analysis below the second rule is kept by hand.

How to run: \`npm run bench\` (embedded store only), or
\`DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench\` (both; a fresh database is
created on that server and dropped afterwards). \`BENCH_QUICK=1\` runs short steps;
\`BENCH_ROWS=1000000\` sets the rows at scale; \`BENCH_ENGINES=postgres\` picks engines;
\`BENCH_OUT=-\` prints without writing this file; \`BENCH_STEPS=record,batch\` runs only those
steps (of record, batch, lag, webhooks, scale) and only prints.

---

${generated}
Goals missed in this run: ${missed.length === 0 ? 'none' : missed.map((g) => `${g.engine}: ${g.what}`).join('; ')}.

---

${handKept(previous)}`;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
