import type { Kysely, Transaction } from 'kysely';
import type { RecordedEvent } from '../src/ledger/ledger.port.js';
import type { Database } from '../src/store/schema.js';

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
}
