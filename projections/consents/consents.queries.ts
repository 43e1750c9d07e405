import { sql, type Kysely } from 'kysely';
import { countConsents } from '../consent-counts/consent-counts.queries.js';
import { applyConsentFilter, type ConsentFilter } from './consent-filter.js';
import type { Sealed } from '../../src/domain/consent/consent.events.js';
import type { Sealing } from '../../src/privacy/sealing.js';
import { sealedAad, type ConsentPersonal, type Privacy } from '../../src/privacy/privacy.js';
import type { Database } from '../../src/store/schema.js';

export { applyConsentFilter, type ConsentFilter } from './consent-filter.js';

export interface ConsentSearchItem {
  id: string;
  consentHash: string;
  /** The personal fields are null once the subject was erased (`erased: true`). */
  userReference: string | null;
  policyVersionId: string;
  policyType: string;
  policyVersion: string;
  consentGiven: boolean;
  status: string;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
  withdrawnAt: string | null;
  erased: boolean;
  /** The personal fields did not open with their key: the stored record was changed (null fields). */
  tampered: boolean;
  policyTitle: string;
}

const ITEM_COLUMNS = [
  'id',
  'tenant_id',
  'consent_hash',
  'subject',
  'policy_version_id',
  'policy_type',
  'policy_version',
  'policy_title',
  'consent_given',
  'status',
  'personal',
  'erased',
  'created_at',
  'withdrawn_at',
] as const;

type ItemRow = {
  id: string;
  tenant_id: string;
  consent_hash: string;
  subject: string;
  policy_version_id: string;
  policy_type: string;
  policy_version: string;
  policy_title: string;
  consent_given: boolean;
  status: string;
  personal: Record<string, unknown> | null;
  erased: boolean;
  created_at: Date;
  withdrawn_at: Date | null;
};

/**
 * Opens the rows' sealed personal fields with their keys (one key-store read per call), by
 * `Privacy.read`'s rule: a row whose subject was erased comes back with nulls and `erased`, one
 * whose seal does not open with nulls and `tampered`.
 */
export async function openRows(privacy: Privacy, rows: readonly ItemRow[]): Promise<ConsentSearchItem[]> {
  const keys = await privacy.keys.byIds(rows.flatMap((r) => sealedOf(r)?.kid ?? []));
  return rows.map((r) => {
    const sealed = sealedOf(r);
    return itemOf(
      r,
      sealed && privacy.read<ConsentPersonal>(keys.get(sealed.kid), sealedAad('ConsentRecorded', r.tenant_id, r.id, r.subject), sealed),
    );
  });
}

const sealedOf = (r: ItemRow) => (!r.erased && r.personal ? (r.personal as unknown as Sealed) : undefined);

/** A row as the API shows it: its personal fields if they opened, else nulls and why (erased or tampered). */
function itemOf(r: ItemRow, opened: Sealing<ConsentPersonal> | undefined): ConsentSearchItem {
  const p = opened?.state === 'personal' ? opened.value : undefined;
  return {
    id: r.id,
    consentHash: r.consent_hash,
    userReference: p?.userReference ?? null,
    policyVersionId: r.policy_version_id,
    policyType: r.policy_type,
    policyVersion: r.policy_version,
    consentGiven: r.consent_given,
    status: r.status,
    ipAddress: p?.ipAddress ?? null,
    userAgent: p?.userAgent ?? null,
    metadata: p ? p.metadata : null,
    createdAt: r.created_at.toISOString(),
    withdrawnAt: r.withdrawn_at?.toISOString() ?? null,
    erased: opened === undefined || opened.state === 'erased',
    tampered: opened?.state === 'tampered',
    policyTitle: r.policy_title,
  };
}

/** A page of matching records, newest first, and how many match in all. */
export async function searchConsents(
  db: Kysely<Database>,
  privacy: Privacy,
  tenantId: string,
  filter: ConsentFilter,
  page: number,
  limit: number,
): Promise<{ items: ConsentSearchItem[]; total: number }> {
  const base = applyConsentFilter(db.selectFrom('read.consents'), tenantId, filter);
  // The total from the counters where the filter allows (as stats): counting a large tenant's
  // rows took longer than the whole page.
  const [rows, total] = await Promise.all([
    base
      .select(ITEM_COLUMNS)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .offset((page - 1) * limit)
      .execute(),
    countConsents(db, tenantId, filter),
  ]);
  return { items: await openRows(privacy, rows), total };
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
  let q = applyConsentFilter(db.selectFrom('read.consents'), tenantId, filter);
  if (after) q = q.where(sql<boolean>`(created_at, id) > (${after.createdAt}::timestamptz, ${after.id}::uuid)`);
  return q
    .select([
      ...ITEM_COLUMNS,
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
 * (on the privacy module's worker threads, where there are any) and page k+2 read.
 */
export async function* streamConsents(
  db: Kysely<Database>,
  privacy: Privacy,
  tenantId: string,
  filter: ConsentFilter,
  chunk = STREAM_PAGE_ROWS,
): AsyncGenerator<ConsentSearchItem> {
  type PageRow = ItemRow & { cursor: string; wrapped: string | null };
  const page = (after: { createdAt: string; id: string } | undefined): Promise<PageRow[]> => {
    const p = orderedScan(db, (tx) => consentPage(tx, tenantId, filter, after, chunk).execute());
    // A reader that stops early (the client went away) leaves this page unread: not an error.
    p.catch(() => undefined);
    return p;
  };
  const opened = async (rows: readonly PageRow[]): Promise<ConsentSearchItem[]> => {
    const sealed = rows.flatMap((r) => {
      const s = sealedOf(r);
      return s ? [{ wrapped: r.wrapped, aad: sealedAad('ConsentRecorded', r.tenant_id, r.id, r.subject), sealed: s }] : [];
    });
    const personal = await privacy.openStored<ConsentPersonal>(sealed);
    let k = 0;
    return rows.map((r) => itemOf(r, sealedOf(r) ? personal[k++] : undefined));
  };
  let next: Promise<PageRow[]> | undefined = page(undefined);
  let ready: Promise<ConsentSearchItem[]> | undefined;
  while (next || ready) {
    let opening: Promise<ConsentSearchItem[]> | undefined;
    if (next) {
      const rows: PageRow[] = await next;
      const last = rows[rows.length - 1];
      next = rows.length === chunk && last !== undefined ? page({ createdAt: last.cursor, id: last.id }) : undefined;
      opening = opened(rows);
      opening.catch(() => undefined);
    }
    if (ready) for (const item of await ready) yield item;
    ready = opening;
  }
}
