import { createServer } from 'node:net';
import { ConfigError, loadSettings } from './config.js';
import { createService } from './service.js';
import { actingAs } from './common/actor.js';
import { MasterKeyError } from './privacy/index.js';
import { SigningKeyError } from './transparency/index.js';
import { LedgerTransactionIdsError } from './ledger/postgres/transaction-ids.js';
import { DataDirLockedError } from './store/data-dir-lock.js';
import { StorePrivilegeError } from './store/roles.js';
import { unreachableDatabaseMessage } from './store/database-errors.js';

/** How long a draining service still serves, answering with `Connection: close`, before it closes (Service.quiesce). */
const DRAIN_GRACE_MS = 1000;

/**
 * Listens on host:port and lets go at once: a start that could not serve stops before it opens
 * the store, where it would record what it names the log (PUBLIC_BASE_URL) or generate keys.
 */
async function probeListen(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** Composition root: config → service → listen → signals. */
async function main(): Promise<void> {
  const settings = loadSettings(process.env);
  await probeListen(settings.host, settings.port);
  const service = await createService(settings, {
    logger: {
      level: settings.logLevel,
      redact: { paths: ['req.headers["x-api-secret"]', 'req.headers.authorization'], censor: '[redacted]' },
    },
  });
  const log = service.app.log;

  // The service creates it on its own (its log names the service as the actor), once however many
  // processes start together on an empty PostgreSQL server.
  const ledgerEmpty = async () => (await service.ledger.headPosition()) === null;
  const c = await actingAs({ type: 'service' }, () =>
    service.tenants.createFirst('default', 'starter', service.store.kind === 'postgres', ledgerEmpty),
  );
  if (!c && (await service.tenants.isEmpty())) {
    process.stderr.write(
      'consent-ledger: the ledger holds events but the store has no tenant, as a `ledger copy` not run to its end leaves it:\n' +
        '  no first tenant was created. Stop the service and run the copy again to its end (docs/scaling.md).\n',
    );
  }
  if (c) {
    // Printed once, on the console only (never through the logger), as docs/contract.md says.
    process.stdout.write(
      [
        '',
        'consent-ledger: first start. Created tenant "default" on the starter plan.',
        'Save these credentials now; the secret is stored only as a hash and will not be shown again:',
        `  tenantId:     ${c.tenantId}`,
        `  X-API-Key:    ${c.apiKey}`,
        `  X-API-Secret: ${c.apiSecret}`,
        '',
      ].join('\n') + '\n',
    );
  }

  let stopping = false;
  const stop = (signal: string) => {
    // A second signal is the operator insisting: what is in flight is abandoned (never acknowledged).
    if (stopping) {
      log.warn({ signal }, 'a second signal: exiting now, without finishing the requests in flight');
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'draining: answering with Connection: close, then no new requests; finishing those in flight');
    // A client that never finishes its request (a stalled upload) must not hold the exit.
    setTimeout(() => {
      log.error({ seconds: settings.shutdownTimeoutSeconds }, 'the drain did not end within SHUTDOWN_TIMEOUT: exiting now');
      process.exit(1);
    }, settings.shutdownTimeoutSeconds * 1000).unref();
    service
      .quiesce(DRAIN_GRACE_MS)
      .then(() => service.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  await service.app.listen({ port: settings.port, host: settings.host });
  log.info({ store: service.store.kind, docs: `${settings.publicBaseUrl}/docs` }, 'consent-ledger is serving');
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof DataDirLockedError ||
    error instanceof MasterKeyError ||
    error instanceof SigningKeyError ||
    error instanceof LedgerTransactionIdsError ||
    error instanceof StorePrivilegeError
  ) {
    process.stderr.write(`consent-ledger: ${error.message}\n`);
    process.exit(2);
  }
  // The address taken, or DATA_DIR a file: said in one line naming the setting.
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    const where = `${process.env.HOST ?? '127.0.0.1'}:${process.env.PORT ?? '3000'}`;
    const why =
      code === 'EADDRINUSE'
        ? 'another process listens there'
        : code === 'EADDRNOTAVAIL'
          ? 'no interface of this machine has that address'
          : 'the host name does not resolve to an address';
    process.stderr.write(`consent-ledger: could not start: cannot listen on ${where} (HOST, PORT): ${why}\n`);
    process.exit(1);
  }
  if ((code === 'ENOTDIR' || code === 'EEXIST') && !process.env.DATABASE_URL) {
    process.stderr.write(
      `consent-ledger: could not start: DATA_DIR (${process.env.DATA_DIR ?? './data'}) is not a folder: ${(error as Error).message}\n`,
    );
    process.exit(2);
  }
  // A server not there (yet), or a URL that names no database or a refused role: said in one line.
  const unreachable = unreachableDatabaseMessage(error, process.env.DATABASE_URL);
  if (unreachable) {
    process.stderr.write(`consent-ledger: could not start: ${unreachable}\n`);
    process.exit(1);
  }
  process.stderr.write(`consent-ledger: could not start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
