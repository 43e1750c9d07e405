import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { eventIndexProjector } from '../projections/event-index/event-index.projector.js';
import { allProjectors } from '../projections/index.js';
import { ensureReadSchema, READ_MODELS_REBUILT } from '../projections/read-schema.js';
import { eventIndexFence, ReadFence } from '../projections/read-fence.js';
import { ProjectionRunner } from '../projections/runner.js';
import { advisoryExclusive, DEADLINES_LOCK, ReadModelCheck, WEBHOOK_HISTORY_LOCK } from '../projections/verify.js';
import { CommandHandler } from './application/command-handler.js';
import { createApplication } from './application/index.js';
import type { ConsentCommands } from './application/consents/consent.commands.js';
import type { ConsentQueries } from './application/consents/consent.queries.js';
import { StandardRecords } from './export/standard-records.js';
import type { PolicyCommands } from './application/policies/policy.commands.js';
import type { PolicyQueries } from './application/policies/policy.queries.js';
import { SubjectErasure } from './application/subjects/erasure.js';
import { Deadlines } from './application/deadlines.js';
import { ReadStatistics } from '../projections/statistics.js';
import { Lifecycle, type Part } from './common/lifecycle.js';
import { deferredLog, type Log } from './common/log.js';
import type { Settings } from './config.js';
import { Follower } from './followers/follower.js';
import { FollowerHost } from './followers/host.js';
import { followerLag, LAG_COUNT_CAP } from './metrics/lag.js';
import { ServiceMetrics } from './metrics/metrics.js';
import { oldestTransactionSeconds, pendingDeliveries, witnessLag } from './metrics/readings.js';
import { SharedReads } from './followers/shared-reads.js';
import { buildApp } from './http/app.js';
import { drainKeepAlive } from './http/drain.js';
import type { Ledger } from './ledger/ledger.port.js';
import { hasDurableFeeds, isWatchable } from './ledger/ledger-feeds.js';
import { ObservedLedger } from './ledger/observed-ledger.js';
import { PostgresLedger } from './ledger/postgres/postgres.ledger.js';
import { readiness } from './ledger/readiness.js';
import { ledgerFinalThrough, subjectRecords } from './privacy/subject-events.js';
import { scrubDeliveries } from './webhooks/scrub.js';
import { MemoryCounterStore } from './limits/counter-store.js';
import { RateLimiter } from './limits/rate-limiter.js';
import { RedisCounterStore } from './limits/redis-counter-store.js';
import { configuredMasterKey, generatedKeyWarning, loadMasterKey, MasterKeyError, Privacy, sealedUnderMasterKey } from './privacy/index.js';
import { lastBackupAt } from './backup/backup-log.js';
import { takeRecordedBackup } from './backup/backup.js';
import { assertTransactionIdsBehindServer } from './ledger/postgres/transaction-ids.js';
import { ReceiptStore } from './receipts/receipt.store.js';
import { ReceiptService } from './receipts/receipts.service.js';
import { RenderThread } from './receipts/render-thread.js';
import { MIGRATIONS } from './migrations.js';
import { autovacuumNotice } from './store/autovacuum.js';
import { openStore, type Store } from './store/store.js';
import { listenForTenantChanges } from './tenants/tenant-changes.js';
import { TenantService } from './tenants/tenants.service.js';
import { ConfigEvidence } from './application/config/config-evidence.js';
import { adoptUnrecordedConfig } from './tenants/adopt-config.js';
import { NOT_SEALED, sealEarlierDeliveries } from './webhooks/delivery-seal.js';
import { ConfigLog } from './application/config/config-log.js';
import { ConsoleSessions, sessionKeyOf } from './tenants/console-sessions.js';
import {
  authenticateAppend,
  authenticatedFrom,
  configuredSigningKey,
  createTransparency,
  EventAuthenticity,
  openSigningKey,
  proofIncludes,
  signsForLog,
  type NoteSigner,
  type Sealer,
  type WitnessRelay,
  type TransparencyService,
} from './transparency/index.js';
import { tuningFor } from './tuning.js';
import { createWebhooks, type Webhooks, type WebhooksOptions } from './webhooks/index.js';
import { WebhookHistoryPruner } from './webhooks/retention.js';

