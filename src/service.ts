import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { EMBEDDED_STREAM_PAGE_ROWS, STREAM_PAGE_ROWS } from '../projections/consents/consents.queries.js';
import { eventIndexProjector } from '../projections/event-index/event-index.projector.js';
import { allProjectors } from '../projections/index.js';
import { ensureReadSchema } from '../projections/read-schema.js';
import { ReadFence } from '../projections/read-fence.js';
import { ProjectionRunner, type RunnerLog } from '../projections/runner.js';
import { ConsentService } from './application/consents.js';
import { PolicyService } from './application/policies.js';
import type { Settings } from './config.js';
import { buildApp } from './http/app.js';
import { LedgerUnavailableError, type Ledger, type LedgerPosition } from './ledger/ledger.port.js';
import type { connectEventStoreLedger } from './ledger/eventstoredb/index.js';
import { hasDurableFeeds, isPingable, isWatchable } from './ledger/ledger-feeds.js';
import { ObservedLedger } from './ledger/observed-ledger.js';
import { SharedReads } from './ledger/shared-reads.js';
import { generatedKeyWarning, loadMasterKey, Privacy, SubjectErasure } from './privacy/index.js';
import { MemoryCounterStore } from './limits/counter-store.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { RedisCounterStore } from './limits/redis-counter-store.js';
import { PostgresLedger } from './ledger/postgres/postgres.ledger.js';
import { ReceiptStore } from './receipts/receipt.store.js';
import { ReceiptService } from './receipts/receipts.service.js';
import { MIGRATIONS } from './migrations.js';
import { openStore, type Store } from './store/store.js';
import { listenForTenantChanges } from './tenants/tenant-changes.js';
import { TenantService } from './tenants/tenants.service.js';
import { createTransparency, proofIncludes, type Sealer, type TransparencyService } from './transparency/index.js';
import { createWebhooks, type Webhooks, type WebhooksOptions } from './webhooks/index.js';

export interface Service {
  settings: Settings;
  app: FastifyInstance;
  store: Store;
  ledger: Ledger;
  runner: ProjectionRunner;
  tenants: TenantService;
  policies: PolicyService;
  consents: ConsentService;
  receipts: ReceiptService;
  /** Key store and sealing of personal fields; erasure on request (docs/erasure.md). */
  privacy: Privacy;
  erasure: SubjectErasure;
  limiter: RateLimiter;
  /** Webhook configurations, the ledger subscription and the dispatcher (docs/webhooks.md). */
  webhooks: Webhooks;
  /** Per-tenant Merkle log: signed checkpoints and proofs (docs/verifying.md); `sealer` keeps it up with the ledger. */
  transparency: TransparencyService;
  sealer: Sealer;
  /** Stops taking requests, finishes those in flight, stops the runners, closes the stores. */
  close(): Promise<void>;
}

/**
 * Lets `app.close()` end once the requests in flight are answered. Node keeps a keep-alive
 * connection open after its response, and Fastify closes only the connections idle when close
 * begins: a client whose request was in flight then holds the server, and the exit, for the
 * keep-alive timeout (72 s). While draining, answers carry `Connection: close` and every
 * connection left idle is closed.
 */
function drainKeepAlive(app: FastifyInstance): { start(): void } {
  let draining = false;
  const open = new Set<ServerResponse>();
  app.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    if (draining && !response.headersSent) response.setHeader('connection', 'close');
    open.add(response);
    response.once('close', () => {
      open.delete(response);
      if (draining) app.server.closeIdleConnections();
    });
  });
  return {
    start() {
      draining = true;
      for (const response of open) if (!response.headersSent) response.setHeader('connection', 'close');
    },
  };
}

/** How long a read waits for the read models to catch up with the caller's own writes. */
const READ_FENCE_MS = 5_000;
/** The least time between the starts of two poked batches of one follower (see PokeLoop). */
const FOLLOWER_SPACING_MS = 50;
/** How long erasure and the transparency log wait for read.event_index (EventStoreDB ledger) before answering 503. */
const INDEX_FENCE_MS = 15_000;

/**
 * Wires the service from its settings: store → ledger → read models → runners → HTTP app.
 * Nothing else wires; `main.ts` only adds listening and signals.
 */
