import type { ColumnType, Kysely } from 'kysely';
import type { BackupManifest } from '../store/embedded-backup.js';
import type { Database } from '../store/schema.js';

/**
 * `control.backups` (migration 0023): each archive of the embedded store that was written whole, so
 * that the age of the last one survives restarts (the metric an alert on stale backups reads).
 * Written after the archive, it is never in the archive itself.
 */
export interface BackupsTable {
  finished_at: ColumnType<Date, string | undefined, never>;
  /** `POST /admin/v1/backup` or `npx consent-ledger backup`. */
  via: 'api' | 'cli';
  bytes: ColumnType<number, number, never>;
  consistent_at: ColumnType<Date, string, never>;
  stop_lsn: string;
}

type BackupsDatabase = { 'control.backups': BackupsTable };
const backupsDb = (db: Kysely<Database>) => db.withTables<BackupsDatabase>();

/** Records an archive written whole: by the API once its response was sent, by the CLI once the file is on disk. */
export async function recordBackup(db: Kysely<Database>, via: 'api' | 'cli', bytes: number, manifest: BackupManifest): Promise<void> {
  await backupsDb(db)
    .insertInto('control.backups')
    .values({ via, bytes, consistent_at: manifest.consistentAt, stop_lsn: manifest.stopLsn })
    .execute();
}

/** When the last archive written whole finished, or null when none was. */
export async function lastBackupAt(db: Kysely<Database>): Promise<Date | null> {
  const row = await backupsDb(db)
    .selectFrom('control.backups')
    .select((eb) => eb.fn.max('finished_at').as('at'))
    .executeTakeFirst();
  return row?.at ? new Date(row.at) : null;
}
