/**
 * The console (docs/console.md): a compliance officer's and an auditor's view of one tenant,
 * talking only to /api/v1 with the session cookie, and sending the CSRF token with every call
 * that changes anything. Pages are routed by the URL's hash, so the server serves one page.
 */
import { Fragment, render, type ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import uPlot from 'uplot';
import { legalBasisWords } from '../src/domain/purpose/purpose.events.js';
import type {
  Attempt,
  AuditEntry,
  ConsentRecord,
  Daily,
  HistoryEntry,
  KeyRow,
  Proof,
  PurposeRow,
  SearchItem,
  Session,
  VersionCount,
  WebhookRow,
} from './api-types.js';

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

let csrf = '';

/** Whether the last read was answered from read models behind the ledger (X-Read-Models-Behind), and who shows it. */
let behind = false;
const behindShown = new Set<(behind: boolean) => void>();
const noteBehind = (response: Response): void => {
  const now = response.headers.get('x-read-models-behind') === 'true';
  if (now === behind) return;
  behind = now;
  for (const show of behindShown) show(now);
};

/** Told when a call finds the session gone (its key expired or revoked, signed out elsewhere): the App shows sign-in. */
let onSessionEnded: (message: string) => void = () => undefined;

/** A call to the API with the session cookie; JSON in and out; errors as ApiError. */
async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers: Record<string, string> = {};
  // On every call, reads too: the service refuses a token that is not its session's, so a tab whose
  // session another tab's sign-in replaced learns it at its next read, not only at its next change.
  if (csrf) headers['x-csrf-token'] = csrf;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  if (method === 'GET' && response.ok) noteBehind(response);
  const json = await response.json().catch(() => null);
  if (!response.ok) {
    const error = new ApiError(
      response.status,
      json?.error?.code ?? `HTTP_${response.status}`,
      json?.error?.message ?? response.statusText,
    );
    // The session this page holds is over (401), or another tab replaced it (its CSRF token is not this one's).
    const replaced = response.status === 403 && /CSRF token/.test(error.message);
    if (path !== '/console/session' && (response.status === 401 || replaced)) {
      onSessionEnded(
        replaced
          ? 'This tab’s session was replaced by a sign-in in another tab: sign in again here.'
          : 'Your session has ended (its key expired or was revoked, or it was signed out): sign in again.',
      );
    }
    throw error;
  }
  return json as T;
}

/** A user reference as the officer must read it: quoted when spaces at its ends would hide in the text. */
const shownReference = (reference: string): string => (/^\s|\s$/.test(reference) ? JSON.stringify(reference) : reference);

/** Every purpose of the tenant, page after page (a list answers at most 100 at a time). */
async function allPurposes(): Promise<PurposeRow[]> {
  const all: PurposeRow[] = [];
  for (let page = 1; ; page++) {
    const { data, pagination } = await api<{ data: PurposeRow[]; pagination: { total: number } }>(
      `/api/v1/purposes?limit=100&page=${page}`,
    );
    all.push(...data);
    if (data.length === 0 || all.length >= pagination.total) return all;
  }
}

/** Saves a blob under a file name (a receipt, a proof). */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// The skip link (index.html) moves focus to the page's content; it is no route.
document.addEventListener('click', (event) => {
  const link = (event.target as Element | null)?.closest?.('a.skip');
  if (!link) return;
  event.preventDefault();
  document.getElementById('main')?.focus();
});

const useHash = (): string => {
  const [hash, setHash] = useState(location.hash || '#/overview');
  useEffect(() => {
    const on = () => setHash(location.hash || '#/overview');
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return hash;
};

/** Loads `load()` whenever `deps` change; answers [value, error, loading]. */
function useLoad<T>(load: () => Promise<T>, deps: unknown[]): [T | undefined, string | undefined, boolean] {
  const [state, setState] = useState<{ value?: T; error?: string; loading: boolean }>({ loading: true });
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (value) => live && setState({ value, loading: false }),
      (error: Error) => live && setState({ error: error.message, loading: false }),
    );
    return () => {
      live = false;
    };
  }, deps);
  return [state.value, state.error, state.loading];
}

/**
 * A table of rows, one column per [heading, cell, class]. It may scroll sideways on a narrow
 * screen, so it sits in a focusable, named region the keyboard can scroll.
 */
