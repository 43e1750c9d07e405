import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { provisionTenant, startServiceProcess, tenantClient, type HttpClient, type ServiceProcess } from '../support/process.js';
import { serverUrl } from '../support/stores.js';
import { embeddedEngine, postgresEngine, printFigures, rebuildAndCompare, type FaultEngine } from './support.js';

/**
 * Issue 7, fault suite: kill -9 the service repeatedly under concurrent writes. Every request
 * carries an Idempotency-Key; a request that got no answer is sent again, with the same key and
 * body, to the restarted service (what a careful client does). Then: every 2xx is there and
 * verifies, no request was recorded twice, and the read models equal a rebuild from the ledger.
 * test/e2e/crash.e2e.spec.ts proves the acknowledged writes survive; this adds the retries, the
 * duplicate count and the rebuild comparison.
 */

const ADMIN_TOKEN = 'faults-kill9-admin-token-0123456789';
const WRITERS = 8;
const KILLS = 3;

interface Sent {
  key: string;
  userReference: string;
  body: Record<string, unknown>;
  batch: boolean;
}

for (const open of [() => Promise.resolve(embeddedEngine()), ...(serverUrl ? [postgresEngine] : [])]) {
  describe('faults › when the service is killed with SIGKILL again and again under writes with Idempotency-Key › nothing is lost or doubled', () => {
    let engine: FaultEngine | undefined;
    let svc: ServiceProcess | undefined;
    afterAll(async () => {
      if (svc && !svc.exit()) await svc.kill('SIGKILL');
      await engine?.dispose();
    });

    it('retried unanswered requests are recorded once; every 2xx verifies; rebuild equals live', async () => {
      engine = await open();
      const env = { ...engine.env, ADMIN_TOKEN };
      svc = await startServiceProcess(env);
      const creds = await provisionTenant(svc.url, ADMIN_TOKEN, 'kill9');
      let api = tenantClient(svc.url, creds);
      const policy = await api.post('/api/v1/policies', {
        policyType: 'privacy_policy',
        version: '1.0.0',
        title: 'Privacy',
        content: 'We keep your data safe.',
      });
      expect(policy.status).toBe(201);
      const policyVersionId = policy.body.data.id as string;

      const acknowledged = new Map<string, string>(); // userReference → consent id
      const unanswered: Sent[] = [];
      let fiveHundreds = 0;
      let seq = 0;
      const send = async (client: HttpClient, s: Sent) => {
        const res = await client.post(s.batch ? '/api/v1/consent/batch' : '/api/v1/consent', s.body, { 'idempotency-key': s.key });
        if (res.status >= 500) fiveHundreds += 1;
        if (res.status !== 201) throw new Error(`${s.batch ? 'batch' : 'single'}: ${res.status} ${JSON.stringify(res.body)}`);
        if (s.batch)
          for (const c of res.body.data.consents as { id: string; userReference: string }[]) acknowledged.set(c.userReference, c.id);
        else acknowledged.set(s.userReference, res.body.data.id as string);
      };

      for (let round = 1; round <= KILLS; round++) {
        const ackBefore = acknowledged.size;
        let killed: Promise<unknown> | undefined;
        const failures: string[] = [];
        await Promise.all(
          Array.from({ length: WRITERS }, async (_, w) => {
            while (!killed) {
              const n = seq++;
              const batch = n % 5 === 0;
              const userReference = `k9-r${round}-w${w}-${n}`;
              const s: Sent = batch
                ? {
                    key: randomUUID(),
                    userReference,
                    batch,
                    body: {
                      consents: Array.from({ length: 5 }, (_, k) => ({
                        policyVersionId,
                        userReference: `${userReference}-${k}`,
                        consentGiven: true,
                      })),
                    },
                  }
                : {
                    key: randomUUID(),
                    userReference,
                    batch,
                    body: { policyVersionId, userReference, consentGiven: n % 3 !== 0, metadata: { n } },
                  };
              try {
                await send(api, s);
                if (!killed && acknowledged.size - ackBefore >= 120 + round * 20) killed = svc!.kill('SIGKILL');
              } catch (error) {
                if (!killed) failures.push(String(error));
                else unanswered.push(s);
                if (!killed) break;
              }
            }
          }),
        );
        expect(failures, 'no write may fail while the service runs').toEqual([]);
        expect(await killed).toEqual({ code: null, signal: 'SIGKILL' });
        svc = await startServiceProcess(env);
        api = tenantClient(svc.url, creds);
      }

      // The careful client: every request that got no answer goes again, same key, same body.
      const retried = unanswered.length;
      for (const s of unanswered.splice(0)) await send(api, s);

      // Every acknowledged consent: there, once, and it verifies.
      const lost: string[] = [];
      const duplicated: string[] = [];
      const refs = [...acknowledged.keys()];
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < refs.length) {
            const ref = refs[next++]!;
            const id = acknowledged.get(ref)!;
            const [found, verified] = await Promise.all([
              api.get(`/api/v1/consent/search?userReference=${encodeURIComponent(ref)}&limit=10`),
              api.get(`/api/v1/consent/${id}/verify`),
            ]);
            const ids = (found.body.data as { id: string }[]).map((c) => c.id);
            if (!ids.includes(id) || verified.status !== 200 || verified.body.data.valid !== true) lost.push(ref);
            if (ids.length > 1) duplicated.push(ref);
          }
        }),
      );
      const total = (await api.get('/api/v1/consent/search?limit=1')).body.pagination.total as number;
      await svc.kill('SIGTERM');

      // The ledger holds exactly the acknowledged consents (every unanswered request was retried),
      // and the live read models equal a rebuild from the ledger.
      const store = await engine.open();
      let ledger: number;
      let differing: string[];
      try {
        ledger = (
          await sql<{
            n: number;
          }>`SELECT count(*)::int AS n FROM ledger.events WHERE tenant_id = ${creds.tenantId}::uuid AND event_type = 'ConsentRecorded'`.execute(
            store.db,
          )
        ).rows[0]!.n;
        ({ differing } = await rebuildAndCompare(store));
      } finally {
        await store.close();
      }
      printFigures(`kill -9 ×${KILLS} (${engine.name})`, {
        acknowledged: acknowledged.size,
        found: acknowledged.size - lost.length,
        lost: lost.length,
        duplicated: duplicated.length,
        fiveHundreds,
        'retried unanswered': retried,
        'ledger consents': ledger,
        'search total': total,
        'read models differing from rebuild': differing.length,
      });
      expect(retried, 'the kills must land while requests are in flight').toBeGreaterThan(0);
      expect(lost).toEqual([]);
      expect(duplicated).toEqual([]);
      expect(fiveHundreds).toBe(0);
      expect(ledger).toBe(acknowledged.size);
      expect(total).toBe(acknowledged.size);
      expect(differing).toEqual([]);
    }, 240_000);
  });
}
