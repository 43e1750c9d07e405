import type { Kysely } from 'kysely';
import type { Part } from '../common/lifecycle.js';
import type { Log } from '../common/log.js';
import type { DurableFeedLedger } from '../ledger/ledger-feeds.js';
import type { Ledger, LedgerPosition } from '../ledger/ledger.port.js';
import type { Privacy } from '../privacy/privacy.js';
import type { Database } from '../store/schema.js';
import { WebhookDispatcher, type DispatcherOptions, type TargetCheck, type SendChecks, type UnsealedHandler } from './dispatcher.js';
import { GuardedClient, type OutboundOptions } from './outbound.js';
import { FeedWebhookSubscription } from './feed-subscription.js';
import { WebhookSubscription, type EventCheck } from './subscription.js';
import type { ConfigChanges } from '../domain/config/config.events.js';
import { WebhookService } from './webhooks.service.js';

export type { WebhookService } from './webhooks.service.js';

/** The settings webhooks take (WEBHOOK_ALLOW_PRIVATE_NETWORKS, WEBHOOK_ALLOW_HTTP, WEBHOOK_RETRY_SCALE). */
export interface WebhookSettings {
  webhookAllowPrivateNetworks: boolean;
  webhookAllowHttp: boolean;
  webhookRetryScale: number;
}

export interface WebhooksOptions {
  log?: Log;
  /** How often the subscription and the dispatcher look for work from other processes. */
  pollMs?: number;
  /** Events the checkpointed subscription reads per batch. */
  batchSize?: number;
  /** Spacing of the subscription's poked batches (PokeLoopOptions.minIntervalMs). */
  minIntervalMs?: number;
  /** Tests only: a resolver (DNS rebinding) or a CA for the guarded client. */
  outbound?: Pick<OutboundOptions, 'resolver' | 'ca' | 'timeoutMs'>;
  dispatcher?: Pick<DispatcherOptions, 'concurrency' | 'perWebhook' | 'perWebhookMax' | 'leaseMs' | 'onAttempt'>;
  /**
   * The ledger's durable feed, when it has one (EventStoreDB): delivery rows then come from a
   * persistent subscription to `$all` instead of the checkpointed subscription.
   */
  feed?: DurableFeedLedger;
  /** What the checkpointed subscription reads the ledger through (the followers' SharedReads); `ledger` when absent. */
  reads?: Ledger;
  /** With `feed`: erasures wait for read.event_index to pass them (see FeedWebhookSubscription). */
  indexPassed?: (position: LedgerPosition) => Promise<boolean>;
  /** Where webhook configuration changes are recorded (the tenant's log, docs/audit-log.md). */
  changes: ConfigChanges;
  /** Holds each delivery's URL to the webhook's events (test deliveries too). */
  target?: TargetCheck;
  /** Told when this process changed or deleted a webhook (what `target` found of it is stale). */
  onChanged?: (tenantId: string, webhookId: string) => void;
  /** Told of each delivery not sent because its row's seal does not hold (delivery-seal.ts). */
  onUnsealed?: UnsealedHandler;
  /** Why a ledger event is not the service's own (EventAuthenticity): such an event is never delivered. */
  authenticity?: EventCheck;
}

export interface Webhooks {
  service: WebhookService;
  subscription: WebhookSubscription | FeedWebhookSubscription;
  dispatcher: WebhookDispatcher;
  /**
   * The sending side as a lifecycle part: start wraps signing secrets stored in clear, then starts
   * the dispatcher; stop lets attempts in flight end (or leaves them to retry). The subscription
   * is a follower: the service's FollowerHost starts and stops it.
   */
  delivery: Part;
  /** Stops the subscription (no new rows), then the dispatcher. */
  stop(): Promise<void>;
}

/**
 * Wires the webhook capability: the guarded client, the durable subscription, the dispatcher and
 * the service the routes use. Nothing runs yet: start `delivery`, then the subscription.
 *
 * @example
 * const webhooks = createWebhooks(store.db, ledger, settings, { log, privacy });
 * await webhooks.delivery.start();
 * await webhooks.subscription.start();
 */
export function createWebhooks(
  db: Kysely<Database>,
  ledger: Ledger,
  settings: WebhookSettings,
  /** `privacy` opens payloads' personal fields (docs/erasure.md). */
  options: WebhooksOptions & { privacy: Privacy },
): Webhooks {
  const client = new GuardedClient({
    allowPrivateNetworks: settings.webhookAllowPrivateNetworks,
    allowHttp: settings.webhookAllowHttp,
    ...options.outbound,
  });
  // One set of checks for every send: the dispatcher's deliveries and the test route's.
  const checks: SendChecks = { sealer: options.privacy, target: options.target, onUnsealed: options.onUnsealed };
  const dispatcher = new WebhookDispatcher(db, client, options.privacy, {
    retryScale: settings.webhookRetryScale,
    ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
    ...(options.log ? { log: options.log } : {}),
    checks,
    ...options.dispatcher,
  });
  const subscriptionOptions = {
    ...(options.log ? { log: options.log } : {}),
    onQueued: () => dispatcher.poke(),
    privacy: options.privacy,
    ...(options.authenticity ? { authenticity: options.authenticity } : {}),
  };
  const subscription = options.feed
    ? new FeedWebhookSubscription(db, options.feed, {
        ...subscriptionOptions,
        ...(options.indexPassed ? { indexPassed: options.indexPassed } : {}),
      })
    : new WebhookSubscription(db, options.reads ?? ledger, {
        ...(options.pollMs === undefined ? {} : { pollMs: options.pollMs }),
        ...(options.minIntervalMs === undefined ? {} : { minIntervalMs: options.minIntervalMs }),
        ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
        ...subscriptionOptions,
      });
  const service = new WebhookService(
    db,
    ledger,
    client,
    { retryScale: settings.webhookRetryScale, checks, onChanged: options.onChanged },
    options.privacy,
    options.changes,
  );
  return {
    service,
    subscription,
    dispatcher,
    delivery: {
      name: 'webhook dispatcher',
      async start() {
        await service.wrapClearSecrets();
        dispatcher.start();
      },
      stop: () => dispatcher.stop(),
    },
    async stop() {
      await subscription.stop();
      await dispatcher.stop();
    },
  };
}
