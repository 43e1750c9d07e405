import { sql } from 'kysely';
import type { Projector } from '../../src/followers/projector.js';

type Tx = Parameters<Projector['apply']>[0];

/** A record as the counters file it: its day (from created_at), type, purpose, version, decision and tags. */
export interface CountedRecord {
  tenant_id: string;
  created_at: string | Date;
  policy_type: string;
  purpose: string;
  policy_version_id: string;
  consent_given: boolean;
  metadata_tags: string[] | null;
}

/** One counter change: +1 or -1 of a record under a status and a tag ('' = every record). */
interface Delta {
  t: string;
  ts: string;
  p: string;
  u: string;
  v: string;
  g: boolean;
  s: string;
  tag: string;
  d: number;
}

/** The changes that add (`d` = 1) or remove (-1) a record under `status`: once for all records, once per tag. */
export function deltasOf(r: CountedRecord, status: string, d: number, tags: readonly string[] | null = r.metadata_tags): Delta[] {
  const base = {
    t: r.tenant_id,
    ts: r.created_at instanceof Date ? r.created_at.toISOString() : r.created_at,
    p: r.policy_type,
    u: r.purpose,
    v: r.policy_version_id,
    g: r.consent_given,
    s: status,
    d,
  };
  return ['', ...(tags ?? [])].map((tag) => ({ ...base, tag }));
}

/**
 * Applies counter changes in one statement: summed per counter first, then one upsert. The
 * consents projector calls it in the transaction that changes the rows, so counters and rows
 * always agree. The UTC day is computed as read.consents.created_at is stored. Raw SQL: the batch
 * is one JSON parameter (json_to_recordset), grouped in the statement.
 */
export async function applyDeltas(tx: Tx, deltas: readonly Delta[]): Promise<void> {
  if (deltas.length === 0) return;
  await sql`
    INSERT INTO read.consent_counts (tenant_id, day, policy_type, purpose, policy_version_id, consent_given, status, tag, count)
    SELECT r.t, (r.ts AT TIME ZONE 'UTC')::date, r.p, r.u, r.v, r.g, r.s, r.tag, sum(r.d)
    FROM json_to_recordset(${JSON.stringify(deltas)}::json) AS r(t uuid, ts timestamptz, p text, u text, v uuid, g boolean, s text, tag text, d int)
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (tenant_id, day, policy_type, purpose, policy_version_id, consent_given, status, tag)
    DO UPDATE SET count = read.consent_counts.count + EXCLUDED.count`.execute(tx);
}
