import type { Kysely } from 'kysely';
import { silentLog, type Log } from '../common/log.js';
import { isTransientError } from '../store/database-errors.js';
import type { DurableFeed, DurableFeedLedger, DurableFeedMessage } from '../ledger/ledger-feeds.js';
import type { LedgerPosition } from '../ledger/ledger.port.js';
import type { Privacy } from '../privacy/privacy.js';
import type { Database } from '../store/schema.js';
import { mapNotifications, queueDeliveries, SUBSCRIPTION_NAME, type EventCheck } from './subscription.js';
import { webhooksDb } from './webhooks.table.js';

export interface FeedSubscriptionOptions {
  log?: Log;
  /** Called after an event queued deliveries (wakes the dispatcher). */
  onQueued?: () => void;
  privacy: Privacy;
  /** Pause before joining the feed again after it failed (grows to 5 s). */
  retryMs?: number;
  /**
   * The ledger is not in the store's database: an erasure finds its subject's events in
   * read.event_index, once the projections passed the erasure (`indexPassed`, false after a while).
   */
  indexPassed?: (position: LedgerPosition) => Promise<boolean>;
  /** Why an event is not the service's own: such an event is never delivered (subscription.ts). */
  authenticity?: EventCheck;
}

/** Longest pause before handing a failed event back. */
const NACK_PAUSE_MAX_MS = 5_000;
/** How long stop waits for the event in hand. */
const STOP_WAIT_MS = 10_000;

/**
 * The webhook subscription when the ledger has durable feeds (EventStoreDB: a persistent
 * subscription to `$all`, group `webhooks`). The server keeps the position and hands each event
 * to one consumer of the group; this writes the event's delivery rows in one transaction and acks
 * only after it committed, or nacks (retry) when it failed: an event is acked only once its rows
 * are durable, and a process that dies before acking has the event handed out again (the unique
 * (webhook, event) key makes the repeat a no-op). Like `WebhookSubscription`, it makes no HTTP call.
 *
 * @example
 * const subscription = new FeedWebhookSubscription(db, ledger, { privacy, onQueued: () => dispatcher.poke() });
 * await subscription.start();
 */
export class FeedWebhookSubscription {
  readonly name = 'webhook feed subscription';
  private feed: DurableFeed | undefined;
  private loop: Promise<void> | undefined;
  private running = false;
  private readonly log: Log;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ledger: DurableFeedLedger,
    private readonly options: FeedSubscriptionOptions,
  ) {
    this.log = options.log ?? silentLog;
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    // The first start creates the group at the ledger's head: webhooks receive later events only.
    this.feed = await this.ledger.openDurableFeed(SUBSCRIPTION_NAME);
    this.loop = this.run(this.feed);
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.feed?.close();
    // Closing ends the feed, and with it the loop; an event being handled is finished first
    // (its rows committed and acked, or nacked). Bounded, so a server that does not answer never holds the stop.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.loop, new Promise((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)))]);
    clearTimeout(timer);
  }

  /** Events arrive pushed by the server: nothing to wake. */
  poke(): void {}

  private async run(first: DurableFeed): Promise<void> {
    let feed: DurableFeed | undefined = first;
    let backoff = 0;
    while (this.running) {
      try {
        feed ??= this.feed = await this.ledger.openDurableFeed(SUBSCRIPTION_NAME);
        for await (const message of feed) {
          await this.handle(message);
          backoff = 0;
          if (!this.running) break;
        }
      } catch (error) {
        if (!this.running) break;
        backoff = Math.min(5_000, backoff === 0 ? (this.options.retryMs ?? 100) : backoff * 2);
        this.log.warn({ err: error, retryInMs: backoff }, 'webhook subscription: the ledger feed failed; joining again');
        await feed?.close().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, backoff));
      }
      feed = undefined;
    }
  }

  /** Writes one event's delivery rows, then acks; nacks (the server retries, then parks) when that failed. */
  async handle(message: DurableFeedMessage): Promise<void> {
    const event = message.event;
    if (!event) {
      await message.ack();
      return;
    }
    let queued = 0;
    try {
      const indexPassed = this.options.indexPassed;
      if (event.type === 'SubjectErased' && indexPassed && !(await indexPassed(event.position))) {
        throw new Error('the event index has not reached this erasure yet');
      }
      const db = webhooksDb(this.db);
      const notifications = await mapNotifications(db, this.ledger, [event], this.options.privacy, this.log, this.options.authenticity);
      await db.transaction().execute(async (tx) => {
        queued = await queueDeliveries(tx, this.options.privacy, [event], notifications, this.options.indexPassed ? 'index' : 'ledger');
      });
    } catch (error) {
      this.log[isTransientError(error) ? 'warn' : 'error'](
        { err: error, eventId: event.id, retryCount: message.retryCount },
        'webhook subscription could not queue an event; handed back to retry',
      );
      // The server parks an event after its retry limit: pausing before the nack (up to 5 s a try)
      // makes that limit span minutes of a store outage, not a burst of instant retries.
      const pause = Math.min(NACK_PAUSE_MAX_MS, (this.options.retryMs ?? 100) * 2 ** Math.min(message.retryCount, 16));
      if (this.running) await new Promise((resolve) => setTimeout(resolve, pause));
      await message.nack(String((error as Error).message ?? error));
      return;
    }
    await message.ack();
    if (queued > 0) this.options.onQueued?.();
  }
}
