/** Classifies database failures: "not now" (retry, answer 503) versus "not this" (a real error). */

const SQLSTATE = /^[0-9A-Z]{5}$/;
/**
 * SQLSTATE classes that say "not now" rather than "not this event": connection (08), rollback
 * such as deadlock or serialization failure (40), resources (53), operator intervention (57),
 * system (58), and a lock not available (55P03).
 */
const TRANSIENT = /^(08|40|53|57|58|55P03)/;
/** The subset that means the database cannot be reached or is going away. */
const UNREACHABLE = /^(08|57P0[1-3]|53300)/;
const NETWORK = /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|EPIPE|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/;
const DRIVER_LOST = /terminated|timeout|closed|not queryable|connection error|ECONN/i;

function classify(error: unknown): { sqlstate: string | undefined; code: string; message: string } {
  const e = error as { code?: unknown; message?: unknown } | null | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  return { sqlstate: SQLSTATE.test(code) ? code : undefined, code, message: typeof e?.message === 'string' ? e.message : '' };
}

/**
 * Whether a failure is the database's (retry later) rather than the work's. An error the
 * database answered carries a SQLSTATE, and only that decides: its message may quote data
 * (`invalid input syntax …: "connection closed"`). Without a SQLSTATE, the driver lost the
 * connection or could not get one.
 */
export function isTransientError(error: unknown): boolean {
  // The ledger adapters say "not now" with LedgerUnavailableError (EventStoreDB unreachable).
  if ((error as { name?: unknown } | null)?.name === 'LedgerUnavailableError') return true;
  const { sqlstate, code, message } = classify(error);
  if (sqlstate) return TRANSIENT.test(sqlstate);
  return NETWORK.test(code) || DRIVER_LOST.test(message);
}

/**
 * Whether the database cannot be reached right now (connection refused, lost or terminated,
 * server shutting down, too many connections): the request did not happen, answer 503.
 */
export function isUnavailableError(error: unknown): boolean {
  const { sqlstate, code, message } = classify(error);
  if (sqlstate) return UNREACHABLE.test(sqlstate);
  return NETWORK.test(code) || DRIVER_LOST.test(message);
}

/**
 * A URL's passwords replaced by `***`: the one before the host, and any query parameter that
 * holds one (`?password=`, `?sslpassword=`, which the driver reads too).
 */
export function hidePasswords(u: URL): URL {
  if (u.password) u.password = '***';
  for (const name of [...u.searchParams.keys()]) if (/pass/i.test(name)) u.searchParams.set(name, '***');
  return u;
}

/** DATABASE_URL as it may be shown: its passwords hidden. */
export function shownDatabaseUrl(url: string): string {
  try {
    return hidePasswords(new URL(url)).toString();
  } catch {
    return '(not a URL)';
  }
}

/** SQLSTATEs a first connection answers when the URL itself is wrong: no such database, a role or password refused. */
const WRONG_URL = /^(3D000|28P01|28000)$/;

/**
 * What to say when the service cannot open the PostgreSQL server DATABASE_URL names at start (the
 * server is not there, refuses the role or has no such database), in one line that names the
 * setting and never the password; null for any other failure.
 */
export function unreachableDatabaseMessage(error: unknown, databaseUrl: string | undefined): string | null {
  if (!databaseUrl) return null;
  const { sqlstate, message } = classify(error);
  if (!(sqlstate ? WRONG_URL.test(sqlstate) || UNREACHABLE.test(sqlstate) : isUnavailableError(error))) return null;
  return `cannot open the PostgreSQL database DATABASE_URL names (${shownDatabaseUrl(databaseUrl)}): ${message || String(error)}`;
}
