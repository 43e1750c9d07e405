import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { familyOf, parsePrometheus } from './support/prometheus.js';
import { repoRoot } from './support/process.js';
import { startTestService, type TestService } from './support/service.js';
import { serverUrl } from './support/stores.js';

/**
 * Issue 21: the alert rules (ops/prometheus-rules.yml) and the Grafana dashboard
 * (ops/grafana-dashboard.json) that docs/operations.md gives operators name only metrics the
 * service really exposes: each is checked against a scrape of the running service.
 */

const ADMIN_TOKEN = 'ops-files-admin-token-0123456789';
/** Prometheus's own series, not the service's. */
const PROMETHEUS_OWN = new Set(['up']);
/** Words of PromQL that look like metric names. */
const PROMQL = new Set(
  'sum rate irate increase delta histogram_quantile topk bottomk max min avg count by without on ignoring and or unless bool offset label_values humanizeDuration time'.split(
    ' ',
  ),
);
/** Exposed only with a PostgreSQL server, or only by the embedded store (each checked where the tests run on it). */
const SERVER_ONLY = new Set(['consent_ledger_postgres_oldest_transaction_seconds']);
const EMBEDDED_ONLY = new Set(['consent_ledger_embedded_vacuum_longest_seconds', 'consent_ledger_backup_last_success_timestamp_seconds']);

/** The metric names an expression reads: identifiers outside label matchers, ranges, strings and grouping clauses. */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, ' ');
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)].map((m) => m[0]).filter((w) => !PROMQL.has(w) && !/^\d/.test(w));
}

let t: TestService;
const dataDir = serverUrl ? undefined : mkdtempSync(join(tmpdir(), 'cl-ops-'));
let exposed: Set<string>;
let families: Set<string>;

beforeAll(async () => {
  // On disk, where the tests run embedded: a store in memory has no backups, and so no backup metric.
  t = await startTestService({ ADMIN_TOKEN, ...(dataDir ? { DATA_DIR: dataDir } : {}) });
  // One request of each kind, so that every labelled family has a sample.
  await t.app.inject({ method: 'GET', url: '/health' });
  const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(res.statusCode).toBe(200);
  const e = parsePrometheus(res.body);
  exposed = new Set(e.samples.map((s) => s.name));
  families = new Set(e.types.keys());
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const known = (name: string) =>
  PROMETHEUS_OWN.has(name) ||
  families.has(name) ||
  exposed.has(name) ||
  families.has(familyOf(name, new Map([...families].map((f) => [f, 'x'])))) ||
  (!serverUrl && SERVER_ONLY.has(name)) ||
  (!!serverUrl && EMBEDDED_ONLY.has(name));

describe('ops › the Prometheus rules file', () => {
  const rules = parse(readFileSync(join(repoRoot, 'ops', 'prometheus-rules.yml'), 'utf8')) as {
    groups: {
      name: string;
      rules: { alert: string; expr: string; for?: string; labels?: Record<string, string>; annotations?: Record<string, string> }[];
    }[];
  };
  const all = rules.groups.flatMap((g) => g.rules);

  it('is a rules file: groups of alerts, each with an expression, a severity and a summary', () => {
    expect(all.length).toBeGreaterThanOrEqual(10);
    for (const r of all) {
      expect(r.alert, JSON.stringify(r)).toMatch(/^[A-Z][A-Za-z]+$/);
      expect(r.expr.trim().length, r.alert).toBeGreaterThan(0);
      expect(['page', 'ticket', 'info'], r.alert).toContain(r.labels?.severity);
      expect(r.annotations?.summary, r.alert).toBeTruthy();
      if (r.for) expect(r.for, r.alert).toMatch(/^\d+[smh]$/);
    }
    expect(new Set(all.map((r) => r.alert)).size).toBe(all.length);
  });

  it('names only metrics the service exposes', () => {
    const unknown = all.flatMap((r) =>
      metricNames(r.expr)
        .filter((n) => !known(n))
        .map((n) => `${r.alert}: ${n}`),
    );
    expect(unknown).toEqual([]);
    expect(all.flatMap((r) => metricNames(r.expr)).length).toBeGreaterThan(all.length);
  });
});

describe('ops › the Grafana dashboard', () => {
  const dashboard = JSON.parse(readFileSync(join(repoRoot, 'ops', 'grafana-dashboard.json'), 'utf8')) as {
    title: string;
    uid: string;
    schemaVersion: number;
    __inputs: { name: string; type: string; pluginId: string }[];
    panels: {
      id: number;
      type: string;
      title: string;
      gridPos: { x: number; y: number; w: number; h: number };
      targets: { refId: string; expr: string }[];
    }[];
  };

  it('is an importable dashboard: a Prometheus input, panels with unique ids, each on the 24-column grid', () => {
    expect(dashboard.title).toBe('consent-ledger');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(36);
    expect(dashboard.__inputs).toContainEqual(
      expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }),
    );
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    for (const p of dashboard.panels) {
      expect(p.gridPos.x + p.gridPos.w, p.title).toBeLessThanOrEqual(24);
      expect(p.targets.length, p.title).toBeGreaterThan(0);
    }
  });

  it("names only metrics the service exposes, and shows every family of the service's own", () => {
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((x) => ({ title: p.title, expr: x.expr })));
    const unknown = exprs.flatMap(({ title, expr }) =>
      metricNames(expr.replace(/\$__rate_interval|\$instance/g, ''))
        .filter((n) => !known(n))
        .map((n) => `${title}: ${n}`),
    );
    expect(unknown).toEqual([]);
    const shown = new Set(
      exprs.flatMap(({ expr }) => metricNames(expr).map((n) => familyOf(n, new Map([...families].map((f) => [f, 'x']))))),
    );
    const own = [...families].filter((f) => f.startsWith('consent_ledger_'));
    expect(own.filter((f) => !shown.has(f))).toEqual([]);
  });
});
