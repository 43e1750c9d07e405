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