export interface Service {
  settings: Settings;
  app: FastifyInstance;
  store: Store;
  ledger: Ledger;
  runner: ProjectionRunner;
  tenants: TenantService;
  /** The one command handler every command runs through. */
  commands: CommandHandler;
  policies: { commands: PolicyCommands; queries: PolicyQueries };
  consents: { commands: ConsentCommands; queries: ConsentQueries; standard: StandardRecords };
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
  /** Asks the witnesses to cosign checkpoints (WITNESSES); status() is what /ready reports. */
  witnesses: WitnessRelay;
  /** The scheduled comparison of the read models with the ledger (PROJECTIONS_VERIFY_MINUTES). */
  readModelCheck: ReadModelCheck;
  /** Expiry and re-consent deadlines turned into ledger events (docs/purposes.md). */
  deadlines: Deadlines;
  /** The ledger's followers (runner, webhook subscription, sealer), started and woken together. */
  followers: FollowerHost;
  /**
   * The first step of a SIGTERM drain: for `graceMs` it still serves, every answer with
   * `Connection: close`, so keep-alive clients leave their connections before `close` ends them
   * (a request sent on a connection as it closes is reset, with no answer).
   */
  quiesce(graceMs: number): Promise<void>;
  /** Stops taking requests, finishes those in flight, then stops every part in the reverse order of their start. */
  close(): Promise<void>;
}

export interface ServiceOptions {
  logger?: FastifyServerOptions['logger'];
  log?: Log;
  /** Every follower's and the dispatcher's poll (the store's tuning unless given). */
  pollMs?: number;
  /** Spacing of the followers' poked batches (the store's tuning unless given). */
  followerSpacingMs?: number;
  /** Webhooks: tests pass a resolver (DNS rebinding), a CA or dispatcher sizes. */
  webhooks?: Omit<WebhooksOptions, 'changes'>;
  /** Rate-limit counter keys start with `prefix` (tests keep theirs apart); `clock` is for tests. */
  limits?: { prefix?: string; clock?: () => number };
  /** Tests: called before each part starts (a start that fails part-way). */
  beforeStart?: (part: Part) => Promise<void> | void;
}

/**
 * Wires the service from its settings, as parts started in order and stopped in reverse: store →
 * ledger client → privacy → webhook dispatcher → followers → ledger watch → tenant-change listener
 * → limiter → app. If a start fails, what started is stopped, in reverse. `main.ts` only adds
 * listening and signals.
 *
 * @example
 * const service = await createService(loadSettings(process.env));
 * await service.app.listen({ port: 3000 });
 * await service.close();
 */
