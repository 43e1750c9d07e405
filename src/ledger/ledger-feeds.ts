import type { Ledger, RecordedEvent } from './ledger.port.js';

/**
 * Optional capabilities of a ledger adapter, beside the `Ledger` port. Followers (projection
 * runner, webhook subscription, sealer) always read through `readAll` from their own checkpoint,
 * kept in PostgreSQL in the transaction that applies the events; these only change how they learn
 * that there is something to read, or hand the work out (docs/decisions/0005-eventstoredb-ledger.md).
 */

/** A subscription that can be closed. */
export interface Closable {
  close(): Promise<void>;
}

export interface WatchLog {
  warn(obj: object, msg: string): void;
}

/**
 * A ledger that pushes: `watch` calls `onAppended` soon after events land, whoever appended them
 * (EventStoreDB: a catch-up subscription to `$all`, filtered to the ledger's streams). Followers
 * then read at once instead of waiting for their next poll; they keep polling as a fallback.
 *
 * @example
 * const watching = isWatchable(ledger) ? ledger.watch(() => runner.poke()) : undefined;
 * await watching?.close();
 */
export interface WatchableLedger extends Ledger {
  watch(onAppended: () => void, log?: WatchLog): Closable;
}

export const isWatchable = (ledger: Ledger): ledger is WatchableLedger => typeof (ledger as Partial<WatchableLedger>).watch === 'function';

/** One event handed out by a durable feed: settle it with ack (done) or nack (try again later). */
export interface DurableFeedMessage {
  /** The ledger event; null for a record that is not one (settle it with ack). */
  event: RecordedEvent | null;
  /** How many times it was handed out before. */
  retryCount: number;
  ack(): Promise<void>;
  /** Hands the event back to be retried; after the feed's retry limit it is parked by the server. */
  nack(reason: string): Promise<void>;
}

export interface DurableFeed extends AsyncIterable<DurableFeedMessage>, Closable {}

/**
 * A ledger with server-side durable subscriptions (EventStoreDB persistent subscriptions to `$all`):
 * the server keeps the group's position and hands each event to one of the group's consumers,
 * again after a nack or a consumer that died before acking.
 *
 * @example
 * const feed = await ledger.openDurableFeed('webhooks');
 * for await (const m of feed) { await handle(m.event); await m.ack(); }
 */
export interface DurableFeedLedger extends Ledger {
  /** Creates the group on first use, starting at the ledger's head (only later events), and joins it. */
  openDurableFeed(group: string): Promise<DurableFeed>;
}

export const hasDurableFeeds = (ledger: Ledger): ledger is DurableFeedLedger =>
  typeof (ledger as Partial<DurableFeedLedger>).openDurableFeed === 'function';

/** A ledger that can say whether its server answers (for `/ready`). */
export interface PingableLedger extends Ledger {
  ping(): Promise<void>;
}

export const isPingable = (ledger: Ledger): ledger is PingableLedger => typeof (ledger as Partial<PingableLedger>).ping === 'function';
