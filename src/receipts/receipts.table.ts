import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../store/schema.js';

/** `receipts.receipts` (migration 0004_receipts): the bytes of every receipt issued. Not disposable. */
export interface ReceiptsTable {
  receipt_id: string;
  tenant_id: string;
  consent_id: string;
  sha256: string;
  pdf: Uint8Array;
  issued_at: ColumnType<Date, string, never>;
}
export type ReceiptRow = Selectable<ReceiptsTable>;

/** `receipts.publicly_verifiable` (migration 0008): consents a receipt was ever issued for, kept when erasure deletes the PDFs. */
export interface PubliclyVerifiableTable {
  consent_id: string;
  tenant_id: string;
}

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type ReceiptsDatabase = {
  'receipts.receipts': ReceiptsTable;
  'receipts.publicly_verifiable': PubliclyVerifiableTable;
};

export type ReceiptsDb = Kysely<Database & ReceiptsDatabase>;

/** The store's handle, seeing the `receipts` tables too. */
export const receiptsDb = (db: Kysely<Database>): ReceiptsDb => db.withTables<ReceiptsDatabase>();
