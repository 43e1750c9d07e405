import type { Projector } from '../../src/followers/projector.js';
import { addToCounters } from '../counters.js';

type Tx = Parameters<Projector['apply']>[0];

/** A record as the counters file it: its days (created_at, collected_at), type, purpose, version, decision and tags. */
export interface CountedRecord {
  tenant_id: string;
  created_at: string | Date;
  collected_at: string | Date | null;
  policy_type: string;
  purpose: string;
  policy_version_id: string;
  consent_given: boolean;
  metadata_tags: string[] | null;
}

const utcDay = (t: string | Date) => new Date(t).toISOString().slice(0, 10);

/** The key of a read.consent_counts counter. */
const COLUMNS = {
  tenant_id: 'uuid',
  day: 'date',
  decided_day: 'date',
  policy_type: 'text',
  purpose: 'text',
  policy_version_id: 'uuid',
  consent_given: 'boolean',
  status: 'text',
  tag: 'text',
} as const;

/** One counter change: +1 or -1 of a record under a status and a tag ('' = every record). */
type Delta = Record<keyof typeof COLUMNS, unknown> & { tag: string; d: number };

/**
 * The changes that add (`d` = 1) or remove (-1) a record under `status`: once for all records, once
 * per tag. Its day is the UTC date of created_at, as read.consents stores it; its decision's day
 * that of collected_at when the record was imported, else the same.
 */
export function deltasOf(r: CountedRecord, status: string, d: number): Delta[] {
  const base = {
    tenant_id: r.tenant_id,
    day: utcDay(r.created_at),
    decided_day: utcDay(r.collected_at ?? r.created_at),
    policy_type: r.policy_type,
    purpose: r.purpose,
    policy_version_id: r.policy_version_id,
    consent_given: r.consent_given,
    status,
    d,
  };
  return ['', ...(r.metadata_tags ?? [])].map((tag) => ({ ...base, tag }));
}

/** Applies counter changes to read.consent_counts in one statement. */
export const applyDeltas = (tx: Tx, deltas: readonly Delta[]): Promise<void> => addToCounters(tx, 'read.consent_counts', COLUMNS, deltas);
