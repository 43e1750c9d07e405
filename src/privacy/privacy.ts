import { createHmac } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Sealed } from '../domain/consent/consent.events.js';
import type { Database } from '../store/schema.js';
import { combineKeys, deriveKey, hmacHex, openBytes, sealBytes, secureRandom, unwrapKey, wrapKey, type RandomSource } from './envelope.js';
import { BulkOpener, defaultOpenThreads, type StoredSeal } from './bulk-open.js';
import { readSealed, type Sealing } from './sealing.js';
import { DataKeyStore, loadLookupSecret, wrappedSecretAad, type DataKey } from './key-store.js';

/** The personal fields of a consent record: sealed in the ledger, never stored in clear. */
export interface ConsentPersonal {
  userReference: string;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown>;
}

/**
 * The identity a sealed value is bound to (AES-GCM additional data): the event type, the tenant,
 * the consent and the subject. The same ciphertext in any other event does not open.
 */
export const sealedAad = (type: 'ConsentRecorded' | 'ConsentWithdrawn', tenantId: string, consentId: string, subject: string): string =>
  `consent-ledger/${type}/${tenantId}/${consentId}/${subject}`;

export interface PrivacyOptions {
  /** Tests of published examples pass a deterministic source; everything else uses the CSPRNG. */
  random?: RandomSource;
  /** How long an unwrapped data key is reused (ms); another process's erasure is seen within it. */
  cacheMs?: number;
  /** Processes share the store (a PostgreSQL server): a key destroyed by another is never used from the cache. */
  shared?: boolean;
  /** Data keys made ahead (1,024); the published examples were made with 128, and their random bytes follow from it. */
  poolSize?: number;
  /** Worker threads that open seals in bulk (the CSV export); 0 opens them on the calling thread. Default: the cores but one, at most 4. */
  openThreads?: number;
}

/**
 * Personal data protection: subjects as keyed hashes, data keys (AES-256-GCM) in the key store,
 * one per record, and their destruction (docs/erasure.md).
 *
 * @example
 * const privacy = await Privacy.open(store.db, masterKey);
 * const subject = privacy.subjectOf(tenantId, 'user-42');         // 64 hex, never the reference
 * const [key] = await privacy.keys.fresh();
 * const sealed = privacy.seal(key, aad, { userReference: 'user-42' });
 * privacy.read(key, aad, sealed)                                   // { state: 'personal', value: { userReference: 'user-42' } }
 */
export class Privacy {
  private readonly tenantKeys = new Map<string, Buffer>();

  private constructor(
    private readonly lookupSecret: Buffer,
    readonly keys: DataKeyStore,
    private readonly random: RandomSource,
    private readonly bulk: BulkOpener,
    private readonly master: Buffer,
  ) {}

  /**
   * A secret another part of the store keeps (a webhook's signing secret), wrapped with the master
   * key and bound to its scope, so that a copy of the table alone reveals nothing and a wrapped value
   * moved to another row does not open. `keys rotate-master` re-wraps it.
   *
   * @example
   * const wrapped = privacy.wrapSecret(webhookSecretScope(id), 'whsec_…');
   * privacy.unwrapSecret(webhookSecretScope(id), wrapped) // 'whsec_…'
   */
  wrapSecret(scope: string, value: string): string {
    return wrapKey(this.master, wrappedSecretAad(scope), Buffer.from(value, 'utf8'), this.random);
  }

  unwrapSecret(scope: string, wrapped: string): string {
    return unwrapKey(this.master, wrappedSecretAad(scope), wrapped).toString('utf8');
  }

  static async open(db: Kysely<Database>, master: Buffer, options: PrivacyOptions = {}): Promise<Privacy> {
    const random = options.random ?? secureRandom;
    const secret = await loadLookupSecret(db, master, random);
    return new Privacy(
      secret,
      new DataKeyStore(db, master, {
        random,
        ...(options.cacheMs === undefined ? {} : { cacheMs: options.cacheMs }),
        ...(options.poolSize === undefined ? {} : { poolSize: options.poolSize }),
        ...(options.shared ? { shared: true } : {}),
      }),
      random,
      new BulkOpener(master, options.openThreads ?? defaultOpenThreads()),
      master,
    );
  }

