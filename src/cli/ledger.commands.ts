import { LedgerLocationError, locationKind, type CopyInput } from './ledger-location.js';
import type { Command } from './command.js';
import { UsageError } from './command.js';

type Values = Record<string, string | boolean | undefined>;

const text = (values: Values, name: string): string | undefined => {
  const v = values[name];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
};

const count = (values: Values, name: string, max: number): number | undefined => {
  const raw = text(values, name);
  if (raw === undefined) return undefined;
  if (!/^[1-9][0-9]{0,9}$/.test(raw) || Number(raw) > max)
    throw new UsageError(`--${name} must be a whole number from 1 to ${max} (got "${raw}")`);
  return Number(raw);
};

/** A location as the copy compares them: a resolved folder, or the URL as given. */
const where = (location: string, flag: string): string => {
  try {
    const { kind, target } = locationKind(location);
    return kind === 'embedded' ? `file:${target}` : target;
  } catch (error) {
    if (error instanceof LedgerLocationError) throw new UsageError(`--${flag}: ${error.message}`);
    throw error;
  }
};

/** The state store at a location: a PostgreSQL URL or an embedded folder (not EventStoreDB). */
function storeLocation(location: string | undefined, flag: string): string | undefined {
  if (location === undefined) return undefined;
  const w = where(location, flag);
  if (locationKind(location).kind === 'eventstoredb')
    throw new UsageError(`--${flag} must be a PostgreSQL URL or an embedded store's folder, not EventStoreDB`);
  return w;
}

/** EVENTSTORE_STREAM_PREFIX of an EventStoreDB end, as the service's settings allow it. */
function streamPrefix(values: Values, flag: string, location: string): string | undefined {
  const p = text(values, flag);
  if (p === undefined) return undefined;
  if (locationKind(location).kind !== 'eventstoredb') throw new UsageError(`--${flag} applies to an EventStoreDB location only`);
  if (!/^[A-Za-z0-9_.:-]{1,64}$/.test(p))
    throw new UsageError(`--${flag}: letters, digits and _ . : - (at most 64), as EVENTSTORE_STREAM_PREFIX`);
  return p;
}

export const ledgerCopy: Command = {
  name: 'ledger copy',
  usage:
    'ledger copy --from LOCATION --to LOCATION [--from-store DB] [--to-store DB] [--ledger-only] [--from-stream-prefix P] [--to-stream-prefix P] [--batch-size N] [--limit N]',
  summary:
    'Copy a ledger between adapters (embedded folder, postgres://, esdb:// or kurrentdb://) keeping order, ids, times and hashes, with the store state the ledger needs (tenants, keys, data keys, webhooks, receipts, transparency log); resumable, verified at the end; prints the summary, exits 1 on any mismatch. See docs/scaling.md',
  options: {
    from: { type: 'string' },
    to: { type: 'string' },
    'from-store': { type: 'string' },
    'to-store': { type: 'string' },
    'ledger-only': { type: 'boolean' },
    'from-stream-prefix': { type: 'string' },
    'to-stream-prefix': { type: 'string' },
    'batch-size': { type: 'string' },
    limit: { type: 'string' },
  },
  parse(values): CopyInput {
    const from = text(values, 'from');
    const to = text(values, 'to');
    if (from === undefined)
      throw new UsageError('--from is required: the ledger to copy (a DATA_DIR folder, a postgres:// URL or an esdb:// URL)');
    if (to === undefined)
      throw new UsageError('--to is required: where to copy it (a DATA_DIR folder, a postgres:// URL or an esdb:// URL)');
    if (where(from, 'from') === where(to, 'to')) throw new UsageError('--from and --to name the same ledger');
    const ledgerOnly = values['ledger-only'] === true;
    const fromStore = storeLocation(text(values, 'from-store'), 'from-store');
    const toStore = storeLocation(text(values, 'to-store'), 'to-store');
    if (!ledgerOnly) {
      if (locationKind(from).kind === 'eventstoredb' && fromStore === undefined) {
        throw new UsageError(
          '--from-store is required with an EventStoreDB source: the store beside it (its DATABASE_URL, or DATA_DIR) holds the tenants, keys and data keys; or give --ledger-only',
        );
      }
      if (locationKind(to).kind === 'eventstoredb' && toStore === undefined) {
        throw new UsageError(
          '--to-store is required with an EventStoreDB destination: the store its service will use (DATABASE_URL, or DATA_DIR); or give --ledger-only',
        );
      }
      const a = fromStore ?? where(from, 'from');
      const b = toStore ?? where(to, 'to');
      if (a === b)
        throw new UsageError('the source and destination stores are one database: give the destination a fresh one (--to-store)');
    }
    return {
      from,
      to,
      fromStore: text(values, 'from-store'),
      toStore: text(values, 'to-store'),
      ledgerOnly,
      fromStreamPrefix: streamPrefix(values, 'from-stream-prefix', from),
      toStreamPrefix: streamPrefix(values, 'to-stream-prefix', to),
      batchSize: count(values, 'batch-size', 10_000) ?? 1_000,
      limit: count(values, 'limit', 1_000_000_000),
    };
  },
  load: () => import('./ledger.run.js').then((m) => m.ledgerCopy),
};
