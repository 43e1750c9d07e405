import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hidePasswords } from '../store/database-errors.js';

/**
 * Ledger locations as the CLI takes them (`ledger copy --from/--to`), read without opening them:
 * no store, no client, so that the CLI checks its arguments before it loads either.
 */

/** A location that names no ledger this build can open; the message says what to give instead. */
export class LedgerLocationError extends Error {
  override readonly name = 'LedgerLocationError';
}

const EVENTSTORE = /^(esdb|kurrentdb|kdb)(\+discover)?:\/\//i;
const POSTGRES = /^postgres(ql)?:\/\//i;

/** The location with the password of a URL replaced by `***`. */
export function maskLocation(location: string): string {
  try {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(location)) return location;
    return hidePasswords(new URL(location)).toString();
  } catch {
    return location.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  }
}

/** The three kinds of ledger a location can name. */
export type LocationKind = 'embedded' | 'postgres' | 'eventstoredb';

/**
 * What a location names, without opening it: `postgres://` / `postgresql://` a PostgreSQL server,
 * `esdb://` / `kurrentdb://` (also `+discover`, and `kdb://`) EventStoreDB, `file:` or a plain path
 * the embedded store's folder (the service's `DATA_DIR`).
 */
export function locationKind(location: string): { kind: LocationKind; target: string } {
  const l = location.trim();
  if (l === '') throw new LedgerLocationError('the location is empty: give a folder (DATA_DIR), a postgres:// URL or an esdb:// URL');
  if (POSTGRES.test(l)) return { kind: 'postgres', target: l };
  if (EVENTSTORE.test(l)) return { kind: 'eventstoredb', target: l };
  if (/^file:/i.test(l)) {
    const target = /^file:\/\//i.test(l) ? fileURLToPath(l) : l.slice('file:'.length);
    if (target === '') throw new LedgerLocationError(`"${l}": file: needs a folder, as in file:./data or file:///var/lib/consent-ledger`);
    return { kind: 'embedded', target: resolve(target) };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(l)) {
    throw new LedgerLocationError(
      `"${maskLocation(l)}": unknown kind of location; give a folder (DATA_DIR), a postgres:// URL or an esdb:// / kurrentdb:// URL`,
    );
  }
  return { kind: 'embedded', target: resolve(l) };
}

/** The `ledger copy` command's arguments, as its `parse` answers them. */
export interface CopyInput {
  from: string;
  to: string;
  fromStore: string | undefined;
  toStore: string | undefined;
  ledgerOnly: boolean;
  fromStreamPrefix: string | undefined;
  toStreamPrefix: string | undefined;
  batchSize: number;
  limit: number | undefined;
}
