import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDb } from '../../src/ledger/postgres/ledger.table.js';
import { LedgerUnavailableError } from '../../src/ledger/ledger.port.js';
import { eventStoreUrl, freshStreamPrefix, reportEventStoreSkip } from '../support/eventstore.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * The whole service with its ledger on EventStoreDB (EVENTSTORE_URL) and everything else in the
 * store: a record is written to EventStoreDB, read back exactly, listed from the read models,
 * verified, and erased. Runs where an EventStoreDB is there (test/support/eventstore.ts).
 */
reportEventStoreSkip('service on EventStoreDB');

describe.skipIf(!eventStoreUrl)('service › when EVENTSTORE_URL is set › keeps the ledger in EventStoreDB', () => {
  let t: TestService;
  let api: Client;
  beforeAll(async () => {
    t = await startTestService({ EVENTSTORE_URL: eventStoreUrl!, EVENTSTORE_STREAM_PREFIX: freshStreamPrefix() });
    api = client(t.app, await t.tenant());
  });
  afterAll(() => t?.close());

  it('records, reads, lists, verifies and erases a consent; the events are in EventStoreDB, none in ledger.events', async () => {
    const policyVersionId = await publishPolicy(api);
    const recorded = await api.post('/api/v1/consent', { policyVersionId, userReference: 'esdb-user-1', consentGiven: true });
    expect(recorded.statusCode).toBe(201);
    const id = recorded.json().data.id as string;
    expect((await api.get(`/api/v1/consent/${id}`)).json().data.userReference).toBe('esdb-user-1');
    expect((await api.get(`/api/v1/consent/${id}/verify`)).json().data.valid).toBe(true);
    const listed = await api.get(`/api/v1/consent/user/esdb-user-1`);
    expect(listed.json().data.map((c: { id: string }) => c.id)).toEqual([id]);

    const inLedger = (await t.service.ledger.readAll({ commit: 0, prepare: 0 }, 10_000)).filter((e) => e.type === 'ConsentRecorded');
    expect(inLedger.map((e) => e.data.consentId)).toContain(id);
    expect(await ledgerDb(t.service.store.db).selectFrom('ledger.events').select('event_id').execute()).toEqual([]);

    // Erasure finds the record through read.event_index (the ledger is not in the store).
    const erased = await api.post('/api/v1/subjects/esdb-user-1/erase');
    expect(erased.statusCode).toBe(200);
    expect(erased.json().data.consentIds).toEqual([id]);
    const head = (await t.service.ledger.headPosition())!;
    expect(await t.service.runner.waitFor(head, 20_000)).toBe(true);
    expect((await api.get(`/api/v1/consent/${id}`)).json().data).toMatchObject({ id, userReference: null, erased: true });
  });

  it('answers /ready with the ledger ready', async () => {
    const ready = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
  });
});

describe('service › when EVENTSTORE_URL names a server that does not answer › does not start', () => {
  it('fails with LedgerUnavailableError, before serving anything', { timeout: 30_000 }, async () => {
    const error = await startTestService({
      EVENTSTORE_URL: `kurrentdb://127.0.0.1:1?tls=false&maxDiscoverAttempts=1`,
      EVENTSTORE_STREAM_PREFIX: `t${randomUUID().slice(0, 8)}.`,
    }).then(
      async (t) => {
        await t.close();
        return undefined;
      },
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LedgerUnavailableError);
  });
});
