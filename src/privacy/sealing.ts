import type { Sealed } from '../domain/consent/consent.events.js';

/** What a sealed personal field turned out to be: opened, erased (its key destroyed) or tampered (it does not open). */
export type Sealing<T> = { state: 'personal'; value: T } | { state: 'erased' } | { state: 'tampered' };

const isSealed = (v: unknown): v is Sealed =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Sealed).kid === 'string' &&
  typeof (v as Sealed).iv === 'string' &&
  typeof (v as Sealed).ct === 'string';

/** `read`'s rule, for a key in hand (`open` opens the bytes under it). */
export function readSealed<T, K extends { kid: string }>(
  key: K | undefined,
  sealed: unknown,
  open: (key: K, sealed: Sealed) => Buffer,
): Sealing<T> {
  if (!isSealed(sealed)) return { state: 'tampered' };
  if (!key) return { state: 'erased' };
  if (key.kid !== sealed.kid) return { state: 'tampered' };
  try {
    return { state: 'personal', value: JSON.parse(open(key, sealed).toString('utf8')) as T };
  } catch {
    // A seal that does not open with its own key and identity, or bytes that are not its JSON.
    return { state: 'tampered' };
  }
}
