import type { Kysely, Transaction } from 'kysely';
import type { RecordedEvent } from '../ledger/ledger.port.js';
import type { Database } from '../store/schema.js';

/**
 * A read model's projector: turns ledger events into rows. The runner calls `apply` inside the
 * transaction that also moves the projector's checkpoint, so an event is applied exactly once.
 */
export interface Projector {
  /** Checkpoint name; stable. */
  name: string;
  /** Event types this projector reads; others only move its checkpoint. */
  handles: ReadonlySet<string>;
  apply(tx: Transaction<Database> | Kysely<Database>, event: RecordedEvent): Promise<void>;
  /**
   * Applies events it handles, in ledger order, in a few statements instead of one or more per
   * event; must leave the same rows as `apply` on each in turn. Optional: without it the runner
   * calls `apply` per event. Under a steady write rate the per-event round trips were what kept
   * the read models behind the ledger (docs/benchmarks.md).
   */
  applyBatch?(tx: Transaction<Database> | Kysely<Database>, events: readonly RecordedEvent[]): Promise<void>;
}

/**
 * Splits `events` into runs: consecutive events `batched` accepts go to `flush` together, any
 * other event to `single`, in ledger order, so a later event never overtakes an earlier one.
 */
export async function inRuns(
  events: readonly RecordedEvent[],
  batched: (e: RecordedEvent) => boolean,
  flush: (run: readonly RecordedEvent[]) => Promise<void>,
  single: (e: RecordedEvent) => Promise<void>,
  maxRun = 1000,
): Promise<void> {
  let run: RecordedEvent[] = [];
  const drain = async () => {
    if (run.length > 0) await flush(run);
    run = [];
  };
  for (const e of events) {
    if (batched(e)) {
      run.push(e);
      if (run.length >= maxRun) await drain();
    } else {
      await drain();
      await single(e);
    }
  }
  await drain();
}