function DataTable<T>({
  label,
  rows,
  rowKey,
  columns,
}: {
  label: string;
  rows: T[];
  rowKey: (row: T) => string;
  columns: [string, (row: T) => ComponentChildren, string?][];
}) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={label}>
      <table>
        <caption class="skip">{label}</caption>
        <thead>
          <tr>
            {columns.map(([heading]) => (
              <th scope="col" key={heading}>
                {heading}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map(([heading, cell, className]) => (
                <td key={heading} class={className}>
                  {cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const when = (iso: string | null | undefined): string =>
  iso
    ? iso
        .replace('T', ' ')
        .replace(/\.\d+Z$/, ' UTC')
        .replace(/Z$/, ' UTC')
    : '—';

function SignIn({ onSignedIn, ended }: { onSignedIn: (s: Session) => void; ended?: string | undefined }) {
  const [error, setError] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    try {
      const { data } = await api<{ data: Session }>('/console/session', {
        method: 'POST',
        body: { apiKey: String(form.get('apiKey')).trim(), apiSecret: String(form.get('apiSecret')).trim() },
      });
      onSignedIn(data);
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <main id="main" class="signin">
      <h1>consent-ledger console</h1>
      {ended && !error && (
        <p class="card notice" role="status">
          {ended}
        </p>
      )}
      <div class="card">
        <form onSubmit={submit}>
          <label>
            API key
            <input name="apiKey" autocomplete="username" required placeholder="ck_…" />
          </label>
          <label>
            API secret
            <input name="apiSecret" type="password" autocomplete="current-password" required placeholder="cs_…" />
          </label>
          <button type="submit">Sign in</button>
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
        </form>
        <p>Use a key of scope read (an auditor's) or admin. Sessions last 8 hours.</p>
      </div>
    </main>
  );
}

const PAGES = [
  ['#/overview', 'Overview'],
  ['#/records', 'Records'],
  ['#/policies', 'Policies'],
  ['#/audit-log', 'Audit log'],
  ['#/webhooks', 'Webhooks'],
  ['#/keys', 'Keys'],
  ['#/erasure', 'Erasure'],
] as const;

/** Whether the reads are answered behind the ledger (docs/contract.md, read-your-writes). */
const useBehind = (): boolean => {
  const [shown, setShown] = useState(behind);
  useEffect(() => {
    behindShown.add(setShown);
    return () => void behindShown.delete(setShown);
  }, []);
  return shown;
};

function Shell({ session, onSignOut }: { session: Session; onSignOut: () => void }) {
  const hash = useHash();
  const lagging = useBehind();
  const [route, arg] = hash.replace(/^#\//, '').split('/');
  const signOut = async () => {
    await api('/console/session', { method: 'DELETE' }).catch(() => undefined);
    onSignOut();
  };
  let page;
  if (route === 'records' && arg) page = <RecordPage id={decodeURIComponent(arg)} />;
  else if (route === 'records') page = <Records />;
  else if (route === 'audit-log') page = <AuditLog />;
  else if (route === 'policies') page = <Policies />;
  else if (route === 'webhooks') page = <Webhooks session={session} webhookId={arg} />;
  else if (route === 'keys') page = <Keys session={session} />;
  else if (route === 'erasure') page = <Erasure session={session} />;
  else page = <Overview session={session} />;
  return (
    <>
      <header class="bar">
        <strong>consent-ledger</strong>
        <nav aria-label="Console">
          <ul>
            {PAGES.map(([href, label]) => (
              <li key={href}>
                <a href={href} aria-current={hash.startsWith(href) ? 'page' : undefined}>
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {session.tenantName} · {session.scope} key <span class="mono">{session.apiKey}</span>
        </span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        {lagging && (
          <p class="card notice" role="status">
            The read models are catching up with the ledger: lists and counts may not show the newest decisions yet. Reload in a moment; a
            record opened by its id is read from the ledger and is always current.
          </p>
        )}
        {page}
      </main>
    </>
  );
}

/** The steps between the daily chart's ticks, in seconds: 1, 2, 3, 7, 14 and 30 days. */
const DAY_TICKS = [1, 2, 3, 7, 14, 30].map((days) => days * 86_400);

/** A chart's x value (unix seconds at a UTC midnight) as its day. */
const utcDay = (seconds: number): string => new Date(seconds * 1000).toISOString().slice(0, 10);

/** The x axis's labels, kept on the chart's element too: the canvas shows them, the page's text does not. */
function dayLabels(chart: HTMLElement | null, splits: number[]): string[] {
  const labels = splits.map(utcDay);
  if (chart) chart.dataset.days = labels.join(' ');
  return labels;
}

function DailyChart({ days }: { days: Daily[] }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!box.current) return;
    const x = days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
    const series: [string, keyof Daily, string][] = [
      ['Given', 'given', '#17663a'],
      ['Rejected', 'rejected', '#a4161a'],
      ['Withdrawn', 'withdrawn', '#b35c00'],
      ['Expired', 'expired', '#595959'],
    ];
    const width = Math.max(280, box.current.clientWidth);
    const plot = new uPlot(
      {
        width,
        height: 260,
        // The days are UTC days (the API's): drawn and labelled as such, whatever the browser's zone.
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        series: [
          { label: 'Day (UTC)', value: (_u, v) => (v === null ? '—' : utcDay(v)) },
          ...series.map(([label, , stroke]) => ({ label, stroke, width: 2, points: { show: days.length <= 31 } })),
        ],
        // Ticks only at UTC midnights, a day or a whole number of days apart, far enough apart for a date to fit.
        axes: [{ incrs: DAY_TICKS, space: 75, values: (_u, splits) => dayLabels(box.current, splits) }, { label: 'records' }],
        scales: { x: { time: true } },
      },
      [x, ...series.map(([, key]) => days.map((d) => d[key] as number))],
      box.current,
    );
    return () => plot.destroy();
  }, [days]);
  return <div class="chart" ref={box} role="img" aria-label="Decisions per day: given, rejected, withdrawn, expired" />;
}

/** How many witnesses cosigned a signed note: the names on its signature lines other than the log's own (the first). */
function cosigners(note: string): string {
  const names = note
    .split('\n')
    .filter((line) => line.startsWith('\u2014 '))
    .map((line) => line.split(' ')[1]);
  const n = new Set(names.filter((name) => name !== names[0])).size;
  return n === 0 ? 'no witness cosignature' : `cosigned by ${n} witness${n === 1 ? '' : 'es'}`;
}

/** A bar per item, as wide as its share of the largest (or of 100 for rates): a chart people read at a glance. */
function Bars({ label, items, max }: { label: string; items: { key: string; name: string; value: number; text: string }[]; max?: number }) {
  const top = max ?? Math.max(1, ...items.map((i) => i.value));
  return (
    <ul class="bars" aria-label={label}>
      {items.map((i) => (
        <li key={i.key}>
          <span class="bar-name">{i.name}</span>
          <span class="bar-track" aria-hidden="true">
            <span class="bar-fill" style={{ width: `${Math.round((i.value / top) * 100)}%` }} />
          </span>
          <span class="bar-text">{i.text}</span>
        </li>
      ))}
    </ul>
  );
}

/** A figure's or a chart's error, said where it would be (a rate limit, a lost connection). */
const NotLoaded = ({ error }: { error: string | undefined }) =>
  error ? (
    <p class="error" role="alert">
      Not loaded: {error}
    </p>
  ) : null;

const decisions = (v: VersionCount): number => v.given + v.rejected + v.withdrawn + v.expired;

/** The overview's per-version figures, asked once for this chart and the re-consent one. */
function VersionsChart({ versions, error }: { versions: { data: VersionCount[] } | undefined; error: string | undefined }) {
  const shown = (versions?.data ?? []).filter((v) => decisions(v) > 0).slice(0, 10);
  return (
    <section class="card" aria-labelledby="per-version">
      <h2 id="per-version">Acceptance per policy version</h2>
      <NotLoaded error={error} />
      {versions && shown.length === 0 && <p>No decisions yet.</p>}
      <Bars
        label="Acceptance rate per policy version"
        max={100}
        items={shown.map((v) => ({
          key: v.policyVersionId,
          name: `${v.purpose} ${v.version}`,
          value: v.acceptanceRate,
          text: `${v.acceptanceRate} % of ${decisions(v)}`,
        }))}
      />
    </section>
  );
}

function ReconsentChart({ counts, countsError }: { counts: { data: VersionCount[] } | undefined; countsError: string | undefined }) {
  const [backlog, error] = useLoad(async () => {
    if (!counts) return undefined;
    const versions = counts.data;
    const defined = await allPurposes();
    // The tenant's purposes, and the policy types its versions name without one defined (a
    // privacy_policy version is its own purpose): both have people to ask again.
    const known = new Set(defined.map((p) => p.key));
    const undefinedTypes = [...new Set(versions.map((v) => v.purpose))].filter((key) => !known.has(key)).sort();
    const purposes = [...defined, ...undefinedTypes.map((key) => ({ key, name: key }))];
    // Only a purpose with a version after its first that asks again can have anyone to ask: the
    // others are 0 without a request each (the tenant's rate budget is the backend's too).
    const earliest = new Map<string, VersionCount>();
    for (const v of versions) {
      const first = earliest.get(v.purpose);
      if (!first || Date.parse(v.effectiveDate) < Date.parse(first.effectiveDate)) earliest.set(v.purpose, v);
    }
    const asking = new Set(
      versions.filter((v) => v.requiresReconsent && !v.deleted && earliest.get(v.purpose) !== v).map((v) => v.purpose),
    );
    return Promise.all(
      purposes.map(async (p) => ({
        ...p,
        total: asking.has(p.key)
          ? (await api<{ pagination: { total: number } }>(`/api/v1/consent/reconsent?purpose=${encodeURIComponent(p.key)}&limit=1`))
              .pagination.total
          : 0,
      })),
    );
  }, [counts]);
  return (
    <section class="card" aria-labelledby="reconsent">
      <h2 id="reconsent">Re-consent backlog per purpose</h2>
      <NotLoaded error={countsError ?? error} />
      {backlog && backlog.length === 0 && <p>No purposes defined.</p>}
      {backlog && (
        <Bars
          label="Subjects to ask again, per purpose"
          items={backlog.map((p) => ({ key: p.key, name: p.name, value: p.total, text: `${p.total} to ask again` }))}
        />
      )}
    </section>
  );
}

/** Webhooks with failed attempts (admin sessions: webhooks are the tenant's configuration). */
function FailingWebhooks({ admin }: { admin: boolean }) {
  // A read session is not asked for what it may not read (a 403 on every overview, spending its budget).
  const [hooks, error] = useLoad(
    () =>
      admin
        ? api<{ data: { id: string; url: string; isActive: boolean; deliveryStats: { total: number; failed: number } }[] }>(
            '/api/v1/webhooks?limit=100',
          )
        : Promise.reject(new Error('Webhooks are shown to admin sessions.')),
    [admin],
  );
  const failing = (hooks?.data ?? []).filter((h) => h.deliveryStats.failed > 0);
  return (
    <section class="card" aria-labelledby="webhooks">
      <h2 id="webhooks">Failing webhooks</h2>
      {error && <p>Webhooks are shown to admin sessions.</p>}
      {hooks && failing.length === 0 && <p>No failed attempts{hooks.data.length ? ` across ${hooks.data.length} webhooks` : ''}.</p>}
      {failing.length > 0 && (
        <Bars
          label="Failed attempts per webhook"
          items={failing.map((h) => ({
            key: h.id,
            name: h.url,
            value: h.deliveryStats.failed,
            // Attempts, not deliveries: one retried until it got through counts a failure and a success.
            text: `${h.deliveryStats.failed} of ${h.deliveryStats.total} attempts failed`,
          }))}
        />
      )}
    </section>
  );
}

function Overview({ session }: { session: Session }) {
  const [range, setRange] = useState(30);
  const end = new Date().toISOString().slice(0, 10);
  const start = new Date(Date.now() - (range - 1) * 86_400_000).toISOString().slice(0, 10);
  const [daily, dailyError] = useLoad(
    () => api<{ data: Daily[] }>(`/api/v1/consent/stats/daily?startDate=${start}&endDate=${end}`),
    [range],
  );
  const [stats, statsError] = useLoad(
    () =>
      api<{ data: { totalConsents: number; acceptanceRate: number; acceptedConsents: number; rejectedConsents: number } }>(
        '/api/v1/consent/stats',
      ),
    [],
  );
  const [checkpoint, checkpointError] = useLoad(
    () => api<{ data: { treeSize: number; timestamp: string; rootHash: string; checkpoint: string } }>('/api/v1/ledger/checkpoint'),
    [],
  );
  const [versions, versionsError] = useLoad(() => api<{ data: VersionCount[] }>('/api/v1/consent/stats/versions'), []);
  return (
    <>
      <h1>Overview</h1>
      <div class="figures">
        <div class="card figure">
          Records<strong>{stats?.data.totalConsents ?? (statsError ? '—' : '…')}</strong>
          <NotLoaded error={statsError} />
        </div>
        <div class="card figure">
          Acceptance rate<strong>{stats ? `${stats.data.acceptanceRate} %` : statsError ? '—' : '…'}</strong>
          <NotLoaded error={statsError} />
        </div>
        <div class="card figure">
          Proven in the log<strong>{checkpoint ? `${checkpoint.data.treeSize} events` : checkpointError ? '—' : '…'}</strong>
          {checkpointError ? <NotLoaded error={checkpointError} /> : <span>signed {when(checkpoint?.data.timestamp)}</span>}
          {checkpoint && <span> · {cosigners(checkpoint.data.checkpoint)}</span>}
        </div>
      </div>
      <section class="card" aria-labelledby="per-day">
        <h2 id="per-day">Decisions per day</h2>
        <label>
          Range
          <select value={String(range)} onChange={(e) => setRange(Number((e.target as HTMLSelectElement).value))}>
            <option value="7">Last 7 days</option>
            <option value="30">Last 30 days</option>
            <option value="90">Last 90 days</option>
          </select>
        </label>
        {dailyError && <p class="error">{dailyError}</p>}
        {daily && <DailyChart days={daily.data} />}
      </section>
      <div class="columns">
        <VersionsChart versions={versions} error={versionsError} />
        <ReconsentChart counts={versions} countsError={versionsError} />
      </div>
      <FailingWebhooks admin={session.scope === 'admin'} />
    </>
  );
}

/** The API's query for the search form's fields: empty ones left out, `metadata` as `metadata.<key>=<value>`. */
function searchParams(fields: Record<string, string>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) {
    if (!v) continue;
    if (k !== 'metadata') params.set(k, v);
    else if (v.includes('=')) params.set(`metadata.${v.slice(0, v.indexOf('='))}`, v.slice(v.indexOf('=') + 1));
  }
  return params;
}

/** Downloads an API answer (a GET) as a file, or throws its error's message. */
async function save(path: string, name: string): Promise<void> {
  const response = await fetch(path, { credentials: 'same-origin' });
  if (!response.ok) throw new Error((await response.json().catch(() => null))?.error?.message ?? response.statusText);
  download(await response.blob(), name);
}

/** Previous / Next over the pages of a list. */
function Pager({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <div class="pager">
      <button type="button" class="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" class="secondary" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </div>
  );
}

/** The last search, kept while a record it found is open: "Back to the records" returns to it. */
let lastSearch: { query: Record<string, string>; page: number } = { query: {}, page: 1 };

/** What a session leaves in the page: its CSRF token, and its last search (which may name a data subject). */
function forgetSession(): void {
  csrf = '';
  lastSearch = { query: {}, page: 1 };
}

function Records() {
  const [query, setQuery] = useState<Record<string, string>>(lastSearch.query);
  const [page, setPage] = useState(lastSearch.page);
  // Each Search runs the query again, even unchanged: a record added since then shows.
  const [run, setRun] = useState(0);
  const [formError, setFormError] = useState<string>();
  lastSearch = { query, page };
  // The same query the exports send (metadata as metadata.<key>), one page of it.
  const params = searchParams(query);
  params.set('page', String(page));
  params.set('limit', '20');
  const [result, error, loading] = useLoad(
    () => api<{ data: SearchItem[]; pagination: { total: number; pages: number } }>(`/api/v1/consent/search?${params}`),
    [params.toString(), run],
  );
  // The tenant's purposes, offered as the purpose filter's suggestions (any key may still be typed).
  const [purposes] = useLoad(async () => ({ data: await allPurposes() }), []);
  const submit = (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    // A user reference as typed (spaces at its ends make another subject); the other filters trimmed.
    const next = Object.fromEntries([...form.entries()].map(([k, v]) => [k, k === 'userReference' ? String(v) : String(v).trim()]));
    // A metadata filter the API could not read would be dropped, and search (and export) everything.
    if (next.metadata && !/^[^=]+=/.test(next.metadata)) {
      setFormError('Metadata: write key=value, for example source=web.');
      return;
    }
    setFormError(undefined);
    setQuery(next);
    setPage(1);
    setRun((n) => n + 1);
  };
  return (
    <>
      <h1>Records</h1>
      <form class="filters card" onSubmit={submit} role="search" aria-label="Search records">
        <label>
          User reference
          <input name="userReference" defaultValue={query.userReference} />
        </label>
        <label>
          Purpose
          <input name="purpose" list="purpose-keys" autocomplete="off" defaultValue={query.purpose} />
          <datalist id="purpose-keys">
            {(purposes?.data ?? []).map((p) => (
              <option key={p.key} value={p.key}>
                {p.name}
              </option>
            ))}
          </datalist>
        </label>
        <label>
          Policy type
          <select name="policyType" defaultValue={query.policyType}>
            <option value="">any</option>
            {['privacy_policy', 'terms_of_service', 'cookie_policy', 'marketing_consent', 'data_processing', 'custom'].map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          Policy version id
          <input name="policyVersionId" defaultValue={query.policyVersionId} />
        </label>
        <label>
          Decision
          <select name="consentGiven" defaultValue={query.consentGiven}>
            <option value="">any</option>
            <option value="true">given</option>
            <option value="false">rejected</option>
          </select>
        </label>
        <label>
          Metadata (key=value)
          <input name="metadata" defaultValue={query.metadata} placeholder="source=web" />
        </label>
        <label>
          Status
          <select name="status" defaultValue={query.status}>
            <option value="">any</option>
            <option value="active">active</option>
            <option value="withdrawn">withdrawn</option>
            <option value="expired">expired</option>
            <option value="outdated">outdated</option>
          </select>
        </label>
        <label>
          From
          <input name="startDate" type="date" defaultValue={query.startDate} />
        </label>
        <label>
          To
          <input name="endDate" type="date" defaultValue={query.endDate} />
        </label>
        <button type="submit">Search</button>
      </form>
      {(formError ?? error) && (
        <p class="error" role="alert">
          {formError ?? error}
        </p>
      )}
      <p aria-live="polite">{loading ? 'Searching…' : result ? `${result.pagination.total} records` : ''}</p>
      <Exports query={query} />
      {result && (
        <DataTable
          label="Records found"
          rows={result.data}
          rowKey={(r) => r.id}
          columns={[
            ['Record', (r) => <a href={`#/records/${r.id}`}>{r.id}</a>, 'mono'],
            ['User', (r) => r.userReference ?? 'erased'],
            ['Purpose', (r) => r.purpose ?? r.policyType],
            ['Decision', (r) => (r.consentGiven ? 'given' : 'rejected')],
            ['Status', (r) => r.status],
            ['Recorded', (r) => when(r.createdAt)],
          ]}
        />
      )}
      {result && <Pager page={page} pages={result.pagination.pages} onPage={setPage} />}
    </>
  );
}

/** The export of what the search matches: CSV, or one ISO/IEC TS 27560 record per line (the plan may not allow it). */
function Exports({ query }: { query: Record<string, string> }) {
  const [message, setMessage] = useState<string>();
  const run = async (format: 'csv' | 'iso27560') => {
    const params = searchParams(query);
    if (format === 'iso27560') params.set('format', 'iso27560');
    setMessage('Exporting…');
    try {
      await save(`/api/v1/consent/export?${params}`, format === 'csv' ? 'consents.csv' : 'consents-iso27560.jsonl');
      setMessage('Exported.');
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  return (
    <div class="actions">
      <button type="button" class="secondary" onClick={() => run('csv')}>
        Export as CSV
      </button>
      <button type="button" class="secondary" onClick={() => run('iso27560')}>
        Export as ISO/IEC TS 27560 records
      </button>
      {message && <span aria-live="polite">{message}</span>}
    </div>
  );
}

/** Bytes of a hex string. */
const hexBytes = (hex: string): Uint8Array => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** SHA-256 of the parts, by the browser's WebCrypto (which a page not served over https lacks). */
async function sha256(...parts: Uint8Array[]): Promise<Uint8Array> {
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => (all.set(p, at), at + p.length), 0);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', all));
}

/**
 * Whether a record's proof holds, checked in this browser as `audit prove` checks it: the RFC 9162
 * inclusion path leads from the event's leaf, SHA-256(0x00 ‖ eventHash), to the root, and the
 * signed checkpoint names that root and size. Undefined when the page cannot hash (not https).
 */
async function proofHolds(p: Proof): Promise<boolean | undefined> {
  if (!globalThis.crypto?.subtle) return undefined;
  if (!(p.leafIndex >= 0 && p.leafIndex < p.treeSize)) return false;
  let fn = p.leafIndex;
  let sn = p.treeSize - 1;
  let r = await sha256(Uint8Array.of(0), hexBytes(p.eventHash));
  for (const step of p.inclusionPath.map(hexBytes)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = await sha256(Uint8Array.of(1), step, r);
      if (fn % 2 === 0) while (fn % 2 === 0 && fn !== 0) [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
    } else r = await sha256(Uint8Array.of(1), r, step);
    [fn, sn] = [Math.floor(fn / 2), Math.floor(sn / 2)];
  }
  const [, size, root] = p.checkpoint.split('\n');
  return sn === 0 && hexOf(r) === p.rootHash && size === String(p.treeSize) && root === btoa(String.fromCharCode(...hexBytes(p.rootHash)));
}

/** Who acted, in words: a key by its id, the operator, the CLI, the service. */
const actorWords = (a: { type: string; id?: string | null } | null | undefined): string => (a ? `${a.type}${a.id ? ` ${a.id}` : ''}` : '—');

function RecordPage({ id }: { id: string }) {
  const [record, error] = useLoad(() => api<{ data: ConsentRecord }>(`/api/v1/consent/${encodeURIComponent(id)}`), [id]);
  const [verified, verifyError] = useLoad(
    () =>
      api<{ data: { valid: boolean; storedHash: string; erased: boolean; tampered: boolean; reason: string | null } }>(
        `/api/v1/consent/${encodeURIComponent(id)}/verify`,
      ),
    [id],
  );
  const [history, historyError] = useLoad(() => api<{ data: HistoryEntry[] }>(`/api/v1/consent/${encodeURIComponent(id)}/history`), [id]);
  const [proof, proofError] = useLoad(() => api<{ data: Proof }>(`/api/v1/consent/${encodeURIComponent(id)}/proof`), [id]);
  const [busy, setBusy] = useState<string>();
  // The proof checked here, not taken on the server's word; and its event is the record's own (the ledger's history).
  const [holds, setHolds] = useState<boolean | undefined>();
  useEffect(() => {
    setHolds(undefined);
    if (proof) void proofHolds(proof.data).then(setHolds, () => setHolds(false));
  }, [proof]);
  const recordedHash = history?.data.find((e) => e.type === 'ConsentRecorded')?.eventHash;
  const proofOk = holds === true && (recordedHash === undefined || recordedHash === proof?.data.eventHash);
  const proofBroken = holds === false || (proof !== undefined && recordedHash !== undefined && recordedHash !== proof.data.eventHash);
  const receipt = async () => {
    setBusy('Issuing the receipt…');
    try {
      // Issues a receipt of the record as the ledger holds it now (recorded in the ledger), and saves it.
      const response = await fetch(`/api/v1/consent/${encodeURIComponent(id)}/pdf`, {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'x-csrf-token': csrf },
      });
      if (!response.ok) throw new Error((await response.json()).error?.message ?? response.statusText);
      download(await response.blob(), `receipt-${id}.pdf`);
      setBusy(undefined);
    } catch (e) {
      setBusy((e as Error).message);
    }
  };
  const saveProof = () =>
    proof && download(new Blob([JSON.stringify(proof.data, null, 2)], { type: 'application/json' }), `proof-${id}.json`);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!record) return <p>Loading…</p>;
  const r = record.data;
  const policy = r.policyDetails;
  const fields: [string, unknown][] = [
    ['Record', r.id],
    ['User reference', r.userReference ?? 'erased'],
    ['Decision', r.consentGiven ? 'consent given' : 'consent rejected'],
    ['Status', r.status],
    // A version published without a purpose is its type's own, as the records list shows it.
    ['Purpose', r.purpose ?? policy.type],
    ['Policy', `${policy.title} ${policy.version}`],
    ['Recorded', when(r.createdAt)],
    // An imported decision was made elsewhere, earlier: its own time is what its expiry and standing count from.
    ...(r.imported ? [['Decided', `${when(r.collectedAt)}, on another platform (imported)`] as [string, unknown]] : []),
    ['Recorded by', `${actorWords(r.recordedBy)}${r.collectedVia ? ' (in the browser)' : ''}`],
    ['Withdrawn', when(r.withdrawnAt)],
    ...(r.withdrawnAt ? [['Withdrawal reason', r.erased ? 'erased' : (r.withdrawalReason ?? 'none given')] as [string, unknown]] : []),
    // What the request carried, sealed under the subject's key: gone once the subject is erased.
    ['IP address', r.erased ? 'erased' : r.ipAddress],
    ['User agent', r.erased ? 'erased' : r.userAgent],
    ['Metadata', r.erased ? 'erased' : metadataWords(r.metadata)],
    [r.expiresAt && Date.parse(r.expiresAt) <= Date.now() ? 'Expired' : 'Expires', when(r.expiresAt)],
    ['Consent hash', r.consentHash],
  ];
  const ok = verified?.data.valid === true && proof !== undefined && proofOk;
  return (
    <>
      <h1>Record</h1>
      <section class="card" aria-labelledby="proof-state">
        <h2 id="proof-state">Proof</h2>
        <p aria-live="polite">
          {ok ? (
            <span class="badge ok">Verified: hash recomputed from the ledger, included in the signed log</span>
          ) : verified?.data.tampered ? (
            <span class="badge bad">Not verified: the stored record was changed</span>
          ) : proofBroken ? (
            // An erased record's too: a proof that does not hold is never called included.
            <span class="badge bad">Not verified: the log's inclusion proof does not lead to its signed root</span>
          ) : verified?.data.erased ? (
            // Erasure is not tampering: the decision, its time and its hash stay proven; only the hash's input is gone.
            <span class="badge wait">
              Erased on request: the personal fields the hash covers were destroyed, so it can no longer be recomputed
              {proofOk ? "; the record's event is still included in the signed log" : ''}
            </span>
          ) : verified?.data.valid === true && proof !== undefined && holds === undefined && !globalThis.crypto?.subtle ? (
            <span class="badge wait">Hash checked; the inclusion proof is not checked here (this page is not served over https)</span>
          ) : verified?.data.valid === false ? (
            <span class="badge bad">Not verified: {verified.data.reason ?? "the ledger's record does not match"}</span>
          ) : verifyError ? (
            // The check could not be made (a rate limit, an outage): said, not left "Checking…" for ever.
            <span class="badge wait">Not checked: {verifyError}</span>
          ) : proofError ? (
            <span class="badge wait">Hash checked; not sealed in the log yet ({proofError})</span>
          ) : (
            <span class="badge wait">Checking…</span>
          )}
        </p>
        {proof && (
          <p>
            Leaf {proof.data.leafIndex} of {proof.data.treeSize} in the tenant's log; event hash{' '}
            <span class="mono">{proof.data.eventHash}</span>
          </p>
        )}
        <div class="actions">
          <button type="button" onClick={receipt}>
            Issue and download receipt (PDF)
          </button>
          <button type="button" class="secondary" onClick={saveProof} disabled={!proof}>
            Download proof (JSON)
          </button>
        </div>
        {busy && <p aria-live="polite">{busy}</p>}
      </section>
      <section class="card" aria-labelledby="fields">
        <h2 id="fields">Fields</h2>
        <FieldList fields={fields} mono={['Record', 'Consent hash']} />
      </section>
      <section class="card" aria-labelledby="history">
        <h2 id="history">History in the ledger</h2>
        {historyError && (
          <p class="error" role="alert">
            {historyError}
          </p>
        )}
        {history && (
          <DataTable
            label="The record's events, oldest first"
            rows={history.data}
            rowKey={(e) => e.id}
            columns={[
              ['When', (e) => when(e.recordedAt)],
              ['Event', (e) => e.type],
              ['By', (e) => actorWords(e.actor)],
              ['Event hash', (e) => e.eventHash, 'mono'],
              ['Chains to', (e) => e.prevHash ?? '(first of its stream)', 'mono'],
            ]}
          />
        )}
      </section>
      <p>
        <a href="#/records">Back to the records</a>
      </p>
    </>
  );
}

/** A line diff (longest common subsequence): each line of either text, kept, removed or added. */
export function lineDiff(before: string, after: string): { kind: 'same' | 'del' | 'ins'; line: string }[] {
  const a = before.split('\n');
  const b = after.split('\n');
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  }
  const out: { kind: 'same' | 'del' | 'ins'; line: string }[] = [];
  let i = 0;
  let j = 0;
  // Where either way keeps the common lines, the line taken out comes before the line put in.
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push({ kind: 'same', line: a[i]! });
      i++;
      j++;
    } else if (j < b.length && (i >= a.length || lcs[i]![j + 1]! > lcs[i + 1]![j]!)) out.push({ kind: 'ins', line: b[j++]! });
    else out.push({ kind: 'del', line: a[i++]! });
  }
  return out;
}

/**
 * An ISO 8601 duration in words, after the duration itself: `P13M` → "13 months (P13M)",
 * `P1Y6M` → "1 year 6 months (P1Y6M)"; one it cannot read is shown as it is.
 */
function durationWords(iso: string): string {
  const m = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/.exec(iso);
  if (!m) return iso;
  const units = ['year', 'month', 'week', 'day', 'hour', 'minute', 'second'];
  const words = units.flatMap((unit, i) => {
    const n = m[i + 1];
    return n === undefined ? [] : [`${Number(n)} ${unit}${Number(n) === 1 ? '' : 's'}`];
  });
  return words.length > 0 ? `${words.join(' ')} (${iso})` : iso;
}

/** Named values as a definition list, '—' for none; the `mono` ones (hashes, ids) in a fixed-width font. */
/** A record's metadata as `key: value` pairs, a value that is not text as JSON. */
function metadataWords(metadata: Record<string, unknown> | null | undefined): string | undefined {
  const entries = Object.entries(metadata ?? {});
  if (entries.length === 0) return undefined;
  return entries.map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`).join('; ');
}

function FieldList({ fields, mono = [] }: { fields: [string, unknown][]; mono?: string[] }) {
  return (
    <dl class="fields">
      {fields.map(([k, v]) => (
        <Fragment key={k}>
          <dt>{k}</dt>
          <dd class={mono.includes(k) ? 'mono' : undefined}>{String(v ?? '—')}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/** What a purpose is, as its definition now says: its name, legal basis, how long a decision holds, its DPV term. */
function PurposeFacts({ purpose }: { purpose: PurposeRow }) {
  const facts: [string, unknown][] = [
    ['Name', purpose.name],
    ['Legal basis', legalBasisWords(purpose.legalBasis)],
    // Copied into each version when it is published: a change applies to versions published after it.
    ['Decisions on new versions hold', purpose.consentValidFor ? durationWords(purpose.consentValidFor) : 'until withdrawn (no expiry)'],
    ['DPV term', purpose.dpv],
    ...(purpose.description ? ([['Description', purpose.description]] as [string, unknown][]) : []),
  ];
  return <FieldList fields={facts} />;
}

/** A version's state in words: deleted, inactive, in force, scheduled (its effectiveDate ahead) or superseded. */
function versionState(v: VersionCount): string {
  if (v.deleted) return 'deleted';
  if (!v.isActive) return 'inactive';
  if (v.inForce) return 'in force';
  return Date.parse(v.effectiveDate) > Date.now() ? 'scheduled' : 'superseded';
}

function Policies() {
  const [versions, error] = useLoad(() => api<{ data: VersionCount[] }>('/api/v1/consent/stats/versions'), []);
  const [purposes] = useLoad(async () => ({ data: await allPurposes() }), []);
  const definitions = new Map((purposes?.data ?? []).map((p) => [p.key, p]));
  const [diff, setDiff] = useState<{ title: string; lines: ReturnType<typeof lineDiff> }>();
  const [text, setText] = useState<{ title: string; content: string }>();
  const read = async (id: string) => {
    try {
      const { data } = await api<{ data: { content: string; version: string; title: string; contentHash: string } }>(
        `/api/v1/policies/${id}`,
      );
      setText({ title: `${data.title} ${data.version} (SHA-256 ${data.contentHash})`, content: data.content });
      // The text shows below the tables: take the reader (and the keyboard) there.
      requestAnimationFrame(() => {
        const section = document.getElementById('policy-text-section');
        section?.scrollIntoView({ block: 'start' });
        section?.focus();
      });
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  const [message, setMessage] = useState<string>();
  const byPurpose = new Map<string, VersionCount[]>();
  for (const v of versions?.data ?? []) byPurpose.set(v.purpose, [...(byPurpose.get(v.purpose) ?? []), v]);
  const compare = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const [from, to] = [String(form.get('from')), String(form.get('to'))];
    try {
      const [a, b] = await Promise.all(
        [from, to].map((id) => api<{ data: { content: string; version: string; title: string } }>(`/api/v1/policies/${id}`)),
      );
      setDiff({
        title: `${a!.data.title} ${a!.data.version} → ${b!.data.title} ${b!.data.version}`,
        lines: lineDiff(a!.data.content, b!.data.content),
      });
      setMessage(undefined);
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  const options = (versions?.data ?? []).filter((v) => !v.deleted);
  // By default the newest version against the one before it of the same purpose.
  const newest = options[0];
  const fromDefault = options.find((v, i) => i > 0 && v.purpose === newest!.purpose) ?? options[1] ?? newest;
  return (
    <>
      <h1>Policies and purposes</h1>
      {error && <p class="error">{error}</p>}
      {[...byPurpose.entries()].map(([purpose, list]) => (
        <section class="card" key={purpose} aria-labelledby={`purpose-${purpose}`}>
          <h2 id={`purpose-${purpose}`}>{purpose}</h2>
          {definitions.has(purpose) ? (
            <PurposeFacts purpose={definitions.get(purpose)!} />
          ) : (
            <p class="muted">A policy type without a purpose of its own: its decisions never expire.</p>
          )}
          <DataTable
            label={`Versions of ${purpose}`}
            rows={list}
            rowKey={(v) => v.policyVersionId}
            columns={[
              ['Version', (v) => v.version],
              ['Title', (v) => v.title],
              ['State', versionState],
              ['Effective', (v) => when(v.effectiveDate)],
              ['Asks again', (v) => (v.requiresReconsent ? 'yes' : 'no')],
              ['Decisions', (v) => decisions(v)],
              ['Acceptance', (v) => `${v.acceptanceRate} %`],
              [
                'Text',
                (v) =>
                  // A deleted version's text is no longer served (GET /policies/:id answers 404).
                  v.deleted ? (
                    <span class="muted">deleted</span>
                  ) : (
                    <button type="button" class="secondary" onClick={() => read(v.policyVersionId)}>
                      Read<span class="skip"> {`${v.purpose} ${v.version}`}</span>
                    </button>
                  ),
              ],
            ]}
          />
        </section>
      ))}
      {text && (
        <section class="card" id="policy-text-section" tabIndex={-1} aria-labelledby="policy-text">
          <h2 id="policy-text">{text.title}</h2>
          <pre class="diff">{text.content}</pre>
        </section>
      )}
      <form class="filters card" onSubmit={compare} aria-label="Compare two versions">
        <label>
          From version
          <select name="from">
            {options.map((v) => (
              <option key={v.policyVersionId} value={v.policyVersionId} selected={v === fromDefault}>
                {v.purpose} {v.version}
              </option>
            ))}
          </select>
        </label>
        <label>
          To version
          <select name="to">
            {options.map((v, i) => (
              <option key={v.policyVersionId} value={v.policyVersionId} selected={i === 0}>
                {v.purpose} {v.version}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">Compare</button>
      </form>
      {message && <p class="error">{message}</p>}
      {diff && (
        <section class="card" aria-labelledby="diff">
          <h2 id="diff">{diff.title}</h2>
          <pre class="diff">
            {diff.lines.map((l, i) =>
              l.kind === 'ins' ? (
                <ins key={i}>+ {l.line}</ins>
              ) : l.kind === 'del' ? (
                <del key={i}>- {l.line}</del>
              ) : (
                <span key={i}> {l.line}</span>
              ),
            )}
          </pre>
        </section>
      )}
    </>
  );
}

function AuditLog() {
  const [action, setAction] = useState('');
  const [page, setPage] = useState(1);
  const [exportError, setExportError] = useState<string>();
  // The filter, encoded, for the page shown and for the export alike.
  const query = (more: Record<string, string>) => new URLSearchParams({ ...more, ...(action ? { action } : {}) }).toString();
  const [result, error] = useLoad(
    () =>
      api<{ data: AuditEntry[]; pagination: { total: number; pages: number } }>(
        `/api/v1/audit-log?${query({ limit: '100', page: String(page) })}`,
      ),
    [action, page],
  );
  const exportCsv = () =>
    save(`/api/v1/audit-log?${query({ format: 'csv' })}`, 'audit-log.csv').then(
      () => setExportError(undefined),
      (e: Error) => setExportError(`The export failed: ${e.message}`),
    );
  return (
    <>
      <h1>Audit log</h1>
      <form class="filters card" onSubmit={(e) => e.preventDefault()} aria-label="Filter the audit log">
        <label>
          Action
          <input
            value={action}
            onChange={(e) => {
              setAction((e.target as HTMLInputElement).value.trim());
              setPage(1);
            }}
            placeholder="key.issued"
          />
        </label>
        <button type="button" class="secondary" onClick={() => void exportCsv()}>
          Export as CSV
        </button>
      </form>
      {(exportError ?? error) && (
        <p class="error" role="alert">
          {exportError ?? error}
        </p>
      )}
      {result && (
        <p aria-live="polite">
          {result.pagination.total} {result.pagination.total === 1 ? 'entry' : 'entries'}
          {action ? ` of ${action}` : ''}
        </p>
      )}
      {result && (
        <DataTable
          label="Configuration changes, newest first"
          rows={result.data}
          rowKey={(e) => e.id}
          columns={[
            ['When', (e) => when(e.at)],
            ['Action', (e) => e.action],
            ['Target', (e) => `${e.target.type} ${e.target.id ?? ''}`, 'mono'],
            ['By', (e) => actorWords(e.actor)],
          ]}
        />
      )}
      {result && <Pager page={page} pages={result.pagination.pages} onPage={setPage} />}
    </>
  );
}

/** The tenant's webhooks, and one's delivery attempts, newest first (admin sessions: webhooks are its configuration). */
function Webhooks({ session, webhookId }: { session: Session; webhookId: string | undefined }) {
  const [hooks, error] = useLoad(
    () =>
      session.scope === 'admin'
        ? api<{ data: WebhookRow[] }>('/api/v1/webhooks?limit=100')
        : Promise.reject(new Error('Webhooks are shown to admin sessions; this session is a read key.')),
    [session.scope],
  );
  const [version, setVersion] = useState(0);
  const [message, setMessage] = useState<string>();
  // What was said about one webhook's delivery is not shown under another's attempts.
  useEffect(() => setMessage(undefined), [webhookId]);
  const [attempts, attemptsError] = useLoad(
    () =>
      webhookId
        ? api<{ data: Attempt[] }>(`/api/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries?limit=100`)
        : Promise.resolve({ data: [] as Attempt[] }),
    [webhookId, version],
  );
  // A delivery that failed or was cancelled may be sent again, from its newest attempt's row.
  const newest = new Set<string>();
  const again = new Set(
    (attempts?.data ?? []).flatMap((a) => {
      if (newest.has(a.deliveryId)) return [];
      newest.add(a.deliveryId);
      return a.deliveryStatus === 'failed' || a.deliveryStatus === 'cancelled' ? [a.id] : [];
    }),
  );
  const sendAgain = async (a: Attempt) => {
    try {
      await api(`/api/v1/webhooks/${encodeURIComponent(a.webhookId)}/deliveries/${encodeURIComponent(a.deliveryId)}/redeliver`, {
        method: 'POST',
      });
      setMessage(`Sending the ${a.event} delivery again now.`);
      setVersion(version + 1);
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  return (
    <>
      <h1>Webhooks</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {hooks && (
        <DataTable
          label="The tenant's webhooks"
          rows={hooks.data}
          rowKey={(h) => h.id}
          columns={[
            ['Receiver', (h) => <a href={`#/webhooks/${h.id}`}>{h.url}</a>, 'mono'],
            ['Events', (h) => h.events.join(', ')],
            ['Active', (h) => (h.isActive ? 'yes' : 'no')],
            ['Attempts', (h) => `${h.deliveryStats.successful} succeeded, ${h.deliveryStats.failed} failed of ${h.deliveryStats.total}`],
            ['Last', (h) => when(h.lastTriggered)],
          ]}
        />
      )}
      {webhookId && attemptsError && (
        <p class="error" role="alert">
          {attemptsError}
        </p>
      )}
      {webhookId && attempts && (
        <section class="card" aria-labelledby="attempts">
          <h2 id="attempts">Attempts, newest first</h2>
          {attempts.data.length === 0 && <p>No delivery attempted yet.</p>}
          <DataTable
            label="Delivery attempts"
            rows={attempts.data}
            rowKey={(a) => a.id}
            columns={[
              ['When', (a) => when(a.attemptedAt)],
              ['Event', (a) => a.event],
              ['Attempt', (a) => a.attempt],
              ['Answer', (a) => (a.success ? `delivered (${a.statusCode})` : `failed: ${a.statusCode ?? a.error ?? 'no answer'}`)],
              ['Time', (a) => `${a.responseTime} ms`],
              ['Delivery', (a) => (again.has(a.id) ? <button onClick={() => void sendAgain(a)}>Send again</button> : a.deliveryStatus)],
            ]}
          />
          {message && <p role="status">{message}</p>}
        </section>
      )}
    </>
  );
}

