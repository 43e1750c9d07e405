import { backupMigrations } from './backup/backup.migrations.js';
import { ledgerMigrations } from './ledger/postgres/ledger.migrations.js';
import { privacyMigrations } from './privacy/privacy.migrations.js';
import { receiptsMigrations } from './receipts/receipts.migrations.js';
import { collectMigrations } from './store/migrations.js';
import { rolesMigrations } from './store/roles.migrations.js';
import { controlMigrations } from './tenants/tenants.migrations.js';
import { transparencyMigrations } from './transparency/transparency.migrations.js';
import { webhooksMigrations } from './webhooks/webhooks.migrations.js';

/**
 * Every feature's migrations, in the one order every store applies them (by name). What
 * `openStore` is given by the service, the CLI and the tests. The read schema is not here: it is
 * disposable and versioned (projections/read-schema.ts).
 *
 * @example
 * const store = await openStore({ dataDir: './data', migrations: MIGRATIONS });
 */
export const MIGRATIONS = collectMigrations(
  ledgerMigrations,
  controlMigrations,
  webhooksMigrations,
  receiptsMigrations,
  transparencyMigrations,
  privacyMigrations,
  rolesMigrations,
  backupMigrations,
);
