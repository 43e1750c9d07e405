import { sha256Hex } from '../../common/hashing.js';
import {
  apiKeyStream,
  decodeConfigEvent,
  tenantStream,
  webhookStream,
  type ApiKeyIssued,
  type ConfigEvent,
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

/**
 * Holds the configuration tables to what the tenant's log says (docs/decisions/0012): a key or a
 * webhook row that a database writer added, or changed, has no authenticated event behind it.
 * A key's row that differs from its `ApiKeyIssued` (or was revoked or expired in the log) is
 * refused; a webhook whose URL is not the one its `WebhookCreated` names is not sent to. Rows of
 * tenants made before the audit trail began have no events, and are taken as they say.
 *
 * @example
 * const problem = await evidence.keyProblem(row); // null, or why the row is not the log's
 */
export class ConfigEvidence {
  /** Tenants whose log opens with TenantCreated: every key and webhook of theirs has its events. */
  private readonly recorded = new Set<string>();
  /** URLs found to be their webhook's, by webhook id (a delivery reads the stream once per URL). */
  private readonly webhookUrls = new Map<string, string>();

  constructor(
    private readonly ledger: Pick<Ledger, 'readStream'>,
    private readonly authenticity?: Authenticity,
  ) {}

  /** Null when the key's row is what its events say; else why not. */
  async keyProblem(row: KeyRowFacts): Promise<string | null> {
    const read = await this.read(row.tenantId, apiKeyStream(row.tenantId, row.apiKey), 'ApiKeyIssued');
    if (read === null || typeof read === 'string') return read;
    if (read.some((e) => e.type === 'ApiKeyRevoked')) return "the tenant's log says it was revoked";
    if (read.some((e) => e.type === 'ApiKeyExpired')) return "the tenant's log says it expired";
    const issued = read.find((e): e is ApiKeyIssued => e.type === 'ApiKeyIssued');
    if (!issued) return "the tenant's log holds no ApiKeyIssued event for it";
    const differs = differences(issued.data, row);
    if (differs.length === 0) return null;
    const named = differs.length === 1 ? differs[0] : `${differs.slice(0, -1).join(', ')} and ${differs.at(-1)}`;
    return `its ${named} ${differs.length === 1 ? 'is' : 'are'} not what its ApiKeyIssued event says`;
  }

  /** Null when `url` is the one the webhook's WebhookCreated event names (its SHA-256); else why not. */
  async webhookProblem(tenantId: string, webhookId: string, url: string): Promise<string | null> {
    if (this.webhookUrls.get(webhookId) === url) return null;
    const read = await this.read(tenantId, webhookStream(tenantId, webhookId), 'WebhookCreated');
    if (typeof read === 'string') return read;
    if (read !== null) {
      const created = read.find((e): e is WebhookCreated => e.type === 'WebhookCreated');
      if (!created) return "the tenant's log holds no WebhookCreated event for it";
      if (created.data.urlSha256 !== sha256Hex(url)) return 'its URL is not the one its WebhookCreated event names (urlSha256)';
    }
    if (this.webhookUrls.size >= 10_000) this.webhookUrls.clear();
    this.webhookUrls.set(webhookId, url);
    return null;
  }

  /**
   * A configured thing's events, each authenticated and none of the sealed ones missing; null for a
   * tenant made before the audit trail began (no events to hold it to); else why not.
   */
  private async read(tenantId: string, stream: string, opening: ConfigEvent['type']): Promise<ConfigEvent[] | string | null> {
    const events = await this.ledger.readStream(stream);
    if (events.length === 0) {
      return (await this.beforeTheTrail(tenantId)) ? null : `the tenant's log holds no ${opening} event for it`;
    }
    for (const event of events) {
      const problem = (await this.authenticity?.problem(event)) ?? null;
      if (problem) return `its ${event.type} event is not the service's: ${problem}`;
    }
    const removed = (await this.authenticity?.removed(tenantId, stream, events)) ?? null;
    if (removed) return removed;
    return events.flatMap((e) => decodeConfigEvent(e) ?? []);
  }

  /**
   * Whether the tenant was made before the audit trail began: its log holds no TenantCreated,
   * and none was removed from it (that would make every key of the tenant pass unchecked).
   */
  private async beforeTheTrail(tenantId: string): Promise<boolean> {
    if (this.recorded.has(tenantId)) return false;
    const stream = tenantStream(tenantId);
    const events = await this.ledger.readStream(stream);
    if (events.some((e) => e.type === 'TenantCreated') || (await this.authenticity?.removed(tenantId, stream, events))) {
      this.recorded.add(tenantId);
      return false;
    }
    return true;
  }
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
