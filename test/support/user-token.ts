import { sign, type KeyObject } from 'node:crypto';

/**
 * A compact JWS (RFC 7515) as a tenant's backend signs a user token (docs/browser.md): Ed25519
 * over the base64url header and claims. Any header and claims, so that tests can make bad ones.
 *
 * @example
 * const token = signedUserToken(backend.privateKey, { sub: 'user-42', exp: Math.floor(Date.now() / 1000) + 300 });
 */
export function signedUserToken(
  signer: KeyObject,
  claims: Record<string, unknown>,
  header: Record<string, unknown> = { alg: 'EdDSA', typ: 'JWT' },
): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part(header)}.${part(claims)}`;
  return `${input}.${sign(null, Buffer.from(input), signer).toString('base64url')}`;
}
