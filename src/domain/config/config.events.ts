import type { Aggregate } from '../events.js';
import { asStored, eventDecoder } from '../events.js';
import { DomainError } from '../errors.js';

/**
 * Changes to a tenant's configuration (docs/audit-log.md): each is a ledger event in the tenant's
 * log, so it is hashed, chained and sealed into the tenant's transparency log like a consent. The
 * tables that hold the configuration (keys, plans, webhooks) apply the change after its event is
 * durable; the event never carries a secret, only what an auditor needs to know what changed.
 */

export interface TenantCreated {
  type: 'TenantCreated';
  /** `adopted`: a tenant an older version made without events, recorded as its row said (src/tenants/adopt-config.ts). */
  data: { name: string; plan: string; adopted?: true; at: string };
}

/** The plan and/or the tenant's own limits (null: back to the plan's) as they now are. */
export interface TenantSettingsChanged {
  type: 'TenantSettingsChanged';
  data: { plan?: string; perMinute?: number | null; perDay?: number | null; at: string };
}

export interface ApiKeyIssued {
  type: 'ApiKeyIssued';
  /** The key's public id, never its secret. */
  data: {
    apiKey: string;
    scope: string;
    name: string | null;
    expiresAt: string | null;
    origins?: string[];
    perMinute?: number;
    /** A publishable key's Ed25519 public key for user tokens (base64url), null when it has none; absent on other keys. */
    userTokenKey?: string | null;
    /**
     * A key with a secret: what binds its row's secret hash (src/application/config/config-evidence.ts
     * `secretCheckOf`), never the secret; absent on keys issued before it was written.
     */
    secretCheck?: string;
    /** A key an older version issued without an event, recorded as its row said (src/tenants/adopt-config.ts). */
    adopted?: true;
    at: string;
  };
}

export interface ApiKeyRevoked {
  type: 'ApiKeyRevoked';
  data: { apiKey: string; at: string };
}

/** Appended by the deadlines follower once a key's `expiresAt` has passed. */
export interface ApiKeyExpired {
  type: 'ApiKeyExpired';
  data: { apiKey: string; expiresAt: string; at: string };
}

/**
 * A webhook's receiver as the audit trail names it: the URL's origin, and the SHA-256 of the whole
 * URL (its path or query may hold a token), which whoever holds the URL can check.
 */
export interface WebhookTarget {
  webhookId: string;
  urlOrigin: string;
  urlSha256: string;
}

export interface WebhookCreated {
  type: 'WebhookCreated';
  /** `adopted`: a webhook an older version made without an event, recorded as its row said. */
  data: WebhookTarget & { events: string[]; isActive: boolean; adopted?: true; at: string };
}

/** The fields that changed, with their new values. */
export interface WebhookChanged {
  type: 'WebhookChanged';
  data: { webhookId: string; events?: string[]; isActive?: boolean; description?: string | null; at: string };
}

export interface WebhookDeleted {
  type: 'WebhookDeleted';
  data: { webhookId: string; at: string };
}

/** The operator re-wrapped every data key and webhook secret under a new master key (one per tenant). */
export interface MasterKeyRotated {
  type: 'MasterKeyRotated';
  data: { at: string };
}

/** The operator retired the checkpoint signing key: the verifier keys (public) before and after. */
export interface SigningKeyRotated {
  type: 'SigningKeyRotated';
  data: { retired: string; current: string; at: string };
}

/**
 * The operator ran `import` (not a dry run): which file (its name and the SHA-256 of its bytes, so
 * an auditor holding the file can check it is the one), what came of its rows, and when it began.
 * `stoppedBy` names the signal that stopped it before the end (a run again records its own).
 */
export interface HistoryImported {
  type: 'HistoryImported';
  data: {
    importId: string;
    file: string;
    fileSha256: string;
    rows: number;
    imported: number;
    alreadyImported: number;
    /** Of alreadyImported, the records this run withdrew (a later file's withdrawnAt); absent from runs before it was counted. */
    withdrawn?: number;
    refused: number;
    startedAt: string;
    stoppedBy?: string;
    at: string;
  };
}

export type TenantEvent = TenantCreated | TenantSettingsChanged;
export type ApiKeyEvent = ApiKeyIssued | ApiKeyRevoked | ApiKeyExpired;
export type WebhookConfigEvent = WebhookCreated | WebhookChanged | WebhookDeleted;
export type KeyRotationEvent = MasterKeyRotated | SigningKeyRotated;
export type ConfigEvent = TenantEvent | ApiKeyEvent | WebhookConfigEvent | KeyRotationEvent | HistoryImported;

