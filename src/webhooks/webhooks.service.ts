import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { sha256Hex } from '../common/hashing.js';
import type { ConfigChanges, WebhookTarget } from '../domain/config/config.events.js';
import { DomainError } from '../domain/errors.js';
import { START, type Ledger } from '../ledger/ledger.port.js';
import type { Database } from '../store/schema.js';
import { recordAttempt, sendDelivery, type SendChecks } from './dispatcher.js';
import { sealOf, type DeliverySealer } from './delivery-seal.js';
import type { GuardedClient } from './outbound.js';
import { generateSecret, storedSecret, type SecretBox } from './signing.js';
import { webhookSecretScope } from '../privacy/key-store.js';
import { cancelPending, webhooksDb, type DeliveryStatus, type EndpointRow, type WebhooksDb } from './webhooks.table.js';

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  lastTriggered: string | null;
  deliveryStats: { total: number; successful: number; failed: number };
}

export interface DeliveryView {
  id: string;
  webhookId: string;
  deliveryId: string;
  eventId: string;
  event: string;
  attempt: number;
  statusCode: number | null;
  success: boolean;
  error?: string;
  responseTime: number;
  attemptedAt: string;
  /** Where its delivery stands now: `failed` once the last attempt failed (no more come), `pending` while one is due. */
  deliveryStatus: DeliveryStatus;
  /** When the delivery's next attempt is due, while it is pending; else null. */
  nextAttemptAt: string | null;
}

/** A delivery sent again (`redeliver`): pending, due at `nextAttemptAt`. */
export interface RedeliveryView {
  deliveryId: string;
  eventId: string;
  event: string;
  deliveryStatus: 'pending';
  nextAttemptAt: string;
}

export interface TestResult {
  delivered: boolean;
  statusCode: number | null;
  responseTime: number;
  message: string;
}

const iso = (d: Date | string | null): string | null => (d === null ? null : new Date(d).toISOString());

const notFound = (id: string) => new DomainError('NOT_FOUND', `webhook ${id} not found`);

/**
 * Webhook configurations of a tenant, their delivery history, and the test delivery.
 *
 * @example
 * const { webhook, secret } = await webhooks.create(tenantId, { url, events: ['consent.created'] });
 */
/** A receiver as the tenant's log names it: its origin, and the SHA-256 of the whole URL (which may hold a token). */
const webhookTarget = (webhookId: string, url: string): WebhookTarget => ({
  webhookId,
  urlOrigin: new URL(url).origin,
  urlSha256: sha256Hex(url),
});

export class WebhookService {
  private readonly db: WebhooksDb;

  constructor(
    db: Kysely<Database>,
    private readonly ledger: Ledger,
    private readonly client: GuardedClient,
    private readonly options: {
      retryScale: number;
      /** What a test delivery is checked against before it is sent, as the dispatcher checks each delivery. */
      checks: SendChecks;
      onChanged?: ((tenantId: string, webhookId: string) => void) | undefined;
    },
    /** Signing secrets are stored wrapped with the master key; delivery rows are sealed (delivery-seal.ts). */
    private readonly secrets: SecretBox & DeliverySealer,
    /** Where each change is recorded before it is applied (the tenant's log, docs/audit-log.md). */
    private readonly changes: ConfigChanges,
  ) {
    this.db = webhooksDb(db);
  }

  /**
   * Wraps the signing secrets an earlier version stored in clear (at start: a migration has no
   * master key). Idempotent, and safe beside another process doing the same.
   */
  async wrapClearSecrets(): Promise<number> {
    const clear = await this.db.selectFrom('webhooks.endpoints').select(['id', 'secret']).where('secret', '<>', '').execute();
    for (const row of clear) {
      await this.db
        .updateTable('webhooks.endpoints')
        .set({ secret: '', secret_wrapped: this.secrets.wrapSecret(webhookSecretScope(row.id), row.secret) })
        .where('id', '=', row.id)
        .where('secret', '=', row.secret)
        .execute();
    }
    return clear.length;
  }

  /** Where a webhook starts, kept on its row (the seed of its windows when they were introduced, migration 0020). */
  private async startingPoint() {
    const head = (await this.ledger.headPosition()) ?? START;
    return { from_commit: head.commit, from_prepare: head.prepare };
  }

  async create(
    tenantId: string,
    input: {
      url: string;
      events: string[];
      description?: string | null | undefined;
      secret?: string | undefined;
      isActive?: boolean | undefined;
    },
  ): Promise<{ webhook: WebhookView; secret: string }> {
    const now = new Date().toISOString();
    const secret = input.secret ?? generateSecret();
    const id = randomUUID();
    const events = [...new Set(input.events)];
    await this.changes.record(tenantId, {
      type: 'WebhookCreated',
      data: { ...webhookTarget(id, input.url), events, isActive: input.isActive ?? true, at: now },
    });
    await this.db
      .insertInto('webhooks.endpoints')
      .values({
        id,
        tenant_id: tenantId,
        url: input.url,
        events,
        description: input.description ?? null,
        secret: '',
        secret_wrapped: this.secrets.wrapSecret(webhookSecretScope(id), secret),
        is_active: input.isActive ?? true,
        ...(await this.startingPoint()),
        created_at: now,
        updated_at: now,
      })
      .execute();
    return { webhook: await this.get(tenantId, id), secret };
  }

