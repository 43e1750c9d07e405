import {
  comparePositions,
  type AppendRequest,
  type AppendResult,
  type Ledger,
  type LedgerPosition,
  type RecordedEvent,
} from '../ledger/ledger.port.js';

export interface SharedReadsOptions {
  /** Events asked of the ledger per read: at least the largest batch a follower takes. */
  pageSize?: number;
  /** Events kept: a follower further behind than this reads the ledger itself. */
  capacity?: number;
}

/**
 * One read of the ledger for the followers of one process (projection runner, transparency
 * sealer, webhook subscription). Each reads every event after its own checkpoint; without this,
 * each event was read, sent and parsed three times, by three statements, at the write rate.
 *
 * It keeps a window of the events most recently read, contiguous: every event of the ledger after
 * `start` up to the last one held (a `readAll` never passes an event still being committed, so a
 * read that begins where the window ends extends it without a gap). A read inside the window is
 * answered from it, and one that reaches its end extends it by one read of the ledger, shared by
 * whoever waits for it. A read ahead of the window starts a new window there; a read behind it
 * (a follower catching up from far back, a rebuild) goes to the ledger and leaves the window.
 *
 * Events are shared between the followers as they are: none of them changes an event.
 *
 * @example
 * const reads = new SharedReads(new PostgresLedger(store.followerDb));
 * const runner = new ProjectionRunner(db, reads, projectors);
 * const sealer = new Sealer(db, reads, transparencyStore, signer, originOf);
 */
export class SharedReads implements Ledger {
  /** The window: every ledger event after `start`, in order. */
  private start: LedgerPosition | undefined;
  private events: RecordedEvent[] = [];
  /** The read in flight that extends the window, if any. */
  private extending: Promise<void> | undefined;
  private readonly listeners: (() => void)[] = [];
  /** A caller was answered by a read it did not begin: the next read that brings events tells the listeners. */
  private owed = false;
  /** Bumped when the window starts again elsewhere: a read begun before lands nowhere. */
  private generation = 0;
  private readonly pageSize: number;
  private readonly capacity: number;

  constructor(
    private readonly inner: Ledger,
    options: SharedReadsOptions = {},
  ) {
    this.pageSize = options.pageSize ?? 2000;
    this.capacity = Math.max(options.capacity ?? 8192, this.pageSize * 2);
  }

  append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult> {
    return this.inner.append(requests, recordedAt);
  }

  readStream(stream: string): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream);
  }

  headPosition(tenantId?: string): Promise<LedgerPosition | null> {
    return this.inner.headPosition(tenantId);
  }

  /**
   * Calls `listener` when a read adds events to the window after a caller was answered by a read
   * it did not begin (which may have begun before the events that caller was poked for): the
   * followers are poked again, and that caller finds them.
   */
  onGrow(listener: () => void): void {
    this.listeners.push(listener);
  }

  async readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
    if (this.start === undefined || comparePositions(after, this.end()) > 0) this.restartAt(after);
    // A short window is extended by one read: the caller's own, or the one in flight, which may
    // have begun before events the caller was poked for. Those come with a later read, and the
    // window's listeners poke the followers again when it adds them.
    let waited = false;
    for (;;) {
      if (!this.covers(after)) return this.inner.readAll(after, limit);
      const from = this.indexAfter(after);
      if (this.events.length - from >= limit || waited) return this.events.slice(from, from + limit);
      const own = this.extending === undefined;
      await this.extend();
      if (!own) this.owed = true;
      waited = true;
    }
  }

  /** The position the window reaches: its last event, or its start when empty. */
  private end(): LedgerPosition {
    return this.events[this.events.length - 1]?.position ?? this.start!;
  }

  private covers(after: LedgerPosition): boolean {
    return this.start !== undefined && comparePositions(after, this.start) >= 0 && comparePositions(after, this.end()) <= 0;
  }

  /** Index of the first held event after `after` (binary search: positions only grow). */
  private indexAfter(after: LedgerPosition): number {
    let lo = 0;
    let hi = this.events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (comparePositions(this.events[mid]!.position, after) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private restartAt(after: LedgerPosition): void {
    this.generation++;
    this.start = after;
    this.events = [];
    this.extending = undefined;
  }

  private extend(): Promise<void> {
    if (this.extending) return this.extending;
    const generation = this.generation;
    const read = this.inner.readAll(this.end(), this.pageSize).then((page) => {
      if (generation !== this.generation || page.length === 0) return;
      this.events.push(...page);
      const drop = this.events.length - this.capacity;
      if (drop > 0) {
        this.start = this.events[drop - 1]!.position;
        this.events = this.events.slice(drop);
      }
      if (this.owed) {
        this.owed = false;
        for (const listener of this.listeners) listener();
      }
    });
    const settled = read.finally(() => {
      if (this.extending === settled) this.extending = undefined;
    });
    this.extending = settled;
    return settled;
  }
}