export const CONFIG_EVENT_TYPES: readonly ConfigEvent['type'][] = [
  'TenantCreated',
  'TenantSettingsChanged',
  'ApiKeyIssued',
  'ApiKeyRevoked',
  'ApiKeyExpired',
  'WebhookCreated',
  'WebhookChanged',
  'WebhookDeleted',
  'MasterKeyRotated',
  'SigningKeyRotated',
  'HistoryImported',
];

/** Reads back configuration events (the place to upcast older shapes of them). */
export const decodeConfigEvent = eventDecoder<ConfigEvent>({
  TenantCreated: asStored(),
  TenantSettingsChanged: asStored(),
  ApiKeyIssued: asStored(),
  ApiKeyRevoked: asStored(),
  ApiKeyExpired: asStored(),
  WebhookCreated: asStored(),
  WebhookChanged: asStored(),
  WebhookDeleted: asStored(),
  MasterKeyRotated: asStored(),
  SigningKeyRotated: asStored(),
  HistoryImported: asStored(),
});

/** The tenant's own settings: `tenant-{tenantId}-settings`. */
export const tenantStream = (tenantId: string): string => `tenant-${tenantId}-settings`;
/** One API key's life: `apikey-{tenantId}-{apiKey}`. */
export const apiKeyStream = (tenantId: string, apiKey: string): string => `apikey-${tenantId}-${apiKey}`;
/** One webhook's configuration: `webhook-{tenantId}-{webhookId}`. */
export const webhookStream = (tenantId: string, webhookId: string): string => `webhook-${tenantId}-${webhookId}`;
/** The operator's key rotations as they touch this tenant: `keyrotation-{tenantId}-operator`. */
export const keyRotationStream = (tenantId: string): string => `keyrotation-${tenantId}-operator`;
/** One run of `import`: `import-{tenantId}-{importId}`. */
export const importStream = (tenantId: string, importId: string): string => `import-${tenantId}-${importId}`;

/** The stream a configuration event belongs to. */
export function configStream(tenantId: string, event: ConfigEvent): string {
  switch (event.type) {
    case 'TenantCreated':
    case 'TenantSettingsChanged':
      return tenantStream(tenantId);
    case 'ApiKeyIssued':
    case 'ApiKeyRevoked':
    case 'ApiKeyExpired':
      return apiKeyStream(tenantId, event.data.apiKey);
    case 'WebhookCreated':
    case 'WebhookChanged':
    case 'WebhookDeleted':
      return webhookStream(tenantId, event.data.webhookId);
    case 'MasterKeyRotated':
    case 'SigningKeyRotated':
      return keyRotationStream(tenantId);
    case 'HistoryImported':
      return importStream(tenantId, event.data.importId);
  }
}

/**
 * A configured thing's life as its stream tells it: `unknown` when the stream holds nothing (a key
 * issued before the audit trail began), `live`, or `ended` (a key revoked or expired, a webhook
 * deleted). Settings and rotations stay `live`.
 */
export interface ConfigState {
  status: 'unknown' | 'live' | 'ended';
  /** A key revoked (not merely expired) refuses a second revocation. */
  revoked: boolean;
}

export const configAggregate: Aggregate<ConfigState, ConfigEvent> = {
  initialState: () => ({ status: 'unknown', revoked: false }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'ApiKeyRevoked':
        return { status: 'ended', revoked: true };
      case 'ApiKeyExpired':
      case 'WebhookDeleted':
        return { ...state, status: 'ended' };
      default:
        return { ...state, status: 'live' };
    }
  },
  decode: decodeConfigEvent,
};

/**
 * Whether a change may be recorded on its stream: the events to append (none when it is already
 * recorded: a key's expiry after its revocation, a second expiry). A key revoked twice, or a change
 * to a deleted webhook, is refused.
 */
export function decideConfig(event: ConfigEvent, state: ConfigState): ConfigEvent[] {
  switch (event.type) {
    case 'ApiKeyRevoked':
      if (state.revoked) throw new DomainError('NOT_FOUND', 'API key not found or already revoked');
      return [event];
    case 'ApiKeyExpired':
      return state.status === 'ended' ? [] : [event];
    case 'WebhookChanged':
    case 'WebhookDeleted':
      if (state.status === 'ended') throw new DomainError('NOT_FOUND', `webhook ${event.data.webhookId} not found`);
      return [event];
    default:
      return [event];
  }
}

/** Records a configuration change in the tenant's log; resolves once its event is durable, with its id (null when the change wrote none). */
export interface ConfigChanges {
  record(tenantId: string, event: ConfigEvent): Promise<string | null>;
}
