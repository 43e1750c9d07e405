import type { CheckpointTable } from '../followers/checkpoints.js';
import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../store/schema.js';

/** `webhooks` schema (webhooks.migrations.ts): configurations and deliveries are state, not read models. */
export interface EndpointsTable {
  id: string;
  tenant_id: string;
  url: string;
  events: string[];
  description: string | null;
  /** Empty: a secret stored in clear by an earlier version until the service's next start wraps it. */
  secret: string;
  /** The signing secret wrapped with the master key (Privacy.wrapSecret); never logged, never answered after creation; null once deleted. */
  secret_wrapped: ColumnType<string | null, string | null | undefined, string | null>;
  is_active: boolean;
  from_commit: number;
  from_prepare: number;
  created_at: ColumnType<Date, string, never>;
  updated_at: ColumnType<Date, string, string>;
  deleted_at: ColumnType<Date | null, string | null | undefined, string | null>;
}
export type EndpointRow = Selectable<EndpointsTable>;

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'cancelled';

export interface DeliveriesTable {
  id: string;
  tenant_id: string;
  webhook_id: string;
  /** The payload's `id`: the ledger event's id (or a fresh one for a test), kept across retries. */
  event_id: string;
  event_type: string;
  /** The exact body sent, fixed when the row is written. */
  payload: string;
  status: DeliveryStatus;
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: ColumnType<Date | null, string | null, string | null>;
  created_at: ColumnType<Date, string | undefined, never>;
  updated_at: ColumnType<Date, string | undefined, string>;
  /** When it was last sent again on request (POST …/redeliver); null if never. */
  redelivered_at: ColumnType<Date | null, string | null | undefined, string | null>;
  /** What the service wrote it with (delivery-seal.ts): a row without the matching seal is not sent. */
  seal: ColumnType<string | null, string, string | null>;
}

export interface AttemptsTable {
  id: string;
  delivery_id: string;
  tenant_id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  success: boolean;
  error: string | null;
  response_time_ms: number;
  attempted_at: ColumnType<Date, string, never>;
}

/** A span of ledger positions in which a webhook was active: after `from`, up to `until` (open while null). */
export interface WindowsTable {
  webhook_id: string;
  tenant_id: string;
  from_commit: number;
  from_prepare: number;
  until_commit: number | null;
  until_prepare: number | null;
  /** The events it was subscribed to then. */
  events: string[];
}

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
export type WebhooksDatabase = {
  'webhooks.endpoints': EndpointsTable;
  'webhooks.deliveries': DeliveriesTable;
  'webhooks.attempts': AttemptsTable;
  'webhooks.windows': WindowsTable;
  /** One row once the rows an older version left unsealed were sealed (delivery-seal.ts). */
  'webhooks.deliveries_sealed': { only_row: boolean; sealed_at: ColumnType<Date, never, never> };
  /** The webhook subscription's position in the ledger (src/followers/checkpoints.ts). */
  'webhooks.checkpoints': CheckpointTable;
};

export type WebhooksDb = Kysely<Database & WebhooksDatabase>;

/** The store's handle, seeing the `webhooks` tables too. */
export const webhooksDb = (db: Kysely<Database>): WebhooksDb => db.withTables<WebhooksDatabase>();

/**
 * Cancels a webhook's pending deliveries (a deactivation, a deletion); their history stays.
 * `spareRedelivered` leaves those sent again on request: the subscription reaching a deactivation
 * late sets it, as a delivery could only be sent again once the webhook was active after it.
 */
export async function cancelPending(wdb: WebhooksDb, webhookId: string, spareRedelivered = false): Promise<void> {
  await wdb
    .updateTable('webhooks.deliveries')
    .set({ status: 'cancelled', next_attempt_at: null, updated_at: new Date().toISOString() })
    .where('webhook_id', '=', webhookId)
    .where('status', '=', 'pending')
    .$if(spareRedelivered, (q) => q.where('redelivered_at', 'is', null))
    .execute();
}
