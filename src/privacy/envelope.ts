import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { Sealed } from '../domain/consent/consent.events.js';

/** Bytes of randomness: node:crypto's CSPRNG, or a deterministic source in tests of published examples. */
export type RandomSource = (size: number) => Buffer;

/** Bytes drawn from the CSPRNG at once; each call for a nonce or key takes a fresh slice. */
const RANDOM_POOL_BYTES = 8192;
let randomPool = Buffer.alloc(0);
let randomUsed = 0;

/**
 * node:crypto's CSPRNG, drawn 8 KiB at a time: one `randomBytes(12)` costs about 1.8 µs (a call
 * into OpenSSL each time), a slice of the pool a few tens of nanoseconds, and every record needs a
 * nonce. No byte is handed out twice; each caller gets its own copy (never a view of the pool).
 */
export const secureRandom: RandomSource = (size) => {
  if (size > RANDOM_POOL_BYTES / 8) return randomBytes(size);
  if (randomUsed + size > randomPool.length) {
    randomPool = randomBytes(RANDOM_POOL_BYTES);
    randomUsed = 0;
  }
  const out = Buffer.from(randomPool.subarray(randomUsed, randomUsed + size));
  randomPool.fill(0, randomUsed, randomUsed + size);
  randomUsed += size;
  return out;
};

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The AES-256-GCM ciphertext could not be opened: wrong key, wrong additional data or changed bytes. */
export class SealBrokenError extends Error {
  override readonly name = 'SealBrokenError';
}

/**
 * AES-256-GCM with a random 96-bit nonce. `aad` (the identity of what is sealed) is
 * authenticated, not stored: a ciphertext copied into another event does not open there.
 *
 * @example
 * const s = sealBytes(key, 'kid-1', 'ConsentRecorded/t/c/s', Buffer.from('{}'), secureRandom); // { kid, iv, ct }
 */
export function sealBytes(key: Buffer, kid: string, aad: string, plaintext: Buffer, random: RandomSource): Sealed {
  const iv = random(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const ct = Buffer.concat([cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
  return { kid, iv: iv.toString('base64url'), ct: ct.toString('base64url') };
}

/** Opens what `sealBytes` sealed, or throws SealBrokenError. */
export function openBytes(key: Buffer, aad: string, sealed: Sealed): Buffer {
  try {
    const ct = Buffer.from(sealed.ct, 'base64url');
    if (ct.length < TAG_BYTES) throw new SealBrokenError('ciphertext too short');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(sealed.iv, 'base64url'));
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(ct.subarray(ct.length - TAG_BYTES));
    return Buffer.concat([decipher.update(ct.subarray(0, ct.length - TAG_BYTES)), decipher.final()]);
  } catch (error) {
    if (error instanceof SealBrokenError) throw error;
    throw new SealBrokenError('the sealed value does not open with this key and identity');
  }
}

/** A key wrapped by the master key: `iv.ciphertext+tag`, base64url, bound to `aad`. */
export function wrapKey(master: Buffer, aad: string, key: Buffer, random: RandomSource): string {
  const s = sealBytes(master, '', aad, key, random);
  return `${s.iv}.${s.ct}`;
}

export function unwrapKey(master: Buffer, aad: string, wrapped: string): Buffer {
  const [iv = '', ct = ''] = wrapped.split('.');
  return openBytes(master, aad, { kid: '', iv, ct });
}

/** Lowercase hex HMAC-SHA256. */
export const hmacHex = (key: Buffer, text: string): string => createHmac('sha256', key).update(text, 'utf8').digest('hex');

/** A 32-byte key derived from `secret` for one purpose and scope (HKDF-SHA256). */
export const deriveKey = (secret: Buffer, salt: string, info: string): Buffer => Buffer.from(hkdfSync('sha256', secret, salt, info, 32));

/** One key standing for several (a batch's subjects): destroying any of them makes it unrecomputable. */
export const combineKeys = (keys: readonly Buffer[]): Buffer =>
  keys.length === 1 ? keys[0]! : createHash('sha256').update(Buffer.concat(keys)).digest();
