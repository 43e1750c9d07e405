import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/**
 * User tokens (docs/browser.md, "Only for the signed-in user"): a publishable key given a tenant's
 * Ed25519 public key records a decision only with a JWT (RFC 7519, alg EdDSA) that the tenant's
 * backend signed, naming the visitor's userReference as its `sub`. The page cannot then record for
 * anyone else: the key is public, the token is not forged without the tenant's private key.
 */

/** How far ahead a token's `exp` may be: a token that leaks is good for a day at most. */
export const USER_TOKEN_MAX_LIFETIME_S = 24 * 60 * 60;
/** Clock difference allowed between the tenant's backend and the service, on `exp` and `nbf`. */
export const USER_TOKEN_LEEWAY_S = 60;
/** The longest token taken: room for many claims of the tenant's own besides those read here. */
export const MAX_USER_TOKEN_LENGTH = 8192;

// DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the 32 key bytes follow it.
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/**
 * An Ed25519 public key as a tenant gives it: PEM (SPKI), or its 32 bytes in hex, base64 or
 * base64url. Answers the 32 bytes in base64url (how it is stored and shown), or null when the
 * text is none of these.
 *
 * @example
 * userTokenKeyOf('-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEA…\n-----END PUBLIC KEY-----') // '…' (43 characters)
 */
export function userTokenKeyOf(text: string): string | null {
  const trimmed = text.trim();
  let raw: Buffer | undefined;
  // A private key would give its public one: refused, since it should never leave the tenant.
  if (trimmed.startsWith('-----BEGIN PUBLIC KEY-----')) {
    try {
      const key = createPublicKey(trimmed);
      if (key.asymmetricKeyType !== 'ed25519') return null;
      raw = key.export({ format: 'der', type: 'spki' }).subarray(ED25519_SPKI_PREFIX.length);
    } catch {
      return null;
    }
  } else if (/^[0-9a-fA-F]{64}$/.test(trimmed)) raw = Buffer.from(trimmed, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) raw = Buffer.from(trimmed.replace(/=$/, ''), 'base64url');
  if (raw?.length !== 32 || weakPoint(raw)) return null;
  try {
    // A point that does not decode is no key (node refuses it here, not at the first token).
    publicKeyOf(raw.toString('base64url'));
  } catch {
    return null;
  }
  return raw.toString('base64url');
}

// Curve25519's field prime and Ed25519's curve constant d = -121665/121666 (RFC 8032).
const P = 2n ** 255n - 19n;
const mod = (a: bigint) => ((a % P) + P) % P;
const power = (base: bigint, exponent: bigint): bigint => {
  let result = 1n;
  for (let b = mod(base), e = exponent; e > 0n; e >>= 1n, b = mod(b * b)) if (e & 1n) result = mod(result * b);
  return result;
};
const inverse = (a: bigint) => power(a, P - 2n);
const D = mod(-121665n * inverse(121666n));

/**
 * Whether a public key's point is one no private key makes, for which signatures can be forged:
 * its y not below the field prime (a second spelling of a point), off the curve, or of small
 * order (8·A is the neutral point: the all-zero key, and seven others). With such a key an
 * all-but-empty signature verifies for about one message in four, so anyone could sign tokens.
 */
function weakPoint(raw: Buffer): boolean {
  const bytes = Buffer.from(raw);
  bytes[31]! &= 0x7f;
  const y = BigInt(`0x${Buffer.from(bytes).reverse().toString('hex')}`);
  if (y >= P) return true;
  // x² = (y² − 1) / (d·y² + 1); either root has the same order.
  const xx = mod((y * y - 1n) * inverse(mod(D * y * y + 1n)));
  let x = power(xx, (P + 3n) / 8n);
  if (mod(x * x - xx) !== 0n) x = mod(x * power(2n, (P - 1n) / 4n));
  if (mod(x * x - xx) !== 0n) return true;
  // Doubling on −x² + y² = 1 + d·x²·y² (complete for Ed25519): three times is 8·A.
  let [px, py] = [x, y];
  for (let i = 0; i < 3; i++) {
    const t = mod(D * px * px * py * py);
    [px, py] = [mod(2n * px * py * inverse(mod(1n + t))), mod((py * py + px * px) * inverse(mod(1n - t)))];
  }
  return px === 0n && py === 1n;
}

/** The key object of a stored user-token key (32 bytes, base64url). */
export function publicKeyOf(stored: string): KeyObject {
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(stored, 'base64url')]), format: 'der', type: 'spki' });
}

/** Why a token is refused: said to the caller as is (never the token itself). */
export class UserTokenError extends Error {}

const part = (text: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

const numericDate = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * The user reference a user token vouches for, checked against a publishable key's user-token
 * key: a compact JWS signed with EdDSA (or its fully specified name, Ed25519), whose claims hold
 * `sub` (the user reference), `exp` (in the future, at most a day ahead), and, when present, `nbf`
 * (passed) and `aud` (the publishable key, or a list naming it). Throws a UserTokenError saying
 * what is wrong; the caller compares the answer with the decision's userReference.
 *
 * @example
 * userReferenceOf(token, publicKeyOf(stored), { apiKey: 'pk_…', now: Date.now() }) // 'user-42'
 */
export function userReferenceOf(token: string, key: KeyObject, expected: { apiKey: string; now: number }): string {
  if (token.length > MAX_USER_TOKEN_LENGTH) throw new UserTokenError(`X-User-Token is longer than ${MAX_USER_TOKEN_LENGTH} characters`);
  const pieces = token.split('.');
  if (pieces.length !== 3 || pieces.some((p) => !/^[A-Za-z0-9_-]*$/.test(p))) {
    throw new UserTokenError('X-User-Token must be a JWT: three base64url parts separated by dots');
  }
  const [head, body, signature] = pieces as [string, string, string];
  const header = part(head);
  if (!header || (header.alg !== 'EdDSA' && header.alg !== 'Ed25519')) {
    throw new UserTokenError('X-User-Token must be signed with EdDSA (Ed25519): its header says "alg": "EdDSA"');
  }
  if (header.crit !== undefined) throw new UserTokenError('X-User-Token has critical header parameters this service does not understand');
  if (!verify(null, Buffer.from(`${head}.${body}`), key, Buffer.from(signature, 'base64url'))) {
    throw new UserTokenError("X-User-Token's signature does not verify by the key's user-token key");
  }
  const claims = part(body);
  if (!claims) throw new UserTokenError("X-User-Token's claims are not a JSON object");
  const now = expected.now / 1000;
  if (!numericDate(claims.exp)) throw new UserTokenError('X-User-Token must say when it expires (exp, in seconds since 1970)');
  if (claims.exp <= now - USER_TOKEN_LEEWAY_S) throw new UserTokenError('X-User-Token has expired: ask your backend for a new one');
  if (claims.exp > now + USER_TOKEN_MAX_LIFETIME_S + USER_TOKEN_LEEWAY_S) {
    throw new UserTokenError('X-User-Token must expire within 24 hours (exp)');
  }
  if (claims.nbf !== undefined && (!numericDate(claims.nbf) || claims.nbf > now + USER_TOKEN_LEEWAY_S)) {
    throw new UserTokenError('X-User-Token is not valid yet (nbf)');
  }
  if (claims.aud !== undefined) {
    const audiences: unknown[] = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audiences.includes(expected.apiKey)) throw new UserTokenError('X-User-Token is meant for another key (aud)');
  }
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new UserTokenError('X-User-Token must name the user reference (sub)');
  return claims.sub;
}