  private async row(tenantId: string, id: string): Promise<EndpointRow> {
    const row = await this.db
      .selectFrom('webhooks.endpoints')
      .selectAll()
      .where('id', '=', id)
      .where('tenant_id', '=', tenantId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!row) throw notFound(id);
    return row;
  }

  private async views(rows: EndpointRow[]): Promise<WebhookView[]> {
    if (rows.length === 0) return [];
    const stats = await this.db
      .selectFrom('webhooks.attempts')
      .select((eb) => [
        'webhook_id',
        eb.fn.countAll<number>().as('total'),
        eb.fn.countAll<number>().filterWhere('success', '=', true).as('successful'),
        eb.fn.countAll<number>().filterWhere('success', '=', false).as('failed'),
        eb.fn.max('attempted_at').as('last'),
      ])
      .where(
        'webhook_id',
        'in',
        rows.map((r) => r.id),
      )
      .groupBy('webhook_id')
      .execute();
    const byId = new Map(stats.map((s) => [s.webhook_id, s]));
    return rows.map((r) => {
      const s = byId.get(r.id);
      return {
        id: r.id,
        url: r.url,
        events: r.events,
        description: r.description,
        isActive: r.is_active,
        createdAt: iso(r.created_at)!,
        updatedAt: iso(r.updated_at)!,
        lastTriggered: s ? iso(s.last as Date) : null,
        deliveryStats: { total: Number(s?.total ?? 0), successful: Number(s?.successful ?? 0), failed: Number(s?.failed ?? 0) },
      };
    });
  }

  async get(tenantId: string, id: string): Promise<WebhookView> {
    return (await this.views([await this.row(tenantId, id)]))[0]!;
  }

