/**
 * `npm run soak`: the built service under mixed load, then every view of what it acknowledged
 * checked against the others, the ledger and the webhooks it sent. Not a benchmark: it answers
 * "does anything drift or go missing under concurrent writers, expiries, a material change taking
 * effect, erasures and a crash", and exits 1 naming each difference it finds.
 *
 * Two service processes on one new database of the PostgreSQL server DATABASE_URL names (dropped
 * afterwards), or one on a new embedded store when DATABASE_URL is unset or SOAK_STORE=embedded.
 * Eight clients, round robin over the processes, for SOAK_SECONDS (default 60): decisions on a
 * purpose valid 25 s, on a purpose whose material change takes effect 20 s in (and a minor one at
 * 40 s), and on a policy type; batches, a third of their items history (`collectedAt`, some past
 * their validity already); withdrawals by id and by purpose; erasures. SOAK_KILL=1 kills a process
 * with SIGKILL 18 s in and starts it again 6 s later.
 *
 * Once every expiry has passed, it checks: every acknowledged record is held; each status filter's
 * total, the stats and the records agree; each user's status agrees with its record and with the
 * re-consent list; a consent past its expiresAt reads expired and, unless it was imported already
 * expired, got one consent.expired within a minute (distinct event ids: deliveries are at least once) and, in the
 * ledger read with the services stopped, one ConsentExpired appended within a minute of it; no
 * consent is both withdrawn and expired; and `projections verify` finds the read models equal to a
 * replay.
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { MIGRATIONS } from '../src/migrations.js';
import { openStore } from '../src/store/store.js';
import { cliBin } from '../test/support/cli.js';
import {
  provisionTenant,
  runCommand,
  startServiceProcess,
  tenantClient,
  freePort,
  type HttpAnswer,
  type HttpClient,
  type ServiceProcess,
} from '../test/support/process.js';
import { freshDatabase, serverUrl } from '../test/support/stores.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const EMBEDDED = !serverUrl || process.env.SOAK_STORE === 'embedded';
const KILL = process.env.SOAK_KILL === '1';
const ADMIN_TOKEN = 'soak-admin-token-0123456789abcdef';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const pick = <T>(a: readonly T[]): T => a[Math.floor(Math.random() * a.length)]!;
const iso = (ms: number) => new Date(ms).toISOString();

/** What the webhook receiver got: type, event id, consent id and time of each delivery. */
const deliveries: { type: string; id: string; consentId: string | undefined; at: number }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    const event = JSON.parse(body) as { type: string; id: string; data: { id?: string } };
    deliveries.push({ type: event.type, id: event.id, consentId: event.data.id, at: Date.now() });
    res.end('ok');
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;

const dataDir = mkdtempSync(join(tmpdir(), 'cl-soak-'));
const database = EMBEDDED ? undefined : await freshDatabase();
const env: Record<string, string> = {
  ...(database ? { DATABASE_URL: database.url } : {}),
  DATA_DIR: dataDir,
  ADMIN_TOKEN,
  LOG_LEVEL: 'warn',
  WEBHOOK_ALLOW_HTTP: 'true',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
};
const ports = await Promise.all((EMBEDDED ? [0] : [0, 1]).map(() => freePort()));
const services: { svc: ServiceProcess; up: boolean; api?: HttpClient }[] = [];
for (const port of ports) services.push({ svc: await startServiceProcess({ ...env, PORT: String(port) }), up: true });
const problems: string[] = [];
const problem = (m: string) => {
  problems.push(m);
  if (problems.length <= 50) console.log(`PROBLEM ${m}`);
};

