import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { sql, type Kysely } from 'kysely';
import { silentLog, type Log } from '../common/log.js';
import type { Database } from '../store/schema.js';
import { PokeLoop } from '../common/poke-loop.js';
import type { GuardedClient, OutboundResult } from './outbound.js';
import { NOT_SEALED, sealHolds, type DeliverySealer } from './delivery-seal.js';
import { signatureHeaders, storedSecret, type SecretBox } from './signing.js';
import { webhooksDb, type WebhooksDb } from './webhooks.table.js';

/** Attempts per delivery; after the last failure the delivery is `failed`. */
export const MAX_ATTEMPTS = 5;
/** Delay before attempt n+1 after attempt n failed (n = 1..4), in seconds: +1 min, +5 min, +30 min, +2 h. */
export const RETRY_DELAYS_S = [60, 300, 1800, 7200] as const;

/** An answer faster than this earns its webhook another attempt in flight (`DispatcherOptions.perWebhook`). */
const FAST_ANSWER_MS = 1000;

export interface DispatcherOptions {
  /** WEBHOOK_RETRY_SCALE: multiplies every retry delay. */
  retryScale?: number;
  /**
   * Attempts in flight at once in this process that have been out less than a second. One out
   * longer (a receiver that hangs) leaves this count, so receivers that hang do not hold up the
   * others; it still counts against `maxInFlight` and its webhook's own slots.
   */
  concurrency?: number;
  /** Attempts in flight at once in this process, slow ones included (4 × `concurrency`). */
  maxInFlight?: number;
  /**
   * Attempts in flight at once in this process for one webhook, so one slow receiver never takes
   * every slot: `perWebhook` at first and after any attempt that failed or took a second or more,
   * one more after each that succeeded faster, up to `perWebhookMax`.
   */
  perWebhook?: number;
  perWebhookMax?: number;
  /**
   * How long a claimed delivery stays out of other workers' reach: longer than an attempt's
   * time-out. A worker killed mid-attempt leaves its claim to expire; another then retries it.
   */
  leaseMs?: number;
  pollMs?: number;
  log?: Log;
  /** Told of each attempt's result once it is recorded (the attempts by outcome on /metrics). */
  onAttempt?: (result: OutboundResult) => void;
  /**
   * What each delivery is checked against before it is sent (the same object the test route uses);
   * without it, only each row's seal, by the dispatcher's `secrets`.
   */
  checks?: SendChecks;
}

export interface Claimed {
  id: string;
  tenant_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
  /** The row's seal (delivery-seal.ts): a delivery is sent only when it holds. */
  seal: string | null;
  url: string;
  secret: string;
}

/** Told of a delivery whose seal does not hold: its row was written or changed outside the service. */
export type UnsealedHandler = (d: Pick<Claimed, 'id' | 'tenant_id' | 'webhook_id'>) => void;

/** What a delivery is checked against before it is sent. */
export interface SendChecks {
  /** Checks each row's seal: a row the service did not write as it is is not sent. */
  sealer: DeliverySealer;
  /** Holds each delivery's URL to the webhook's events; without it, deliveries go where the row says. */
  target?: TargetCheck | undefined;
  /** Told of each delivery not sent because its row's seal does not hold (delivery-seal.ts). */
  onUnsealed?: UnsealedHandler | undefined;
}

/**
 * Whether a delivery may go to its webhook's URL: null, or why not (the URL is not the one the
 * tenant's log names, or the log deleted or deactivated the webhook: its row was changed behind
 * the service, docs/verifying.md). `test`: a test delivery, which an inactive webhook takes.
 */
export type TargetCheck = (tenantId: string, webhookId: string, url: string, test: boolean) => Promise<string | null>;

/**
 * Sends one delivery, signed (docs/contract.md, Webhooks), through the guarded client: only a row
 * whose seal holds (else a failed attempt that sent nothing), and with `target`, only to a URL it
 * passes.
 *
 * @example
 * await sendDelivery(client, { id, tenant_id, url, secret, webhook_id, event_id, event_type, payload, seal }, { sealer: privacy })
 * // { ok, statusCode, responseTimeMs, error }
 */
