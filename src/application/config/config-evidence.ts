import { sha256Hex } from '../../common/hashing.js';
import {
  apiKeyStream,
  configAggregate,
  decodeConfigEvent,
  tenantStream,
  webhookStream,
  type ApiKeyIssued,
  type ConfigEvent,
  type ConfigState,
  type WebhookCreated,
} from '../../domain/config/config.events.js';
import type { Ledger, RecordedEvent } from '../../ledger/ledger.port.js';

/**
 * What an `ApiKeyIssued` event binds of a key's secret: a hash of the row's secret hash, so that
 * the row cannot be given another secret, while the event, which `read` keys see in the audit
 * trail, holds nothing a secret could be tested against any faster than the row does.
 */
export const secretCheckOf = (secretHash: string): string => sha256Hex(`consent-ledger api key secret\n${secretHash}`);

/** A key's row in `control.api_keys`, as the lookup read it. */
export interface KeyRowFacts {
  apiKey: string;
  tenantId: string;
  secretHash: string;
  scope: string;
  expiresAt: Date | null;
  origins: string[] | null;
  perMinute: number | null;
  userTokenKey: string | null;
}

/** Whether ledger events are the service's own (src/transparency/event-authenticity.ts). */
export interface Authenticity {
  problem(event: RecordedEvent): Promise<string | null>;
  removed(tenantId: string, stream: string, events: readonly RecordedEvent[]): Promise<string | null>;
}

/** A tenant's plan and own limits as its log says (TenantCreated, then each TenantSettingsChanged). */
export interface LoggedSettings {
  plan: string;
  perMinute: number | null;
  perDay: number | null;
}

/**
 * Holds the configuration tables to what the tenant's log says (docs/decisions/0012): a key or a
 * webhook row that a database writer added, or changed, has no authenticated event behind it.
 * A key's row that differs from its `ApiKeyIssued` (or was revoked or expired in the log) is
 * refused; a webhook whose URL is not the one its `WebhookCreated` names is not sent to; a
 * tenant's plan and limits are the log's, whatever its row says. Rows an older version made
 * without events were recorded once, on upgrade (src/tenants/adopt-config.ts).
 *
 * @example
 * const checked = await evidence.key(row); // { problem } or { settings } (the tenant's, from its log)
 */
export class ConfigEvidence {
  /**
   * URLs found to be an active webhook's, by tenant and webhook, for five seconds (a delivery reads
   * the stream once per URL then): another process's deletion or deactivation is seen that soon.
   */
  private readonly webhookUrls = new Map<string, { url: string; until: number }>();

  constructor(
    private readonly ledger: Pick<Ledger, 'readStream'>,
    private readonly authenticity?: Authenticity,
  ) {}

  /** Why the key's row is not what its events say, or else the tenant's settings as its log says. */
  async key(row: KeyRowFacts): Promise<{ problem: string } | { settings: LoggedSettings }> {
    // The key's stream and its tenant's, read together (a lookup waits for both).
    const [read, tenant] = await Promise.all([
      this.read(row.tenantId, apiKeyStream(row.tenantId, row.apiKey), 'ApiKeyIssued'),
      this.read(row.tenantId, tenantStream(row.tenantId), 'TenantCreated'),
    ]);
    if (typeof read === 'string') return { problem: read };
    const life = lifeOf(read);
    if (life.status === 'ended')
      return { problem: life.revoked ? "the tenant's log says it was revoked" : "the tenant's log says it expired" };
    const issued = read.find((e): e is ApiKeyIssued => e.type === 'ApiKeyIssued');
    if (!issued) return { problem: "the tenant's log holds no ApiKeyIssued event for it" };
    const differs = differences(issued.data, row);
    if (differs.length > 0) {
      const named = differs.length === 1 ? differs[0] : `${differs.slice(0, -1).join(', ')} and ${differs.at(-1)}`;
      return { problem: `its ${named} ${differs.length === 1 ? 'is' : 'are'} not what its ApiKeyIssued event says` };
    }
    if (typeof tenant === 'string') return { problem: `its tenant: ${tenant}` };
    const settings = settingsOf(tenant);
    return settings ? { settings } : { problem: "its tenant's log holds no TenantCreated event" };
  }

  /** Forgets what was found of a webhook: this process changed or deleted it. */
  forgetWebhook(tenantId: string, webhookId: string): void {
    this.webhookUrls.delete(`${tenantId} ${webhookId}`);
  }

