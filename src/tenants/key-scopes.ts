/**
 * What a key may do (docs/contract.md, Keys and scopes): `admin` everything; `write` record and
 * withdraw (and read the policies to record against), nothing that reads records back; `read`
 * everything that reads, verifies, proves, exports and downloads receipts, nothing that writes;
 * `publishable` (`pk_…`, no secret) record a decision from a browser on an allowed origin, nothing else.
 */
export const KEY_SCOPES = ['admin', 'write', 'read', 'publishable'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/** An origin as browsers send it: scheme, host, optional port; no path, no trailing slash. */
export const ORIGIN =
  /^https?:\/\/(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?::\d{1,5})?$|^https?:\/\/\[[0-9a-f:.]+\](?::\d{1,5})?$/;