export async function sendDelivery(
  client: GuardedClient,
  d: Pick<Claimed, 'id' | 'tenant_id' | 'url' | 'secret' | 'webhook_id' | 'event_id' | 'event_type' | 'payload' | 'seal'>,
  checks: SendChecks,
  signal?: AbortSignal,
): Promise<OutboundResult> {
  const notSent = (why: string): OutboundResult => ({ statusCode: null, ok: false, responseTimeMs: 0, error: `not sent: ${why}` });
  if (!sealHolds(checks.sealer, d)) {
    checks.onUnsealed?.(d);
    return notSent(NOT_SEALED);
  }
  const test = d.event_type === 'webhook.test';
  // A fixed phrase for a read that failed: the delivery history is the tenant's, the error's text is the store's.
  const refused = checks.target
    ? await checks.target(d.tenant_id, d.webhook_id, d.url, test).catch(() => "the webhook's events could not be read")
    : null;
  if (refused) return notSent(refused);
  const headers = signatureHeaders({
    secret: d.secret,
    webhookId: d.webhook_id,
    eventId: d.event_id,
    body: d.payload,
    timestamp: Math.floor(Date.now() / 1000),
  });
  return client.post(d.url, d.payload, headers, signal);
}

/** One attempt to record: the delivery it was for, its result, and when it began. */
/** The error of a test delivery whose process stopped while sending it. */
export const INTERRUPTED_TEST =
  'the service stopped before the answer to this test delivery was recorded (it may have reached the receiver)';

export interface Attempt {
  delivery: Pick<Claimed, 'id' | 'tenant_id' | 'webhook_id' | 'event_id' | 'event_type'>;
  result: OutboundResult;
  attemptedAt: Date;
}

/**
 * Records one attempt and decides what comes next, in one transaction: `delivered` on a 2xx,
 * else a retry at the scaled delay, or `failed` after the fifth attempt. `final` (the test route)
 * makes a failure final at once. Answers the attempt's number, or null when the delivery is gone.
 */
export async function recordAttempt(
  db: WebhooksDb,
  d: Attempt['delivery'],
  result: OutboundResult,
  attemptedAt: Date,
  options: { retryScale: number; final?: boolean },
): Promise<number | null> {
  const [attempt] = await recordAttempts(db, [{ delivery: d, result, attemptedAt }], options);
  return attempt ?? null;
}

/**
 * Records attempts on different deliveries as `recordAttempt` does each, in one transaction of
 * five statements whatever their number: recorded one by one, an attempt costs the embedded store
 * about 2.8 ms and the server 1.8 ms; in groups of 32, 0.6 and 0.25 ms (docs/webhooks.md).
 * Answers each attempt's number, in order, or null for a delivery that is gone.
 */