  async list(tenantId: string, page: number, limit: number): Promise<{ items: WebhookView[]; total: number }> {
    const base = this.db.selectFrom('webhooks.endpoints').where('tenant_id', '=', tenantId).where('deleted_at', 'is', null);
    const [rows, count] = await Promise.all([
      base
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items: await this.views(rows), total: Number(count.n) };
  }

  /**
   * Changes `isActive` and/or `events` (and `description`). Deactivating cancels the deliveries
   * still pending; re-activating takes the events after it, as the subscription reads it from the
   * change's own event (windows.ts).
   */
  async update(
    tenantId: string,
    id: string,
    change: { isActive?: boolean | undefined; events?: string[] | undefined; description?: string | null | undefined },
  ): Promise<WebhookView> {
    await this.row(tenantId, id);
    await this.changes.record(tenantId, {
      type: 'WebhookChanged',
      data: {
        webhookId: id,
        ...(change.events === undefined ? {} : { events: [...new Set(change.events)] }),
        ...(change.isActive === undefined ? {} : { isActive: change.isActive }),
        ...(change.description === undefined ? {} : { description: change.description }),
        at: new Date().toISOString(),
      },
    });
    this.options.onChanged?.(tenantId, id);
    await this.db.transaction().execute(async (tx) => {
      await tx
        .updateTable('webhooks.endpoints')
        .set({
          ...(change.isActive === undefined ? {} : { is_active: change.isActive }),
          ...(change.events === undefined ? {} : { events: [...new Set(change.events)] }),
          ...(change.description === undefined ? {} : { description: change.description }),
          updated_at: new Date().toISOString(),
        })
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .execute();
      if (change.isActive === false) await cancelPending(tx, id);
    });
    return this.get(tenantId, id);
  }

  /** Removes the webhook: it leaves every answer, its pending deliveries are cancelled and its secret is erased. */
  async delete(tenantId: string, id: string): Promise<void> {
    await this.row(tenantId, id);
    await this.changes.record(tenantId, { type: 'WebhookDeleted', data: { webhookId: id, at: new Date().toISOString() } });
    this.options.onChanged?.(tenantId, id);
    await this.db.transaction().execute(async (tx) => {
      const now = new Date().toISOString();
      await tx
        .updateTable('webhooks.endpoints')
        .set({ deleted_at: now, is_active: false, secret: '', secret_wrapped: null, updated_at: now })
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .execute();
      await cancelPending(tx, id);
    });
  }

  /** The delivery history: every attempt, newest first. */
  async deliveries(tenantId: string, id: string, page: number, limit: number): Promise<{ items: DeliveryView[]; total: number }> {
    await this.row(tenantId, id);
    const base = this.db.selectFrom('webhooks.attempts as a').where('a.webhook_id', '=', id).where('a.tenant_id', '=', tenantId);
    const [rows, count] = await Promise.all([
      base
        // Every attempt belongs to a delivery (a foreign key): its state now says whether more come.
        .innerJoin('webhooks.deliveries as d', 'd.id', 'a.delivery_id')
        .selectAll('a')
        .select(['d.status as delivery_status', 'd.next_attempt_at'])
        .orderBy('a.attempted_at', 'desc')
        .orderBy('a.attempt', 'desc')
        .orderBy('a.id')
        .limit(limit)
        .offset((page - 1) * limit)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return {
      items: rows.map((r) => ({
        id: r.id,
        webhookId: r.webhook_id,
        deliveryId: r.delivery_id,
        eventId: r.event_id,
        event: r.event_type,
        attempt: r.attempt,
        statusCode: r.status_code,
        success: r.success,
        ...(r.error === null ? {} : { error: r.error }),
        responseTime: r.response_time_ms,
        attemptedAt: iso(r.attempted_at)!,
        deliveryStatus: r.delivery_status,
        nextAttemptAt: r.delivery_status === 'pending' ? iso(r.next_attempt_at) : null,
      })),
      total: Number(count.n),
    };
  }

  /**
   * Sends a delivery again (one the receiver missed, failed or got): it is pending, due now, with
   * its stored payload signed afresh. An attempt that fails is retried on the usual schedule while
   * the delivery's attempts stay under five, else it is failed again. The webhook must be active
   * (WEBHOOK_INACTIVE), the delivery not pending already (DELIVERY_PENDING).
   */
  async redeliver(tenantId: string, id: string, deliveryId: string): Promise<RedeliveryView> {
    return this.db.transaction().execute(async (tx) => {
      // Held against a concurrent deactivation, which then cancels this delivery with the others.
      const endpoint = await tx
        .selectFrom('webhooks.endpoints')
        .select('is_active')
        .where('id', '=', id)
        .where('tenant_id', '=', tenantId)
        .where('deleted_at', 'is', null)
        .forShare()
        .executeTakeFirst();
      if (!endpoint) throw notFound(id);
      const delivery = await tx
        .selectFrom('webhooks.deliveries')
        .select(['status', 'next_attempt_at'])
        .where('id', '=', deliveryId)
        .where('webhook_id', '=', id)
        .where('tenant_id', '=', tenantId)
        .forUpdate()
        .executeTakeFirst();
      if (!delivery) throw new DomainError('NOT_FOUND', `webhook ${id} has no delivery ${deliveryId} (or its history was pruned)`);
      if (!endpoint.is_active) throw new DomainError('WEBHOOK_INACTIVE', `webhook ${id} is inactive: activate it (isActive: true) first`);
      if (delivery.status === 'pending') {
        const at = delivery.next_attempt_at === null ? 'now' : `at ${iso(delivery.next_attempt_at)}`;
        throw new DomainError('DELIVERY_PENDING', `delivery ${deliveryId} is pending already: its next attempt is due ${at}`);
      }
      const row = await tx
        .updateTable('webhooks.deliveries')
        .set({ status: 'pending', next_attempt_at: sql<string>`now()`, updated_at: sql<string>`now()`, redelivered_at: sql<string>`now()` })
        .where('id', '=', deliveryId)
        .returning(['event_id', 'event_type', 'next_attempt_at'])
        .executeTakeFirstOrThrow();
      return {
        deliveryId,
        eventId: row.event_id,
        event: row.event_type,
        deliveryStatus: 'pending' as const,
        nextAttemptAt: iso(row.next_attempt_at)!,
      };
    });
  }

  /** Sends a signed `webhook.test` delivery now (active or not) and records it in the history. */
  async test(tenantId: string, id: string): Promise<TestResult> {
    const endpoint = await this.row(tenantId, id);
    const eventId = randomUUID();
    const payload = JSON.stringify({
      id: eventId,
      type: 'webhook.test',
      created_at: new Date().toISOString(),
      data: { webhookId: id, message: 'A test delivery from consent-ledger' },
    });
    const delivery = { id: randomUUID(), tenant_id: tenantId, webhook_id: id, event_id: eventId, event_type: 'webhook.test' };
    const seal = sealOf(this.secrets, { ...delivery, payload });
    // Recorded before it is sent, with no due time: the dispatcher never sends it, and records it
    // failed only if a process stopped mid-send left it so (settleInterruptedTests).
    await this.db
      .insertInto('webhooks.deliveries')
      .values({ ...delivery, payload, seal, status: 'pending', next_attempt_at: null })
      .execute();
    const attemptedAt = new Date();
    const secret = storedSecret(this.secrets, id, endpoint);
    const result = await sendDelivery(this.client, { ...delivery, url: endpoint.url, secret, payload, seal }, this.options.checks);
    await recordAttempt(this.db, delivery, result, attemptedAt, { retryScale: this.options.retryScale, final: true });
    return {
      delivered: result.ok,
      statusCode: result.statusCode,
      responseTime: result.responseTimeMs,
      message: result.ok ? `the receiver answered ${result.statusCode}` : `not delivered: ${result.error ?? 'no 2xx answer'}`,
    };
  }
}
