import type { AppendRequest, AppendResult, Ledger, LedgerPosition, RecordedEvent } from './ledger.port.js';

/**
 * A ledger that tells a listener after each successful append (to wake the projectors, and to
 * note the tenants' last writes for the read fence), before the append's caller hears of it.
 */
export class ObservedLedger implements Ledger {
  constructor(
    private readonly inner: Ledger,
    private readonly onAppended: (position: LedgerPosition, result: AppendResult) => void,
  ) {}

  async append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult> {
    const result = await this.inner.append(requests, recordedAt);
    this.onAppended(result.position, result);
    return result;
  }

  readStream(stream: string): Promise<RecordedEvent[]> {
    return this.inner.readStream(stream);
  }

  readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
    return this.inner.readAll(after, limit);
  }

  headPosition(tenantId?: string): Promise<LedgerPosition | null> {
    return this.inner.headPosition(tenantId);
  }
}
