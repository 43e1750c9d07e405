import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EnvironmentSchema } from '../../src/config.js';

/** The repository root: the child runs `src/main.ts` from here, as `npm start` runs `dist/`. */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** A TCP port that was free a moment ago: bind port 0, read what the kernel chose, close. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a new TCP connection to the port is refused (nothing listens). */
export async function connectionRefused(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy();
      if (error.code === 'ECONNREFUSED') resolve(true);
      else reject(error);
    });
  });
}

/**
 * Polls `condition` until it answers a truthy value, and answers it; throws when `timeoutMs`
 * passes first. For waiting on a state, never on a guess of how long something takes.
 */
export async function waitUntil<T>(
  condition: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  { timeoutMs = 30_000, intervalMs = 50, what = 'condition' }: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) {
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface FirstStartCredentials {
  tenantId: string;
  apiKey: string;
  apiSecret: string;
}

export interface ServiceProcess {
  pid: number;
  port: number;
  /** `http://127.0.0.1:<port>` */
  url: string;
  child: ChildProcess;
  /** Everything written to stdout / stderr so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves when the process has ended. */
  exited: Promise<Exit>;
  /** Undefined while running. */
  exit(): Exit | undefined;
  /** Waits until stdout (or stderr) matches, and answers the match. */
  waitForOutput(pattern: RegExp, options?: { timeoutMs?: number; stream?: 'stdout' | 'stderr' }): Promise<RegExpMatchArray>;
  /** The credentials printed by a first start (waits for them to arrive on stdout). */
  credentials(timeoutMs?: number): Promise<FirstStartCredentials>;
  /** Sends a signal and waits (bounded) for the process to end. */
  kill(signal: NodeJS.Signals, timeoutMs?: number): Promise<Exit>;
  /** Waits (bounded) for the process to end. */
  waitForExit(timeoutMs?: number): Promise<Exit>;
}

const running = new Set<ChildProcess>();
// A test that fails half-way must not leave services behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * A new folder for files a test process keeps until the run ends: in the run's folder
 * (TEST_RUN_DIR, which test/global-setup.ts removes at the end, as worker processes are stopped
 * without an exit event), else in the temporary folder, removed when the process exits.
 */
export function runTempDir(prefix: string): string {
  const root = process.env.TEST_RUN_DIR;
  const dir = mkdtempSync(join(root ?? tmpdir(), prefix));
  if (!root) process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

let keysDir: string | undefined;

/**
 * DATA_DIR for a service or command on a server store, which keeps only its key files there (the
 * master and signing keys): one folder of this test process, shared by what it starts, so that a
 * command finds the keys of the service it runs beside. Never the checkout's ./data.
 */
export function testKeysDir(): string {
  keysDir ??= runTempDir('cl-test-keys-');
  return keysDir;
}

/**
 * The parent's environment without the service's own settings, so a test's DATABASE_URL never
 * leaks in; a server store without a DATA_DIR keeps its key files in `testKeysDir()`.
 */
export function childEnvironment(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(EnvironmentSchema.properties)) delete base[key];
  const onServer = env.DATABASE_URL !== undefined || env.EVENTSTORE_URL !== undefined;
  return { ...base, ...(onServer && env.DATA_DIR === undefined ? { DATA_DIR: testKeysDir() } : {}), ...env };
}

/**
 * Spawns the service as `npm start` runs it (`node dist/src/main.js`, which test/global-setup.ts
 * built from the sources under test) with the given settings, and does not wait for it. See
 * `startServiceProcess`.
 */
export function spawnServiceProcess(env: Record<string, string> & { PORT: string }): ServiceProcess {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, ['dist/src/main.js'], {
    cwd: repoRoot,
    env: childEnvironment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((l) => l());
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    notify();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
    notify();
  });
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve, reject) => {
    child.once('error', reject);
    // 'close' (not 'exit'): stdout and stderr are fully read by then.
    child.once('close', (code, signal) => {
      running.delete(child);
      exit = { code, signal };
      notify();
      resolve(exit);
    });
  });

  const waitForOutput: ServiceProcess['waitForOutput'] = (pattern, { timeoutMs = 30_000, stream = 'stdout' } = {}) =>
    new Promise((resolve, reject) => {
      const check = () => {
        const match = (stream === 'stdout' ? out : err).match(pattern);
        if (match) {
          done();
          resolve(match);
        } else if (exit) {
          done();
          reject(
            new Error(
              `process ${child.pid} exited (${JSON.stringify(exit)}) before ${stream} matched ${pattern}; stderr: ${err.slice(-2000)}`,
            ),
          );
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${stream} to match ${pattern}`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        listeners.delete(check);
      };
      listeners.add(check);
      check();
    });

  const waitForExit = async (timeoutMs = 30_000): Promise<Exit> => {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`process ${child.pid} did not exit within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      return await Promise.race([exited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    pid: child.pid!,
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    exit: () => exit,
    waitForOutput,
    async credentials(timeoutMs = 10_000) {
      const [, tenantId] = (await waitForOutput(/tenantId:\s+(\S+)/, { timeoutMs })) as unknown as [string, string];
      const [, apiKey] = (await waitForOutput(/X-API-Key:\s+(\S+)/, { timeoutMs })) as unknown as [string, string];
      const [, apiSecret] = (await waitForOutput(/X-API-Secret:\s+(\S+)/, { timeoutMs })) as unknown as [string, string];
      return { tenantId, apiKey, apiSecret };
    },
    waitForExit,
    async kill(signal, timeoutMs = 30_000) {
      if (!exit) child.kill(signal);
      return waitForExit(timeoutMs);
    },
  };
}

/**
 * Starts the real service as a child process and waits (bounded) until `GET /health` answers.
 * Pass the settings as environment variables; PORT is chosen here when not given.
 *
 * @example
 * const svc = await startServiceProcess({ DATA_DIR: dir, ADMIN_TOKEN: token });
 * const { apiKey, apiSecret } = await svc.credentials(); // printed by the first start
 * await fetch(`${svc.url}/health`);
 * await svc.kill('SIGKILL');
 */
export async function startServiceProcess(
  env: Record<string, string>,
  { readyTimeoutMs = 90_000 }: { readyTimeoutMs?: number } = {},
): Promise<ServiceProcess> {
  const svc = spawnServiceProcess({ LOG_LEVEL: 'warn', ...env, PORT: env.PORT ?? String(await freePort()) });
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    const exit = svc.exit();
    if (exit) throw new Error(`the service exited before it was healthy (${JSON.stringify(exit)}); stderr: ${svc.stderr().slice(-2000)}`);
    const healthy = await fetch(`${svc.url}/health`).then(
      async (res) => (await res.text(), res.status === 200),
      () => false,
    );
    if (healthy) break;
    if (Date.now() > deadline) {
      await svc.kill('SIGKILL');
      throw new Error(`the service did not answer ${svc.url}/health within ${readyTimeoutMs} ms; stderr: ${svc.stderr().slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return svc;
}

export interface HttpAnswer {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** JSON over real HTTP (fetch) to a service process, with fixed headers (the API key, the admin token). */
export function httpClient(baseUrl: string, headers: Record<string, string> = {}) {
  const request = async (method: string, path: string, body?: unknown, extra: Record<string, string> = {}): Promise<HttpAnswer> => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed };
  };
  return {
    request,
    get: (path: string) => request('GET', path),
    post: (path: string, body?: unknown, extra?: Record<string, string>) => request('POST', path, body, extra),
    patch: (path: string, body?: unknown) => request('PATCH', path, body),
  };
}
export type HttpClient = ReturnType<typeof httpClient>;

/**
 * A tenant created through the admin API (the service must run with ADMIN_TOKEN), on the
 * enterprise plan with limits high enough that load tests measure the store, not the rate limit.
 */
export async function provisionTenant(baseUrl: string, adminToken: string, name: string): Promise<FirstStartCredentials> {
  const admin = httpClient(baseUrl, { authorization: `Bearer ${adminToken}` });
  const created = await admin.post('/admin/v1/tenants', { name, plan: 'enterprise' });
  if (created.status !== 201) throw new Error(`tenant create: ${created.status} ${JSON.stringify(created.body)}`);
  const creds = created.body.data as FirstStartCredentials;
  const limited = await admin.patch(`/admin/v1/tenants/${creds.tenantId}`, { limits: { perMinute: 1_000_000_000, perDay: 1_000_000_000 } });
  if (limited.status !== 200) throw new Error(`tenant limits: ${limited.status} ${JSON.stringify(limited.body)}`);
  return creds;
}

/** A client with a tenant's key and secret. */
export const tenantClient = (baseUrl: string, creds: { apiKey: string; apiSecret: string }): HttpClient =>
  httpClient(baseUrl, { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret });

/** Publishes a policy version through a service process (privacy_policy 1.0.0 unless `overrides` say), and answers its id. */
export async function publishThrough(api: HttpClient, overrides: Record<string, unknown> = {}): Promise<string> {
  const res = await api.post('/api/v1/policies', {
    policyType: 'privacy_policy',
    version: '1.0.0',
    title: 'Privacy',
    content: 'Ours.',
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`publish failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** A finished child process: exit code, output, and stdout parsed as JSON when it is JSON. */
export interface CommandRun {
  code: number | null;
  stdout: string;
  stderr: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/**
 * Runs a command to its end with only `env` of the service's settings.
 *
 * @example
 * const run = await runCommand(process.execPath, ['bin/consent-ledger.js', 'tenant', 'list'], {});
 * run.json // the command's JSON answer
 */
export function runCommand(command: string, args: string[], env: Record<string, string>, cwd = repoRoot): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnvironment(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    child.once('error', reject);
    child.once('close', (code) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      resolve({ code, stdout, stderr, json });
    });
  });
}
