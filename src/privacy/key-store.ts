import { sql, type ColumnType, type Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { MasterKeyError } from './master-key.js';
import { secureRandom, unwrapKey, wrapKey, type RandomSource } from './envelope.js';

/** `privacy` schema (migration 0006): keys wrapped by the master key. Not rebuilt: destroying a row is the erasure. */
export interface SecretsTable {
  name: string;
  wrapped: string;
  created_at: ColumnType<Date, string | undefined, never>;
}
export interface SubjectKeysTable {
  tenant_id: string;
  /** HMAC of the user reference (never the reference itself). */
  subject: string;
  key_id: string;
  wrapped: string;
  created_at: ColumnType<Date, string | undefined, never>;
}
export type PrivacyDatabase = {
  'privacy.secrets': SecretsTable;
  'privacy.subject_keys': SubjectKeysTable;
};
export const privacyDb = (db: Kysely<Database>): Kysely<PrivacyDatabase> => db.withTables<PrivacyDatabase>() as unknown as Kysely<PrivacyDatabase>;

type KeyRow = { subject: string; key_id: string; wrapped: string };

/** A subject's data key and its id (the `kid` of what it sealed). */
export interface DataKey {
  kid: string;
  key: Buffer;
}

const LOOKUP_SECRET = 'subject-lookup';

/** A random (version 4) UUID from the given source: the id of a new data key. */
function keyId(random: RandomSource): string {
  const b = random(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
const secretAad = (name: string) => `consent-ledger/secret/${name}`;
const subjectKeyAad = (tenantId: string, subject: string, kid: string) => `consent-ledger/subject-key/${tenantId}/${subject}/${kid}`;

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
  const row = await p.selectFrom('privacy.secrets').select('wrapped').where('name', '=', LOOKUP_SECRET).executeTakeFirstOrThrow();
  try {
    return unwrapKey(master, secretAad(LOOKUP_SECRET), row.wrapped);
  } catch {
    throw new MasterKeyError(
      'the master key does not match the one this store was created with (MASTER_KEY, MASTER_KEY_FILE or DATA_DIR/master.key); refusing to start',
    );
  }
}

/**
 * Per-subject data keys, wrapped by the master key, cached unwrapped for `cacheMs`. A process
 * that did not erase a subject stops using its cached key within `cacheMs` (docs/erasure.md).
 */
export class SubjectKeyStore {
  private readonly db: Kysely<PrivacyDatabase>;
  private readonly cache = new Map<string, { key: DataKey; until: number }>();

  constructor(
    db: Kysely<Database>,
    private readonly master: Buffer,
    private readonly options: { random?: RandomSource; cacheMs?: number; maxCached?: number } = {},
  ) {
    this.db = privacyDb(db);
  }

  private cached(tenantId: string, subject: string): DataKey | undefined {
    const hit = this.cache.get(`${tenantId}/${subject}`);
    if (!hit) return undefined;
    if (hit.until < Date.now()) {
      this.cache.delete(`${tenantId}/${subject}`);
      return undefined;
    }
    return hit.key;
  }

  private remember(tenantId: string, subject: string, key: DataKey): void {
    if (this.cache.size >= (this.options.maxCached ?? 10_000)) this.cache.clear();
    this.cache.set(`${tenantId}/${subject}`, { key, until: Date.now() + (this.options.cacheMs ?? 10_000) });
  }

  private unwrapRow(tenantId: string, row: { subject: string; key_id: string; wrapped: string }): DataKey {
    return { kid: row.key_id, key: unwrapKey(this.master, subjectKeyAad(tenantId, row.subject, row.key_id), row.wrapped) };
  }

  /**
   * The data keys of these subjects. With `create`, a subject without one gets a new key; without,
   * an erased or unknown subject is simply absent from the answer.
   */
  async keys(tenantId: string, subjects: readonly string[], create: boolean): Promise<Map<string, DataKey>> {
    const found = new Map<string, DataKey>();
    const missing: string[] = [];
    for (const s of new Set(subjects)) {
      const hit = this.cached(tenantId, s);
      if (hit) found.set(s, hit);
      else missing.push(s);
    }
    if (missing.length === 0) return found;
    const rows = create ? await this.createLater(tenantId, missing) : await this.select(tenantId, missing);
    for (const row of rows) {
      const key = this.unwrapRow(tenantId, row);
      this.remember(tenantId, row.subject, key);
      found.set(row.subject, key);
    }
    return found;
  }

  /**
   * Requests made while the event loop is busy are gathered and sent as one statement per tenant
   * on the next turn: under load, one round trip and one commit serve many records (docs/erasure.md, Cost).
   */
  private pending = new Map<string, { subjects: Set<string>; waiting: { subjects: string[]; resolve: (rows: KeyRow[]) => void; reject: (e: unknown) => void }[] }>();
  private flushScheduled = false;

  private createLater(tenantId: string, subjects: string[]): Promise<KeyRow[]> {
    return new Promise((resolve, reject) => {
      let batch = this.pending.get(tenantId);
      if (!batch) this.pending.set(tenantId, (batch = { subjects: new Set(), waiting: [] }));
      for (const s of subjects) batch.subjects.add(s);
      batch.waiting.push({ subjects, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.flushScheduled = false;
    const batches = this.pending;
    this.pending = new Map();
    for (const [tenantId, batch] of batches) {
      this.create(tenantId, [...batch.subjects]).then(
        (rows) => {
          const bySubject = new Map(rows.map((r) => [r.subject, r]));
          for (const w of batch.waiting) w.resolve(w.subjects.flatMap((s) => (bySubject.has(s) ? [bySubject.get(s)!] : [])));
        },
        (error: unknown) => {
          for (const w of batch.waiting) w.reject(error);
        },
      );
    }
  }

  /** Inserts a key for each subject without one and answers every subject's row (one statement). */
  private async create(tenantId: string, missing: string[]): Promise<KeyRow[]> {
    const random = this.options.random ?? secureRandom;
    const fresh = missing.map((subject) => {
      const kid = keyId(random);
      return sql`(${tenantId}::uuid, ${subject}, ${kid}::uuid, ${wrapKey(this.master, subjectKeyAad(tenantId, subject, kid), random(32), random)})`;
    });
    // The CTE's insert and the select see the same snapshot: new keys come from RETURNING,
    // existing ones from the select. A key another transaction committed in between is read after.
    const result = await sql<KeyRow>`
      WITH ins AS (
        INSERT INTO privacy.subject_keys (tenant_id, subject, key_id, wrapped) VALUES ${sql.join(fresh)}
        ON CONFLICT (tenant_id, subject) DO NOTHING RETURNING subject, key_id, wrapped)
      SELECT subject, key_id::text AS key_id, wrapped FROM ins
      UNION ALL
      SELECT subject, key_id::text AS key_id, wrapped FROM privacy.subject_keys WHERE tenant_id = ${tenantId} AND subject IN (${sql.join(missing)})`.execute(this.db);
    let rows = result.rows;
    const got = new Set(rows.map((r) => r.subject));
    const late = missing.filter((s) => !got.has(s));
    if (late.length > 0) rows = rows.concat(await this.select(tenantId, late));
    return rows;
  }

  private select(tenantId: string, subjects: string[]): Promise<KeyRow[]> {
    return this.db
      .selectFrom('privacy.subject_keys')
      .select(['subject', 'key_id', 'wrapped'])
      .where('tenant_id', '=', tenantId)
      .where('subject', 'in', subjects)
      .execute();
  }

  /** Deletes the subject's wrapped key (crypto-shredding). Answers whether one existed. */
  async destroy(tenantId: string, subject: string): Promise<boolean> {
    this.cache.delete(`${tenantId}/${subject}`);
    const gone = await this.db.deleteFrom('privacy.subject_keys').where('tenant_id', '=', tenantId).where('subject', '=', subject).returning('key_id').execute();
    this.cache.delete(`${tenantId}/${subject}`);
    return gone.length > 0;
  }
}

/**
 * Re-wraps every key under a new master key, in one transaction: the data keys (and so the
 * ledger's ciphertext) do not change. Run it with the service stopped; then start it with the
 * new key (docs/erasure.md, Rotating the master key).
 *
 * @example
 * await rotateMasterKey(store.db, oldKey, newKey) // { secrets: 1, subjectKeys: 1234 }
 */
export async function rotateMasterKey(db: Kysely<Database>, oldKey: Buffer, newKey: Buffer, random: RandomSource = secureRandom): Promise<{ secrets: number; subjectKeys: number }> {
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
        await tx.updateTable('privacy.secrets').set({ wrapped: wrapKey(newKey, secretAad(s.name), key, random) }).where('name', '=', s.name).execute();
      }
      const rows = await tx.selectFrom('privacy.subject_keys').select(['tenant_id', 'subject', 'key_id', 'wrapped']).forUpdate().execute();
      for (const r of rows) {
        const aad = subjectKeyAad(r.tenant_id, r.subject, r.key_id);
        const key = unwrapKey(oldKey, aad, r.wrapped);
        await tx
          .updateTable('privacy.subject_keys')
          .set({ wrapped: wrapKey(newKey, aad, key, random) })
          .where('tenant_id', '=', r.tenant_id)
          .where('subject', '=', r.subject)
          .execute();
      }
      return { secrets: secrets.length, subjectKeys: rows.length };
    });
}
