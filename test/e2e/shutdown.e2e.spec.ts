import { once } from 'node:events';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  connectionRefused,
  freePort,
  provisionTenant,
  publishThrough,
  spawnServiceProcess,
  startServiceProcess,
  tenantClient,
  waitUntil,
  type ServiceProcess,
} from '../support/process.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * docs/contract.md (Operation): SIGTERM drains — stop accepting, finish requests in flight, close the
 * stores, exit 0. And the embedded store belongs to one process.
 */

const ADMIN_TOKEN = 'shutdown-test-admin-token-0123456789';
const BATCHES = 4;
const BATCH_SIZE = 1000;
const SINGLES = 16;

const started: ServiceProcess[] = [];
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const svc of started) if (!svc.exit()) await svc.kill('SIGKILL');
  for (const cleanup of cleanups) await cleanup();
});

async function start(env: Record<string, string>): Promise<ServiceProcess> {
  const svc = await startServiceProcess(env);
  started.push(svc);
  return svc;
}

function tempDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cl-shutdown-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const engines: { name: string; env: () => Promise<Record<string, string>> }[] = [
  { name: 'embedded (PGlite)', env: async () => ({ DATA_DIR: tempDataDir() }) },
  ...(serverUrl
    ? [
        {
          name: 'PostgreSQL server',
          env: async () => {
            const fresh = await freshDatabase();
            cleanups.push(() => fresh.drop());
            return { DATABASE_URL: fresh.url };
          },
        },
      ]
    : []),
];
if (!serverUrl) console.log('[shutdown] DATABASE_URL is not set: the PostgreSQL-server shutdown test is skipped; the embedded one runs');

interface LogLine {
  msg?: string;
  req?: { url?: string; remotePort?: number };
  res?: { statusCode?: number };
}

/** Lines the service logged (pino JSON), in order. */
const logLines = (svc: ServiceProcess): LogLine[] =>
  svc
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as object);

/**
 * A POST whose body arrives in two parts: the service has the request (its headers, half its
 * body) and holds it in flight until `finish()` sends the rest. The test, not the machine's
 * speed, decides how long it stays in flight.
 */