  /** The subject of a user reference in a tenant: HMAC-SHA256 under the tenant's lookup key, hex. */
  subjectOf(tenantId: string, userReference: string): string {
    return hmacHex(this.tenantKey(tenantId, 'consent-ledger/subject-lookup'), userReference);
  }

  /**
   * What the ledger keeps of a client's Idempotency-Key (docs/erasure.md): HMAC-SHA256 under a
   * key of the tenant's own, derived from the lookup secret, so that a key (often an e-mail address
   * or a user id) cannot be read back or confirmed by guessing. Stable across master-key rotations.
   *
   * @example
   * privacy.idempotencyKeyOf(tenantId, 'signup-dave@example.com') // 'ik_' + 64 hex
   */
  idempotencyKeyOf(tenantId: string, key: string): string {
    return `ik_${hmacHex(this.tenantKey(tenantId, 'consent-ledger/idempotency-key'), key)}`;
  }

  /**
   * What the ledger and the read models keep to find records by a top-level metadata value
   * (`metadata.source=web`, docs/purposes.md): HMAC-SHA256 of the key and the value's text under
   * a key of the tenant's own, cut to 16 bytes (base64url). Like a subject, nobody without the
   * secret can read a value back; a scalar's text is its JSON text without quotes (`5`, `true`, `web`).
   *
   * @example
   * privacy.metadataTagOf(tenantId, 'source', 'web') // 22 base64url characters
   */
  metadataTagOf(tenantId: string, key: string, value: string): string {
    return createHmac('sha256', this.tenantKey(tenantId, 'consent-ledger/metadata-tag'))
      .update(`${key}\u0000${value}`)
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  /**
   * The seal of a webhook delivery row (src/webhooks/delivery-seal.ts): HMAC-SHA256, hex, under a
   * key of the tenant's own derived from the lookup secret, which the database holds only wrapped
   * by the master key; stable across master-key rotations.
   */
  deliverySeal(tenantId: string, text: string): string {
    return hmacHex(this.tenantKey(tenantId, 'consent-ledger/webhook-delivery'), text);
  }

  private tenantKey(tenantId: string, purpose: string): Buffer {
    const id = `${purpose} ${tenantId}`;
    let key = this.tenantKeys.get(id);
    if (!key) {
      key = deriveKey(this.lookupSecret, tenantId, purpose);
      if (this.tenantKeys.size > 10_000) this.tenantKeys.clear();
      this.tenantKeys.set(id, key);
    }
    return key;
  }

  seal(key: DataKey, aad: string, value: unknown): Sealed {
    return sealBytes(key.key, key.kid, aad, Buffer.from(JSON.stringify(value), 'utf8'), this.random);
  }

  /**
   * The one reader of a sealed personal field, for every answer that shows one (get, lists,
   * search, export, webhooks, verify): `personal` with the value, `erased` when its key is gone,
   * or `tampered` when the key is there and the seal does not open (or is not a seal at all).
   *
   * @example
   * privacy.read<ConsentPersonal>(key, aad, sealed) // { state: 'personal', value } | { state: 'erased' } | { state: 'tampered' }
   */
  read<T>(key: DataKey | undefined, aad: string, sealed: unknown): Sealing<T> {
    return readSealed<T, DataKey>(key, sealed, (k, s) => openBytes(k.key, aad, s));
  }

  /**
   * Opens many seals read from the store with their wrapped keys (the CSV export), on worker
   * threads when there are any: each answer is a `Sealing` (as `read`). In the rows' order.
   */
  async openStored<T>(rows: readonly StoredSeal[]): Promise<Sealing<T>[]> {
    const opened = (await this.bulk.open(rows)) as Sealing<T>[];
    // Not taken for tampering when this process's master key was rotated away while it ran.
    if (opened.some((o) => o.state === 'tampered')) await this.keys.assertMasterKeyCurrent();
    return opened;
  }

  /** Stops the bulk opener's worker threads. */
  close(): Promise<void> {
    return this.bulk.close();
  }

  /**
   * A keyed hash under the records' data keys (idempotency request hashes): once any of those
   * keys is destroyed, nobody can test guesses of the request against it.
   */
  mac(keys: readonly DataKey[], text: string): string {
    return hmacHex(combineKeys(keys.map((k) => k.key)), `consent-ledger/request/${text}`);
  }
}
