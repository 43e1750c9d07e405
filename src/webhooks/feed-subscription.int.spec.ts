import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, publishPolicy, startTestService, type TestService } from '../../test/support/service.js';
import type { DurableFeedLedger, DurableFeedMessage } from '../ledger/ledger-feeds.js';
import { START, type RecordedEvent } from '../ledger/ledger.port.js';
import { FeedWebhookSubscription } from './feed-subscription.js';
import { waitUntil } from '../../test/support/process.js';

/**
 * The webhook subscription of a ledger with durable feeds (EventStoreDB's persistent subscription),
 * run here on the real store with the messages the feed would hand out: acked only once the rows
 * are committed, nacked when they cannot be written. The feed itself runs in
 * src/ledger/eventstoredb/eventstoredb.ledger.int.spec.ts where an EventStoreDB is there.
 */
describe('webhook feed subscription › settles each event after its rows', () => {
  let t: TestService;
  let tenantId: string;
  let ledger: DurableFeedLedger;
  beforeAll(async () => {
    t = await startTestService();
    // The service's own (checkpointed) subscription stops: this one is under test.
    await t.service.webhooks.stop();
    const creds = await t.tenant();
    tenantId = creds.tenantId;
    const c = client(t.app, creds);
    expect((await c.post('/api/v1/webhooks', { url: 'https://hooks.example.com/x', events: ['*'] })).statusCode).toBe(201);
    await publishPolicy(c);
    const base = t.service.ledger;
    ledger = {
      append: (r, at) => base.append(r, at),
      readStream: (s) => base.readStream(s),
      readAll: (a, l) => base.readAll(a, l),
      headPosition: (x) => base.headPosition(x),
      openDurableFeed: () => Promise.reject(new Error('not used here')),
    };
  });
  afterAll(() => t?.close());

  // readAll passes no event of a transaction still open anywhere on the server: wait until it is readable.
  const policyEvent = (): Promise<RecordedEvent> =>
    waitUntil(
      async () => (await t.service.ledger.readAll(START, 1000)).find((e) => e.tenantId === tenantId && e.type === 'PolicyVersionPublished'),
      { what: 'the policy event to be readable in ledger order' },
    );
  // The feed hands every event in ledger order: the webhook's own creation before the policy's.
  const webhookCreated = (): Promise<RecordedEvent> =>
    waitUntil(
      async () => (await t.service.ledger.readAll(START, 1000)).find((e) => e.tenantId === tenantId && e.type === 'WebhookCreated'),
      { what: 'the webhook event to be readable in ledger order' },
    );
  const rowsOf = async (eventId: string) =>
    (
      await sql<{ event_type: string }>`SELECT event_type FROM webhooks.deliveries WHERE event_id = ${eventId}::uuid`.execute(
        t.service.store.db,
      )
    ).rows;

  const message = (event: RecordedEvent | null, log: string[], onAck?: () => Promise<void>): DurableFeedMessage => ({
    event,
    retryCount: 0,
    ack: async () => {
      await onAck?.();
      log.push('ack');
    },
    nack: async (reason) => void log.push(`nack: ${reason}`),
  });

  it('writes the delivery row, then acks (the row is committed when the ack goes out); a repeat adds nothing', async () => {
    const event = await policyEvent();
    let queued = 0;
    const subscription = new FeedWebhookSubscription(t.service.store.db, ledger, {
      privacy: t.service.privacy,
      onQueued: () => (queued += 1),
    });
    const log: string[] = [];
    let rowsAtAck: unknown[] = [];
    await subscription.handle(message(await webhookCreated(), []));
    await subscription.handle(
      message(event, log, async () => {
        rowsAtAck = await rowsOf(event.id);
      }),
    );
    expect(log).toEqual(['ack']);
    expect(rowsAtAck).toEqual([{ event_type: 'policy.created' }]);
    expect(queued).toBe(1);
    await subscription.handle(message(event, log));
    expect(log).toEqual(['ack', 'ack']);
    expect(await rowsOf(event.id)).toHaveLength(1);
    expect(queued).toBe(1);
  });

  it('acks a record that is not a ledger event', async () => {
    const log: string[] = [];
    await new FeedWebhookSubscription(t.service.store.db, ledger, { privacy: t.service.privacy }).handle(message(null, log));
    expect(log).toEqual(['ack']);
  });

  it('nacks, and never acks, an event it could not settle (an erasure the event index has not reached)', async () => {
    const event = await policyEvent();
    const erasure: RecordedEvent = {
      ...event,
      id: '00000000-0000-4000-8000-000000000001',
      type: 'SubjectErased',
      data: { subject: 's', consentIds: [], erasedAt: event.recordedAt },
    };
    const log: string[] = [];
    const subscription = new FeedWebhookSubscription(t.service.store.db, ledger, {
      privacy: t.service.privacy,
      indexPassed: async () => false,
    });
    await subscription.handle(message(erasure, log));
    expect(log).toEqual(['nack: the event index has not reached this erasure yet']);
  });
});