/** Whether a key's expiry has passed: it no longer works. */
const expired = (k: KeyRow): boolean => k.expiresAt !== null && Date.parse(k.expiresAt) <= Date.now();

function Keys({ session }: { session: Session }) {
  const [version, setVersion] = useState(0);
  const [issued, setIssued] = useState<{ apiKey: string; apiSecret: string | null }>();
  const [message, setMessage] = useState<string>();
  const [result, error] = useLoad(
    () =>
      session.scope === 'admin'
        ? api<{ data: KeyRow[] }>('/api/v1/keys')
        : Promise.reject(new Error('Keys are managed with an admin key; this session is a read key.')),
    [session.scope, version],
  );
  const create = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const name = String(form.get('name')).trim();
    // The browser's local date and time, sent as the instant it names.
    const expires = String(form.get('expiresAt') ?? '');
    try {
      const { data } = await api<{ data: { apiKey: string; apiSecret: string | null } }>('/api/v1/keys', {
        method: 'POST',
        body: {
          scope: String(form.get('scope')),
          ...(name ? { name } : {}),
          ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
        },
      });
      setIssued(data);
      setVersion(version + 1);
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  const revoke = async (apiKey: string) => {
    if (!confirm(`Revoke ${apiKey}? It stops working at once, everywhere.`)) return;
    try {
      await api(`/api/v1/keys/${apiKey}`, { method: 'DELETE' });
      setMessage(`Revoked ${apiKey}.`);
      setVersion(version + 1);
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  return (
    <>
      <h1>Keys</h1>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {session.scope === 'admin' && (
        <form class="filters card" onSubmit={create} aria-label="Issue a key">
          <label>
            Scope
            <select name="scope">
              <option value="read">read (an auditor)</option>
              <option value="write">write (a backend)</option>
              <option value="admin">admin</option>
            </select>
          </label>
          <label>
            Name
            <input name="name" maxLength={100} />
          </label>
          <label>
            Expires (optional, your local time)
            <input name="expiresAt" type="datetime-local" />
          </label>
          <button type="submit">Issue key</button>
        </form>
      )}
      {issued && (
        <p class="card" role="status">
          Issued <span class="mono">{issued.apiKey}</span>; its secret, shown once: <span class="mono">{issued.apiSecret}</span>
        </p>
      )}
      {message && <p role="status">{message}</p>}
      {result && (
        <DataTable
          label="The tenant's keys"
          rows={result.data}
          rowKey={(k) => k.apiKey}
          columns={[
            ['Key', (k) => k.apiKey, 'mono'],
            ['Name', (k) => k.name ?? '—'],
            ['Scope', (k) => k.scope],
            ['Last used', (k) => when(k.lastUsedAt)],
            ['Expires', (k) => (k.expiresAt ? `${when(k.expiresAt)}${expired(k) ? ' (expired)' : ''}` : 'never')],
            [
              'Revoked',
              (k) =>
                k.revokedAt ? (
                  when(k.revokedAt)
                ) : expired(k) ? (
                  'no longer works'
                ) : k.apiKey === session.apiKey ? (
                  'this session'
                ) : (
                  <button type="button" class="secondary" onClick={() => revoke(k.apiKey)}>
                    Revoke<span class="skip"> {k.apiKey}</span>
                  </button>
                ),
            ],
          ]}
        />
      )}
    </>
  );
}

/** Erasure on request (GDPR Art. 17): names what will be destroyed, and asks before it does. */
function Erasure({ session }: { session: Session }) {
  const [found, setFound] = useState<{ userReference: string; records: number }>();
  const [message, setMessage] = useState<string>();
  if (session.scope !== 'admin') return <p class="error">Erasure needs an admin key; this session is a read key.</p>;
  const look = async (event: Event) => {
    event.preventDefault();
    // As typed: " alice " and "alice" are two subjects, and erasing one for the other destroys the wrong data.
    const userReference = String(new FormData(event.target as HTMLFormElement).get('userReference'));
    setFound(undefined);
    setMessage(undefined);
    if (userReference.trim() === '') {
      setMessage('Type the user reference to erase.');
      return;
    }
    // The subject's records not erased yet (those recorded after an erasure are not).
    let live = 0;
    try {
      for (let page = 1; ; page++) {
        const { data, pagination } = await api<{ data: SearchItem[]; pagination: { total: number; pages: number } }>(
          `/api/v1/consent/search?${new URLSearchParams({ userReference, limit: '100', page: String(page) })}`,
        );
        live += data.filter((r) => !r.erased).length;
        if (page >= pagination.pages) {
          // Nothing to erase: say so rather than offer to destroy nothing.
          if (pagination.total === 0) setMessage(`No records of ${shownReference(userReference)}: nothing to erase.`);
          else if (live === 0) setMessage(`${shownReference(userReference)} is erased already: none of their records can be read.`);
          else setFound({ userReference, records: live });
          return;
        }
      }
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  const records = (n: number) => `${n} record${n === 1 ? '' : 's'}`;
  const erase = async () => {
    if (!found) return;
    try {
      await api('/api/v1/subjects/erase', { method: 'POST', body: { userReference: found.userReference } });
      setMessage(`Erased ${shownReference(found.userReference)}: the personal fields of ${records(found.records)} can no longer be read.`);
      setFound(undefined);
    } catch (e) {
      setMessage((e as Error).message);
    }
  };
  return (
    <>
      <h1>Erasure</h1>
      <form class="filters card" onSubmit={look} aria-label="Find a data subject">
        <label>
          User reference
          <input name="userReference" required />
        </label>
        <button type="submit">Find</button>
      </form>
      {found && (
        <section class="card" role="alertdialog" aria-labelledby="confirm-erase">
          <h2 id="confirm-erase">Erase {shownReference(found.userReference)}?</h2>
          <p>
            This destroys the keys of the personal fields (user reference, address, user agent, metadata) of{' '}
            <strong>{records(found.records)}</strong> and their receipts, for good. The decisions, times and hashes stay, and still verify.
          </p>
          <div class="actions">
            <button type="button" onClick={erase}>
              Erase {shownReference(found.userReference)}
            </button>
            <button type="button" class="secondary" onClick={() => setFound(undefined)}>
              Cancel
            </button>
          </div>
        </section>
      )}
      {message && <p role="status">{message}</p>}
    </>
  );
}

function App() {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [ended, setEnded] = useState<string>();
  onSessionEnded = (message) => {
    forgetSession();
    setEnded(message);
    setSession(null);
  };
  useEffect(() => {
    api<{ data: Session }>('/console/session').then(
      ({ data }) => {
        csrf = data.csrfToken;
        setSession(data);
      },
      () => setSession(null),
    );
  }, []);
  if (session === undefined) return <p class="loading">Loading…</p>;
  if (session === null) {
    return (
      <SignIn
        ended={ended}
        onSignedIn={(s) => {
          forgetSession();
          csrf = s.csrfToken;
          if (!location.hash) location.hash = '#/overview';
          setEnded(undefined);
          setSession(s);
        }}
      />
    );
  }
  return (
    <Shell
      session={session}
      onSignOut={() => {
        forgetSession();
        setSession(null);
      }}
    />
  );
}

render(<App />, document.getElementById('app')!);
