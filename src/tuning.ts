import { EMBEDDED_STREAM_PAGE_ROWS, STREAM_PAGE_ROWS } from '../projections/consents/consents.queries.js';
import type { StoreKind } from './store/store.js';

/**
 * What differs between a PostgreSQL server and the embedded store, in one place: batch sizes,
 * poll intervals and page sizes, and whether other processes share the store. `createService`
 * picks one with `tuningFor` and nothing else branches on the store's kind.
 */
export interface StoreTuning {
  /**
   * Whether other processes may write to the store (a server): then the read fence asks the
   * ledger for a tenant's head at each read, and key caches listen for other processes' changes.
   * The embedded store belongs to one process, which makes every write.
   */
  sharedByProcesses: boolean;
  /** The projection runner: events per batch (on PGlite a statement holds the event loop: smaller there) and poll. */
  runner: { batchSize: number; pollMs: number };
  /** The transparency sealer. */
  sealer: { batchSize: number; pollMs: number };
  /** The webhook subscription (events per batch) and the dispatcher (both poll at `pollMs`). */
  webhooks: { batchSize: number; pollMs: number };
  /** The deadlines follower: items per step, and the longest sleep between steps (it wakes sooner for a nearer deadline). */
  deadlines: { batchSize: number; pollMs: number };
  /**
   * The least time between the starts of two poked batches of one follower (PokeLoop's
   * minIntervalMs): under a stream of appends a batch takes that many milliseconds of events
   * instead of one append's.
   */
  followerSpacingMs: number;
  /** Rows per page of the CSV export (a PGlite read holds the event loop while it runs). */
  exportPageRows: number;
  /** How long a list, search or export read waits for the read models to hold the caller's writes. */
  readFenceMs: number;
  /** How long erasure and the transparency log wait for read.event_index (EventStoreDB ledger) before a 503. */
  indexFenceMs: number;
}

const common = { followerSpacingMs: 50, readFenceMs: 5_000, indexFenceMs: 15_000, deadlines: { batchSize: 500, pollMs: 10_000 } };

/** The tuning of each store kind. */
export const STORE_TUNING: Readonly<Record<StoreKind, StoreTuning>> = {
  postgres: {
    ...common,
    sharedByProcesses: true,
    runner: { batchSize: 2000, pollMs: 250 },
    sealer: { batchSize: 1000, pollMs: 250 },
    webhooks: { batchSize: 1000, pollMs: 250 },
    exportPageRows: STREAM_PAGE_ROWS,
  },
  embedded: {
    ...common,
    sharedByProcesses: false,
    runner: { batchSize: 500, pollMs: 1000 },
    sealer: { batchSize: 1000, pollMs: 250 },
    webhooks: { batchSize: 1000, pollMs: 1000 },
    exportPageRows: EMBEDDED_STREAM_PAGE_ROWS,
  },
};

/**
 * The tuning of a store kind, with the overrides tests pass (a shorter poll for every follower
 * and the dispatcher, another spacing).
 *
 * @example
 * const tuning = tuningFor(store.kind, { pollMs: 50 });
 * new ProjectionRunner(db, reads, projectors, { ...tuning.runner, minIntervalMs: tuning.followerSpacingMs });
 */
export function tuningFor(
  kind: StoreKind,
  overrides: { pollMs?: number | undefined; followerSpacingMs?: number | undefined } = {},
): StoreTuning {
  const base = STORE_TUNING[kind];
  const poll = <T extends { pollMs: number }>(part: T): T =>
    overrides.pollMs === undefined ? part : { ...part, pollMs: overrides.pollMs };
  return {
    ...base,
    runner: poll(base.runner),
    sealer: poll(base.sealer),
    webhooks: poll(base.webhooks),
    // A shorter poll, but no busier than a step a second: a step is a few queries over every tenant.
    deadlines: overrides.pollMs === undefined ? base.deadlines : { ...base.deadlines, pollMs: Math.max(overrides.pollMs, 1_000) },
    followerSpacingMs: overrides.followerSpacingMs ?? base.followerSpacingMs,
  };
}
