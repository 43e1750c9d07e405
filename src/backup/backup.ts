import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { configuredMasterKey, masterKeyOpens } from '../privacy/index.js';
import type { MasterKeySettings } from '../privacy/master-key.js';
import { BackupUnavailableError, restoreArchive, RestoreError, type BackupManifest } from '../store/embedded-backup.js';
import { PGlitePool } from '../store/pglite-pool.js';
import { acquireDataDirLock, DATA_DIR_LOCK_FILE } from '../store/data-dir-lock.js';
import { countingStream } from '../common/counting-stream.js';
import { recordBackup } from './backup-log.js';
import type { Database } from '../store/schema.js';
import type { Store } from '../store/store.js';
import { configuredSigningKey, isCurrentKey, type SigningKeySettings } from '../transparency/signing-key.js';

/** What a store holds, as a backup's manifest records it and a restore checks it. */
export interface StoreContents {
  /** Ledger events, and the position of the last. */
  ledger: { events: number; lastPosition: number | null };
  /** Each tenant's latest signed checkpoint of its transparency log. */
  checkpoints: { tenantId: string; treeSize: number; rootHash: string }[];
}

/**
 * No backup now: the store cannot be backed up this way (a PostgreSQL server, an in-memory store:
 * BACKUP_NOT_AVAILABLE), or one is being taken (BACKUP_IN_PROGRESS). The message says what to do.
 */
export class BackupNotAvailableError extends Error {
  override readonly name = 'BackupNotAvailableError';
  constructor(
    readonly code: 'BACKUP_NOT_AVAILABLE' | 'BACKUP_IN_PROGRESS',
    message: string,
  ) {
    super(message);
  }
}

/**
 * What the store holds now. Read after the copy's end is fixed, so the archive holds at least this
 * (it holds whatever the WAL copied after it, too).
 */
export async function describeStore(db: Kysely<Database>): Promise<StoreContents> {
  const ledger = await sql<{ events: number; last: number | null }>`
    SELECT count(*)::int AS events, max(global_position) AS last FROM ledger.events`.execute(db);
  const checkpoints = await sql<{ tenant_id: string; tree_size: number; root_hash: string }>`
    SELECT DISTINCT ON (tenant_id) tenant_id, tree_size, root_hash FROM transparency.checkpoints
    ORDER BY tenant_id, tree_size DESC`.execute(db);
  const head = ledger.rows[0]!;
  return {
    ledger: { events: head.events, lastPosition: head.last === null ? null : Number(head.last) },
    checkpoints: checkpoints.rows.map((r) => ({ tenantId: r.tenant_id, treeSize: Number(r.tree_size), rootHash: r.root_hash })),
  };
}

/**
 * A backup of the running embedded store: a tar.gz stream (docs/operations.md, Backups). It
 * holds no key: restoring needs the key files the store was created with.
 *
 * @example
 * await pipeline(takeBackup(store), createWriteStream('consent-ledger.tar.gz'));
 */
export function takeBackup(store: Store, completed?: (manifest: BackupManifest) => void): Readable {
  if (store.kind === 'postgres') {
    throw new BackupNotAvailableError(
      'BACKUP_NOT_AVAILABLE',
      'the store is a PostgreSQL server: back it up with pg_dump, and keep the key files apart (docs/operations.md, Backups)',
    );
  }
  if (!store.backup) {
    throw new BackupNotAvailableError(
      'BACKUP_NOT_AVAILABLE',
      'the store is in memory (DATA_DIR=memory://): there is nothing on disk to back up',
    );
  }
  try {
    return store.backup.archive({ describe: async () => ({ ...(await describeStore(store.db)) }), ...(completed ? { completed } : {}) });
  } catch (error) {
    if (error instanceof BackupUnavailableError) throw new BackupNotAvailableError('BACKUP_IN_PROGRESS', error.message);
    throw error;
  }
}

/** A backup being taken: its archive, counted as it is read, and how to record it once written whole. */
export interface BackupTaken {
  archive: Readable;
  /** Bytes of the archive read so far. */
  readonly bytes: number;
  /** The archive's manifest, once it has been read to its end. */
  readonly manifest: BackupManifest | undefined;
  /** Records the archive in control.backups (the age metric): call once it is written whole. */
  written(): Promise<void>;
}

/**
 * `takeBackup`, counted and recordable: the caller says when the archive is safe (the API once its
 * response was sent, the CLI once the file is on disk), and only then is it recorded.
 */
export function takeRecordedBackup(store: Store, via: 'api' | 'cli'): BackupTaken {
  let manifest: BackupManifest | undefined;
  const source = takeBackup(store, (m) => (manifest = m));
  const archive = source.pipe(countingStream());
  // pipe() does not pass errors on: a failed copy must fail the stream its reader holds.
  source.once('error', (error) => archive.destroy(error));
  archive.once('close', () => source.destroy());
  let ended = false;
  archive.once('end', () => (ended = true));
  return {
    archive,
    get bytes() {
      return archive.bytes;
    },
    get manifest() {
      return manifest;
    },
    async written() {
      // Only an archive read to its end has a manifest, and the stream past it must have ended too.
      if (!ended || !manifest) throw new Error('the backup was not read to its end');
      await recordBackup(store.db, via, archive.bytes, manifest);
    },
  };
}

