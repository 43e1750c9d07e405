import { sql, type Kysely } from 'kysely';
import { onceForTheStore } from '../store/once.js';
import { actingAs } from '../common/actor.js';
import { sha256Hex } from '../common/hashing.js';
import { apiKeyStream, tenantStream, webhookStream, type ConfigChanges } from '../domain/config/config.events.js';
import { START, type Ledger } from '../ledger/ledger.port.js';
import type { Database } from '../store/schema.js';
import { secretCheckOf, type ConfigEvidence } from '../application/config/config-evidence.js';

/** The advisory lock adoption runs under on a shared server (src/store/migrations.ts holds 7_412_003_001). */
const ADOPTION_LOCK = 7_412_003_003;

/**
 * Records, once for the store, the tenants an older version made before the audit trail began
 * (see beforeTheTrail), with their keys and webhooks, each in its tenant's log as its row now
 * says, marked `adopted` (docs/decisions/0012-keys-held-to-the-log.md). From then on a key or webhook works only
 * as its events say: a row without them, written later behind the service's back, is refused.
 * `control.config_adopted` (insert-once, kept by the ledger's trigger) says it was done, so no
 * later start adopts what a database writer added. Answers how many things it recorded.
 */
export async function adoptUnrecordedConfig(
  db: Kysely<Database>,
  ledger: Pick<Ledger, 'readStream' | 'readAll'>,
  changes: ConfigChanges,
  evidence: Pick<ConfigEvidence, 'recorded'>,
  shared: boolean,
): Promise<number> {
  return onceForTheStore(
    db,
    { marker: 'control.config_adopted', lock: ADOPTION_LOCK, shared },
    () => actingAs({ type: 'service' }, () => adoptAll(db, ledger, changes, evidence)),
    0,
  );
}

/**
 * Whether the service recorded, since the trail began, something of a tenant that has no
 * TenantCreated: a change of its settings, or a key or webhook it issued (authenticated events).
 * Every tenant made since has its TenantCreated, so such a tenant was made before the trail (idle
 * until then, it has no events ahead of it). A row invented later has no such events.
 */
async function recordedWithoutCreation(
  db: Kysely<Database>,
  evidence: Pick<ConfigEvidence, 'recorded'>,
  tenantId: string,
): Promise<boolean> {
  if (await evidence.recorded(tenantId, tenantStream(tenantId))) return true;
  const keys = await sql<{ api_key: string }>`SELECT api_key FROM control.api_keys WHERE tenant_id = ${tenantId}`.execute(db);
  for (const k of keys.rows) if (await evidence.recorded(tenantId, apiKeyStream(tenantId, k.api_key))) return true;
  const hooks = await sql<{ id: string }>`SELECT id FROM webhooks.endpoints WHERE tenant_id = ${tenantId}`.execute(db);
  for (const w of hooks.rows) if (await evidence.recorded(tenantId, webhookStream(tenantId, w.id))) return true;
  return false;
}

/**
 * The tenants that were there before the audit trail began: those with events in the ledger ahead
 * of its first configuration event (every version since wrote one for each tenant it made), or
 * every tenant when the ledger holds none (a store no such version ever ran). Read once, on upgrade.
 */
async function beforeTheTrail(ledger: Pick<Ledger, 'readAll'>): Promise<Set<string> | 'all'> {
  const seen = new Set<string>();
  for (let after = START; ;) {
    const page = await ledger.readAll(after, 1_000);
    if (page.length === 0) return 'all';
    for (const e of page) {
      if (CONFIG_OPENERS.has(e.type)) return seen;
      seen.add(e.tenantId);
    }
    after = page.at(-1)!.position;
  }
}

const CONFIG_OPENERS = new Set(['TenantCreated', 'ApiKeyIssued', 'WebhookCreated']);

async function adoptAll(
  db: Kysely<Database>,
  ledger: Pick<Ledger, 'readStream' | 'readAll'>,
  changes: ConfigChanges,
  evidence: Pick<ConfigEvidence, 'recorded'>,
): Promise<number> {
  const empty = async (stream: string) => (await ledger.readStream(stream)).length === 0;
  const at = new Date().toISOString();
  let adopted = 0;
  const older = await beforeTheTrail(ledger);
  // A tenant made since the trail began has its TenantCreated, and each key and webhook its event:
  // a row of such a tenant without them was written behind the service, and is not adopted.
  const adoptable = new Set<string>();
  const tenants = await sql<{ id: string; name: string; plan: string; per_minute: number | null; per_day: number | null }>`
    SELECT id, name, plan, per_minute, per_day FROM control.tenants ORDER BY created_at, id`.execute(db);
  for (const t of tenants.rows) {
    const events = await ledger.readStream(tenantStream(t.id));
    if (events.some((e) => e.type === 'TenantCreated')) continue;
    if (older !== 'all' && !older.has(t.id) && !(await recordedWithoutCreation(db, evidence, t.id))) continue;
    adoptable.add(t.id);
    await changes.record(t.id, { type: 'TenantCreated', data: { name: t.name, plan: t.plan, adopted: true, at } });
    if (t.per_minute !== null || t.per_day !== null)
      await changes.record(t.id, { type: 'TenantSettingsChanged', data: { perMinute: t.per_minute, perDay: t.per_day, at } });
    adopted++;
  }
  const keys = await sql<{
    api_key: string;
    tenant_id: string;
    secret_hash: string;
    scope: string;
    name: string | null;
    expires_at: Date | null;
    origins: string[] | null;
    per_minute: number | null;
    user_token_key: string | null;
  }>`SELECT api_key, tenant_id, secret_hash, scope, name, expires_at, origins, per_minute, user_token_key
     FROM control.api_keys WHERE revoked_at IS NULL ORDER BY created_at, api_key`.execute(db);
  for (const k of keys.rows) {
    if (!adoptable.has(k.tenant_id) || !(await empty(apiKeyStream(k.tenant_id, k.api_key)))) continue;
    const publishable = k.scope === 'publishable';
    await changes.record(k.tenant_id, {
      type: 'ApiKeyIssued',
      data: {
        apiKey: k.api_key,
        scope: k.scope,
        name: k.name,
        expiresAt: k.expires_at?.toISOString() ?? null,
        ...(publishable
          ? { origins: k.origins ?? [], ...(k.per_minute === null ? {} : { perMinute: k.per_minute }), userTokenKey: k.user_token_key }
          : { secretCheck: secretCheckOf(k.secret_hash) }),
        adopted: true,
        at,
      },
    });
    adopted++;
  }
  const webhooks = await sql<{ id: string; tenant_id: string; url: string; events: string[]; is_active: boolean }>`
    SELECT id, tenant_id, url, events, is_active FROM webhooks.endpoints WHERE deleted_at IS NULL ORDER BY created_at, id`.execute(db);
  for (const w of webhooks.rows) {
    if (!adoptable.has(w.tenant_id) || !(await empty(webhookStream(w.tenant_id, w.id)))) continue;
    await changes.record(w.tenant_id, {
      type: 'WebhookCreated',
      data: {
        webhookId: w.id,
        urlOrigin: new URL(w.url).origin,
        urlSha256: sha256Hex(w.url),
        events: w.events,
        isActive: w.is_active,
        adopted: true,
        at,
      },
    });
    adopted++;
  }
  return adopted;
}