export async function createService(
  settings: Settings,
  options: {
    logger?: FastifyServerOptions['logger'];
    log?: RunnerLog;
    pollMs?: number;
    /** Spacing of the followers' poked batches (FOLLOWER_SPACING_MS unless given). */
    followerSpacingMs?: number;
    /** Webhooks: tests pass a resolver (DNS rebinding), a CA or dispatcher sizes. */
    webhooks?: WebhooksOptions;
    /** Rate-limit counter keys start with `prefix` (tests keep theirs apart); `clock` is for tests. */
    limits?: { prefix?: string; clock?: () => number };
  } = {},
): Promise<Service> {
  const store = await openStore({ databaseUrl: settings.databaseUrl, dataDir: settings.dataDir, migrations: MIGRATIONS });
  // EVENTSTORE_URL puts the ledger on EventStoreDB; the store keeps everything else (docs/architecture.md).
  let eventStore: Awaited<ReturnType<typeof connectEventStoreLedger>> | undefined;
  try {
    if (settings.eventStoreUrl) {
      // Loaded only then: the embedded and PostgreSQL starts never load the client and its native bridge.
      const { connectEventStoreLedger: connect } = await import('./ledger/eventstoredb/index.js');
      eventStore = await connect(settings.eventStoreUrl, { streamPrefix: settings.eventStoreStreamPrefix });
    }
    await ensureReadSchema(store.db);
    // Personal fields are sealed under per-subject keys wrapped by the master key (docs/erasure.md).
    const master = loadMasterKey(settings);
    if (master.source === 'generated') process.stderr.write(`${generatedKeyWarning(master.path!)}\n`);
    const privacy = await Privacy.open(store.db, master.key);
    const appended = {
      runner: undefined as ProjectionRunner | undefined,
      webhooks: undefined as Webhooks | undefined,
      sealer: undefined as Sealer | undefined,
      fence: undefined as ReadFence | undefined,
    };
    // Runners log through the app's logger once it exists (or the one given).
    let appLog: RunnerLog | undefined = options.log;
    const log: RunnerLog = {
      warn: (o, m) => appLog?.warn(o, m),
      error: (o, m) => appLog?.error(o, m),
    };
    // Each append wakes the projectors at once, so reads catch up in milliseconds.
    const baseLedger: Ledger = eventStore?.ledger ?? new PostgresLedger(store.db);
    const ledger = new ObservedLedger(baseLedger, (_position, result) => {
      appended.fence?.appended(result);
      appended.runner?.poke();
      appended.webhooks?.poke();
      appended.sealer?.poke();
    });
    // A ledger outside the store (EventStoreDB) is indexed into read.event_index, where erasure and
    // the transparency log find events by subject or id (docs/decisions/0005-eventstoredb-ledger.md).
    // The followers (runner, sealer) read and write through the store's follower handle: their
    // batches do not queue behind the requests (read-your-writes and proofs wait for them). The
    // three followers (with the webhook subscription) read the ledger once between them.
    // Under a stream of appends each follower batch waits until FOLLOWER_SPACING_MS after the
    // previous one began (not while a reader or a proof waits for it): batches of that many
    // milliseconds of events instead of one append's, a few statements each.
    const spacing = options.followerSpacingMs ?? FOLLOWER_SPACING_MS;
    const follower = { db: store.followerDb, ledger: new SharedReads(eventStore ? ledger : new PostgresLedger(store.followerDb)) };
    const runner = new ProjectionRunner(
      follower.db,
      follower.ledger,
      eventStore ? [...allProjectors, eventIndexProjector] : allProjectors,
      {
        log,
        pollMs: options.pollMs ?? (store.kind === 'embedded' ? 1000 : 250),
        minIntervalMs: spacing,
        // On PGlite a statement holds the event loop while it runs: smaller batches there.
        batchSize: store.kind === 'embedded' ? 500 : 2000,
      },
    );
    appended.runner = runner;
    // Read-your-writes: the embedded store's ledger is written by this process only, so the fence
    // knows each tenant's last write; a server's ledger is asked for the tenant's head.
    const fence = new ReadFence(ledger, runner, { soleWriter: store.kind === 'embedded' && !eventStore, timeoutMs: READ_FENCE_MS, log });
    appended.fence = fence;
    await runner.start();
    const indexPassed = (position: LedgerPosition) => runner.waitFor(position, INDEX_FENCE_MS);
    const indexFence = async (tenantId: string) => {
      const head = await ledger.headPosition(tenantId);
      if (head && !(await indexPassed(head))) throw new LedgerUnavailableError('the event index lags behind the ledger; try again');
    };
    const webhooks = createWebhooks(store.db, ledger, settings, {
      log,
      pollMs: options.pollMs ?? (store.kind === 'embedded' ? 1000 : 250),
      minIntervalMs: spacing,
      ...options.webhooks,
      privacy,
      reads: follower.ledger,
      // EventStoreDB: delivery rows from a persistent subscription to $all (ack after commit).
      ...(hasDurableFeeds(baseLedger) ? { feed: baseLedger, indexPassed } : {}),
    });
    appended.webhooks = webhooks;
    await webhooks.start();
    // Each append wakes the sealer too: a record is provable within a second of its write.
    const { transparency, sealer } = await createTransparency({
      db: store.db,
      ledger,
      follower,
      publicBaseUrl: settings.publicBaseUrl,
      signingKey: settings.transparencySigningKey,
      log,
      pollMs: options.pollMs ?? 250,
      minIntervalMs: spacing,
      ...(eventStore ? { indexFence } : {}),
    });
    appended.sealer = sealer;
    await sealer.start();
    // A follower answered from a read that began before its events were appended hears of them here.
    follower.ledger.onGrow(() => {
      runner.poke();
      webhooks.poke();
      sealer.poke();
    });
    // A ledger that pushes (EventStoreDB) wakes the followers for appends made by other processes too.
    const watching = isWatchable(baseLedger)
      ? baseLedger.watch(() => {
          runner.poke();
          webhooks.poke();
          sealer.poke();
        }, log)
      : undefined;
    const tenants = new TenantService(store.db);
    // Several processes may share a PostgreSQL server: a plan or key change made by one (or by the
    // CLI) reaches the others' key caches through NOTIFY. The embedded store has one process only.
    const tenantChanges =
      store.kind === 'postgres' && settings.databaseUrl
        ? listenForTenantChanges(settings.databaseUrl, (id) => tenants.invalidate(id), log)
        : undefined;
    if (tenantChanges) await Promise.race([tenantChanges.ready, new Promise((r) => setTimeout(r, 5_000).unref())]);
    const policies = new PolicyService(ledger);
    const consents = new ConsentService(ledger, privacy);
    const receiptStore = new ReceiptStore(store.db);
    const erasure = new SubjectErasure(store.db, ledger, privacy, receiptStore, undefined, eventStore ? { fence: indexFence } : undefined);
    const receipts = new ReceiptService(ledger, consents, receiptStore, settings.publicBaseUrl, undefined, {
      source: transparency,
      verify: proofIncludes,
    });
    // One process counts in memory; with REDIS_URL every process shares the counters.
    const limiter = new RateLimiter(
      settings.redisUrl
        ? new RedisCounterStore(settings.redisUrl, { warn: (o, m) => log.warn(o, m) }, { clock: options.limits?.clock })
        : new MemoryCounterStore(options.limits?.clock),
      options.limits ?? {},
    );
    const app = await buildApp(
      {
        settings,
        db: store.db,
        tenants,
        policies,
        consents,
        receipts,
        privacy,
        erasure,
        webhooks: webhooks.service,
        transparency,
        limiter,
        readFence: (tenantId) => fence.wait(tenantId),
        exportPageRows: store.kind === 'embedded' ? EMBEDDED_STREAM_PAGE_ROWS : STREAM_PAGE_ROWS,
        async ready() {
          const ok = await store.ping().then(
            () => true,
            () => false,
          );
          const ledgerOk = isPingable(baseLedger)
            ? await baseLedger.ping().then(
                () => true,
                () => false,
              )
            : ok;
          return { ledger: ledgerOk, readStore: ok };
        },
      },
      { logger: options.logger ?? false },
    );
    appLog ??= app.log;
    const drain = drainKeepAlive(app);
    let closed = false;
    return {
      settings,
      app,
      store,
      ledger,
      runner,
      tenants,
      policies,
      consents,
      receipts,
      privacy,
      erasure,
      webhooks,
      transparency,
      sealer,
      limiter,
      async close() {
        if (closed) return;
        closed = true;
        drain.start();
        await app.close();
        // No new delivery rows, then attempts in flight end (or are left to retry), before the store closes.
        await webhooks.stop();
        await limiter.close();
        await tenantChanges?.close();
        await watching?.close();
        await runner.stop();
        await sealer.stop();
        await privacy.close();
        await eventStore?.close();
        await store.close();
      },
    };
  } catch (error) {
    await eventStore?.close().catch(() => undefined);
    await store.close();
    throw error;
  }
}
