import { afterAll, describe, expect, it } from 'vitest';
import { provisionTenant, spawnServiceProcess, freePort, tenantClient, waitUntil, type ServiceProcess } from '../support/process.js';
import { embeddedEngine, type FaultEngine } from './support.js';

/**
 * Issue 22: a supervisor (systemd `Restart=always`, a container runtime) starts the service again
 * the moment it dies. Here the service on the embedded store is killed with SIGKILL while writes
 * are in flight and a new one is spawned at once, without waiting for the old one to be gone,
 * RESTARTS times: every start must come up healthy (the data-dir lock is the kernel's, released
 * with its holder; a start that finds it held waits), and every acknowledged write is there.
 */

const ADMIN_TOKEN = 'faults-restart-admin-token-0123456789';
const RESTARTS = Number(process.env.FAULTS_RESTARTS ?? 100);
const WRITERS = 4;
const ACKS_PER_ROUND = 4;

/** Spawns the service and waits for /health; a start that exits instead fails the test with its stderr. */
async function startNow(env: Record<string, string>): Promise<ServiceProcess> {
  const svc = spawnServiceProcess({ LOG_LEVEL: 'warn', ...env, PORT: String(await freePort()) });
  await waitUntil(
    async () => {
      const exit = svc.exit();
      if (exit) throw new Error(`a start failed (${JSON.stringify(exit)}): ${svc.stderr().slice(-1000)}`);
      return fetch(`${svc.url}/health`).then(
        async (res) => (await res.text(), res.status === 200),
        () => false,
      );
    },
    { timeoutMs: 60_000, intervalMs: 20, what: 'the restarted service to be healthy' },
  ).catch(async (error: unknown) => {
    // waitUntil swallows a throw from the condition until its deadline; say what happened.
    const exit = svc.exit();
    throw exit ? new Error(`a start failed (${JSON.stringify(exit)}): ${svc.stderr().slice(-1000)}`) : error;
  });
  return svc;
}

describe('faults › when the service is killed with SIGKILL and started again at once, a hundred times', () => {
  let engine: FaultEngine | undefined;
  let svc: ServiceProcess | undefined;
  afterAll(async () => {
    if (svc && !svc.exit()) await svc.kill('SIGKILL');
    await engine?.dispose();
  });

  it('every start comes up; every acknowledged write is there', async () => {
    engine = embeddedEngine();
    const env = { ...engine.env, ADMIN_TOKEN };
    svc = await startNow(env);
    const creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'restart');
    let api = tenantClient(svc.url, creds);
    const policy = await api.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'Text.' });
    expect(policy.status).toBe(201);
    const policyVersionId = policy.body.data.id as string;

    const acknowledged: string[] = [];
    const startMs: number[] = [];
    let inFlightAtKills = 0;
    let seq = 0;
    for (let round = 1; round <= RESTARTS; round++) {
      let acks = 0;
      let killed = false;
      let inFlight = 0;
      const old = svc;
      await Promise.all(
        Array.from({ length: WRITERS }, async () => {
          while (!killed) {
            const userReference = `restart-${seq++}`;
            inFlight += 1;
            const res = await api.post('/api/v1/consent', { policyVersionId, userReference, consentGiven: true }).catch(() => undefined);
            inFlight -= 1;
            if (res?.status === 201) acknowledged.push(res.body.data.id as string);
            else if (!killed) throw new Error(`a write failed while the service ran: ${res?.status} ${JSON.stringify(res?.body)}`);
            if (!killed && ++acks >= ACKS_PER_ROUND) {
              killed = true;
              inFlightAtKills += inFlight;
              old.child.kill('SIGKILL');
            }
          }
        }),
      );
      // At once: the old process may well still be exiting.
      const started = Date.now();
      svc = await startNow(env);
      startMs.push(Date.now() - started);
      api = tenantClient(svc.url, creds);
      expect((await old.waitForExit()).signal).toBe('SIGKILL');
    }

    const missing: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (next < acknowledged.length) {
          const id = acknowledged[next++]!;
          if ((await api.get(`/api/v1/consent/${id}`)).status !== 200) missing.push(id);
        }
      }),
    );
    startMs.sort((a, b) => a - b);
    console.log(
      `[faults] kill -9 and restart at once ×${RESTARTS} (embedded): failed starts 0, acknowledged ${acknowledged.length}, ` +
        `missing ${missing.length}, requests in flight at the kills ${inFlightAtKills}, ` +
        `start p50 ${startMs[Math.floor(startMs.length / 2)]} ms, max ${startMs[startMs.length - 1]} ms`,
    );
    expect(missing).toEqual([]);
    expect(inFlightAtKills, 'the kills must land while requests are in flight').toBeGreaterThan(0);
  }, 900_000);
});
