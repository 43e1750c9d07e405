import { randomUUID } from 'node:crypto';
import { sql, type Insertable, type Kysely } from 'kysely';
import { silentLog, type Log } from '../common/log.js';
import { TableCheckpointer } from '../followers/checkpoints.js';
import { Follower } from '../followers/follower.js';
import { comparePositions, type Ledger, type RecordedEvent } from '../ledger/ledger.port.js';
import type { Privacy } from '../privacy/privacy.js';
import type { SubjectEventsSource } from '../privacy/subject-events.js';
import { scrubDeliveries } from './scrub.js';
import { sealOf, type DeliverySealer } from './delivery-seal.js';
import { decodeSubjectEvent } from '../domain/subject/subject.events.js';
import { isTransientError } from '../store/database-errors.js';
import type { Database } from '../store/schema.js';
import { eventNameFor, payloadFor, toNotification, type Notification } from './webhook.events.js';
import { cancelPending, webhooksDb, type DeliveriesTable, type WebhooksDb } from './webhooks.table.js';
import { hookedTenants, WebhookWindows, windowChange } from './windows.js';

export const SUBSCRIPTION_NAME = 'webhooks';

/** At most this long between checkpoint writes while batches queue nothing (unless told). */
const CHECKPOINT_IDLE_MS = 1000;

export interface SubscriptionOptions {
  batchSize?: number;
  pollMs?: number;
  log?: Log;
  /** Called after a batch queued deliveries (wakes the dispatcher). */
  onQueued?: () => void;
  /** Opens personal fields for payloads (docs/erasure.md). */
  privacy: Privacy;
  /** At most this long between checkpoint writes while batches queue nothing (default 1 s). */
  checkpointIdleMs?: number;
  /** Spacing of poked batches (PokeLoopOptions.minIntervalMs). */
  minIntervalMs?: number;
  /** Why an event is not the service's own (EventAuthenticity): such an event is never delivered. */
  authenticity?: EventCheck;
}

/** Null when a ledger event is the service's own (its authenticator verifies), else why not. */
export interface EventCheck {
  problem(event: RecordedEvent): Promise<string | null>;
}

/**
 * The durable subscription of webhooks to the ledger: a follower (src/followers/follower.ts) with
 * one checkpoint row in webhooks.checkpoints. It maps a batch's events to notifications outside
 * any transaction (that reads streams), then, with the checkpoint row locked, writes one delivery
 * row per (webhook, event) and moves the checkpoint. It makes no HTTP call: the dispatcher sends.
 * Several processes may run it on one database; the lock and the unique (webhook, event) key make
 * each row once.
 *
 * A batch that queues nothing (no tenant of its events has a webhook, the usual case) and erases
 * no subject writes nothing: the checkpoint follows with the next batch that writes, or after
 * `checkpointIdleMs`. Reading such events again after a restart queues nothing either. The first
 * start begins at the ledger's head: every webhook is created later, and receives only events
 * after its creation.
 *
 * @example
 * const subscription = new WebhookSubscription(db, ledger, { privacy, onQueued: () => dispatcher.poke() });
 * await subscription.start();
 */
export class WebhookSubscription extends Follower<MappedNotification[]> {
  constructor(db: Kysely<Database>, ledger: Ledger, options: SubscriptionOptions) {
    const wdb = webhooksDb(db);
    const log = options.log;
    super(
      db,
      ledger,
      {
        name: 'webhook subscription',
        checkpoints: new TableCheckpointer('webhooks.checkpoints'),
        startFrom: 'END',
        prepare: (events) => mapNotifications(wdb, ledger, events, options.privacy, log ?? silentLog, options.authenticity),
        writesNothing: (events, notifications) =>
          notifications.length === 0 && !events.some((e) => e.type === 'SubjectErased' || windowChange(e) !== null),
        processors: [
          {
            processorId: SUBSCRIPTION_NAME,
            async handle(tx, fresh, { prepared, afterCommit }) {
              // The events past the locked checkpoint are the batch's last ones: their notifications only.
              const from = fresh[0]!.position;
              const todo = prepared.filter(({ event }) => comparePositions(event.position, from) >= 0);
              const queued = await queueDeliveries(webhooksDb(tx), options.privacy, fresh, todo);
              if (queued > 0 && options.onQueued) afterCommit(options.onQueued);
            },
          },
        ],
      },
      {
        ...options,
        checkpointIdleMs: options.checkpointIdleMs ?? CHECKPOINT_IDLE_MS,
      },
    );
  }

  /** Creates the checkpoint row at the ledger's head when missing (start does). */
  ensureCheckpoint(): Promise<void> {
    return this.ensureCheckpoints();
  }
}

/** An event and what it tells webhooks. */
export interface MappedNotification {
  event: RecordedEvent;
  n: Notification;
}

/**
 * The notifications of `events` for tenants with an active webhook (mapped outside any
 * transaction: it may read streams). One bad event is logged and left out, as is, with
 * `authenticity`, one that is not the service's (written into the ledger behind it: the sealer
 * refuses it too); a transient failure (store or ledger unreachable) is thrown, so that the events
 * are tried again.
 */
