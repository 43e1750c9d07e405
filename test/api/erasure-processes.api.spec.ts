import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { consentStream } from '../../src/domain/consent/consent.events.js';
import { createService, type Service } from '../../src/service.js';
import { client, publishPolicy, type Client } from '../support/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * Issue 21: processes sharing a PostgreSQL server cache unwrapped data keys; an erasure answered
 * by one must already hold on every other, with no window in which another still opens the
 * erased subject's fields from its cache.
 */
describe.runIf(serverUrl)('erasure › two processes on one PostgreSQL server', () => {
  let drop: () => Promise<void>;
  let one: Service;
  let two: Service;
  let a: Client;
  let b: Client;
  let tenantId: string;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    const env = { ...fresh.env, MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'silent' };
    one = await createService(loadSettings(env), { pollMs: 50 });
    two = await createService(loadSettings(env), { pollMs: 50 });
    const creds = await one.tenants.create('erasure-processes', 'enterprise');
    await one.tenants.update(creds.tenantId, { limits: { perMinute: 1_000_000, perDay: 1_000_000 } });
    tenantId = creds.tenantId;
    a = client(one.app, creds);
    b = client(two.app, creds);
  }, 60_000);
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await drop?.();
  });

  it("the other process stops opening the subject's fields the moment the erasure answers", async () => {
    const subject = `cached-subject-${randomBytes(4).toString('hex')}@example.org`;
    const policyVersionId = await publishPolicy(a);
    const recorded = await a.post('/api/v1/consent', {
      policyVersionId,
      userReference: subject,
      consentGiven: true,
      metadata: { email: subject },
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const id = recorded.json().data.id as string;
    // Process two reads the record (and so caches its data key), several times.
    const read = await b.get(`/api/v1/consent/${id}`);
    expect(read.body).toContain(subject);
    // Its data key, as process two holds it now (cached by those reads).
    const [event] = await two.ledger.readStream(consentStream(tenantId, id));
    const kid = (event!.data as { personal: { kid: string } }).personal.kid;
    expect((await two.privacy.keys.byIds([kid])).has(kid)).toBe(true);
    const erased = await a.post(`/api/v1/subjects/${encodeURIComponent(subject)}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    // At once, on process two: the key is gone, the record is there, its personal fields are not.
    expect((await two.privacy.keys.byIds([kid])).has(kid)).toBe(false);
    const after = await b.get(`/api/v1/consent/${id}`);
    expect(after.statusCode).toBe(200);
    expect(after.body).not.toContain(subject);
    const exported = await b.get('/api/v1/consent/export?format=csv');
    expect(exported.body).not.toContain(subject);
  });
});