export async function recordAttempts(
  db: WebhooksDb,
  attempts: readonly Attempt[],
  options: { retryScale: number; final?: boolean },
): Promise<(number | null)[]> {
  if (attempts.length === 0) return [];
  const ids = attempts.map((a) => a.delivery.id);
  if (new Set(ids).size !== ids.length) throw new Error('recordAttempts: one attempt per delivery');
  return db.transaction().execute(async (tx) => {
    // In id order, so that two writers locking some of the same rows never wait on each other in a cycle.
    const rows = await tx
      .selectFrom('webhooks.deliveries')
      .select(['id', 'status', 'attempts'])
      .where('id', 'in', ids)
      .orderBy('id')
      .forUpdate()
      .execute();
    const found = new Map(rows.map((r) => [r.id, r]));
    const recorded = attempts.flatMap(({ delivery: d, result, attemptedAt }) => {
      const row = found.get(d.id);
      if (!row) return [];
      const attempt = row.attempts + 1;
      let status = row.status;
      let next: number | null = null;
      // A delivery cancelled while its attempt was on the way (the webhook deactivated or deleted
      // meanwhile) that the receiver took was delivered; one it refused stays cancelled.
      if (status === 'cancelled' && result.ok) status = 'delivered';
      else if (status === 'pending') {
        if (result.ok) status = 'delivered';
        else if (attempt >= MAX_ATTEMPTS || options.final) status = 'failed';
        else next = (RETRY_DELAYS_S[attempt - 1] ?? 0) * options.retryScale;
      }
      const values = {
        id: randomUUID(),
        delivery_id: d.id,
        tenant_id: d.tenant_id,
        webhook_id: d.webhook_id,
        event_id: d.event_id,
        event_type: d.event_type,
        attempt,
        status_code: result.statusCode,
        success: result.ok,
        error: result.ok ? null : (result.error ?? 'failed').slice(0, 1000),
        response_time_ms: result.responseTimeMs,
        attempted_at: attemptedAt.toISOString(),
      };
      return [{ values, status, next }];
    });
    if (recorded.length === 0) return attempts.map(() => null);
    await tx
      .insertInto('webhooks.attempts')
      .values(recorded.map((r) => r.values))
      .execute();
    const changes = recorded.map(
      (r) => sql`(${r.values.delivery_id}::uuid, ${r.values.attempt}::integer, ${r.status}::text, ${r.next}::float8)`,
    );
    await sql`
      UPDATE webhooks.deliveries d
      SET attempts = c.attempts, status = c.status, updated_at = now(),
          next_attempt_at = CASE WHEN c.next IS NULL THEN NULL ELSE now() + make_interval(secs => c.next) END
      FROM (VALUES ${sql.join(changes)}) AS c(id, attempts, status, next)
      WHERE d.id = c.id`.execute(tx);
    const numbers = new Map(recorded.map((r) => [r.values.delivery_id, r.values.attempt]));
    return attempts.map((a) => numbers.get(a.delivery.id) ?? null);
  });
}

/**
 * Records a dispatcher's attempts in groups, with no timer: an attempt that ends while none is
 * being recorded is recorded at once; those that end meanwhile wait and go in the next group
 * together (up to `max`, one per delivery). Each caller learns whether its own was recorded.
 */
export class AttemptRecorder {
  private readonly queue: { attempt: Attempt; settle: (error?: unknown) => void }[] = [];
  private running = false;

  constructor(
    private readonly write: (attempts: Attempt[]) => Promise<unknown>,
    private readonly max = 64,
  ) {}

  record(attempt: Attempt): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ attempt, settle: (error) => (error === undefined ? resolve() : reject(error as Error)) });
      if (!this.running) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.queue.length > 0) {
      // A delivery claimed again while its earlier attempt waits here goes in a later group.
      const group: typeof this.queue = [];
      const ids = new Set<string>();
      for (let i = 0; i < this.queue.length && group.length < this.max;) {
        const entry = this.queue[i]!;
        if (ids.has(entry.attempt.delivery.id)) i++;
        else {
          ids.add(entry.attempt.delivery.id);
          group.push(entry);
          this.queue.splice(i, 1);
        }
      }
      try {
        await this.write(group.map((g) => g.attempt));
        for (const g of group) g.settle();
      } catch (error) {
        for (const g of group) g.settle(error ?? new Error('not recorded'));
      }
    }
    this.running = false;
  }
}

/**
 * Up to `limit` webhooks, in id order after `after` (from the first when null) and up to `upTo`,
 * that are active and have a delivery due, skipping `saturated`. It steps from one webhook with
 * deliveries pending to the next on the index (a few probes each), so its cost follows the
 * number of such webhooks, not the number of deliveries waiting. The checks are scalar subqueries,
 * not EXISTS: an EXISTS may become a hash join that returns the webhooks out of id order, and the
 * limit then keeps whichever came first, skipping the same webhook turn after turn.
 */
