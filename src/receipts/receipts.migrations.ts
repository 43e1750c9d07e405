import { sqlMigration, type Migrations } from '../store/migrations.js';

/**
 * PDF receipts: the bytes of every receipt issued (the issue itself is a ReceiptIssued ledger
 * event). Kept, not rebuilt: see receipts.table.ts, docs/receipts.md. A released migration's SQL
 * never changes.
 */
export const receiptsMigrations: Migrations = {
  '0004_receipts': sqlMigration(`
      CREATE SCHEMA IF NOT EXISTS receipts;
      CREATE TABLE receipts.receipts (
        receipt_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL,
        consent_id uuid NOT NULL,
        sha256 text NOT NULL,
        pdf bytea NOT NULL,
        issued_at timestamptz NOT NULL
      );
      CREATE INDEX receipts_latest ON receipts.receipts (tenant_id, consent_id, issued_at DESC);
      -- The public verification page knows only the consent id.
      CREATE INDEX receipts_consent ON receipts.receipts (consent_id);
    `),
  // Which consents the public verification page may answer for: those a receipt was ever issued
  // for. Kept apart from the PDFs, which erasure deletes, so that a receipt's holder is told the
  // record was erased instead of "not verified".
  '0008_receipts_publicly_verifiable': sqlMigration(`
      CREATE TABLE receipts.publicly_verifiable (
        consent_id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL
      );
      INSERT INTO receipts.publicly_verifiable (consent_id, tenant_id)
        SELECT DISTINCT consent_id, tenant_id FROM receipts.receipts ON CONFLICT DO NOTHING;
    `),
};
