import { sql, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { privacyDb, type PrivacyDb } from './privacy.table.js';
import { MasterKeyError } from './master-key.js';
import { secureRandom, unwrapKey, wrapKey, type RandomSource } from './envelope.js';

/** A data key and its id (the `kid` of what it sealed). */
export interface DataKey {
  kid: string;
  key: Buffer;
}

type KeyRow = { key_id: string; wrapped: string };

const LOOKUP_SECRET = 'subject-lookup';
const secretAad = (name: string) => `consent-ledger/secret/${name}`;
/** The additional data a wrapped secret of another part of the store is bound to (`webhook/{id}`). */
export const wrappedSecretAad = (scope: string) => `consent-ledger/wrapped-secret/${scope}`;
/** The scope of a webhook's signing secret. */
export const webhookSecretScope = (webhookId: string) => `webhook/${webhookId}`;

/** The additional data a data key is wrapped with: bound to its id. */
export const dataKeyAad = (kid: string) => `consent-ledger/data-key/${kid}`;

/** A random (version 4) UUID from the given source: the id of a new data key. */
function keyId(random: RandomSource): string {
  const b = random(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The store's lookup secret as wrapped by its master key; undefined before the first start. */
const wrappedLookupSecret = async (db: Kysely<Database>): Promise<string | undefined> =>
  (await privacyDb(db).selectFrom('privacy.secrets').select('wrapped').where('name', '=', LOOKUP_SECRET).executeTakeFirst())?.wrapped;

/**
 * The installation's lookup secret (the root of every tenant's HMAC key), created wrapped on the
 * first start. A master key that does not unwrap it is not this store's: refused.
 */
export async function loadLookupSecret(db: Kysely<Database>, master: Buffer, random: RandomSource = secureRandom): Promise<Buffer> {
  const p = privacyDb(db);
  await p
    .insertInto('privacy.secrets')
    .values({ name: LOOKUP_SECRET, wrapped: wrapKey(master, secretAad(LOOKUP_SECRET), random(32), random) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const wrapped = await wrappedLookupSecret(db);
  if (wrapped === undefined) throw new Error('privacy.secrets: the lookup secret was not stored');
  try {
    return unwrapKey(master, secretAad(LOOKUP_SECRET), wrapped);
  } catch {
    throw new MasterKeyError(
      'the master key does not match the one this store was created with (MASTER_KEY, MASTER_KEY_FILE or DATA_DIR/master.key); refusing to start',
    );
  }
}

/** Whether `master` unwraps the lookup secret as stored (`wrapped`). */
function opensLookupSecret(master: Buffer, wrapped: string): boolean {
  try {
    unwrapKey(master, secretAad(LOOKUP_SECRET), wrapped);
    return true;
  } catch {
    return false;
  }
}

/**
 * In the caller's transaction: `master` still opens the store's lookup secret, which a rotation
 * re-wraps first. The shared lock makes a rotation wait for this transaction, and a transaction
 * after the rotation see it; a process left running with the old key then writes nothing under it.
 */
async function assertMasterKeyCurrent(tx: PrivacyDb, master: Buffer): Promise<void> {
  const row = await tx.selectFrom('privacy.secrets').select('wrapped').where('name', '=', LOOKUP_SECRET).forShare().executeTakeFirst();
  if (row !== undefined && !opensLookupSecret(master, row.wrapped)) {
    throw new MasterKeyError(
      "this process's master key no longer opens the store: it was rotated (keys rotate-master) while the process was running; restart it with the new key",
    );
  }
}

/** Whether the store has a master key already: its lookup secret is wrapped under one. */
export async function sealedUnderMasterKey(db: Kysely<Database>): Promise<boolean> {
  return (await wrappedLookupSecret(db)) !== undefined;
}

/** Whether `master` opens the store's lookup secret; undefined when the store has none yet. */
export async function masterKeyOpens(db: Kysely<Database>, master: Buffer): Promise<boolean | undefined> {
  const wrapped = await wrappedLookupSecret(db);
  return wrapped === undefined ? undefined : opensLookupSecret(master, wrapped);
}

/**
 * Data keys, wrapped by the master key. Each consent record's personal fields are sealed under a
 * key of their own, taken from a pool of keys stored ahead in bulk: recording writes no key row
 * of its own, and a key is durable before anything is sealed with it. A subject's keys are the
 * ones its records name (docs/erasure.md). Unwrapped keys are cached for `cacheMs`. With
 * `shared` (processes sharing a PostgreSQL server), every lookup still asks the store which of
 * its keys exist, using the cache only to skip unwrapping: a key another process destroyed is
 * unusable here from the moment its erasure committed, before that erasure answers.
 */
export class DataKeyStore {
  private readonly db: PrivacyDb;
  private readonly cache = new Map<string, { key: DataKey; until: number }>();
  private pool: DataKey[] = [];
  private refill: Promise<void> | undefined;

  constructor(
    db: Kysely<Database>,
    private readonly master: Buffer,
    private readonly options: { random?: RandomSource; cacheMs?: number; maxCached?: number; poolSize?: number; shared?: boolean } = {},
  ) {
    this.db = privacyDb(db);
  }

  private cached(kid: string): DataKey | undefined {
    const hit = this.cache.get(kid);
    if (!hit) return undefined;
    if (hit.until < Date.now()) {
      this.cache.delete(kid);
      return undefined;
    }
    return hit.key;
  }

  private remember(key: DataKey): void {
    if (this.cache.size >= (this.options.maxCached ?? 10_000)) this.cache.clear();
    this.cache.set(key.kid, { key, until: Date.now() + (this.options.cacheMs ?? 10_000) });
  }

  /**
   * `n` new keys, each used for one record only; stored (committed) before they are answered.
   * Once half the pool is used, it is refilled in the background, so that a request (a batch of
   * 1,000 included) rarely waits for keys to be made and stored.
   */
  async fresh(n = 1): Promise<DataKey[]> {
    const size = this.options.poolSize ?? 1024;
    const out: DataKey[] = [];
    while (out.length < n) {
      if (this.pool.length === 0) {
        // Wait for a refill under way (a background one never throws: when it failed, the next
        // turn makes one whose failure is this request's), or make one.
        await (this.refill ??= this.fill(Math.max(size, n - out.length)).finally(() => (this.refill = undefined)));
        continue;
      }
      out.push(...this.pool.splice(0, n - out.length));
    }
    for (const k of out) this.remember(k);
    if (this.pool.length < size / 2 && !this.refill) {
      this.refill = this.fill(size - this.pool.length)
        .catch(() => undefined)
        .finally(() => (this.refill = undefined));
    }
    return out;
  }

  private async fill(size: number): Promise<void> {
    const random = this.options.random ?? secureRandom;
    const keys = Array.from({ length: size }, () => ({ kid: keyId(random), key: random(32) }));
    // Wrapped 128 at a time with the event loop turning between: 1,024 at once held it ~5 ms.
    const rows: { k: string; w: string }[] = [];
    for (let i = 0; i < keys.length; i += 128) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const k of keys.slice(i, i + 128)) rows.push({ k: k.kid, w: wrapKey(this.master, dataKeyAad(k.kid), k.key, random) });
    }
    await this.db.transaction().execute(async (tx) => {
      // Never a key wrapped under a master key the store no longer has (a rotation while running).
      await assertMasterKeyCurrent(tx, this.master);
      // One parameter for the whole set (json_to_recordset, which Kysely has no builder for):
      // binding two per key costs more than the insert itself.
      await sql`INSERT INTO privacy.data_keys (key_id, wrapped) SELECT r.k, r.w FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(k uuid, w text)`.execute(
        tx,
      );
    });
    this.pool.push(...keys);
  }

  /** The keys with these ids that still exist; a destroyed (or unknown) one is absent from the answer. */
  async byIds(kids: readonly string[]): Promise<Map<string, DataKey>> {
    const found = new Map<string, DataKey>();
    // Shared: every key is asked for (the cache only spares the unwrap below); else cached ones are answered as they are.
    const ask: string[] = [];
    for (const kid of new Set(kids)) {
      const hit = this.options.shared ? undefined : this.cached(kid);
      if (hit) found.set(kid, hit);
      else ask.push(kid);
    }
    if (ask.length === 0) return found;
    const rows: KeyRow[] = await this.db.selectFrom('privacy.data_keys').select(['key_id', 'wrapped']).where('key_id', 'in', ask).execute();
    const present = new Set(rows.map((r) => r.key_id));
    for (const kid of ask) if (!present.has(kid)) this.cache.delete(kid);
    for (const row of rows) {
      let key = this.cached(row.key_id);
      if (!key) {
        key = { kid: row.key_id, key: await this.unwrapped(row) };
        this.remember(key);
      }
      found.set(key.kid, key);
    }
    return found;
  }

  /** A stored key unwrapped; one that does not open because the master key was rotated since this process started says so. */
  private async unwrapped(row: KeyRow): Promise<Buffer> {
    try {
      return unwrapKey(this.master, dataKeyAad(row.key_id), row.wrapped);
    } catch (error) {
      await this.assertMasterKeyCurrent();
      throw error;
    }
  }

  /** Throws MasterKeyError when this process's master key no longer opens the store (rotated while it ran). */
  async assertMasterKeyCurrent(): Promise<void> {
    await assertMasterKeyCurrent(this.db, this.master);
  }

  /** The key with this id, if it still exists. */
  async byId(kid: string): Promise<DataKey | undefined> {
    return (await this.byIds([kid])).get(kid);
  }

  /**
   * Deletes the keys made ahead and never handed out (so sealing nothing, named by no event), once
   * a refill under way has landed: a command that stops for good (an import) leaves no key rows
   * behind. Answers how many; the pool is empty afterwards.
   */
  async discardUnused(): Promise<number> {
    await this.refill?.catch(() => undefined);
    const unused = this.pool.splice(0);
    return this.destroy(unused.map((k) => k.kid));
  }

  /** Deletes these keys (crypto-shredding). Answers how many existed. */
  async destroy(kids: readonly string[]): Promise<number> {
    if (kids.length === 0) return 0;
    for (const kid of kids) this.cache.delete(kid);
    const gone = await this.db
      .deleteFrom('privacy.data_keys')
      .where('key_id', 'in', [...new Set(kids)])
      .returning('key_id')
      .execute();
    for (const kid of kids) this.cache.delete(kid);
    return gone.length;
  }
}

/** A secret wrapped with the master key, unwrapped and wrapped again by a rotation (bound to its scope). */
export interface Rewrap {
  unwrap(scope: string, wrapped: string): Buffer;
  wrap(scope: string, value: Buffer): string;
}

/**
 * Another part's secrets wrapped with the master key (the webhooks' signing secrets), re-wrapped
 * inside the rotation's transaction; answers how many.
 */
export type RewrapSecrets = (tx: Kysely<Database>, rewrap: Rewrap) => Promise<number>;

/**
 * Re-wraps every key under a new master key, in one transaction: the data keys (and so the
 * ledger's ciphertext) do not change, and neither do the secrets of `others`, re-wrapped in the
 * same transaction. Run it with the service stopped; then start it with the new key
 * (docs/erasure.md, Rotating the master key).
 *
 * @example
 * await rotateMasterKey(store.db, oldKey, newKey, { webhookSecrets: rewrapWebhookSecrets }) // { secrets: 1, dataKeys: 1234, webhookSecrets: 3 }
 */
export async function rotateMasterKey<K extends string = never>(
  db: Kysely<Database>,
  oldKey: Buffer,
  newKey: Buffer,
  others: Record<K, RewrapSecrets> = {} as Record<K, RewrapSecrets>,
  random: RandomSource = secureRandom,
): Promise<{ secrets: number; dataKeys: number } & Record<K, number>> {
  return privacyDb(db)
    .transaction()
    .execute(async (tx) => {
      const secrets = await tx.selectFrom('privacy.secrets').select(['name', 'wrapped']).forUpdate().execute();
      for (const s of secrets) {
        let key: Buffer;
        try {
          key = unwrapKey(oldKey, secretAad(s.name), s.wrapped);
        } catch {
          throw new MasterKeyError('the old master key does not unwrap this store’s keys; nothing was changed');
        }
        await tx
          .updateTable('privacy.secrets')
          .set({ wrapped: wrapKey(newKey, secretAad(s.name), key, random) })
          .where('name', '=', s.name)
          .execute();
      }
      const rows = await tx.selectFrom('privacy.data_keys').select(['key_id', 'wrapped']).forUpdate().execute();
      for (const r of rows) {
        const key = unwrapKey(oldKey, dataKeyAad(r.key_id), r.wrapped);
        await tx
          .updateTable('privacy.data_keys')
          .set({ wrapped: wrapKey(newKey, dataKeyAad(r.key_id), key, random) })
          .where('key_id', '=', r.key_id)
          .execute();
      }
      const rewrap: Rewrap = {
        unwrap: (scope, wrapped) => unwrapKey(oldKey, wrappedSecretAad(scope), wrapped),
        wrap: (scope, value) => wrapKey(newKey, wrappedSecretAad(scope), value, random),
      };
      const counts = {} as Record<K, number>;
      for (const [name, rewrapSecrets] of Object.entries(others) as [K, RewrapSecrets][]) {
        counts[name] = await rewrapSecrets(tx as unknown as Kysely<Database>, rewrap);
      }
      return { secrets: secrets.length, dataKeys: rows.length, ...counts };
    });
}