try {
  const creds = await provisionTenant(services[0]!.svc.url, ADMIN_TOKEN, 'Soak');
  for (const s of services) s.api = tenantClient(s.svc.url, creds);
  let turn = 0;
  const api = (): HttpClient => {
    const up = services.filter((s) => s.up);
    return (up.length > 0 ? up[turn++ % up.length]! : services[0]!).api!;
  };
  const must = (r: HttpAnswer, ...ok: number[]) => {
    if (!ok.includes(r.status)) throw new Error(`${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body;
  };

  must(await api().post('/api/v1/webhooks', { url: hookUrl, events: ['*'] }), 201);
  must(await api().post('/api/v1/purposes', { key: 'short', name: 'Short', legalBasis: 'consent', consentValidFor: 'PT25S' }), 201);
  must(await api().post('/api/v1/purposes', { key: 'news', name: 'News', legalBasis: 'consent' }), 201);
  const start = Date.now();
  const publish = async (body: Record<string, unknown>) =>
    must(await api().post('/api/v1/policies', { title: 'T', content: JSON.stringify(body), ...body }), 201).data.id as string;
  const short1 = await publish({ policyType: 'custom', purpose: 'short', version: '1.0.0' });
  const news1 = await publish({ policyType: 'marketing_consent', purpose: 'news', version: '1.0.0' });
  const privacy1 = await publish({ policyType: 'privacy_policy', version: '1.0.0' });
  const news2 = await publish({ policyType: 'marketing_consent', purpose: 'news', version: '2.0.0', effectiveDate: iso(start + 20_000) });
  const news3 = await publish({
    policyType: 'marketing_consent',
    purpose: 'news',
    version: '2.0.1',
    requiresReconsent: false,
    effectiveDate: iso(start + 40_000),
  });
  const newsInForce = () => (Date.now() >= start + 40_000 ? news3 : Date.now() >= start + 20_000 ? news2 : news1);
  const versionOf = (purpose: string) => (purpose === 'short' ? short1 : purpose === 'news' ? pick([newsInForce(), news1]) : privacy1);

  const users = Array.from({ length: 200 }, (_, i) => `user-${i}`);
  const acknowledged = new Set<string>();
  const counts: Record<string, number> = {};
  const count = (what: string) => (counts[what] = (counts[what] ?? 0) + 1);

  const client = async () => {
    while (Date.now() - start < SECONDS * 1000) {
      const r = Math.random();
      try {
        if (r < 0.4) {
          const purpose = pick(['short', 'news', 'privacy_policy']);
          const body = {
            policyVersionId: versionOf(purpose),
            userReference: pick(users),
            consentGiven: Math.random() < 0.8,
            metadata: { source: pick(['web', 'app']) },
          };
          acknowledged.add(must(await api().post('/api/v1/consent', body), 201).data.id);
          count('record');
        } else if (r < 0.6) {
          const items = Array.from({ length: 1 + Math.floor(Math.random() * 20) }, () => {
            const purpose = pick(['short', 'news', 'privacy_policy']);
            const item: Record<string, unknown> = { userReference: pick(users), consentGiven: Math.random() < 0.8 };
            // History: named by purpose, on the version in force then (none before the soak began: a 400).
            if (Math.random() < 0.3)
              Object.assign(item, { purpose, collectedAt: iso(Date.now() - 1_000 - Math.floor(Math.random() * 60_000)) });
            else item.policyVersionId = versionOf(purpose);
            return item;
          });
          const answer = await api().post('/api/v1/consent/batch', { consents: items });
          if (answer.status === 400 && /was in force at/.test(JSON.stringify(answer.body))) {
            count('batch before the first version');
            continue;
          }
          for (const c of must(answer, 201).data.consents as { id: string }[]) acknowledged.add(c.id);
          count('batch');
        } else if (r < 0.8) {
          if (acknowledged.size === 0) continue;
          const answer = await api().post(`/api/v1/consent/${pick([...acknowledged])}/withdraw`, { reason: 'soak' });
          must(answer, 200, 409);
          count(answer.status === 200 ? 'withdraw' : 'withdraw refused');
        } else if (r < 0.82) {
          must(await api().post(`/api/v1/subjects/${pick(users)}/erase`, {}), 200);
          count('erase');
        } else {
          const answer = await api().post(`/api/v1/consent/user/${pick(users)}/withdraw`, {
            purpose: pick(['short', 'news', 'privacy_policy']),
          });
          // 503 while the read models lag more than 5 s (after a crash): withdrawn nothing, as documented.
          must(answer, 200, 409, 503);
          count(answer.status === 200 ? 'withdraw by purpose' : `withdraw by purpose ${answer.status}`);
        }
      } catch (error) {
        // A request to a process being killed fails; anything else is a problem.
        if (services.every((s) => s.up)) problem(`request failed: ${(error as Error).message}`);
        else count('failed while a process was down');
        await sleep(50);
      }
    }
  };
  const crash = async () => {
    if (!KILL) return;
    await sleep(18_000);
    const victim = services[0]!;
    victim.up = false;
    await victim.svc.kill('SIGKILL');
    console.log(`killed a service with SIGKILL at ${((Date.now() - start) / 1000).toFixed(1)} s`);
    await sleep(6_000);
    victim.svc = await startServiceProcess({ ...env, PORT: String(victim.svc.port) });
    victim.up = true;
    console.log(`started it again at ${((Date.now() - start) / 1000).toFixed(1)} s`);
  };
  await Promise.all([...Array.from({ length: 8 }, client), crash()]);
  console.log(`load done: ${acknowledged.size} records acknowledged; ${JSON.stringify(counts)}`);

  // Every record the service holds, with its status now (read after every expiry has passed).
  interface Record_ {
    id: string;
    status: string;
    consentGiven: boolean;
    expiresAt?: string;
    createdAt: string;
  }
  const fetchAll = async (): Promise<Map<string, Record_>> => {
    const all = new Map<string, Record_>();
    for (let page = 1; ; page++) {
      const body = must(await api().get(`/api/v1/consent/search?limit=100&page=${page}`), 200);
      for (const r of body.data as Record_[]) all.set(r.id, r);
      if (page >= body.pagination.pages) return all;
    }
  };
  const lastExpiry = Math.max(start + 40_000, ...[...(await fetchAll()).values()].map((r) => (r.expiresAt ? Date.parse(r.expiresAt) : 0)));
  console.log(`waiting ${Math.max(0, Math.round((lastExpiry + 15_000 - Date.now()) / 1000))} s for the last expiry and its follower`);
  while (Date.now() < lastExpiry + 15_000) await sleep(500);
  const records = await fetchAll();
  for (const id of acknowledged) if (!records.has(id)) problem(`acknowledged record ${id} is not held`);
  const tally: Record<string, number> = {};
  for (const r of records.values()) tally[r.status] = (tally[r.status] ?? 0) + 1;
  console.log(`records: ${records.size}, by status ${JSON.stringify(tally)}`);
  for (const status of ['active', 'withdrawn', 'expired']) {
    const total = must(await api().get(`/api/v1/consent/search?status=${status}&limit=1`), 200).pagination.total as number;
    if (total !== (tally[status] ?? 0)) problem(`search status=${status} counts ${total}, its records ${tally[status] ?? 0}`);
  }
  const stats = must(await api().get('/api/v1/consent/stats'), 200).data;
  if (stats.totalConsents !== records.size) problem(`stats count ${stats.totalConsents} records, search ${records.size}`);

  // Each user's status against its records and the re-consent list.
  const reconsent = new Set<string>();
  for (let page = 1; ; page++) {
    const body = must(await api().get(`/api/v1/consent/reconsent?purpose=news&limit=100&page=${page}`), 200);
    for (const x of body.data as { consentId: string }[]) reconsent.add(x.consentId);
    if (page >= body.pagination.pages) break;
  }
  for (const user of users) {
    const entries = must(await api().get(`/api/v1/consent/user/${user}/status`), 200).data.policies as {
      purpose: string;
      status: string;
      consentId: string;
      policyVersionId: string;
    }[];
    for (const e of entries) {
      if (e.status === 'none') continue;
      const record = records.get(e.consentId);
      if (!record) problem(`${user} ${e.purpose}: status names ${e.consentId}, which search does not hold`);
      else if ((record.status === 'withdrawn' || record.status === 'expired') && e.status !== record.status)
        problem(`${user} ${e.purpose}: status ${e.status}, its record ${record.status}`);
      const outdated = e.purpose === 'news' && e.policyVersionId === news1 && ['given', 'rejected', 'outdated'].includes(e.status);
      if (outdated && e.status !== 'outdated') problem(`${user} news: decided on 1.0.0 before 2.0.0, reads ${e.status}`);
      if (e.purpose === 'news' && outdated !== reconsent.has(e.consentId))
        problem(`${user} news: outdated ${outdated}, in the re-consent list ${reconsent.has(e.consentId)}`);
    }
  }

  // The webhooks: one consent.expired event (deliveries repeat its id) for each consent that
  // expired here, once the deliveries queued behind the load's have gone out (bounded).
  const expiredHere = [...records.values()].filter(
    (r) => r.status === 'expired' && Date.parse(r.expiresAt ?? '') > Date.parse(r.createdAt),
  );
  const delivered = (type: string) => {
    const ids = new Map<string, Set<string>>();
    for (const d of deliveries) if (d.type === type && d.consentId) ids.set(d.consentId, (ids.get(d.consentId) ?? new Set()).add(d.id));
    return ids;
  };
  const waitedFrom = Date.now();
  while (Date.now() - waitedFrom < 120_000 && !expiredHere.every((r) => delivered('consent.expired').has(r.id))) await sleep(500);
  console.log(`consent.expired deliveries complete ${((Date.now() - waitedFrom) / 1000).toFixed(1)} s after the check began`);
  const expiredHooks = delivered('consent.expired');
  const late = expiredHere
    .map(
      (r) =>
        Math.min(...deliveries.filter((d) => d.consentId === r.id && d.type === 'consent.expired').map((d) => d.at)) -
        Date.parse(r.expiresAt!),
    )
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  console.log(
    `consent.expired received after expiresAt: median ${((late[late.length >> 1] ?? 0) / 1000).toFixed(2)} s, slowest ${((late.at(-1) ?? 0) / 1000).toFixed(2)} s`,
  );
  if ((late.at(-1) ?? 0) > 60_000)
    problem(`a consent.expired arrived ${((late.at(-1) ?? 0) / 1000).toFixed(1)} s after its expiresAt (a minute at most)`);
  for (const r of expiredHere)
    if ((expiredHooks.get(r.id)?.size ?? 0) !== 1)
      problem(`${r.id}: ${expiredHooks.get(r.id)?.size ?? 0} consent.expired events delivered`);
  const announced = new Set(deliveries.filter((d) => d.type === 'policy.reconsent_required').map((d) => d.id));
  if (announced.size !== 1) problem(`${announced.size} policy.reconsent_required events delivered, 1 expected`);

  // The ledger's word, read with the services stopped (the embedded store is one process's).
  for (const s of services) await s.svc.kill('SIGTERM');
  const store = await openStore({ ...(database ? { databaseUrl: database.url } : { dataDir }), migrations: MIGRATIONS });
  const events = await sql<{ type: string; id: string; delay: number | null }>`
    SELECT event_type AS type, data->>'consentId' AS id,
      EXTRACT(EPOCH FROM recorded_at - (data->>'expiredAt')::timestamptz) AS delay
    FROM ledger.events
    WHERE tenant_id = ${creds.tenantId} AND event_type IN ('ConsentExpired', 'ConsentWithdrawn')`.execute(store.db);
  await store.close();
  const expiredEvents = new Map<string, number>();
  const withdrawnEvents = new Map<string, number>();
  const add = (m: Map<string, number>, id: string) => m.set(id, (m.get(id) ?? 0) + 1);
  const delays: number[] = [];
  for (const e of events.rows) {
    add(e.type === 'ConsentExpired' ? expiredEvents : withdrawnEvents, e.id);
    if (e.type === 'ConsentExpired') delays.push(Number(e.delay));
  }
  delays.sort((a, b) => a - b);
  console.log(
    `ConsentExpired appended after expiresAt: median ${delays[delays.length >> 1]?.toFixed(2)} s, slowest ${delays.at(-1)?.toFixed(2)} s (${delays.length} events)`,
  );
  if ((delays.at(-1) ?? 0) > 60) problem(`a ConsentExpired came ${delays.at(-1)!.toFixed(1)} s after its expiresAt (a minute at most)`);
  for (const [id, n] of expiredEvents) {
    if (n > 1) problem(`${id} expired ${n} times`);
    if (withdrawnEvents.has(id)) problem(`${id} both withdrawn and expired`);
  }
  for (const [id, n] of withdrawnEvents) if (n > 1) problem(`${id} withdrawn ${n} times`);
  for (const r of records.values()) {
    const pastExpiry = r.consentGiven && r.expiresAt !== undefined && !withdrawnEvents.has(r.id);
    if (pastExpiry && r.status !== 'expired') problem(`${r.id} is past its expiresAt and reads ${r.status}`);
    const here = Date.parse(r.expiresAt ?? '') > Date.parse(r.createdAt);
    if (pastExpiry && here && !expiredEvents.has(r.id)) problem(`${r.id} expired at ${r.expiresAt} without ConsentExpired`);
    if (pastExpiry && !here && expiredEvents.has(r.id)) problem(`${r.id} imported already expired, yet ConsentExpired`);
    if (withdrawnEvents.has(r.id) && r.status !== 'withdrawn') problem(`${r.id} withdrawn, reads ${r.status}`);
  }

  const verified = await runCommand(process.execPath, [cliBin, 'projections', 'verify'], env);
  if (verified.code !== 0) problem(`projections verify: ${verified.stdout.slice(0, 500)}`);
} finally {
  for (const s of services) await s.svc.kill('SIGTERM').catch(() => undefined);
  receiver.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
console.log(problems.length === 0 ? 'soak: every check passed' : `soak: ${problems.length} problem(s)`);
process.exit(problems.length === 0 ? 0 : 1);
