import { spawn } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { childEnvironment, repoRoot, runCommand, type CommandRun } from './process.js';
import { freshDatabase, serverUrl } from './stores.js';

/** The package's bin: what `npx consent-ledger` runs. */
export const cliBin = join(repoRoot, 'bin', 'consent-ledger.js');

/** `node bin/consent-ledger.js <args>` with only `env` of the service's settings. */
export const cli = (args: string[], env: Record<string, string>): Promise<CommandRun> =>
  runCommand(process.execPath, [cliBin, ...args], env);

/**
 * `node bin/consent-ledger.js <args>` started as an operator starts it and left running: the
 * child (to signal), what it has written so far, and its exit status once it ends.
 */
export function cliStarted(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [cliBin, ...args], {
    cwd: repoRoot,
    env: childEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (output.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (output.stderr += c));
  const exited = new Promise<number | null>((r) => child.once('close', (code) => r(code)));
  return { child, output, exited };
}

/** The settings that name a store, as the service and the CLI read them. */
export interface CliEngine {
  name: string;
  open(): Promise<{ env: Record<string, string>; dispose(): Promise<void> }>;
}

/** The embedded store in a fresh folder, and a fresh database of DATABASE_URL's server when set (else a printed line). */
export function cliEngines(tag: string): CliEngine[] {
  const engines: CliEngine[] = [
    {
      name: 'the embedded store (DATA_DIR)',
      async open() {
        const dir = mkdtempSync(join(tmpdir(), `cl-${tag}-`));
        return { env: { DATA_DIR: dir }, dispose: async () => rmSync(dir, { recursive: true, force: true }) };
      },
    },
  ];
  if (serverUrl) {
    engines.push({
      name: 'a PostgreSQL server (DATABASE_URL)',
      async open() {
        // DATA_DIR holds only the key files here: a folder of the test's own, not the checkout's ./data.
        const fresh = await freshDatabase();
        const dir = mkdtempSync(join(tmpdir(), `cl-${tag}-keys-`));
        return {
          env: { DATABASE_URL: fresh.url, DATA_DIR: dir },
          dispose: async () => {
            await fresh.drop();
            rmSync(dir, { recursive: true, force: true });
          },
        };
      },
    });
  } else {
    console.log(`[${tag}] DATABASE_URL is not set: the CLI is tested on the embedded store only`);
  }
  return engines;
}

/** The service on these settings for as long as `fn` runs (the embedded store is one process's at a time). */
export async function withService<T>(env: Record<string, string>, fn: (service: Service) => Promise<T>): Promise<T> {
  const service = await createService(loadSettings({ ...env, LOG_LEVEL: 'silent' }), { pollMs: 50 });
  try {
    return await fn(service);
  } finally {
    await service.close();
  }
}

/** `tenant create` through the CLI: the tenant and its first key. */
export async function createTenantWithCli(env: Record<string, string>, name: string, plan: string) {
  const run = await cli(['tenant', 'create', '--name', name, '--plan', plan], env);
  if (run.code !== 0) throw new Error(`tenant create failed (${run.code}): ${run.stderr}`);
  return run.json as { tenantId: string; name: string; plan: string; apiKey: string; apiSecret: string };
}

/**
 * Opens `engine` for the enclosing describe (closed after it): its settings (`env`, filled before
 * the first test) and the service and tenant helpers on them.
 *
 * @example
 * describe.each(cliEngines('x'))('on $name', (engine) => { const { env, withService, createTenant } = onEngine(engine); ... });
 */
export function onEngine(engine: CliEngine) {
  const env: Record<string, string> = {};
  let dispose: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const opened = await engine.open();
    Object.assign(env, opened.env);
    dispose = opened.dispose;
  });
  afterAll(() => dispose?.());
  return {
    env,
    withService: <T>(fn: (service: Service) => Promise<T>): Promise<T> => withService(env, fn),
    createTenant: (name: string, plan = 'pro') => createTenantWithCli(env, name, plan),
  };
}
