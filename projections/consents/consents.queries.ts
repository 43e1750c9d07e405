import { sql, type Kysely } from 'kysely';
import { applyConsentFilter, type ConsentFilter } from './consent-filter.js';
import type { Database } from '../../src/store/schema.js';
import { consentsDb, type ConsentRow } from './consents.table.js';

export { applyConsentFilter, type ConsentFilter } from './consent-filter.js';

const ROW_COLUMNS = [
  'id',
  'tenant_id',
  'consent_hash',
  'subject',
  'policy_version_id',
  'policy_type',
  'purpose',
  'policy_version',
  'policy_title',
  'consent_given',
  'status',
  'personal',
  'erased',
  'created_at',
  'expires_at',
  'collected_at',
  'withdrawn_at',
] as const;

/** A record's row as search and export read it: its sealed personal fields are opened by the caller. */
export type ConsentSearchRow = Pick<ConsentRow, (typeof ROW_COLUMNS)[number]>;

/** A row read for the export: with its keyset cursor and its data key, wrapped (null once destroyed). */
export interface StoredConsentRow extends ConsentSearchRow {
  cursor: string;
  wrapped: string | null;
}

/** A page of matching records, newest first (count them with `countConsents`). */
export function searchConsentRows(
  db: Kysely<Database>,
  tenantId: string,
  filter: ConsentFilter,
  page: number,
  limit: number,
): Promise<ConsentSearchRow[]> {
  return applyConsentFilter(consentsDb(db).selectFrom('read.consents'), tenantId, filter)
    .select(ROW_COLUMNS)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
}

/**
 * One keyset page of a tenant's records, oldest first, after `after` (created_at as the database
 * spells it, and id), with each record's wrapped data key. Run it through `orderedScan`.
 */
export function consentPage(
  db: Kysely<Database>,
  tenantId: string,
  filter: ConsentFilter,
  after: { createdAt: string; id: string } | undefined,
  chunk: number,
) {
  let q = applyConsentFilter(consentsDb(db).selectFrom('read.consents'), tenantId, filter);
  if (after) q = q.where(sql<boolean>`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  return q
    .select([
      ...ROW_COLUMNS,
      // The cursor keeps created_at as the database has it (microseconds): a JS Date would cut it
      // to milliseconds, and rows later in the same millisecond would come back again and again.
      sql<string>`created_at::text`.as('cursor'),
      // The record's data key, if it still exists (an erased subject's are destroyed).
      sql<string | null>`(SELECT k.wrapped FROM privacy.data_keys k WHERE NOT erased AND k.key_id = (personal->>'kid')::uuid)`.as(
        'wrapped',
      ),
    ])
    .orderBy('created_at')
    .orderBy('id')
    .limit(chunk);
}

/**
 * Runs a keyset page in a short transaction that walks the (tenant, created_at, id) index from
 * the cursor and stops after the page. Left to itself the planner often does otherwise: rows
 * newer than the last ANALYZE are estimated at almost none (created_at only grows), so it fetches
 * every row after the cursor and sorts them to keep one page. Each page then cost the rows still
 * to come and the export was quadratic (1,000,000 rows: 3,400 rows/s, falling as rows grew).
 * With sorting off for this one transaction the ordered index walk is the plan whatever the
 * statistics say; the transaction is one statement long, so it holds no snapshot back.
 */
export function orderedScan<T>(db: Kysely<Database>, fn: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (tx) => {
    await sql`SET LOCAL enable_sort = off`.execute(tx);
    return await fn(tx);
  });
}

/** Rows per keyset page of `streamConsents` on a PostgreSQL server: three pages at most are held at once. */
export const STREAM_PAGE_ROWS = 5000;

/**
 * Rows per page on the embedded store, where PGlite runs a page's query and parses its rows on
 * the event loop in one go. Pages of 5,000 held it 100-350 ms at a time, and every other request
 * waited that long during an export; pages of 1,000 export as fast with stalls under ~45 ms.
 */
export const EMBEDDED_STREAM_PAGE_ROWS = 1000;

/**
 * Every matching record, oldest first, fetched in keyset pages of `chunk` rows: memory stays
 * flat however many rows match (three pages at most). Built for the CSV export's rate: each page
 * brings its rows' wrapped data keys along (no second query per page, no key cache churned by one
 * key per record), and the pages overlap: while the caller takes page k, page k+1 is being opened
 * (`open`: on the privacy module's worker threads, where there are any) and page k+2 read.
 */
export async function* streamConsentRows<T>(
  db: Kysely<Database>,
  tenantId: string,
  filter: ConsentFilter,
  chunk: number,
  open: (rows: readonly StoredConsentRow[]) => Promise<T[]>,
): AsyncGenerator<T> {
  const page = (after: { createdAt: string; id: string } | undefined): Promise<StoredConsentRow[]> => {
    const p = orderedScan(db, (tx) => consentPage(tx, tenantId, filter, after, chunk).execute());
    // A reader that stops early (the client went away) leaves this page unread: not an error.
    p.catch(() => undefined);
    return p;
  };
  let next: Promise<StoredConsentRow[]> | undefined = page(undefined);
  let ready: Promise<T[]> | undefined;
  while (next || ready) {
    let opening: Promise<T[]> | undefined;
    if (next) {
      const rows: StoredConsentRow[] = await next;
      const last = rows[rows.length - 1];
      next = rows.length === chunk && last !== undefined ? page({ createdAt: last.cursor, id: last.id }) : undefined;
      opening = open(rows);
      opening.catch(() => undefined);
    }
    if (ready) for (const item of await ready) yield item;
    ready = opening;
  }
}
