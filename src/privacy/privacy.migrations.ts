import { sqlMigration, type Migrations } from '../store/migrations.js';

/**
 * Key store (docs/erasure.md): the installation's lookup secret and the data keys, each wrapped
 * by the master key; deleting a key's row is an erasure (see privacy.table.ts). A released
 * migration's SQL never changes.
 */
export const privacyMigrations: Migrations = {
  '0006_privacy': sqlMigration(`
      CREATE SCHEMA IF NOT EXISTS privacy;
      CREATE TABLE privacy.secrets (
        name text PRIMARY KEY,
        wrapped text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE TABLE privacy.subject_keys (
        tenant_id uuid NOT NULL,
        subject text NOT NULL,
        key_id uuid NOT NULL,
        wrapped text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tenant_id, subject)
      );
    `),
  // One data key per consent record, from a pool stored ahead in bulk, instead of one per
  // subject: recording writes no key row (docs/erasure.md, Cost). A subject's keys are the ones
  // its ledger events name; erasure deletes them all.
  '0007_privacy_data_keys': sqlMigration(`
      CREATE TABLE privacy.data_keys (
        key_id uuid PRIMARY KEY,
        wrapped text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      DROP TABLE privacy.subject_keys;
    `),
};
