import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { provisionTenant, repoRoot, startServiceProcess, tenantClient, type ServiceProcess } from '../support/process.js';
import { defaultFaultEngine, followersCaughtUp, printFigures, writableRowCounts, type FaultEngine } from './support.js';

/**
 * Issue 7, fault suite: tenant isolation over real HTTP. Tenant A owns a policy version, a
 * consent (with a receipt) and a webhook; tenant B tries every documented route that takes an id
 * (both prefixes, every method) with A's ids. Each answer must be a 404 exactly like the answer
 * for an id that exists nowhere, never a 5xx, and nothing may be written; A's records read the
 * same afterwards. test/api/tenant-isolation.api.spec.ts proves the rules in process.
 */

const ADMIN_TOKEN = 'faults-isolation-admin-token-0123456789';
const openapi = JSON.parse(readFileSync(join(repoRoot, 'docs', 'openapi.json'), 'utf8')) as {
  paths: Record<string, Record<string, unknown>>;
};
const idRoutes = Object.entries(openapi.paths).flatMap(([path, methods]) => {
  const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (!path.startsWith('/api/v1/') || params.length === 0 || params.some((p) => !/id$/i.test(p))) return [];
  return Object.keys(methods)
    .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
    .flatMap((m) => [path, path.replace('/api/v1/', '/v1/')].map((p) => ({ method: m.toUpperCase(), path: p })));
});

/** The answer without what differs by id or time. */
const shape = (status: number, body: unknown, id: string) =>
  JSON.stringify({ status, body: JSON.parse(JSON.stringify(body ?? null).replaceAll(id, '<id>')), at: null }).replace(
    /"timestamp":"[^"]*"/g,
    '',
  );

describe('faults › when another tenant tries every route with the owner’s ids › 404 as for ids that exist nowhere, nothing written', () => {
  let engine: FaultEngine | undefined;
  let svc: ServiceProcess | undefined;
  afterAll(async () => {
    if (svc && !svc.exit()) await svc.kill('SIGKILL');
    await engine?.dispose();
  });

  it(`${idRoutes.length} id routes × the owner's ids`, async () => {
    engine = await defaultFaultEngine();
    svc = await startServiceProcess({ ...engine.env, ADMIN_TOKEN, WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
    const owner = tenantClient(svc.url, await provisionTenant(svc.url, ADMIN_TOKEN, 'owner'));
    const intruder = tenantClient(svc.url, await provisionTenant(svc.url, ADMIN_TOKEN, 'intruder'));
    const policy = await owner.post('/api/v1/policies', { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'c' });
    const consent = await owner.post('/api/v1/consent', {
      policyVersionId: policy.body.data.id,
      userReference: 'owner-user',
      consentGiven: true,
    });
    const receipt = await owner.post(`/api/v1/consent/${consent.body.data.id}/pdf`);
    const webhook = await owner.post('/api/v1/webhooks', { url: 'https://127.0.0.1:9/hook', events: ['*'] });
    expect([policy.status, consent.status, receipt.status, webhook.status]).toEqual([201, 201, 200, 201]);
    const ownerIds = [policy.body.data.id as string, consent.body.data.id as string, webhook.body.data.id as string];
    const ownerView = JSON.stringify((await owner.get(`/api/v1/consent/${ownerIds[1]}`)).body.data);

    // The webhook follower writes its own rows as it passes the owner's events: counted once it has.
    await followersCaughtUp(svc.url, ADMIN_TOKEN);
    const store = engine.name === 'postgres' ? await engine.open() : undefined;
    const before = store ? await writableRowCounts(store) : undefined;

    let requests = 0;
    let fiveHundreds = 0;
    const leaks: string[] = [];
    for (const route of idRoutes) {
      for (const id of ownerIds) {
        const nowhere = randomUUID();
        const body =
          route.method === 'GET' || route.method === 'DELETE' ? undefined : { isActive: true, reason: 'isolation', events: ['*'] };
        const onOwner = await intruder.request(route.method, route.path.replace(/\{\w+\}/g, id), body);
        const onNothing = await intruder.request(route.method, route.path.replace(/\{\w+\}/g, nowhere), body);
        requests += 2;
        if (onOwner.status >= 500 || onNothing.status >= 500) fiveHundreds += 1;
        if (onOwner.status !== 404 && onOwner.status !== 400) leaks.push(`${route.method} ${route.path} → ${onOwner.status}`);
        if (shape(onOwner.status, onOwner.body, id) !== shape(onNothing.status, onNothing.body, nowhere)) {
          leaks.push(`${route.method} ${route.path}: answers the owner's id unlike an unknown id`);
        }
      }
    }
    await followersCaughtUp(svc.url, ADMIN_TOKEN);
    const after = store ? await writableRowCounts(store) : undefined;
    await store?.close();
    const unchanged = JSON.stringify((await owner.get(`/api/v1/consent/${ownerIds[1]}`)).body.data) === ownerView;
    printFigures('tenant isolation', {
      acknowledged: 0,
      found: 0,
      lost: 0,
      duplicated: 0,
      fiveHundreds,
      requests,
      routes: idRoutes.length,
      leaks: leaks.length,
      'tables changed':
        before && after
          ? Object.keys(after)
              .filter((k) => after[k] !== before[k])
              .join(' ') || 'none'
          : 'not counted (embedded)',
    });
    expect(idRoutes.length).toBeGreaterThanOrEqual(20);
    expect(fiveHundreds).toBe(0);
    expect(leaks).toEqual([]);
    if (before && after) expect(after).toEqual(before);
    expect(unchanged).toBe(true);
  });
});
