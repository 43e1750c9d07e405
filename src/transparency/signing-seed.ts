/** The signing key is missing, unreadable, or not the log's current key: the service must not sign. */
export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError';
}

/** A 32-byte Ed25519 seed from 64 hex characters or base64. */
export function seedBytes(text: string, origin = 'TRANSPARENCY_SIGNING_KEY'): Buffer {
  const t = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : Buffer.from(t, 'base64');
  if (bytes.length !== 32) throw new SigningKeyError(`${origin}: expected an Ed25519 seed, 32 bytes (64 hex characters or base64)`);
  return bytes;
}
