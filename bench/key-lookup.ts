/**
 * `npm run bench:keys`: what a key's lookup costs now that its row is held to the tenant's log
 * (docs/decisions/0012-keys-held-to-the-log.md). A key is read from the database at most once per
 * cache period (2 s) per process; this times that read with the check (the key's and the tenant's
 * streams, their authenticators and sealed leaves), the read of the row alone, and a cached key.
 * On DATABASE_URL's server (a database of its own, dropped after), else the embedded store.
 *
 *   BENCH_KEY_LOOKUPS  lookups timed per case (default 2000, after 200 to warm up)
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { loadSettings } from '../src/config.js';
import { createService } from '../src/service.js';
import { TenantService } from '../src/tenants/tenants.service.js';
import { commit, machine, table } from './lib.js';

const N = Number(process.env.BENCH_KEY_LOOKUPS ?? 2_000);
const server = process.env.DATABASE_URL;
const dir = mkdtempSync(join(tmpdir(), 'cl-bench-keys-'));
const name = `cl_bench_keys_${Date.now()}`;
const admin = server ? new pg.Client({ connectionString: server }) : undefined;
let url: string | undefined;
if (admin && server) {
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const u = new URL(server);
  u.pathname = `/${name}`;
  url = u.toString();
}
const service = await createService(
  loadSettings({
    ...(url ? { DATABASE_URL: url, MASTER_KEY: randomBytes(32).toString('hex') } : {}),
    DATA_DIR: dir,
    LOG_LEVEL: 'silent',
  }),
  {},
);
try {
  const creds = await service.tenants.create('bench', 'pro');
  const bare = new TenantService(service.store.db);
  const time = async (fn: () => Promise<unknown>): Promise<number> => {
    for (let i = 0; i < 200; i++) await fn();
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < N; i++) await fn();
    return Number(process.hrtime.bigint() - t0) / N / 1000;
  };
  const checked = await time(() => (service.tenants.invalidate(), service.tenants.authenticate(creds.apiKey, creds.apiSecret)));
  const rowOnly = await time(() => (bare.invalidate(), bare.authenticate(creds.apiKey, creds.apiSecret)));
  const cached = await time(() => service.tenants.authenticate(creds.apiKey, creds.apiSecret));
  const m = machine();
  console.log(`${url ? 'PostgreSQL server' : 'embedded store'}, ${N} lookups each, ${commit()}, ${m.cpuModel} (${m.cores} cores)`);
  console.log(
    table(
      ['lookup', 'µs each'],
      [
        ['read from the database, held to the log', checked.toFixed(0)],
        ['read from the database, the row alone', rowOnly.toFixed(0)],
        ['cached (2 s)', cached.toFixed(1)],
      ],
    ),
  );
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
  if (admin) {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}
