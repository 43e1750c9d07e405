import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { receiptsDb, type ReceiptsDb } from './receipts.table.js';

export interface StoredReceipt {
  receiptId: string;
  sha256: string;
  pdf: Buffer;
  issuedAt: string;
}

/** The stored receipts: the latest per consent is the one GET answers. */
export class ReceiptStore {
  private readonly db: ReceiptsDb;
  constructor(db: Kysely<Database>) {
    this.db = receiptsDb(db);
  }

  async save(tenantId: string, consentId: string, receipt: StoredReceipt): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('receipts.receipts')
        .values({
          receipt_id: receipt.receiptId,
          tenant_id: tenantId,
          consent_id: consentId,
          sha256: receipt.sha256,
          pdf: receipt.pdf,
          issued_at: receipt.issuedAt,
        })
        .execute();
      await tx
        .insertInto('receipts.publicly_verifiable')
        .values({ consent_id: consentId, tenant_id: tenantId })
        .onConflict((oc) => oc.column('consent_id').doNothing())
        .execute();
    });
  }

  /** Lets the public verification page answer for a record with no receipt (one collected in a browser, docs/browser.md). */
  async makePublic(tenantId: string, consentId: string): Promise<void> {
    await this.db
      .insertInto('receipts.publicly_verifiable')
      .values({ consent_id: consentId, tenant_id: tenantId })
      .onConflict((oc) => oc.column('consent_id').doNothing())
      .execute();
  }

  async latest(tenantId: string, consentId: string): Promise<StoredReceipt | undefined> {
    const row = await this.db
      .selectFrom('receipts.receipts')
      .select(['receipt_id', 'sha256', 'pdf', 'issued_at'])
      .where('tenant_id', '=', tenantId)
      .where('consent_id', '=', consentId)
      .orderBy('issued_at', 'desc')
      .orderBy('receipt_id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!row) return undefined;
    return { receiptId: row.receipt_id, sha256: row.sha256, pdf: Buffer.from(row.pdf), issuedAt: row.issued_at.toISOString() };
  }

  /**
   * Deletes every stored receipt of these consents (a data subject's erasure: the PDFs show their
   * personal fields). The ReceiptIssued events stay: they hold only the PDF's hash. Answers how many.
   */
  async purge(tenantId: string, consentIds: readonly string[]): Promise<number> {
    if (consentIds.length === 0) return 0;
    const gone = await this.db
      .deleteFrom('receipts.receipts')
      .where('tenant_id', '=', tenantId)
      .where('consent_id', 'in', consentIds)
      .returning('receipt_id')
      .execute();
    return gone.length;
  }

  /**
   * The tenant whose consent this is, for the public verification page (whose URL names no
   * tenant). Only consents a receipt was ever issued for are publicly verifiable; erasing the
   * receipts keeps them so, and the page then says the record was erased.
   */
  async tenantOf(consentId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('receipts.publicly_verifiable')
      .select('tenant_id')
      .where('consent_id', '=', consentId)
      .executeTakeFirst();
    return row?.tenant_id;
  }
}
