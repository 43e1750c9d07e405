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

/**
 * An origin exactly as a browser sends it in `Origin`: ORIGIN's form, and its own serialization
 * (no default port such as :443 on https, a port within 1..65535), so that a key allows what
 * browsers will actually send.
 *
 * @example
 * isOrigin('https://shop.example.com') // true
 * isOrigin('https://shop.example.com:443') // false: browsers send https://shop.example.com
 */
export function isOrigin(text: string): boolean {
  if (!ORIGIN.test(text)) return false;
  try {
    const url = new URL(text);
    // Port 0 parses, but no browser sends it.
    return url.origin === text && url.port !== '0';
  } catch {
    return false;
  }
}
