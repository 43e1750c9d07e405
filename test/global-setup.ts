import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { buildDist } from './support/build.js';
import { startEventStoreForRun } from './support/eventstore-engine.js';

/**
 * Engines start once per run. PostgreSQL is the server at DATABASE_URL when set (CI sets it);
 * each test file then works in a database of its own (test/support/stores.ts). Here we only
 * check the server answers and drop databases that earlier, interrupted runs left behind.
 * EventStoreDB is the server at EVENTSTORE_URL, else a KurrentDB container started here when a
 * Docker engine is there (stopped at the end), else none: its tests are skipped, saying why.
 */
/** Every project of the run (unit, int, api, e2e) shares one engine and one cleaning. */
let shared: Promise<Awaited<ReturnType<typeof startEventStoreForRun>>> | undefined;
/** dist/ is built once, before any file that needs it runs: every project but unit starts the CLI, the service or the console from it. */
let built: Promise<void> | undefined;
let users = 0;

/** The checkout's own key files, which no test may write (a developer's ./data may be real). */
const checkoutKeys = ['master.key', 'signing.key'].map((name) => join(import.meta.dirname, '..', 'data', name));
const keysBefore = checkoutKeys.filter((path) => existsSync(path));
let keysReported = false;

// Files the test processes keep until the run ends (runTempDir) go in one folder of the run's,
// removed at its end: the worker processes are stopped without an exit event to remove them.
process.env.TEST_RUN_DIR ??= mkdtempSync(join(tmpdir(), 'cl-test-run-'));
const runDir = process.env.TEST_RUN_DIR;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  users += 1;
  shared ??= cleanPostgres().then(() => startEventStoreForRun());
  if (project.name !== 'unit') await (built ??= buildDist());
  const eventStore = await shared;
  project.provide('eventStoreUrl', eventStore.url);
  project.provide('eventStoreMissing', eventStore.missing);
  return async () => {
    users -= 1;
    if (users > 0) return;
    await eventStore.stop();
    rmSync(runDir, { recursive: true, force: true });
    const written = checkoutKeys.filter((path) => existsSync(path) && !keysBefore.includes(path));
    if (written.length > 0 && !keysReported) {
      keysReported = true;
      // A teardown's error is printed but does not fail the run: the exit status does.
      console.error(`[test] the tests wrote ${written.join(', ')}: a service or command on a server store needs DATA_DIR (testKeysDir())`);
      process.exitCode = 1;
    }
  };
}

async function cleanPostgres(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log('[test] DATABASE_URL is not set: PostgreSQL-server tests are skipped, PGlite tests run');
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const stale = await client.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'cl_test_%'`);
    for (const { datname } of stale.rows) {
      const started = Number(datname.split('_')[2]);
      if (Number.isFinite(started) && Date.now() - started > 60 * 60 * 1000) {
        await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      }
    }
  } finally {
    await client.end();
  }
}
