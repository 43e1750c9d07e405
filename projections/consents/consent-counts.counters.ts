import type { Projector } from '../../src/followers/projector.js';
import { addToCounters } from '../counters.js';

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

/** The key of a read.consent_counts counter. */
const COLUMNS = {
  tenant_id: 'uuid',
  day: 'date',
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
 * per tag. Its day is the UTC date of created_at, as read.consents stores it.
 */
export function deltasOf(r: CountedRecord, status: string, d: number): Delta[] {
  const base = {
    tenant_id: r.tenant_id,
    day: new Date(r.created_at).toISOString().slice(0, 10),
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