async function slowPost(port: number, path: string, headers: Record<string, string>, body: unknown) {
  const socket = connect({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  const bytes = Buffer.from(JSON.stringify(body));
  const half = Math.floor(bytes.length / 2);
  const head = [`POST ${path} HTTP/1.1`, `host: 127.0.0.1:${port}`, 'content-type: application/json', `content-length: ${bytes.length}`];
  for (const [k, v] of Object.entries(headers)) head.push(`${k}: ${v}`);
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  socket.write(bytes.subarray(0, half));
  let received = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => (received = Buffer.concat([received, chunk])));
  let closed = false;
  socket.once('close', () => (closed = true));
  const response = () => {
    const text = received.toString('utf8');
    const split = text.indexOf('\r\n\r\n');
    if (split < 0) return undefined;
    const lines = text.slice(0, split).split('\r\n');
    const fields = new Map(lines.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
    const payload = text.slice(split + 4);
    if (Buffer.byteLength(payload) < Number(fields.get('content-length') ?? Infinity)) return undefined;
    return { status: Number(lines[0]!.split(' ')[1]), headers: fields, body: JSON.parse(payload) };
  };
  return {
    localPort: socket.localPort!,
    answered: () => response() !== undefined,
    async finish() {
      socket.write(bytes.subarray(half));
      const answer = await waitUntil(response, { timeoutMs: 30_000, what: 'the slow request to be answered' });
      // With `Connection: close` the service ends the connection itself, so nothing holds the exit.
      await waitUntil(() => closed, { timeoutMs: 10_000, what: "the service to close the slow request's connection" });
      return answer;
    },
    destroy: () => socket.destroy(),
  };
}

describe('shutdown › when SIGTERM arrives with requests in flight › they complete, new connections are refused, the exit is 0', () => {
  for (const engine of engines) {
    it(`${engine.name}: drains, then the data is there after a restart`, async () => {
      const env = { ...(await engine.env()), ADMIN_TOKEN };
      // info: the request log tells when each request has reached the service.
      const svc = await start({ ...env, LOG_LEVEL: 'info' });
      const creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'shutdown-test');
      const api = tenantClient(svc.url, creds);
      const policyVersionId = await publishThrough(api, { policyType: 'cookie_policy', version: '2.0.0' });
      const before = logLines(svc).length;
      const arrived = (predicate: (l: LogLine) => boolean) =>
        logLines(svc)
          .slice(before)
          .filter((l) => l.msg === 'incoming request' && predicate(l)).length;

      // Load: big batches and singles, concurrently, over keep-alive connections.
      let settled = 0;
      const track = <T>(p: Promise<T>) => p.finally(() => (settled += 1));
      const batches = Array.from({ length: BATCHES }, (_, b) =>
        track(
          api.post('/api/v1/consent/batch', {
            consents: Array.from({ length: BATCH_SIZE }, (_, i) => ({
              policyVersionId,
              userReference: `drain-b${b}-${i}`,
              consentGiven: i % 2 === 0,
            })),
          }),
        ),
      );
      const singles = Array.from({ length: SINGLES }, (_, i) =>
        track(api.post('/api/v1/consent', { policyVersionId, userReference: `drain-s${i}`, consentGiven: true })),
      );
      const load = BATCHES + SINGLES;
      // And one request that stays in flight until the test lets it finish.
      const slow = await slowPost(
        svc.port,
        '/api/v1/consent',
        { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret },
        {
          policyVersionId,
          userReference: 'drain-slow',
          consentGiven: true,
        },
      );
      cleanups.push(() => {
        slow.destroy();
      });

      // SIGTERM once every request has reached the service, so none is refused for arriving late.
      await waitUntil(
        () =>
          arrived((l) => l.req?.remotePort === slow.localPort) === 1 &&
          arrived((l) => l.req?.url?.startsWith('/api/v1/consent') ?? false) === load + 1,
        {
          timeoutMs: 30_000,
          intervalMs: 5,
          what: 'every request to reach the service',
        },
      );
      const inFlightAtSigterm = load - settled + 1;
      svc.child.kill('SIGTERM');

      await svc.waitForOutput(/"msg":"draining/);
      await waitUntil(() => connectionRefused(svc.port), { timeoutMs: 10_000, intervalMs: 5, what: 'new connections to be refused' });
      expect(slow.answered()).toBe(false);
      expect(svc.exit(), 'the process waits for the request in flight').toBeUndefined();

      const answer = await slow.finish();
      expect(answer.status).toBe(201);
      expect(answer.headers.get('connection')).toBe('close');
      const answers = await Promise.all([...batches, ...singles]);
      expect(answers.map((a) => a.status)).toEqual(Array(load).fill(201));
      const exit = await svc.waitForExit(30_000);
      expect(exit, `stderr: ${svc.stderr()}`).toEqual({ code: 0, signal: null });

      const lines = logLines(svc);
      const drainAt = lines.findIndex((l) => l.msg?.startsWith('draining'));
      const completedAfterDrain = lines.slice(drainAt).filter((l) => l.msg === 'request completed' && l.res?.statusCode === 201).length;
      console.log(
        `[shutdown] ${engine.name}: ${inFlightAtSigterm} of ${load + 1} requests in flight at SIGTERM; ` +
          `${completedAfterDrain} answered 201 after the drain began; exit ${JSON.stringify(exit)}`,
      );
      expect(completedAfterDrain).toBeGreaterThanOrEqual(1);

      // Everything answered 201 is there after a restart; the read models catch up (bounded).
      const again = await start({ ...env, LOG_LEVEL: 'warn' });
      const api2 = tenantClient(again.url, creds);
      const expected = BATCHES * BATCH_SIZE + SINGLES + 1;
      let total = -1;
      await waitUntil(async () => (total = (await api2.get('/api/v1/consent/search?limit=1')).body.pagination.total) === expected, {
        timeoutMs: 60_000,
        intervalMs: 200,
        what: 'the read models to catch up',
      }).catch(() => undefined);
      expect(total).toBe(expected);
      const ids = [
        answer.body.data.id as string,
        ...answers.slice(0, BATCHES).flatMap((a) => {
          const items = a.body.data.consents as { id: string }[];
          expect(items).toHaveLength(BATCH_SIZE);
          return [items[0]!.id, items[BATCH_SIZE - 1]!.id];
        }),
        ...answers.slice(BATCHES).map((a) => a.body.data.id as string),
      ];
      for (const id of ids) {
        const got = await api2.get(`/api/v1/consent/${id}/verify`);
        expect(got.status).toBe(200);
        expect(got.body.data.valid).toBe(true);
      }
      expect((await again.kill('SIGTERM')).code).toBe(0);
    }, 180_000);
  }
});

describe('embedded store › when a second service starts on the same DATA_DIR › it refuses with a message naming the folder, and the first keeps serving', () => {
  it('exits non-zero, names the folder and the owner; the first still reads and writes', async () => {
    const dataDir = tempDataDir();
    const first = await start({ DATA_DIR: dataDir, ADMIN_TOKEN });
    const creds = await first.credentials();

    const second = spawnServiceProcess({ DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'warn' });
    started.push(second);
    const exit = await second.waitForExit(60_000);
    expect(exit.code).not.toBe(0);
    expect(exit.code).not.toBeNull();
    expect(second.stderr()).toContain(resolve(dataDir));
    expect(second.stderr()).toContain(`in use by process ${first.pid}`);
    expect(second.stderr()).not.toMatch(/\n\s+at /); // a message, not a stack trace

    // The first one is untouched: its lock, its reads, its writes.
    expect(readFileSync(join(dataDir, 'consent-ledger.lock'), 'utf8').trim()).toBe(String(first.pid));
    const api = tenantClient(first.url, creds);
    const recorded = await api.post('/api/v1/consent', {
      policyVersionId: await publishThrough(api),
      userReference: 'still-serving',
      consentGiven: true,
    });
    expect(recorded.status).toBe(201);
    expect((await api.get(`/api/v1/consent/${recorded.body.data.id}/verify`)).body.data.valid).toBe(true);
    expect((await first.kill('SIGTERM')).code).toBe(0);
  }, 120_000);
});

/** A keep-alive connection of its own, on which requests are sent one at a time and read whole. */
async function keepAliveConnection(port: number) {
  const socket = connect({ port, host: '127.0.0.1' });
  await once(socket, 'connect');
  let received = '';
  let reset: string | undefined;
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', (error: NodeJS.ErrnoException) => (reset = error.code ?? error.message));
  let closed = false;
  socket.once('close', () => (closed = true));
  return {
    /** GET /health on this connection: its answer's status and headers, or why none came. */
    async health(): Promise<{ status: number; headers: string } | { failed: string }> {
      received = '';
      socket.write(`GET /health HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n\r\n`);
      return waitUntil(
        () => {
          const split = received.indexOf('\r\n\r\n');
          if (split >= 0) {
            const head = received.slice(0, split);
            const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
            if (received.length - split - 4 >= length) return { status: Number(head.split(' ')[1]), headers: head.toLowerCase() };
          }
          return closed || reset ? { failed: reset ?? 'closed with no answer' } : undefined;
        },
        { timeoutMs: 10_000, what: 'an answer on the keep-alive connection' },
      );
    },
    destroy: () => socket.destroy(),
  };
}

/** A POST whose body stops half-way (slowPost), once the service has logged its arrival. */
async function heldRequest(svc: ServiceProcess, creds: { apiKey: string; apiSecret: string }) {
  const held = await slowPost(
    svc.port,
    '/api/v1/consent',
    { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret },
    { policyVersionId: randomUUID(), userReference: 'held', consentGiven: true },
  );
  cleanups.push(() => {
    held.destroy();
  });
  await waitUntil(() => logLines(svc).some((l) => l.msg === 'incoming request' && l.req?.remotePort === held.localPort), {
    what: 'the held request to reach the service',
  });
  return held;
}

describe('shutdown › keep-alive clients, stalled uploads and a second signal', () => {
  it('a request sent on a kept-alive connection as the drain begins is answered with Connection: close, not reset', async () => {
    const svc = await start({ DATA_DIR: tempDataDir(), ADMIN_TOKEN, LOG_LEVEL: 'info' });
    const creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'keep-alive');
    const connections = await Promise.all(Array.from({ length: 10 }, () => keepAliveConnection(svc.port)));
    cleanups.push(() => connections.forEach((c) => c.destroy()));
    // Each connection used once, and left open for its next request, as a client's pool does.
    for (const c of connections) expect(await c.health()).toMatchObject({ status: 200 });
    // And a request in flight when the signal comes, answered once the drain has begun.
    const inFlight = await heldRequest(svc, creds);
    svc.child.kill('SIGTERM');
    await svc.waitForOutput(/"msg":"draining/);
    await inFlight.finish();
    // The other connections were idle all along: the clients send on them now.
    const answers = await Promise.all(connections.map((c) => c.health()));
    for (const answer of answers) {
      expect(answer).toMatchObject({ status: 200 });
      expect((answer as { headers: string }).headers).toContain('connection: close');
    }
    expect(await svc.waitForExit(30_000)).toEqual({ code: 0, signal: null });
  }, 60_000);

  it('an upload that never ends holds the exit no longer than SHUTDOWN_TIMEOUT; a second signal ends it at once', async () => {
    const dataDir = tempDataDir();
    const svc = await start({ DATA_DIR: dataDir, ADMIN_TOKEN, SHUTDOWN_TIMEOUT: '2', LOG_LEVEL: 'info' });
    const creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'stalled');
    const stalled = await heldRequest(svc, creds);
    svc.child.kill('SIGTERM');
    expect(await svc.waitForExit(15_000)).toEqual({ code: 1, signal: null });
    expect(svc.stdout()).toContain('the drain did not end within SHUTDOWN_TIMEOUT');
    expect(stalled.answered()).toBe(false);

    // Again, with the operator sending a second signal instead of waiting.
    const again = await start({ DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'info' });
    await heldRequest(again, creds);
    again.child.kill('SIGTERM');
    await again.waitForOutput(/"msg":"draining/);
    again.child.kill('SIGTERM');
    expect(await again.waitForExit(10_000)).toEqual({ code: 1, signal: null });
    expect(again.stdout()).toContain('a second signal: exiting now');
  }, 90_000);
});

describe('start › when its port is taken › it says so and leaves DATA_DIR as it was', () => {
  it('exits 1 naming HOST and PORT, before making a store, a key or a name for the log', async () => {
    const dir = tempDataDir();
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    try {
      const port = (taken.address() as AddressInfo).port;
      const svc = spawnServiceProcess({ DATA_DIR: dir, PORT: String(port) });
      started.push(svc);
      const exit = await svc.waitForExit(60_000);
      expect(exit.code, svc.stderr()).toBe(1);
      expect(svc.stderr()).toContain(`cannot listen on 127.0.0.1:${port} (HOST, PORT): another process listens there`);
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 90_000);
});
