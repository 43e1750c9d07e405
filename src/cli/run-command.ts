import { DomainError } from '../domain/errors.js';
import { ConfigError, loadSettings } from '../config.js';
import { DataDirLockedError } from '../store/data-dir-lock.js';
import { LedgerCopyError } from '../ledger/copy.js';
import { LedgerLocationError } from './ledger-location.js';
import { StateCopyError } from './state-copy.js';
import { StorePrivilegeError } from '../store/roles.js';
import { AuditError } from '../transparency/audit.js';
import { configuredSigningKey } from '../transparency/signing-key.js';
import { SigningKeyError } from '../transparency/signing-seed.js';
import { configuredMasterKey, MasterKeyError } from '../privacy/master-key.js';
import { MIGRATIONS } from '../migrations.js';
import { holdsEmbeddedStore, holdsServerStore, openStore, type Store } from '../store/store.js';
import { CheckFailed, EXIT, PartialResult, UsageError, type CliEnvironment, type CliIo, type Command } from './command.js';
import { actingAs } from '../common/actor.js';
import { resolve } from 'node:path';

/** The database a connection URL names, for messages (never its password). */
const databaseName = (url: string): string => {
  try {
    return decodeURIComponent(new URL(url).pathname.slice(1)) || 'the default database';
  } catch {
    return 'unreadable';
  }
};

/** How `main` answers: a JSON object on stdout, a message on stderr, a failure as both. */
export interface CliOutput {
  out(o: object): void;
  say(message: string): void;
  fail(status: number, code: string, message: string): number;
}

/**
 * Runs a command whose arguments `main` parsed: opens the store (unless the command runs offline),
 * runs it acting as the CLI, prints its answer, and maps what it throws to an exit status. Loaded
 * only once a command runs, with the store and everything the commands use.
 */
export async function runCommand(command: Command, input: unknown, cli: CliEnvironment, { out, say, fail }: CliOutput): Promise<number> {
  let store: Store | undefined;
  try {
    const implementation = await command.load();
    if (implementation.runOffline) {
      const result = await implementation.runOffline(input as never, {
        info: say,
        progressStream: cli.stderr,
        emit: out,
        ...(command.settings ? { settings: loadSettings(cli.env) } : {}),
      });
      if (result instanceof PartialResult) {
        out(result.result);
        return result.exitStatus;
      }
      if (result !== null) out(result);
      return EXIT.ok;
    }
    const settings = loadSettings(cli.env);
    // A DATA_DIR mistyped, or a relative ./data run from another folder, would otherwise give a
    // new, empty store: a backup of nothing that reads as a success.
    if (!settings.databaseUrl && !command.createsStore && !holdsEmbeddedStore(settings.dataDir)) {
      return fail(
        EXIT.failed,
        'NO_STORE',
        `${resolve(settings.dataDir)} holds no store (DATA_DIR): set DATA_DIR to the folder the service keeps its data in, or DATABASE_URL to its server; nothing was created`,
      );
    }
    if (settings.databaseUrl && !command.createsStore && !(await holdsServerStore(settings.databaseUrl))) {
      return fail(
        EXIT.failed,
        'NO_STORE',
        `the database DATABASE_URL names (${databaseName(settings.databaseUrl)}) holds no store: set DATABASE_URL to the service's database, or start the service (or run tenant create) on it first; nothing was created`,
      );
    }
    // The key files the settings name are read before the store is opened (or made), as the
    // service's start reads them: one that does not read stops the command, naming its setting.
    try {
      configuredMasterKey(settings);
      configuredSigningKey(settings);
    } catch (error) {
      if (error instanceof MasterKeyError || error instanceof SigningKeyError) throw new ConfigError(error.message);
      throw error;
    }
    const opened = await openStore({
      databaseUrl: settings.databaseUrl,
      dataDir: settings.dataDir,
      maxConnections: command.connections ?? 2,
      migrations: MIGRATIONS,
    });
    store = opened;
    const io: CliIo = { info: say, progressStream: cli.stderr, settings };
    // What the command appends names the operator's command line as its actor.
    const result = await actingAs({ type: 'cli' }, () => implementation.run!(opened, input as never, io));
    if (result instanceof PartialResult) {
      out(result.result);
      return result.exitStatus;
    }
    out(result);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ConfigError) return fail(EXIT.usage, 'CONFIG', error.message);
    // Arguments or settings found wrong once the store is open (`--threads` on the embedded store, no master key): as at parse time.
    if (error instanceof UsageError) return fail(EXIT.usage, 'USAGE', error.message);
    if (error instanceof DataDirLockedError) return fail(EXIT.failed, 'DATA_DIR_LOCKED', error.message);
    if (error instanceof DomainError) return fail(EXIT.failed, error.code, error.message);
    if (error instanceof AuditError) {
      say(`consent-ledger: ${error.message}`);
      out({
        error: { code: error.code, message: error.message, ...(error.leafIndex === undefined ? {} : { leafIndex: error.leafIndex }) },
      });
      return EXIT.failed;
    }
    if (error instanceof CheckFailed) {
      say(`consent-ledger: ${error.message}`);
      out({ error: { code: error.code, message: error.message, ...error.details } });
      return EXIT.failed;
    }
    if (error instanceof LedgerCopyError) {
      say(`consent-ledger: ${error.message}`);
      out({ error: { code: error.code, message: error.message, ...(error.problems.length > 0 ? { problems: error.problems } : {}) } });
      return EXIT.failed;
    }
    // A location that names no ledger (no store in the folder, no such adapter) is an argument found wrong.
    if (error instanceof LedgerLocationError) return fail(EXIT.usage, 'LEDGER_LOCATION', error.message);
    if (error instanceof StateCopyError) return fail(EXIT.failed, 'STATE_COPY_FAILED', error.message);
    if (error instanceof StorePrivilegeError) return fail(EXIT.failed, 'STORE_PRIVILEGE', error.message);
    const e = error as Error & { code?: string };
    return fail(EXIT.failed, 'FAILED', `${command.name} failed: ${e.message || e.code || String(error)}`);
  } finally {
    await store?.close().catch(() => undefined);
  }
}
