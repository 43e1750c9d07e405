import { sqlMigration, type Migrations } from '../store/migrations.js';

/** The backups taken of this store (see backup-log.ts). A released migration's SQL never changes. */
export const backupMigrations: Migrations = {
  '0023_control_backups': sqlMigration(`
      CREATE TABLE control.backups (
        finished_at timestamptz NOT NULL DEFAULT now(),
        via text NOT NULL CHECK (via IN ('api', 'cli')),
        bytes bigint NOT NULL,
        consistent_at timestamptz NOT NULL,
        stop_lsn text NOT NULL
      );
      CREATE INDEX backups_finished ON control.backups (finished_at);
    `),
};
