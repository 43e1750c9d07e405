import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateMasterKey } from '../../src/privacy/key-store.js';
import { rewrapWebhookSecrets } from '../../src/webhooks/signing.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * `keys rotate-master` run while a process still serves (docs/erasure.md says to stop every one
 * first): that process must not go on wrapping new data keys under the old master key, which
 * the restarted service could never open, its records read as tampered.
 */
describe('a process left running across keys rotate-master', () => {
  const oldKey = randomBytes(32);
  let t: TestService;
  let api: Client;
  let policyVersionId: string;
  beforeAll(async () => {
    t = await startTestService({ MASTER_KEY: oldKey.toString('hex') });
    api = client(t.app, await t.tenant());
    policyVersionId = await publishPolicy(api);
  }, 60_000);
  afterAll(() => t?.close());

  const events = async () =>
    Number((await sql<{ n: string }>`SELECT count(*) AS n FROM ledger.events`.execute(t.service.store.db)).rows[0]!.n);

  it('records nothing more, answers 503, and /ready says why', async () => {
    const before = await api.post('/api/v1/consent', { policyVersionId, userReference: 'before', consentGiven: true });
    expect(before.statusCode, before.body).toBe(201);
    await rotateMasterKey(t.service.store.db, oldKey, randomBytes(32), { webhookSecrets: rewrapWebhookSecrets });
    // The keys it made ahead were re-wrapped with the others; drop them, so the next record needs new ones.
    await t.service.privacy.keys.discardUnused();
    const count = await events();
    const after = await api.post('/api/v1/consent', { policyVersionId, userReference: 'after', consentGiven: true });
    expect(after.statusCode, after.body).toBe(503);
    expect(after.json().error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await events()).toBe(count);
    // A record made before, whose key it never unwrapped since, is not reported as tampered.
    const read = await api.get(`/api/v1/consent/${before.json().data.id}`);
    expect([200, 503]).toContain(read.statusCode);
    if (read.statusCode === 200) expect(read.json().data.tampered).toBe(false);
    const ready = await t.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json().error).toMatchObject({ code: 'NOT_READY', details: { masterKeyRotated: true } });
    expect(ready.json().error.message).toMatch(/restart it with the new key/);
  });
});