export async function mapNotifications(
  db: WebhooksDb,
  ledger: Ledger,
  events: readonly RecordedEvent[],
  privacy: Privacy,
  log: Log,
  authenticity?: EventCheck,
): Promise<MappedNotification[]> {
  // Only tenants whose webhooks may take these events need them mapped (see windows.ts).
  const hooked = await hookedTenants(db, events);
  const streams = new Map<string, Promise<RecordedEvent[]>>();
  const readStream = (stream: string) => {
    let read = streams.get(stream);
    if (!read) streams.set(stream, (read = ledger.readStream(stream)));
    return read;
  };
  const notifications: MappedNotification[] = [];
  for (const event of events) {
    if (!hooked.has(event.tenantId)) continue;
    try {
      const forged = (await authenticity?.problem(event)) ?? null;
      if (forged) {
        log.error(
          { eventId: event.id, eventType: event.type, tenantId: event.tenantId },
          `webhook subscription refused event ${event.id} (${event.type}): it is not the service's (${forged}); not delivered (docs/verifying.md)`,
        );
        continue;
      }
      const n = await toNotification(event, readStream, privacy);
      if (n) notifications.push({ event, n });
    } catch (error) {
      if (isTransientError(error)) throw error;
      // One bad event never stops webhooks: it is logged and left out.
      log.error({ err: error, eventId: event.id, eventType: event.type }, 'webhook subscription could not map an event; skipped');
    }
  }
  return notifications;
}

/**
 * Inside the caller's transaction: one delivery row per (webhook, notification) that the webhook
 * subscribes to and that falls in one of its active windows, by ledger position (windows.ts), so
 * that the outcome never depends on how far behind the subscription was: pending while the window
 * is open; cancelled when the webhook was deactivated or deleted after the event, as the
 * deactivation cancels what is pending then. The webhooks' own events among `events` move their
 * windows in order. The unique (webhook, event) key makes a repeat a no-op; the payloads an
 * erasure among `events` clears go too (its subject's events found in `source`, see scrub.ts).
 * Each row is sealed with `sealer` (delivery-seal.ts). Answers how many rows were written.
 */
export async function queueDeliveries(
  wdb: WebhooksDb,
  sealer: DeliverySealer,
  events: readonly RecordedEvent[],
  todo: readonly MappedNotification[],
  source: SubjectEventsSource = 'ledger',
): Promise<number> {
  let queued = 0;
  const changing = events.flatMap((e) => {
    const change = windowChange(e);
    return change ? [{ tenantId: e.tenantId, webhookId: change.webhookId }] : [];
  });
  if (todo.length > 0 || changing.length > 0) {
    const notified = [...new Set(todo.map((t) => t.n.tenantId))];
    const windows = await WebhookWindows.load(wdb, [...new Set([...notified, ...changing.map((c) => c.tenantId)])]);
    // Deliveries go to webhooks whose configuration row exists (a creation writes it just after
    // its event) and is not deleted.
    const candidates = [...new Set([...windows.webhooks, ...changing.map((c) => c.webhookId)])];
    const existing = new Set(
      candidates.length === 0
        ? []
        : (
            await wdb.selectFrom('webhooks.endpoints').select('id').where('id', 'in', candidates).where('deleted_at', 'is', null).execute()
          ).map((r) => r.id),
    );
    const byEvent = new Map(todo.map((t) => [t.event.id, t]));
    const rows: Insertable<DeliveriesTable>[] = [];
    const closed = new Set<string>();
    for (const event of events) {
      const paused = windows.apply(event);
      if (paused) {
        closed.add(paused);
        for (const r of rows) {
          if (r.webhook_id === paused && r.status === 'pending') Object.assign(r, { status: 'cancelled', next_attempt_at: null });
        }
      }
      const t = byEvent.get(event.id);
      if (!t) continue;
      for (const webhookId of windows.webhooksOf(t.n.tenantId)) {
        if (!existing.has(webhookId)) continue;
        const where = windows.at(webhookId, event.position);
        const type = where && eventNameFor(where.events, t.n.kind);
        if (!type) continue;
        const delivery = {
          id: randomUUID(),
          tenant_id: t.n.tenantId,
          webhook_id: webhookId,
          event_id: t.n.id,
          event_type: type,
          payload: payloadFor(t.n, type),
        };
        rows.push({
          ...delivery,
          seal: sealOf(sealer, delivery),
          status: where.open ? 'pending' : 'cancelled',
          next_attempt_at: where.open ? (sql<string>`now()` as unknown as string) : null,
        });
      }
    }
    // A deactivation or deletion cancels what was pending for the webhook before it (the service
    // does too when it makes the change; this covers rows queued since). A delivery sent again
    // since was sent once the webhook was active after it (redeliver needs that): it stays.
    for (const webhookId of closed) await cancelPending(wdb, webhookId, true);
    for (let i = 0; i < rows.length; i += 500) {
      const r = await wdb
        .insertInto('webhooks.deliveries')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
        .executeTakeFirst();
      queued += Number(r.numInsertedOrUpdatedRows ?? 0);
    }
    await windows.save(wdb);
  }
  // An erasure clears the payloads its subject's events left here, those just queued included
  // (they were mapped before the key was destroyed); every tenant, hooked or not.
  for (const e of events) {
    const erased = decodeSubjectEvent(e);
    if (erased) await scrubDeliveries(wdb, sealer, e.tenantId, erased.data.subject, source);
  }
  return queued;
}