/** How each key file the restore was given compares with the restored store. */
export type KeyCheck = 'matches' | 'missing';

export interface RestoreReport {
  dataDir: string;
  manifest: BackupManifest;
  /** What the restored store holds (at least what the manifest says). */
  restored: StoreContents;
  keys: { master: KeyCheck; signing: KeyCheck };
}

export type RestoreSettings = SigningKeySettings & MasterKeySettings;

/**
 * Restores an archive into `dataDir` (empty, or without a store yet): unpacked beside its place,
 * opened once (PostgreSQL replays the WAL copied with it), checked against its manifest (every
 * event, every tenant's checkpoint) and against the key files `settings` name when they are
 * there, then moved into place. A key file that does not fit, a store short of its manifest, or
 * a WAL that does not replay: nothing is restored (RestoreError).
 */
export async function restoreBackup(input: Readable, dataDir: string, settings: RestoreSettings): Promise<RestoreReport> {
  const created = !existsSync(dataDir);
  mkdirSync(dataDir, { recursive: true });
  // No service may start on the folder while it is restored.
  const lock = await acquireDataDirLock(resolve(dataDir), { waitMs: 0 });
  let restored = false;
  try {
    const report = await restoreLocked(input, dataDir, settings);
    restored = true;
    return report;
  } finally {
    lock.release();
    // A refused restore into a folder it made leaves nothing behind, its lock file included (a
    // folder that was there keeps its own: another process may hold a lock on that file).
    if (!restored && created) {
      rmSync(join(dataDir, DATA_DIR_LOCK_FILE), { force: true });
      if (readdirSync(dataDir).length === 0) rmdirSync(dataDir);
    }
  }
}

async function restoreLocked(input: Readable, dataDir: string, settings: RestoreSettings): Promise<RestoreReport> {
  let restored: StoreContents | undefined;
  let keys: RestoreReport['keys'] | undefined;
  const result = await restoreArchive(input, dataDir, async (dir, manifest) => {
    let pglite: PGlite;
    try {
      pglite = await PGlite.create({ dataDir: dir });
    } catch (error) {
      throw new RestoreError(
        `the archive's files do not open as a store (${(error as Error).message}): it is damaged or incomplete; take another backup`,
      );
    }
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new PGlitePool(pglite) }) });
    try {
      restored = await describeStore(db);
      await compareWithManifest(db, restored, manifest);
      keys = await checkKeys(db, { ...settings, dataDir });
      // The replay's result on disk now, so that the first start does not replay it again.
      await sql`CHECKPOINT`.execute(db);
    } finally {
      await db.destroy();
      await pglite.close();
    }
  });
  return { dataDir: resolve(dataDir), manifest: result.manifest, restored: restored!, keys: keys! };
}

/**
 * The restored store against its manifest: at least as many events, and each tenant's checkpoint
 * the manifest recorded, with the same root hash (a signed tree head the backup saw, which the
 * restored log must still hold as it was).
 */
async function compareWithManifest(db: Kysely<Database>, restored: StoreContents, manifest: BackupManifest): Promise<void> {
  const expected = manifest.contents as Partial<StoreContents>;
  const events = expected.ledger?.events ?? 0;
  if (restored.ledger.events < events) {
    throw new RestoreError(
      `the restored store holds ${restored.ledger.events} ledger events, and the backup recorded ${events}: the archive is damaged`,
    );
  }
  for (const c of expected.checkpoints ?? []) {
    const found = await sql<{ root_hash: string }>`
      SELECT root_hash FROM transparency.checkpoints WHERE tenant_id = ${c.tenantId} AND tree_size = ${c.treeSize}`.execute(db);
    const root = found.rows[0]?.root_hash;
    if (root === undefined) {
      throw new RestoreError(
        `tenant ${c.tenantId}'s checkpoint at size ${c.treeSize} is missing from the restored store: the archive is damaged`,
      );
    }
    if (root !== c.rootHash) {
      throw new RestoreError(
        `tenant ${c.tenantId}'s checkpoint at size ${c.treeSize} has the root hash ${root} in the restored store, and the backup recorded ${c.rootHash}: the archive is damaged or was altered`,
      );
    }
  }
}

/** Checks the key files the settings name (or DATA_DIR's) against the restored store; refuses one that does not fit. */
async function checkKeys(db: Kysely<Database>, settings: RestoreSettings): Promise<RestoreReport['keys']> {
  let configured: Buffer | undefined;
  try {
    configured = configuredMasterKey(settings)?.key;
  } catch (error) {
    throw new RestoreError((error as Error).message);
  }
  let master: KeyCheck = 'missing';
  if (configured) {
    if ((await masterKeyOpens(db, configured)) === false) {
      throw new RestoreError('the master key given does not open this store: give the master key the backed-up store was created with');
    }
    master = 'matches';
  }
  let signing: KeyCheck = 'missing';
  const signer = configuredSigningKey(settings)?.signer;
  if (signer) {
    if ((await isCurrentKey(db, signer)) === false) {
      throw new RestoreError(`the signing key given (${signer.vkey}) is not the one this store's transparency log is signed with`);
    }
    signing = 'matches';
  }
  return { master, signing };
}