  /**
   * Null when `url` is the one the webhook's WebhookCreated event names (its SHA-256) and the log
   * has not deleted the webhook, nor deactivated it (a test delivery goes to an inactive one); else why not.
   */
  async webhookProblem(tenantId: string, webhookId: string, url: string, test = false): Promise<string | null> {
    const cacheKey = `${tenantId} ${webhookId}`;
    const cached = this.webhookUrls.get(cacheKey);
    if (cached && cached.url === url && cached.until > Date.now()) return null;
    const read = await this.read(tenantId, webhookStream(tenantId, webhookId), 'WebhookCreated');
    if (typeof read === 'string') return read;
    const created = read.find((e): e is WebhookCreated => e.type === 'WebhookCreated');
    if (!created) return "the tenant's log holds no WebhookCreated event for it";
    if (created.data.urlSha256 !== sha256Hex(url)) return 'its URL is not the one its WebhookCreated event names (urlSha256)';
    if (lifeOf(read).status === 'ended') return "the tenant's log says it was deleted";
    let active = created.data.isActive;
    for (const e of read) if (e.type === 'WebhookChanged' && e.data.isActive !== undefined) active = e.data.isActive;
    if (!active) return test ? null : INACTIVE;
    // Kept while active only: a reactivation in the log is seen by the next delivery.
    if (this.webhookUrls.size >= 10_000) this.webhookUrls.clear();
    this.webhookUrls.set(cacheKey, { url, until: Date.now() + 5_000 });
    return null;
  }

  /** Whether the service recorded `stream`: it holds events, each authenticated, none of the sealed ones missing. */
  async recorded(tenantId: string, stream: string): Promise<boolean> {
    return Array.isArray(await this.read(tenantId, stream, 'TenantCreated'));
  }

  /** A configured thing's events, each authenticated and none of the sealed ones missing; else why not. */
  private async read(tenantId: string, stream: string, opening: ConfigEvent['type']): Promise<ConfigEvent[] | string> {
    const events = await this.ledger.readStream(stream);
    if (events.length === 0) return `the tenant's log holds no ${opening} event for it`;
    for (const event of events) {
      const problem = (await this.authenticity?.problem(event)) ?? null;
      if (problem) return `its ${event.type} event is not the service's: ${problem}`;
    }
    const removed = (await this.authenticity?.removed(tenantId, stream, events)) ?? null;
    if (removed) return removed;
    return events.flatMap((e) => decodeConfigEvent(e) ?? []);
  }
}

const INACTIVE = "the tenant's log says it is inactive";

/** A key's or webhook's life as its stream tells it (the command path's own fold): ended when revoked, expired or deleted. */
const lifeOf = (events: readonly ConfigEvent[]): ConfigState => events.reduce(configAggregate.evolve, configAggregate.initialState());

/** The plan and own limits a tenant's settings stream leaves (null without a TenantCreated). */
function settingsOf(events: readonly ConfigEvent[]): LoggedSettings | null {
  let settings: LoggedSettings | null = null;
  for (const e of events) {
    if (e.type === 'TenantCreated') settings = { plan: e.data.plan, perMinute: null, perDay: null };
    else if (e.type === 'TenantSettingsChanged' && settings) {
      if (e.data.plan !== undefined) settings.plan = e.data.plan;
      if (e.data.perMinute !== undefined) settings.perMinute = e.data.perMinute;
      if (e.data.perDay !== undefined) settings.perDay = e.data.perDay;
    }
  }
  return settings;
}

/** The row's fields that are not what the key's ApiKeyIssued event says. */
function differences(issued: ApiKeyIssued['data'], row: KeyRowFacts): string[] {
  const out: string[] = [];
  if (issued.scope !== row.scope) out.push('scope');
  // Keys issued before the event carried it bind no secret (docs/verifying.md).
  if (issued.secretCheck !== undefined && issued.secretCheck !== secretCheckOf(row.secretHash)) out.push('secret');
  if ((issued.expiresAt ?? null) !== (row.expiresAt?.toISOString() ?? null)) out.push('expiry');
  if (JSON.stringify(issued.origins ?? null) !== JSON.stringify(row.origins)) out.push('origins');
  if ((issued.perMinute ?? null) !== row.perMinute) out.push('budget per minute');
  if ((issued.userTokenKey ?? null) !== row.userTokenKey) out.push('user-token key');
  return out;
}
