import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventStoreUrl, freshStreamPrefix, reportEventStoreSkip } from '../support/eventstore.js';
import { startReceiver, testCertificate, type Receiver } from '../support/https-receiver.js';
import { startServiceProcess, tenantClient, type ServiceProcess } from '../support/process.js';

/**
 * Reliability: "Kill -9 the service while deliveries are due; after restart every event still
 * reaches every subscribed, reachable receiver (duplicates allowed, losses not)." The real service
 * runs as a child process (embedded store in a data folder), trusting the receivers' self-signed
 * certificate through NODE_EXTRA_CA_CERTS, as an operator would configure it. It runs with the
 * ledger in the store, and with the ledger on EventStoreDB (rows from its persistent subscription)
 * where one is there.
 */

reportEventStoreSkip('webhooks crash');

const ledgers: { name: string; env: () => Record<string, string> }[] = [
  { name: 'embedded ledger', env: () => ({}) },
  ...(eventStoreUrl
    ? [{ name: 'EventStoreDB ledger', env: () => ({ EVENTSTORE_URL: eventStoreUrl!, EVENTSTORE_STREAM_PREFIX: freshStreamPrefix() }) }]
    : []),
];

describe.each(ledgers)(
  'webhooks ($name) › when the service is killed with deliveries due › the restart delivers every event',
  ({ env: ledgerEnv }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cl-webhook-crash-'));
    const receivers: Receiver[] = [];
    let svc: ServiceProcess | undefined;
    afterAll(async () => {
      await svc?.kill('SIGKILL');
      await Promise.all(receivers.map((r) => r.close()));
      rmSync(dataDir, { recursive: true, force: true });
    });

    it(
      'kill -9 mid-delivery, restart: both receivers get every event id (one of them fails every first attempt)',
      { timeout: 180_000 },
      async () => {
        const { caFile } = await testCertificate();
        const env = {
          ...ledgerEnv(),
          DATA_DIR: dataDir,
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
          WEBHOOK_RETRY_SCALE: '0.001',
          NODE_EXTRA_CA_CERTS: caFile,
        };
        let kill: (() => void) | undefined;
        const steady = await startReceiver((_r, n) => {
          if (n === 5) kill?.();
          return 200;
        });
        const seen = new Set<string>();
        const firstFails = await startReceiver((r) => {
          if (seen.has(r.json.id)) return 200;
          seen.add(r.json.id);
          return 503;
        });
        receivers.push(steady, firstFails);

        svc = await startServiceProcess(env);
        const creds = await svc.credentials();
        const api = tenantClient(svc.url, creds);
        for (const r of [steady, firstFails]) expect((await api.post('/api/v1/webhooks', { url: r.url, events: ['*'] })).status).toBe(201);
        const policy = await api.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'c' });
        expect(policy.status).toBe(201);
        const killed = new Promise<void>((resolve) => {
          kill = () => {
            kill = undefined;
            void svc!.kill('SIGKILL').then(() => resolve());
          };
        });
        const N = 60;
        const batch = await api.post('/api/v1/consent/batch', {
          consents: Array.from({ length: N }, (_, i) => ({
            policyVersionId: policy.body.data.id,
            userReference: `u-${i}`,
            consentGiven: true,
            ipAddress: '203.0.113.1',
          })),
        });
        expect(batch.status).toBe(201);
        await killed;
        const expected = N + 2; // N consent.created, one consent.batch_created, one policy.created
        const before = {
          steady: new Set(steady.received.map((r) => r.json.id)).size,
          firstFails: new Set(firstFails.received.map((r) => r.json.id)).size,
        };
        // The kill came while deliveries were due: some events had not reached either receiver.
        expect(before.steady).toBeLessThan(expected);

        svc = await startServiceProcess(env);
        const ids = (r: Receiver) => new Set(r.received.filter((d) => d.json.type !== 'webhook.test').map((d) => d.json.id as string));
        // Claims the killed process held expire after their lease (15 s); then those are sent again.
        await steady.waitFor(() => ids(steady).size === expected, `${expected} events at the steady receiver`, 90_000);
        await firstFails.waitFor(
          () => [...ids(firstFails)].filter((id) => firstFails.received.filter((d) => d.json.id === id).length >= 2).length === expected,
          `${expected} events answered 2xx at the other`,
          90_000,
        );
        const types = [...steady.received.reduce((m, r) => m.set(r.json.id, r.json.type), new Map<string, string>()).values()];
        expect(types.filter((x) => x === 'consent.created')).toHaveLength(N);
        expect(types.filter((x) => x === 'consent.batch_created')).toHaveLength(1);
        expect(types.filter((x) => x === 'policy.created')).toHaveLength(1);
        expect(ids(firstFails)).toEqual(ids(steady));
      },
    );
  },
);