export async function createService(settings: Settings, options: ServiceOptions = {}): Promise<Service> {
  const life = new Lifecycle(options.beforeStart ? { beforeStart: options.beforeStart } : {});
  return life.build(async () => {
    // The key files the settings name are read first: one that does not read stops the start
    // before the store, or a generated key, is made.
    configuredMasterKey(settings);
    configuredSigningKey(settings);
    const store = await life.open(
      'store',
      () =>
        openStore({
          databaseUrl: settings.databaseUrl,
          dataDir: settings.dataDir,
          migrations: MIGRATIONS,
          vacuum: { everyMs: settings.embeddedVacuumMinutes * 60_000 },
        }),
      (s) => s.close(),
    );
    // A ledger in this store must be older than the server's transactions (a dump restored elsewhere is not).
    if (!settings.eventStoreUrl) await assertTransactionIdsBehindServer(store.db);
    // A server without autovacuum never vacuums the tables updated on every batch: say so at start.
    const unvacuumed = store.kind === 'postgres' ? await autovacuumNotice(store.db) : null;
    if (unvacuumed) process.stderr.write(`${unvacuumed}\n`);
    const tuning = tuningFor(store.kind, options);
    // Personal fields are sealed under per-subject keys wrapped by the master key (docs/erasure.md).
    // Checked before the signing key is opened, which may write (a new name): a refused start writes nothing there.
    const master = loadMasterKey(settings, { mayGenerate: !(await sealedUnderMasterKey(store.db)) });
    if (master.source === 'generated') process.stderr.write(`${generatedKeyWarning(master.path!)}\n`);
    const privacy = await life.open(
      'privacy',
      // Sharing a server with other processes: an erasure by one takes effect on all before it answers.
      () => Privacy.open(store.db, master.key, { shared: store.kind === 'postgres' }),
      (p) => p.close(),
    );
    // The log's signing key comes from outside the store, and must be the log's current key; it
    // signs the checkpoints and every append (docs/verifying.md).
    const signing = await openSigningKey(store.db, settings);
    for (const notice of signing.notices) process.stderr.write(`${notice}\n`);
    // What this process authenticates, the sealer need not verify again (EventAuthenticity.made).
    let made: (hashes: readonly string[], authenticators: readonly string[]) => void = () => undefined;
    // Its public key: the PostgreSQL ledger appends only while it is the log's current key.
    const authenticate = Object.assign(
      (hashes: readonly string[]) => {
        const authenticators = authenticateAppend(signing.signer, hashes);
        made(hashes, authenticators);
        return authenticators;
      },
      { publicKey: signing.signer.publicKey.toString('base64') },
    );
    // EVENTSTORE_URL puts the ledger on EventStoreDB; the store keeps everything else (docs/architecture.md).
    const eventStore = settings.eventStoreUrl
      ? await life.open(
          'ledger client',
          async () => {
            // Loaded only then: the embedded and PostgreSQL starts never load the client and its native bridge.
            const { connectEventStoreLedger } = await import('./ledger/eventstoredb/index.js');
            return connectEventStoreLedger(settings.eventStoreUrl!, { streamPrefix: settings.eventStoreStreamPrefix, authenticate });
          },
          (client) => client.close(),
        )
      : undefined;
    // A read model that changed shape is rebuilt from the ledger by the projectors; say so, as a
    // large ledger takes a while and reads answer X-Read-Models-Behind meanwhile.
    if ((await ensureReadSchema(store.db)).recreated) process.stderr.write(`${READ_MODELS_REBUILT}\n`);
    // Background parts log through the app's logger once it exists (or the one given).
    const log = deferredLog(options.log);
    // Counted by the parts that do the work, served at /metrics (docs/operations.md).
    const metrics = new ServiceMetrics();
    const onHorizonDoubt = (outcome: 'read_again' | 'held_back') => metrics.ledgerHorizonDoubts.inc({ outcome });
    const baseLedger: Ledger =
      eventStore?.ledger ??
      new PostgresLedger(store.db, {
        authenticate,
        bulk: store.bulk,
        onGroup: (appends, events) => {
          metrics.ledgerGroupAppends.observe(appends);
          metrics.ledgerGroupEvents.observe(events);
        },
        onHorizonDoubt,
      });
    // Events past where authenticators began must carry one that verifies (sealer, verification).
    const authenticity = new EventAuthenticity(
      store.db,
      await authenticatedFrom(store.db, baseLedger, (message) => process.stderr.write(`${message}\n`)),
      signing.signer.publicKey.toString('base64'),
    );
    await authenticity.reload();
    made = (hashes, authenticators) => authenticity.made(hashes, authenticators);
    const ledger = new ObservedLedger(baseLedger);
    ledger.timed = (seconds) => metrics.ledgerAppend.observe(seconds);
    // The followers read the ledger once between them (SharedReads) and write through the store's
    // follower handle, so that their batches do not queue behind the requests.
    const reads = new SharedReads(eventStore ? ledger : new PostgresLedger(store.followerDb, { onHorizonDoubt }));
    const spacing = { minIntervalMs: tuning.followerSpacingMs };
    // A ledger outside the store (EventStoreDB) is indexed into read.event_index, where erasure and
    // the transparency log find events by subject or id (docs/decisions/0005-eventstoredb-ledger.md).
    const runner = new ProjectionRunner(store.followerDb, reads, eventStore ? [...allProjectors, eventIndexProjector] : allProjectors, {
      log,
      ...tuning.runner,
      ...spacing,
    });
    const fence = new ReadFence(ledger, runner, {
      soleWriter: !tuning.sharedByProcesses && !eventStore,
      timeoutMs: tuning.readFenceMs,
      log,
      onTimeout: () => metrics.readFenceTimeouts.inc(),
    });
    const index = eventStore ? eventIndexFence(ledger, runner, tuning.indexFenceMs) : undefined;
    // Configuration changes (keys, plans, webhooks, rotations) are events in the tenant's log.
    const configLog = new ConfigLog(new CommandHandler(ledger));
    // Keys and webhooks work only as the tenant's log made them (docs/decisions/0012-keys-held-to-the-log.md).
    const evidence = new ConfigEvidence(ledger, authenticity);
    const refusedSaid = new Set<string>();
    const refused = (what: string, problem: string) => {
      const said = `${what} ${problem}`;
      if (refusedSaid.has(said)) return;
      // Said again after 10,000 others: never silenced by a writer who makes that many.
      if (refusedSaid.size >= 10_000) refusedSaid.clear();
      refusedSaid.add(said);
      log.error({}, `${what} refused: ${problem}. Its row was written or changed outside the service (docs/verifying.md)`);
    };
    // Tenants, keys and webhooks an older version made without events: recorded once, on upgrade.
    const adopted = await adoptUnrecordedConfig(store.db, ledger, configLog, evidence, store.kind === 'postgres');
    if (adopted > 0)
      process.stderr.write(
        `consent-ledger: recorded ${adopted} tenants, keys and webhooks that an older version made without events in their tenants' logs, as their rows say (docs/decisions/0012-keys-held-to-the-log.md).\n`,
      );
    // Delivery rows an older version queued without a seal: sealed once, on upgrade.
    const sealedDeliveries = await sealEarlierDeliveries(store.db, privacy, store.kind === 'postgres');
    if (sealedDeliveries > 0)
      process.stderr.write(
        `consent-ledger: sealed ${sealedDeliveries} webhook deliveries that an older version queued, as their rows say (docs/webhooks.md, Sealed deliveries).\n`,
      );
    const webhooks = createWebhooks(store.db, ledger, settings, {
      log,
      changes: configLog,
      onUnsealed: (d) => refused(`Webhook delivery ${d.id}`, NOT_SEALED),
      authenticity,
      target: async (tenantId, webhookId, url, test) => {
        const problem = await evidence.webhookProblem(tenantId, webhookId, url, test);
        if (problem) refused(`Webhook ${webhookId}'s URL`, problem);
        return problem;
      },
      onChanged: (tenantId, webhookId) => evidence.forgetWebhook(tenantId, webhookId),
      ...tuning.webhooks,
      ...spacing,
      ...options.webhooks,
      dispatcher: {
        ...options.webhooks?.dispatcher,
        onAttempt: (result) =>
          metrics.webhookAttempts.inc({ outcome: result.ok ? 'delivered' : result.statusCode === null ? 'unreachable' : 'refused' }),
      },
      privacy,
      reads,
      // EventStoreDB: delivery rows from a persistent subscription to $all (ack after commit).
      ...(hasDurableFeeds(baseLedger) && index ? { feed: baseLedger, indexPassed: index.passed } : {}),
    });
    const { transparency, sealer, witnesses } = await createTransparency({
      db: store.db,
      ledger,
      follower: { db: store.followerDb, ledger: reads },
      publicBaseUrl: settings.publicBaseUrl,
      signer: signing.signer,
      authenticity,
      log,
      ...tuning.sealer,
      ...spacing,
      ...(index ? { indexFence: index.fence } : {}),
      witnesses: settings.witnesses,
      witnessQuorum: settings.witnessQuorum,
    });
    const followers = new FollowerHost([runner, webhooks.subscription, sealer]);
    // Each append wakes the followers at once (reads catch up in milliseconds, a record is provable
    // within a second); the read fence notes the tenant's write first.
    ledger.onAppended((_position, result) => fence.appended(result));
    ledger.onAppended(() => followers.pokeAll());
    // A follower answered from a read that began before its events were appended hears of them here.
    reads.onGrow(() => followers.pokeAll());
    await life.start(webhooks.delivery);
    await life.start(followers);
    // Asks the witnesses (WITNESSES) to cosign each new checkpoint; idle without witnesses.
    await life.start(witnesses);
    // Compares the read models with a replay of the ledger every PROJECTIONS_VERIFY_MINUTES (off by default).
    const readModelCheck = await life.start(
      new ReadModelCheck(store, ledger, () => openStore({ dataDir: 'memory://', migrations: MIGRATIONS }), {
        intervalMs: settings.projectionsVerifyMinutes * 60_000,
        projectors: eventStore ? [...allProjectors, eventIndexProjector] : allProjectors,
        log,
        ...(settings.databaseUrl ? { exclusive: advisoryExclusive(store.db) } : {}),
      }),
    );
    // A ledger that pushes (EventStoreDB) wakes the followers for appends made by other processes too.
    if (isWatchable(baseLedger)) {
      await life.open(
        'ledger watch',
        () => baseLedger.watch(() => followers.pokeAll(), log),
        (watching) => watching.close(),
      );
    }
    const tenants = new TenantService(store.db, {
      changes: configLog,
      evidence,
      onRefused: refused,
    });
    // Processes sharing a PostgreSQL server: a plan or key change made by one (or by the CLI) reaches
    // the others' key caches through NOTIFY.
    if (tuning.sharedByProcesses && settings.databaseUrl) {
      const url = settings.databaseUrl;
      await life.open(
        'tenant changes',
        async () => {
          const listener = listenForTenantChanges(url, (id) => tenants.invalidate(id), log);
          await Promise.race([listener.ready, new Promise((r) => setTimeout(r, 5_000).unref())]);
          return listener;
        },
        (listener) => listener.close(),
      );
    }
    // Commands and reads: every command through the one handler; reads through query services.
    const {
      commands,
      policies,
      consents: application,
      purposes,
      auditLog,
    } = createApplication({
      ledger,
      db: store.db,
      privacy,
      fence: (tenantId) => fence.wait(tenantId),
      exportPageRows: tuning.exportPageRows,
      authenticity,
    });
    // Records in the standard form (ISO/IEC TS 27560) link to the public verification page.
    const consents = {
      ...application,
      standard: new StandardRecords({ queries: application.queries, ledger, publicBaseUrl: settings.publicBaseUrl }),
    };
    // Appends ConsentExpired and PolicyReconsentRequired when their time comes; one process at a time on a server.
    const deadlines = await life.start(
      new Deadlines(commands, store.db, {
        ...tuning.deadlines,
        log,
        others: [tenants],
        ledgerInStore: !settings.eventStoreUrl,
        ...(settings.databaseUrl ? { exclusive: advisoryExclusive(store.db, DEADLINES_LOCK) } : {}),
      }),
    );
    // Each follower's lag, the webhook queue, and on a server the transaction that holds readers back.
    const subscription = webhooks.subscription;
    metrics.followers([
      followerLag('projections', () => runner.position, ledger),
      followerLag('sealer', () => sealer.position, ledger),
      // On EventStoreDB the server keeps the webhook subscription's position, not this process.
      ...(subscription instanceof Follower ? [followerLag('webhooks', () => subscription.position, ledger)] : []),
      { follower: 'expiry', lag: () => deadlines.lag(LAG_COUNT_CAP) },
      ...(settings.witnesses.length > 0 ? [witnessLag(witnesses)] : []),
    ]);
    metrics.gauge('webhook_queue_depth', 'Webhook deliveries waiting for an attempt (due now or retrying later).', () =>
      pendingDeliveries(store.db),
    );
    // A halted tenant's events wait in transparency.held, not as the sealer's lag, which moves past them.
    metrics.gauge(
      'sealing_halted_tenants',
      'Tenants whose log stopped sealing because an event failed its checks (forged, or by a retired key): GET /ready lists them under sealing.halted.',
      async () => (await transparency.halts()).length,
    );
    if (store.backup) {
      metrics.gauge(
        'backup_last_success_timestamp_seconds',
        'Embedded store: when the last backup written whole finished (POST /admin/v1/backup sent, or `backup --out` on disk), in Unix seconds; 0 when there was none.',
        async () => ((await lastBackupAt(store.db))?.getTime() ?? 0) / 1000,
      );
    }
    const vacuum = store.vacuum;
    if (vacuum) {
      metrics.gauge(
        'embedded_vacuum_longest_seconds',
        "Embedded store: in the last vacuum round, the longest one table's vacuum held the store's one connection (requests wait that long at most).",
        async () => (vacuum.last ? vacuum.last.longestMs / 1000 : null),
      );
    }
    if (store.kind === 'postgres') {
      metrics.gauge(
        'postgres_oldest_transaction_seconds',
        'Age of the oldest open transaction holding an xid on the PostgreSQL cluster: readers of the ledger wait behind it (docs/architecture.md).',
        () => oldestTransactionSeconds(store.db),
      );
    }
    // Webhook attempts and settled deliveries older than WEBHOOK_HISTORY_DAYS go, one process at a time.
    if (settings.webhookHistoryDays > 0) {
      await life.start(
        new WebhookHistoryPruner(store.db, {
          days: settings.webhookHistoryDays,
          log,
          ...(settings.databaseUrl ? { exclusive: advisoryExclusive(store.db, WEBHOOK_HISTORY_LOCK) } : {}),
        }),
      );
    }
    // The planner's statistics of the read models, kept fresh as the runner applies events.
    await life.start(new ReadStatistics(store.followerDb, () => runner.applied, { log }));
    const receiptStore = new ReceiptStore(store.db);
    // Where erasure finds a subject's events: the ledger's own table, or read.event_index when the ledger is EventStoreDB.
    const subjectSource = eventStore ? 'index' : 'ledger';
    const erasure = new SubjectErasure({
      commands,
      privacy,
      subjectRecords: (tenantId, subject, before) => subjectRecords(store.db, tenantId, subject, subjectSource, before),
      settled: index ? (tenantId) => index.fence(tenantId) : (_tenantId, position) => ledgerFinalThrough(store.db, position),
      purgeReceipts: (tenantId, consentIds) => receiptStore.purge(tenantId, consentIds),
      scrubDeliveries: (tenantId, subject) => scrubDeliveries(store.db, privacy, tenantId, subject, subjectSource),
      ...(index ? { fence: index.fence } : {}),
    });
    const renderer = await life.open(
      'receipt renderer',
      () => new RenderThread(),
      (thread) => thread.close(),
    );
    const receipts = new ReceiptService(
      commands,
      consents.queries,
      receiptStore,
      settings.publicBaseUrl,
      undefined,
      { source: transparency, verify: proofIncludes },
      (input) => renderer.render(input),
    );
    // One process counts in memory; with REDIS_URL every process shares the counters.
    const limiter = await life.open(
      'limiter',
      () =>
        new RateLimiter(
          settings.redisUrl
            ? new RedisCounterStore(settings.redisUrl, { warn: (o, m) => log.warn(o, m) }, { clock: options.limits?.clock })
            : new MemoryCounterStore(options.limits?.clock),
          options.limits ?? {},
        ),
      (l) => l.close(),
    );
    const ready = readiness(store, baseLedger, {
      halts: () => transparency.halts(),
      witnesses: () => witnesses.status(),
      readModels: () => readModelCheck.status(),
    });
    // The app's drain, once there is an app: /ready reads it.
    let drainState: { draining(): boolean } = { draining: () => false };
    // Closed first: the app stops taking requests and answers those in flight.
    const { app, drain } = await life.open(
      'app',
      async () => {
        const app = await buildApp(
          {
            settings,
            tenants,
            policies,
            purposes,
            consents,
            receipts,
            erasure,
            webhooks: webhooks.service,
            transparency,
            readModelsAt: () => runner.storedPosition(),
            auditLog,
            sessions: new ConsoleSessions(store.db, tenants, sessionKeyOf(master.key)),
            metrics,
            limiter,
            backup: () => takeRecordedBackup(store, 'api'),
            ready: async () => ({
              ...(await ready()),
              // A process left running across keys rotate-master: out of rotation until restarted with the new key.
              ...((await masterKeyRotated(privacy)) ? { masterKeyRotated: true } : {}),
              // Its signing key no longer the log's (rotate-signing, a rename): it can seal nothing.
              ...((await signingKeyRetired(store.db, signing.signer)) ? { signingKeyRetired: true } : {}),
              draining: drainState.draining(),
            }),
          },
          { logger: options.logger ?? false },
        );
        const drain = drainKeepAlive(app);
        drainState = drain;
        return { app, drain };
      },
      async ({ app, drain }) => {
        drain.closing();
        await app.close();
      },
    );
    log.attach(app.log);
    return {
      settings,
      app,
      store,
      ledger,
      runner,
      tenants,
      commands,
      policies,
      consents,
      receipts,
      privacy,
      erasure,
      webhooks,
      transparency,
      sealer,
      witnesses,
      readModelCheck,
      deadlines,
      followers,
      limiter,
      async quiesce(graceMs: number) {
        drain.start();
        await new Promise((resolve) => setTimeout(resolve, graceMs));
      },
      close: () => life.stop(),
    };
  });
}

/** Whether this process's checkpoint signing key stopped being the log's; false when the store cannot be asked. */
async function signingKeyRetired(db: Store['db'], signer: NoteSigner): Promise<boolean> {
  return signsForLog(db, signer).then(
    (signs) => !signs,
    () => false,
  );
}

/** Whether this process's master key stopped opening the store (rotated while it ran); false when the store cannot be asked. */
async function masterKeyRotated(privacy: Privacy): Promise<boolean> {
  try {
    await privacy.keys.assertMasterKeyCurrent();
    return false;
  } catch (error) {
    return error instanceof MasterKeyError;
  }
}
