import { deriveId } from '../common/ids.js';
import { DomainError } from '../domain/errors.js';
import type { RecordedEvent } from '../ledger/ledger.port.js';
import type { DataKey } from '../privacy/key-store.js';
import type { Privacy } from '../privacy/privacy.js';

/** A client's Idempotency-Key and the hash of the request it came with (the route's, the body's). */
export interface Idempotency {
  key: string;
  requestHash: string;
}

/**
 * A key as the ledger holds it (docs/erasure.md): `key` is its keyed hash (`ik_…`), never the key,
 * and every id and stream a key names is derived from that hash, so none lets a key be guessed.
 */
export interface KeyedIdempotency {
  key: string;
  /** The request's hash as sent; stored keyed with the records' data keys (`stored`). */
  requestHash: string;
}

/** What the first write of a key carries in its metadata. */
export interface StoredIdempotency {
  key: string;
  requestHash: string;
}

/** A key came back with another request: refused, nothing written (422 IDEMPOTENCY_KEY_REUSED). */
export const keyReused = (): DomainError =>
  new DomainError('IDEMPOTENCY_KEY_REUSED', 'this Idempotency-Key was used with a different request');

/**
 * The idempotency protocol of the consent commands. A keyed command derives its record's (or
 * batch's, or withdrawal's) id from the key, so a repeat finds the first write's stream and is
 * answered from it: the same request gets the first answer, another request with the same key is
 * refused. The request hash is stored keyed with the records' data keys, so that once they are
 * destroyed (erasure) nobody can test guesses of the request against it; a repeat then answers
 * the record as it is now.
 *
 * @example
 * const keyed = idempotency.keyed(tenantId, { key: 'signup-42', requestHash });
 * const consentId = idempotency.consentId(tenantId, keyed);
 * idempotency.checkReplay(idempotency.recordedWith(first), keyed, keys); // throws IDEMPOTENCY_KEY_REUSED on another request
 */
export class IdempotencyKeys {
  constructor(private readonly privacy: Privacy) {}

  /** The key as the ledger holds it: its keyed hash under the tenant's own key. */
  keyed(tenantId: string, sent: Idempotency | undefined): KeyedIdempotency | undefined {
    return sent && { key: this.privacy.idempotencyKeyOf(tenantId, sent.key), requestHash: sent.requestHash };
  }

  consentId(tenantId: string, keyed: KeyedIdempotency): string {
    return deriveId(tenantId, 'consent', keyed.key);
  }

  batchId(tenantId: string, keyed: KeyedIdempotency): string {
    return deriveId(tenantId, 'consent-batch', keyed.key);
  }

  /** The id of a keyed batch's item: derived from the batch's, so a repeat names the same records. */
  consentIdInBatch(batchId: string, index: number): string {
    return deriveId(batchId, String(index));
  }

  /** The id of a withdrawal key's own stream (`withdrawalKeyStream`). */
  withdrawalKeyId(tenantId: string, keyed: KeyedIdempotency): string {
    return deriveId(tenantId, 'withdraw-key', keyed.key);
  }

  /** The request hash as stored: keyed with the data keys of the records the write makes. */
  storedRequestHash(keys: readonly DataKey[], keyed: KeyedIdempotency): string {
    return this.privacy.mac(keys, keyed.requestHash);
  }

  /** The metadata of a keyed write's events. */
  metadata(keys: readonly DataKey[], keyed: KeyedIdempotency): { idempotency: StoredIdempotency } {
    return { idempotency: { key: keyed.key, requestHash: this.storedRequestHash(keys, keyed) } };
  }

  /** What a write's first event says of its key, if it was keyed. */
  recordedWith(event: RecordedEvent | undefined): StoredIdempotency | undefined {
    const stored = event?.metadata.idempotency as Partial<StoredIdempotency> | undefined;
    return typeof stored?.key === 'string' && typeof stored.requestHash === 'string'
      ? { key: stored.key, requestHash: stored.requestHash }
      : undefined;
  }

  /**
   * Checks that the first write found under this key was made by the same request; throws
   * IDEMPOTENCY_KEY_REUSED otherwise. `keys` are the first write's data keys; undefined when any
   * of them was destroyed: the request can no longer be compared, and the key answers its write.
   */
  checkReplay(found: StoredIdempotency | undefined, keyed: KeyedIdempotency, keys: readonly DataKey[] | undefined): void {
    if (!found || found.key !== keyed.key) throw keyReused();
    if (keys && found.requestHash !== this.storedRequestHash(keys, keyed)) throw keyReused();
  }
}
