import {
  countAfter,
  readStreams,
  type AppendRequest,
  type AppendResult,
  type Ledger,
  type LedgerPosition,
  type RecordedEvent,
} from './ledger.port.js';

/** Told of each successful append. */
export type AppendListener = (position: LedgerPosition, result: AppendResult) => void;

/**
 * A ledger that tells its listeners after each successful append (to wake the followers, and to
 * note the tenants' last writes for the read fence), before the append's caller hears of it.
 *
 * @example
 * const ledger = new ObservedLedger(new PostgresLedger(db));
 * ledger.onAppended(() => followers.pokeAll());
 */
export class ObservedLedger implements Ledger {
  private readonly listeners: AppendListener[] = [];

  /** The inner ledger's own, where it has one (a follower's lag on /metrics). */
  readonly appendedAfter: Ledger['appendedAfter'];

  constructor(
    private readonly inner: Ledger,
    onAppended?: AppendListener,
  ) {
    if (onAppended) this.listeners.push(onAppended);
    this.appendedAfter = inner.appendedAfter?.bind(inner);
  }

  /** Told how long each successful append took, in seconds (the append latency on /metrics). */
  timed: ((seconds: number) => void) | undefined;

  /** Adds a listener, told after the ones before it. */
  onAppended(listener: AppendListener): void {
    this.listeners.push(listener);
  }

  async append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult> {
    const started = performance.now();
    const result = await this.inner.append(requests, recordedAt);
    this.timed?.((performance.now() - started) / 1000);
    for (const listener of this.listeners) listener(result.position, result);
    return result;
  }

  readStream(stream: string): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream);
  }

  readStreams(streams: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    return readStreams(this.inner, streams);
  }

  readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
    return this.inner.readAll(after, limit);
  }

  headPosition(tenantId?: string): Promise<LedgerPosition | null> {
    return this.inner.headPosition(tenantId);
  }

  countAfter(after: LedgerPosition, cap: number): Promise<number> {
    return countAfter(this.inner, after, cap);
  }
}