export async function dueWebhooks(
  db: WebhooksDb,
  o: { after: string | null; upTo: string | null; saturated: string[]; limit: number },
): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE pending(id) AS (
      (SELECT webhook_id FROM webhooks.deliveries
       WHERE status = 'pending' AND (${o.after}::uuid IS NULL OR webhook_id > ${o.after}::uuid)
       ORDER BY webhook_id LIMIT 1)
      UNION ALL
      SELECT (SELECT d.webhook_id FROM webhooks.deliveries d
              WHERE d.status = 'pending' AND d.webhook_id > p.id ORDER BY d.webhook_id LIMIT 1)
      FROM pending p WHERE p.id IS NOT NULL AND (${o.upTo}::uuid IS NULL OR p.id < ${o.upTo}::uuid)
    )
    SELECT p.id FROM pending p
    WHERE p.id IS NOT NULL AND (${o.upTo}::uuid IS NULL OR p.id <= ${o.upTo}::uuid)
      AND NOT (p.id = ANY(${o.saturated}::uuid[]))
      AND (SELECT e.is_active AND e.deleted_at IS NULL FROM webhooks.endpoints e WHERE e.id = p.id)
      AND (SELECT true FROM webhooks.deliveries d
           WHERE d.webhook_id = p.id AND d.status = 'pending' AND d.next_attempt_at <= now() LIMIT 1)
    LIMIT ${o.limit}`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * Competing workers over the due deliveries: each claims a few rows (FOR UPDATE SKIP LOCKED, in a
 * short transaction that pushes them out by a lease), sends them concurrently with no transaction
 * open, and records each attempt. A hanging receiver holds at most `perWebhook` slots, for at
 * most the attempt time-out (one that answered fast until then, its earned slots up to
 * `perWebhookMax`, until that time-out takes them back); a fast one earns more.
 *
 * @example
 * const dispatcher = new WebhookDispatcher(db, client, privacy, { retryScale: 1 });
 * dispatcher.start();
 */
export class WebhookDispatcher {
  private readonly db: WebhooksDb;
  private readonly loop: PokeLoop;
  private readonly inFlight = new Map<string, { webhookId: string; done: Promise<void>; slow: boolean }>();
  private readonly abort = new AbortController();
  private readonly retryScale: number;
  private readonly concurrency: number;
  private readonly maxInFlight: number;
  private readonly perWebhook: number;
  private readonly perWebhookMax: number;
  /** Webhooks whose receivers answered fast: how many attempts each may have in flight (else `perWebhook`). */
  private readonly allowance = new Map<string, number>();
  /** The webhook served last: the next claim starts with the one after it. */
  private cursor: string | null = null;
  private readonly leaseMs: number;
  private readonly onAttempt: DispatcherOptions['onAttempt'];
  private readonly checks: SendChecks;
  private readonly log: Log;
  private readonly recorder: AttemptRecorder;
  /** When to look next for test deliveries a stopped process left unanswered (at the first step, then once a lease). */
  private nextSweepAt = 0;

  constructor(
    db: Kysely<Database>,
    private readonly client: GuardedClient,
    /** Opens the signing secrets, stored wrapped with the master key, and checks the rows' seals. */
    private readonly secrets: SecretBox & DeliverySealer,
    options: DispatcherOptions = {},
  ) {
    this.db = webhooksDb(db);
    this.retryScale = options.retryScale ?? 1;
    this.concurrency = options.concurrency ?? 32;
    this.maxInFlight = Math.max(this.concurrency, options.maxInFlight ?? this.concurrency * 4);
    // Every attempt in flight listens for the stop: as many listeners as attempts, not a leak.
    setMaxListeners(this.maxInFlight + 16, this.abort.signal);
    this.perWebhook = options.perWebhook ?? 4;
    this.perWebhookMax = Math.max(this.perWebhook, options.perWebhookMax ?? 16);
    this.leaseMs = options.leaseMs ?? 15_000;
    this.onAttempt = options.onAttempt;
    this.checks = options.checks ?? { sealer: secrets };
    this.log = options.log ?? silentLog;
    this.recorder = new AttemptRecorder((attempts) => recordAttempts(this.db, attempts, { retryScale: this.retryScale }));
    this.loop = new PokeLoop('webhook dispatcher', () => this.step(), { pollMs: options.pollMs ?? 250, log: this.log });
  }

  start(): void {
    this.loop.start();
  }

  poke(): void {
    this.loop.poke();
  }

  /**
   * Stops claiming, gives attempts in flight `graceMs` to end, then aborts the rest: those are
   * not recorded, and their claims expire, so another worker (or the next start) retries them.
   */
  async stop(graceMs = 2000): Promise<void> {
    await this.loop.stop();
    const all = Promise.all([...this.inFlight.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([all, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.abort.abort();
    await all;
  }

  private async step(): Promise<{ more: boolean; waitMs?: number }> {
    await this.settleInterruptedTests();
    let fast = 0;
    for (const f of this.inFlight.values()) if (!f.slow) fast += 1;
    const free = Math.min(this.concurrency - fast, this.maxInFlight - this.inFlight.size);
    if (free <= 0) return { more: false };
    const busy = new Map<string, number>();
    for (const f of this.inFlight.values()) busy.set(f.webhookId, (busy.get(f.webhookId) ?? 0) + 1);
    const saturated = [...busy].filter(([id, n]) => n >= this.slotsOf(id)).map(([id]) => id);
    const claimed = await this.claim(free, busy, saturated);
    for (const d of claimed) this.launch(d);
    if (claimed.length > 0 && claimed.length >= free) return { more: false };
    // Sleep until the next delivery falls due (a scaled retry may be milliseconds away).
    const next = await this.db
      .selectFrom('webhooks.deliveries')
      .select(sql<number | null>`(EXTRACT(EPOCH FROM (min(next_attempt_at) - now())) * 1000)::float8`.as('ms'))
      .where('status', '=', 'pending')
      .where('next_attempt_at', 'is not', null)
      .executeTakeFirst();
    const ms = next?.ms;
    return { more: false, ...(ms === null || ms === undefined ? {} : { waitMs: Math.max(5, Number(ms)) }) };
  }

  /**
   * Claims up to `free` due deliveries, webhook by webhook in turn from the one after the last
   * served (in id order, wrapping round), each webhook up to its free slots, its most overdue
   * first. In turn, not by age alone: the overdue backlog of receivers that refuse at once would
   * otherwise take every claim, and a healthy webhook's new events would wait behind all of it.
   */
  private async claim(free: number, busy: Map<string, number>, saturated: string[]): Promise<Claimed[]> {
    return this.db.transaction().execute(async (tx) => {
      const after = this.cursor;
      const ids = await dueWebhooks(tx, { after, upTo: null, saturated, limit: free });
      if (ids.length < free && after !== null)
        ids.push(...(await dueWebhooks(tx, { after: null, upTo: after, saturated, limit: free - ids.length })));
      if (ids.length === 0) return [];
      const slots = ids.map((id) => Math.max(0, this.slotsOf(id) - (busy.get(id) ?? 0)));
      // Raw SQL: a row limit per webhook under a lock that skips rows another worker holds,
      // kept as the statement it is.
      const candidates = await sql<Claimed & { secret_wrapped: string | null }>`
        SELECT d.id, d.tenant_id, d.webhook_id, d.event_id, d.event_type, d.payload, d.seal, e.url, e.secret, e.secret_wrapped
        FROM unnest(${ids}::uuid[], ${slots}::int[]) WITH ORDINALITY AS w(id, n, turn)
        JOIN webhooks.endpoints e ON e.id = w.id
        CROSS JOIN LATERAL (
          SELECT * FROM webhooks.deliveries d
          WHERE d.webhook_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= now()
          ORDER BY d.next_attempt_at
          LIMIT w.n
          FOR UPDATE SKIP LOCKED
        ) d
        ORDER BY w.turn, d.next_attempt_at`.execute(tx);
      const chosen: Claimed[] = candidates.rows.slice(0, free).map(({ secret_wrapped, ...c }) => ({
        ...c,
        secret: storedSecret(this.secrets, c.webhook_id, { secret: c.secret, secret_wrapped }),
      }));
      if (chosen.length === 0) return [];
      this.cursor = chosen[chosen.length - 1]!.webhook_id;
      await tx
        .updateTable('webhooks.deliveries')
        .set({
          next_attempt_at: sql<string>`now() + make_interval(secs => ${this.leaseMs / 1000}::float8)`,
          updated_at: sql<string>`now()`,
        })
        .where(
          'id',
          'in',
          chosen.map((c) => c.id),
        )
        .execute();
      return chosen;
    });
  }

  /**
   * A test delivery is sent once, by the request that made it, and waits pending with no due
   * time meanwhile; one still so a lease after it was made was cut off by its process stopping
   * (kill -9): recorded failed, saying so, rather than pending for ever.
   */
  private async settleInterruptedTests(): Promise<void> {
    if (Date.now() < this.nextSweepAt) return;
    this.nextSweepAt = Date.now() + this.leaseMs;
    const left = await this.db
      .selectFrom('webhooks.deliveries')
      .select(['id', 'tenant_id', 'webhook_id', 'event_id', 'event_type', 'created_at'])
      .where('status', '=', 'pending')
      .where('next_attempt_at', 'is', null)
      .where('updated_at', '<', sql<Date>`now() - make_interval(secs => ${this.leaseMs / 1000}::float8)`)
      .limit(100)
      .execute();
    if (left.length === 0) return;
    const result = { ok: false, statusCode: null, responseTimeMs: 0, error: INTERRUPTED_TEST };
    await recordAttempts(
      this.db,
      left.map(({ created_at, ...delivery }) => ({ delivery, result, attemptedAt: new Date(created_at) })),
      { retryScale: this.retryScale, final: true },
    );
  }

  private slotsOf(webhookId: string): number {
    return this.allowance.get(webhookId) ?? this.perWebhook;
  }

  /** A receiver that answers fast earns one more slot; a failure or a slow answer takes it back to `perWebhook`. */
  private adapt(webhookId: string, result: OutboundResult): void {
    if (result.ok && result.responseTimeMs < FAST_ANSWER_MS)
      this.allowance.set(webhookId, Math.min(this.perWebhookMax, this.slotsOf(webhookId) + 1));
    else this.allowance.delete(webhookId);
  }

  private launch(d: Claimed): void {
    const entry = { webhookId: d.webhook_id, done: Promise.resolve(), slow: false };
    // Out a second: a receiver that hangs, moved out of the count the other webhooks share.
    const slow = setTimeout(() => {
      entry.slow = true;
      this.loop.poke();
    }, FAST_ANSWER_MS);
    entry.done = (async () => {
      const attemptedAt = new Date();
      const result = await sendDelivery(this.client, d, this.checks, this.abort.signal);
      if (this.abort.signal.aborted) return;
      this.adapt(d.webhook_id, result);
      try {
        await this.recorder.record({ delivery: d, result, attemptedAt });
      } catch (error) {
        // Not recorded: the claim expires and the delivery is tried again (at least once).
        this.log.error({ err: error, deliveryId: d.id, webhookId: d.webhook_id }, 'could not record a webhook attempt; it will be retried');
        return;
      }
      // Counted once its row says so: a scrape never sees an attempt its delivery does not show, nor one it never will.
      this.onAttempt?.(result);
    })().finally(() => {
      clearTimeout(slow);
      this.inFlight.delete(d.id);
      this.loop.poke();
    });
    this.inFlight.set(d.id, entry);
  }
}
