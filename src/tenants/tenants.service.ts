import { randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ConfigChanges, ConfigEvent } from '../domain/config/config.events.js';
import { DomainError } from '../domain/errors.js';
import { sha256Hex } from '../common/hashing.js';
import { newId } from '../common/ids.js';
import type { Database } from '../store/schema.js';
import { PLAN_RULES, type Plan } from './plans.js';
import { isOrigin, ORIGIN, type KeyScope } from './key-scopes.js';
import { TENANT_CHANGES_CHANNEL } from './tenant-changes.js';
import { publicKeyOf, userTokenKeyOf } from './user-token.js';
import { secretCheckOf, type ConfigEvidence } from '../application/config/config-evidence.js';
import { controlDb, type ControlDb, type TenantRow } from './tenants.table.js';

/** The advisory lock the first start's tenant is made under (src/store/migrations.ts holds 7_412_003_001). */
const FIRST_TENANT_LOCK = 7_412_003_002;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` uniformly random base62 characters (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const newApiKey = (): string => `ck_${randomBase62(24)}`;
export const newApiSecret = (): string => `cs_${randomBase62(40)}`;
/** Secrets carry 238 random bits, so one SHA-256 pass is enough; only this hash is stored. */
export const hashSecret = (secret: string): string => sha256Hex(secret);

export interface Tenant {
  tenantId: string;
  name: string;
  plan: Plan;
  limits: { perMinute: number; perDay: number };
  createdAt: string;
}

export const newPublishableKey = (): string => `pk_${randomBase62(24)}`;
/** A publishable key's own budget per minute when its tenant sets none; its day's is 1,440 times it. */
export const PUBLISHABLE_PER_MINUTE = 60;
export const MAX_ORIGINS = 20;

export interface IssuedCredentials {
  tenantId: string;
  name: string;
  plan: Plan;
  apiKey: string;
  apiSecret: string;
  scope: KeyScope;
  /** The key's own label, and when it stops working (null: never). */
  keyName: string | null;
  expiresAt: string | null;
}

/** A key just issued: a publishable one has no secret, and lists its origins and budget. */
export type IssuedKey = Omit<IssuedCredentials, 'apiSecret'> & {
  apiSecret: string | null;
  origins?: string[];
  perMinute?: number;
  userTokenKey?: string | null;
};

/** A key as its tenant and the operator see it: never its secret. */
export interface ApiKeyView {
  apiKey: string;
  name: string | null;
  scope: KeyScope;
  createdAt: string;
  expiresAt: string | null;
  /** To within a minute; null: never used. */
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** A publishable key's allowed origins and budget per minute. */
  origins?: string[];
  perMinute?: number;
  /** A publishable key's Ed25519 public key for user tokens (base64url), or null: it records for any user reference. */
  userTokenKey?: string | null;
}

/** What a new key is: its scope (admin unless said), its label, its expiry; a publishable key's origins and budget. */
export interface NewKey {
  scope?: KeyScope;
  name?: string | null;
  expiresAt?: string | null;
  origins?: readonly string[];
  perMinute?: number;
  /** A publishable key's: the Ed25519 public key its user tokens are signed by (user-token.ts); absent: none needed. */
  userTokenKey?: string | null;
}

const keyView = (k: {
  api_key: string;
  name: string | null;
  scope: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  origins: string[] | null;
  per_minute: number | null;
  user_token_key: string | null;
}): ApiKeyView => ({
  apiKey: k.api_key,
  name: k.name,
  scope: k.scope as KeyScope,
  createdAt: k.created_at.toISOString(),
  expiresAt: k.expires_at?.toISOString() ?? null,
  lastUsedAt: k.last_used_at?.toISOString() ?? null,
  revokedAt: k.revoked_at?.toISOString() ?? null,
  ...(k.scope === 'publishable'
    ? { origins: k.origins ?? [], perMinute: k.per_minute ?? PUBLISHABLE_PER_MINUTE, userTokenKey: k.user_token_key }
    : {}),
});

export interface TenantContext {
  tenantId: string;
  /** The key the caller presented (its public id, never its secret), and what it may do. */
  apiKey: string;
  scope: KeyScope;
  name: string;
  plan: Plan;
  limits: { perMinute: number; perDay: number };
  /** A publishable key's: the tenant's own limits, which all its publishable keys share. */
  sharedLimits?: { perMinute: number; perDay: number };
  csvExport: boolean;
  /** A publishable key's allowed origins (its requests must come from one). */
  origins?: readonly string[];
  /** A publishable key's user-token key: when set, each decision it records needs a token for its user reference. */
  userTokenKey?: KeyObject;
}

interface CachedKey {
  secretHash: Buffer;
  tenant: TenantContext;
  expires: number;
  /** When the key last authenticated a call, as stored (ms), kept current by `used`. */
  lastUsed: number | null;
}

const toTenant = (r: TenantRow): Tenant => {
  const rules = PLAN_RULES[r.plan as Plan];
  return {
    tenantId: r.id,
    name: r.name,
    plan: r.plan as Plan,
    limits: { perMinute: r.per_minute ?? rules.perMinute, perDay: r.per_day ?? rules.perDay },
    createdAt: r.created_at.toISOString(),
  };
};

// A constant to compare against when a key is unknown, so that timing does not tell.
const DUMMY_HASH = Buffer.from(hashSecret('cs_unknown-key-placeholder'), 'hex');

/**
 * Tenants and their API keys. Keys are identifiers (`ck_…`); secrets (`cs_…`) are shown once
 * and stored only as a SHA-256 hash, compared in constant time.
 */
export class TenantService {
  private readonly cache = new Map<string, CachedKey>();
  /** Bumped by every invalidation, so a lookup that raced a change does not cache what it read before it. */
  private generation = 0;
  /**
   * Lookups in flight, by key: requests that arrive together while a key is not cached share one
   * query (when a busy key's entry expires, every request in flight would otherwise ask). Emptied
   * by every invalidation, so a request after a change never takes an answer read before it.
   */
  private readonly lookups = new Map<string, Promise<CachedKey | undefined>>();
  /** Whether some publishable key allows an origin, by origin (CORS preflights). */
  private readonly origins = new Map<string, { allowed: boolean; expires: number }>();

  private readonly db: ControlDb;
  private readonly changes: ConfigChanges | undefined;
  private readonly cacheMs: number;
  private readonly evidence: ConfigEvidence | undefined;
  private readonly onRefused: (what: string, problem: string) => void;

  constructor(
    db: Kysely<Database>,
    {
      changes,
      cacheMs = 2_000,
      evidence,
      onRefused = () => undefined,
    }: {
      /** Where changes are recorded (the tenant's log); without it the service only reads. */
      changes?: ConfigChanges;
      /** How long a verified key is trusted without asking the database again. */
      cacheMs?: number;
      /** Holds each key's row to the tenant's log: a row written behind the service's back authenticates nothing. */
      evidence?: ConfigEvidence;
      /** Told of each key a lookup refused, or tenant settings it overrode, because a row is not what the log says. */
      onRefused?: (what: string, problem: string) => void;
    } = {},
  ) {
    this.db = controlDb(db);
    this.changes = changes;
    this.cacheMs = cacheMs;
    this.evidence = evidence;
    this.onRefused = onRefused;
  }

  /** Records a change in the tenant's log before it is applied (docs/audit-log.md). */
  private async record(tenantId: string, event: ConfigEvent): Promise<void> {
    if (!this.changes) throw new Error('this TenantService reads only: give it the config log to change anything');
    await this.changes.record(tenantId, event);
  }

  async create(name: string, plan: Plan): Promise<IssuedCredentials> {
    const tenantId = newId();
    const apiKey = newApiKey();
    const apiSecret = newApiSecret();
    const secretHash = hashSecret(apiSecret);
    const at = new Date().toISOString();
    await this.record(tenantId, { type: 'TenantCreated', data: { name, plan, at } });
    await this.record(tenantId, {
      type: 'ApiKeyIssued',
      data: { apiKey, scope: 'admin', name: null, expiresAt: null, secretCheck: secretCheckOf(secretHash), at },
    });
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('control.tenants').values({ id: tenantId, name, plan, per_minute: null, per_day: null }).execute();
      await tx.insertInto('control.api_keys').values({ api_key: apiKey, tenant_id: tenantId, secret_hash: secretHash }).execute();
    });
    return { tenantId, name, plan, apiKey, apiSecret, scope: 'admin', keyName: null, expiresAt: null };
  }

  /**
   * The first tenant, made once however many processes start together on an empty store; null
   * when one exists, or when the ledger holds events already (`ledgerEmpty` answers false): a
   * store whose ledger came first and its tenants not yet, as a `ledger copy` not run to its end
   * leaves it, must not get a tenant the copy would then find in its way. `shared`: the store is
   * a PostgreSQL server other processes may be starting on, so the check and the creation run
   * under an advisory lock (the embedded store has one).
   */
  async createFirst(name: string, plan: Plan, shared: boolean, ledgerEmpty: () => Promise<boolean>): Promise<IssuedCredentials | null> {
    const once = async () => ((await this.isEmpty()) && (await ledgerEmpty()) ? this.create(name, plan) : null);
    if (!shared) return once();
    return this.db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${FIRST_TENANT_LOCK})`.execute(conn);
      try {
        return await once();
      } finally {
        await sql`SELECT pg_advisory_unlock(${FIRST_TENANT_LOCK})`.execute(conn);
      }
    });
  }

  async isEmpty(): Promise<boolean> {
    const row = await this.db.selectFrom('control.tenants').select('id').limit(1).executeTakeFirst();
    return row === undefined;
  }

  async list(): Promise<(Tenant & { keys: ApiKeyView[] })[]> {
    const tenants = await this.db.selectFrom('control.tenants').selectAll().orderBy('created_at').execute();
    const keys = await this.db.selectFrom('control.api_keys').selectAll().orderBy('created_at').execute();
    return tenants.map((t) => ({ ...toTenant(t), keys: keys.filter((k) => k.tenant_id === t.id).map(keyView) }));
  }

  /** A tenant's keys, oldest first, revoked ones too; never a secret. */
  async listKeys(tenantId: string): Promise<ApiKeyView[]> {
    const keys = await this.db.selectFrom('control.api_keys').selectAll().where('tenant_id', '=', tenantId).orderBy('created_at').execute();
    return keys.map(keyView);
  }

  async get(tenantId: string): Promise<Tenant> {
    const row = await this.db.selectFrom('control.tenants').selectAll().where('id', '=', tenantId).executeTakeFirst();
    if (!row) throw new DomainError('NOT_FOUND', 'tenant not found');
    return toTenant(row);
  }

  /** Changes a tenant's plan and/or its own limits (null limits fall back to the plan's). */
  async update(tenantId: string, change: { plan?: Plan; limits?: { perMinute?: number | null; perDay?: number | null } }): Promise<Tenant> {
    const set: { plan?: Plan; per_minute?: number | null; per_day?: number | null } = {};
    if (change.plan) set.plan = change.plan;
    if (change.limits && 'perMinute' in change.limits) set.per_minute = change.limits.perMinute ?? null;
    if (change.limits && 'perDay' in change.limits) set.per_day = change.limits.perDay ?? null;
    if (Object.keys(set).length > 0) {
      await this.get(tenantId); // NOT_FOUND before anything is recorded
      await this.record(tenantId, {
        type: 'TenantSettingsChanged',
        data: {
          ...(set.plan ? { plan: set.plan } : {}),
          ...('per_minute' in set ? { perMinute: set.per_minute } : {}),
          ...('per_day' in set ? { perDay: set.per_day } : {}),
          at: new Date().toISOString(),
        },
      });
      const r = await this.db.updateTable('control.tenants').set(set).where('id', '=', tenantId).executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) throw new DomainError('NOT_FOUND', 'tenant not found');
      await this.announce(tenantId);
    }
    return this.get(tenantId);
  }

  /** Issues a key with a secret (admin unless `scope` says otherwise). */
  async createKey(tenantId: string, key: NewKey & { scope?: Exclude<KeyScope, 'publishable'> } = {}): Promise<IssuedCredentials> {
    return (await this.issue(tenantId, key)) as IssuedCredentials;
  }

  /** Issues a publishable key (`pk_…`, no secret) for these origins, with its own budget per minute. */
  createPublishableKey(tenantId: string, key: Omit<NewKey, 'scope'> & { origins: readonly string[] }): Promise<IssuedKey> {
    return this.issue(tenantId, { ...key, scope: 'publishable' });
  }

  /** Issues a key of any scope: the route's choice (`POST /keys` takes every scope). */
  async issue(tenantId: string, key: NewKey = {}): Promise<IssuedKey> {
    const tenant = await this.get(tenantId);
    const scope = key.scope ?? 'admin';
    const publishable = scope === 'publishable';
    const apiKey = publishable ? newPublishableKey() : newApiKey();
    const apiSecret = publishable ? null : newApiSecret();
    // A publishable key has no secret: nothing can match an empty hash.
    const secretHash = apiSecret === null ? '' : hashSecret(apiSecret);
    const expiresAt = key.expiresAt ? new Date(key.expiresAt).toISOString() : null;
    const invalid = (field: string, message: string) =>
      new DomainError('VALIDATION_ERROR', `${field} ${message}`, { errors: [{ field, message }] });
    if (expiresAt !== null && Date.parse(expiresAt) <= Date.now()) throw invalid('expiresAt', 'must be in the future');
    const origins = [...new Set((key.origins ?? []).map((o) => o.toLowerCase()))];
    if (publishable) {
      if (origins.length === 0) throw invalid('origins', 'must list at least one origin for a publishable key');
      if (origins.length > MAX_ORIGINS) throw invalid('origins', `must list at most ${MAX_ORIGINS} origins`);
      const bad = origins.find((o) => !isOrigin(o));
      if (bad !== undefined)
        throw invalid(
          'origins',
          `must be origins as browsers send them, like https://shop.example.com (no path, no default port): ${JSON.stringify(bad)}`,
        );
    } else if (key.origins !== undefined || key.perMinute !== undefined || key.userTokenKey != null) {
      const field = key.origins !== undefined ? 'origins' : key.perMinute !== undefined ? 'perMinute' : 'userTokenKey';
      throw invalid(field, 'is for publishable keys only');
    }
    const userTokenKey = key.userTokenKey != null ? userTokenKeyOf(key.userTokenKey) : null;
    if (key.userTokenKey != null && userTokenKey === null) {
      throw invalid(
        'userTokenKey',
        'must be an Ed25519 public key: PEM (BEGIN PUBLIC KEY), or its 32 bytes in hex, base64 or base64url; not a point anyone could sign for (the all-zero key, another of small order)',
      );
    }
    const perMinute = publishable ? (key.perMinute ?? PUBLISHABLE_PER_MINUTE) : undefined;
    await this.record(tenantId, {
      type: 'ApiKeyIssued',
      data: {
        apiKey,
        scope,
        name: key.name ?? null,
        expiresAt,
        ...(publishable ? { origins, perMinute, userTokenKey } : { secretCheck: secretCheckOf(secretHash) }),
        at: new Date().toISOString(),
      },
    });
    await this.db
      .insertInto('control.api_keys')
      .values({
        api_key: apiKey,
        tenant_id: tenantId,
        secret_hash: secretHash,
        scope,
        name: key.name ?? null,
        expires_at: expiresAt,
        origins: publishable ? origins : null,
        per_minute: perMinute ?? null,
        user_token_key: userTokenKey,
      })
      .execute();
    // Its origins pass preflights at once, in every process (a negative answer may be cached).
    if (publishable) await this.announce(tenantId);
    return {
      tenantId,
      name: tenant.name,
      plan: tenant.plan,
      apiKey,
      apiSecret,
      scope,
      keyName: key.name ?? null,
      expiresAt,
      ...(publishable ? { origins, perMinute, userTokenKey } : {}),
    };
  }

  async revokeKey(tenantId: string, apiKey: string): Promise<void> {
    const notFound = () => new DomainError('NOT_FOUND', 'API key not found or already revoked');
    const row = await this.db
      .selectFrom('control.api_keys')
      .select('revoked_at')
      .where('tenant_id', '=', tenantId)
      .where('api_key', '=', apiKey)
      .executeTakeFirst();
    if (!row || row.revoked_at !== null) throw notFound();
    await this.record(tenantId, { type: 'ApiKeyRevoked', data: { apiKey, at: new Date().toISOString() } });
    const r = await this.db
      .updateTable('control.api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('tenant_id', '=', tenantId)
      .where('api_key', '=', apiKey)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) throw notFound();
    await this.announce(tenantId);
  }

  /**
   * Records in the tenant's log the expiry of keys whose `expiresAt` has come (the deadlines
   * follower calls it, one process at a time), at most `limit`; answers how many, and when the next
   * key expires. A key revoked first gets no expiry.
   */
  async recordExpiries(now: Date, limit: number): Promise<{ done: number; next: Date | null }> {
    const pending = this.db
      .selectFrom('control.api_keys')
      .where('expires_at', 'is not', null)
      .where('expiry_recorded', '=', false)
      .where('revoked_at', 'is', null);
    const due = await pending
      .select(['api_key', 'tenant_id', 'expires_at'])
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(limit)
      .execute();
    for (const k of due) {
      const data = { apiKey: k.api_key, expiresAt: k.expires_at!.toISOString(), at: now.toISOString() };
      await this.record(k.tenant_id, { type: 'ApiKeyExpired', data });
      await this.db.updateTable('control.api_keys').set({ expiry_recorded: true }).where('api_key', '=', k.api_key).execute();
    }
    const next = await pending.select('expires_at').where('expires_at', '>', now).orderBy('expires_at').limit(1).executeTakeFirst();
    return { done: due.length, next: next?.expires_at ?? null };
  }

  /**
   * A plan, limit or key change takes effect on the next request: this process forgets its cached
   * keys at once, and other processes on the same PostgreSQL server hear of it through NOTIFY
   * (see `listenForTenantChanges`).
   */
  private async announce(tenantId: string): Promise<void> {
    this.invalidate(tenantId);
    await this.db.selectNoFrom((eb) => eb.fn('pg_notify', [eb.val(TENANT_CHANGES_CHANNEL), eb.val(tenantId)]).as('notified')).execute();
  }

  /** Forgets the cached keys of a tenant (all tenants when none is named): the next request reads them again. */
  invalidate(tenantId?: string): void {
    this.generation++;
    this.lookups.clear();
    this.origins.clear();
    if (tenantId === undefined) return this.cache.clear();
    for (const [apiKey, entry] of this.cache) if (entry.tenant.tenantId === tenantId) this.cache.delete(apiKey);
  }

  /** The caller's tenant, or null for a missing, unknown or revoked key or a wrong secret. */
  async authenticate(apiKey: string | undefined, apiSecret: string | undefined): Promise<TenantContext | null> {
    if (!apiKey || !apiSecret || apiKey.length > 64 || apiSecret.length > 128) return null;
    const presented = Buffer.from(hashSecret(apiSecret), 'hex');
    const entry = await this.entry(apiKey);
    // A publishable key has no secret: it never passes here (an empty hash would not even compare).
    const secretHash = entry && entry.tenant.scope !== 'publishable' ? entry.secretHash : DUMMY_HASH;
    const ok = timingSafeEqual(presented, secretHash);
    return ok && entry && entry.tenant.scope !== 'publishable' ? this.used(entry) : null;
  }

  /**
   * A key's context once it authenticated a call: its "last used" moves then (to within a minute:
   * one write a minute per key at most, off the request's path), never for a call it refused.
   */
  private used(entry: CachedKey): TenantContext {
    const now = Date.now();
    if (entry.lastUsed === null || entry.lastUsed < now - 60_000) {
      entry.lastUsed = now;
      void this.touch(entry.tenant.apiKey);
    }
    return entry.tenant;
  }

  /**
   * The tenant of a publishable key (`pk_…`, no secret) sent from one of its origins; null for an
   * unknown, revoked or expired key; 'origin' for a live key sent from another origin (or none),
   * which is no use of the key.
   */
  async authenticatePublishable(apiKey: string | undefined, origin: string | undefined): Promise<TenantContext | 'origin' | null> {
    if (!apiKey || !apiKey.startsWith('pk_') || apiKey.length > 64) return null;
    const entry = await this.entry(apiKey);
    if (entry?.tenant.scope !== 'publishable') return null;
    if (!origin || !entry.tenant.origins?.includes(origin.toLowerCase())) return 'origin';
    return this.used(entry);
  }

  /**
   * Whether some live publishable key allows this origin (a CORS preflight carries no key).
   * Cached as keys are; a key's issue or revocation clears it.
   */
  async originAllowed(origin: string | undefined): Promise<boolean> {
    if (!origin || origin.length > 300 || !ORIGIN.test(origin)) return false;
    const cached = this.origins.get(origin);
    if (cached && cached.expires >= Date.now()) return cached.allowed;
    const generation = this.generation;
    const row = await this.db
      .selectFrom('control.api_keys')
      .select('api_key')
      .where('scope', '=', 'publishable')
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', new Date())]))
      .where('origins', '@>', sql<string[]>`ARRAY[${origin}]::text[]`)
      .limit(1)
      .executeTakeFirst();
    if (this.origins.size > 10_000) this.origins.clear();
    if (generation === this.generation) this.origins.set(origin, { allowed: row !== undefined, expires: Date.now() + this.cacheMs });
    return row !== undefined;
  }

  /**
   * The context of a key that still works, read without counting as a use of it: what a refusal
   * may name (a publishable key at the console's sign-in).
   */
  async liveKey(apiKey: string): Promise<TenantContext | null> {
    return (await this.entry(apiKey))?.tenant ?? null;
  }

  /** The context of a key that still works (not revoked, not expired), by its id alone: a console session's key. */
  async keyContext(apiKey: string): Promise<TenantContext | null> {
    const entry = await this.entry(apiKey);
    return entry ? this.used(entry) : null;
  }

  /** A key's cached entry, or its lookup (shared by the requests that arrive together). */
  private async entry(apiKey: string): Promise<CachedKey | undefined> {
    const entry = this.cache.get(apiKey);
    if (entry && entry.expires >= Date.now()) return entry;
    this.cache.delete(apiKey);
    let lookup = this.lookups.get(apiKey);
    if (!lookup) {
      lookup = this.lookUp(apiKey).finally(() => {
        if (this.lookups.get(apiKey) === lookup) this.lookups.delete(apiKey);
      });
      this.lookups.set(apiKey, lookup);
    }
    return lookup;
  }

  private async touch(apiKey: string): Promise<void> {
    await this.db
      .updateTable('control.api_keys')
      .set({ last_used_at: new Date().toISOString() })
      .where('api_key', '=', apiKey)
      .execute()
      .catch(() => undefined);
  }

  /** Reads a key (undefined when unknown or revoked) and caches it unless a change came meanwhile. */
  private async lookUp(apiKey: string): Promise<CachedKey | undefined> {
    const generation = this.generation;
    const row = await this.db
      .selectFrom('control.api_keys as k')
      .innerJoin('control.tenants as t', 't.id', 'k.tenant_id')
      .select([
        'k.tenant_id',
        'k.secret_hash',
        'k.revoked_at',
        'k.scope',
        'k.expires_at',
        'k.last_used_at',
        'k.origins',
        'k.per_minute as key_per_minute',
        'k.user_token_key',
        't.id',
        't.name',
        't.plan',
        't.per_minute',
        't.per_day',
        't.created_at',
      ])
      .where('k.api_key', '=', apiKey)
      .executeTakeFirst();
    const now = Date.now();
    if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at.getTime() <= now)) return undefined;
    const checked = await this.evidence?.key({
      apiKey,
      tenantId: row.tenant_id,
      secretHash: row.secret_hash,
      scope: row.scope,
      expiresAt: row.expires_at,
      origins: row.origins,
      perMinute: row.key_per_minute,
      userTokenKey: row.user_token_key,
    });
    if (checked && 'problem' in checked) {
      this.onRefused(`API key ${apiKey}`, checked.problem);
      return undefined;
    }
    // The plan and limits are the tenant's log's: a row changed behind the service widens nothing.
    const logged = checked?.settings;
    if (logged && (logged.plan !== row.plan || logged.perMinute !== row.per_minute || logged.perDay !== row.per_day)) {
      this.onRefused(
        `Tenant ${row.id}'s plan and limits`,
        `its row says ${row.plan} ${row.per_minute ?? '-'}/min ${row.per_day ?? '-'}/day, its log ${logged.plan} ${logged.perMinute ?? '-'}/min ${logged.perDay ?? '-'}/day; the log's are used`,
      );
      Object.assign(row, { plan: logged.plan, per_minute: logged.perMinute, per_day: logged.perDay });
    }
    const t = toTenant(row);
    const publishable = row.scope === 'publishable';
    // A publishable key spends a budget of its own, never its tenant's, and never larger: a key
    // issued for more than the plan (or the tenant's own limits) allows is held to them.
    const perMinute = Math.min(row.key_per_minute ?? PUBLISHABLE_PER_MINUTE, t.limits.perMinute);
    const entry: CachedKey = {
      secretHash: Buffer.from(row.secret_hash, 'hex'),
      tenant: {
        tenantId: t.tenantId,
        apiKey,
        scope: row.scope as KeyScope,
        name: t.name,
        plan: t.plan,
        limits: publishable ? { perMinute, perDay: Math.min(perMinute * 1_440, t.limits.perDay) } : t.limits,
        ...(publishable ? { sharedLimits: t.limits } : {}),
        csvExport: PLAN_RULES[t.plan].csvExport,
        ...(publishable ? { origins: row.origins ?? [] } : {}),
        ...(row.user_token_key !== null ? { userTokenKey: publicKeyOf(row.user_token_key) } : {}),
      },
      // Trusted no longer than the key lives.
      expires: Math.min(now + this.cacheMs, row.expires_at?.getTime() ?? Infinity),
      lastUsed: row.last_used_at?.getTime() ?? null,
    };
    if (this.cache.size > 10_000) this.cache.clear();
    if (generation === this.generation) this.cache.set(apiKey, entry);
    return entry;
  }
}
