import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventStoreLedger, eventStoreUrl, reportEventStoreSkip } from '../../../test/support/eventstore.js';
import { checkChain } from '../event-hash.js';
import { ledgerContract } from '../ledger.contract.js';
import type { DurableFeed } from '../ledger-feeds.js';
import { LedgerUnavailableError, START } from '../ledger.port.js';
import type { EventStoreLedger } from './eventstoredb.ledger.js';
import { connectEventStoreLedger } from './index.js';

reportEventStoreSkip('ledger');

// The shared contract, against the run's EventStoreDB (EVENTSTORE_URL, or the container global
// setup started). Each open() takes streams of its own prefix: a ledger nothing else wrote to.
describe.skipIf(!eventStoreUrl)('EventStoreDB ledger', () => {
  ledgerContract('EventStoreLedger on KurrentDB', async (options) => {
    const t = await eventStoreLedger(options);
    return { ledger: t.ledger, dispose: t.dispose };
  });

  describe('eventstoredb ledger › follows and feeds', () => {
    let t: Awaited<ReturnType<typeof eventStoreLedger>>;
    let ledger: EventStoreLedger;
    beforeAll(async () => {
      t = await eventStoreLedger();
      ledger = t.ledger;
    });
    afterAll(() => t?.dispose());

    const appendOne = (tenantId: string) =>
      ledger.append(
        [{ tenantId, stream: `feed-${tenantId}-${randomUUID()}`, expectedRevision: 'no_stream', events: [{ type: 'Happened', data: {} }] }],
        new Date(),
      );

    it('watch wakes the follower when events land, whoever appended them', async () => {
      let wakes = 0;
      const watching = ledger.watch(() => (wakes += 1));
      try {
        const tenantId = randomUUID();
        // The subscription is live once an append made after it started wakes it.
        const deadline = Date.now() + 10_000;
        while (wakes === 0 && Date.now() < deadline) {
          await appendOne(tenantId);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        expect(wakes).toBeGreaterThan(0);
      } finally {
        await watching.close();
      }
    });

    it('a durable feed hands out only events after its creation, again after a nack, and not after an ack', async () => {
      const tenantId = randomUUID();
      await appendOne(tenantId);
      const feed: DurableFeed = await ledger.openDurableFeed(`test-${randomUUID()}`);
      try {
        const appended = await appendOne(tenantId);
        const id = appended.events[0]!.id;
        const seen: { id: string; retry: number }[] = [];
        for await (const m of feed) {
          if (!m.event) {
            await m.ack();
            continue;
          }
          seen.push({ id: m.event.id, retry: m.retryCount });
          if (m.retryCount === 0) {
            await m.nack('first attempt fails');
            continue;
          }
          await m.ack();
          break;
        }
        expect(seen.map((s) => s.id)).toEqual([id, id]);
        expect(seen[1]!.retry).toBeGreaterThan(0);
      } finally {
        await feed.close();
      }
    });

    it('readAll from the start answers only this ledger’s events, with intact chains', async () => {
      const tenantId = randomUUID();
      const stream = `chain-${tenantId}-${randomUUID()}`;
      await ledger.append([{ tenantId, stream, expectedRevision: 'no_stream', events: [{ type: 'A', data: {} }] }], new Date());
      await ledger.append([{ tenantId, stream, expectedRevision: 0, events: [{ type: 'B', data: {} }] }], new Date());
      const all = await ledger.readAll(START, 10_000);
      expect(all.filter((e) => e.stream === stream).map((e) => e.type)).toEqual(['A', 'B']);
      expect(checkChain(await ledger.readStream(stream))).toEqual([]);
    });

    it('refuses a stream name that does not carry its tenant', async () => {
      const tenantId = randomUUID();
      await expect(
        ledger.append(
          [{ tenantId, stream: `x-${randomUUID()}`, expectedRevision: 'no_stream', events: [{ type: 'A', data: {} }] }],
          new Date(),
        ),
      ).rejects.toThrow(/does not carry its tenant/);
    });
  });
});

describe('eventstoredb ledger › when the server cannot be reached › says the ledger is unavailable', () => {
  it('connectEventStoreLedger fails with LedgerUnavailableError on a port nobody listens on', { timeout: 20_000 }, async () => {
    const error = await connectEventStoreLedger(
      'kurrentdb://127.0.0.1:1?tls=false&maxDiscoverAttempts=1&discoveryInterval=10&gossipTimeout=500&defaultDeadline=1000',
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(LedgerUnavailableError);
  });
});
