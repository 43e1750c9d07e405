import type { Log } from '../src/common/log.js';
import { noteReadBehind } from '../src/common/read-notes.js';
import {
  comparePositions,
  LedgerUnavailableError,
  type AppendResult,
  type Ledger,
  type LedgerPosition,
} from '../src/ledger/ledger.port.js';

export interface ReadFenceOptions {
  /**
   * Whether every append to the ledger goes through this process (the embedded store: one process
   * holds its data folder). Then the fence knows each tenant's last write without asking.
   */
  soleWriter: boolean;
  /** How long a read waits at most; then it answers from what the read models hold, logs and counts it, and marks the answer. */
  timeoutMs: number;
  log: Log;
  /** Told of each read that gave up waiting (a metric). */
  onTimeout?: () => void;
}

/**
 * Read-your-writes (docs/contract.md): a read first waits, bounded, until the read models hold every
 * write its tenant made before the read began, so the client that wrote finds its write.
 *
 * Where this process makes every append (`soleWriter`), it notes each tenant's last position as
 * the append returns (before the writer hears its 2xx) and waits for that, without a query; a
 * tenant it has not seen written since it started is asked of the ledger once. Elsewhere (a
 * PostgreSQL server or EventStoreDB that other processes write to) it asks the ledger for the
 * tenant's head at every read, which covers writes made through any process.
 *
 * @example
 * const fence = new ReadFence(ledger, runner, { soleWriter: true, timeoutMs: 5000, log });
 * const ledger = new ObservedLedger(inner, (_, result) => fence.appended(result));
 * await fence.wait(tenantId); // then query the read models
 */
export class ReadFence {
  private readonly last = new Map<string, LedgerPosition>();

  constructor(
    private readonly ledger: Pick<Ledger, 'headPosition'>,
    private readonly runner: { waitFor(target: LedgerPosition, timeoutMs: number): Promise<boolean> },
    private readonly options: ReadFenceOptions,
  ) {}

  /** Notes the tenants' positions of a successful append. */
  appended(result: AppendResult): void {
    if (!this.options.soleWriter) return;
    for (const e of result.events) this.note(e.tenantId, e.position);
  }

  private note(tenantId: string, position: LedgerPosition): void {
    const known = this.last.get(tenantId);
    if (!known || comparePositions(position, known) > 0) this.last.set(tenantId, position);
  }

  /** Waits until the read models hold the tenant's writes (at most `timeoutMs`); false when they did not by then. */
  async wait(tenantId: string): Promise<boolean> {
    let target = this.options.soleWriter ? this.last.get(tenantId) : undefined;
    if (!target) {
      const head = await this.ledger.headPosition(tenantId);
      if (!head) return true;
      target = head;
      if (this.options.soleWriter) this.note(tenantId, head);
    }
    if (await this.runner.waitFor(target, this.options.timeoutMs)) return true;
    this.options.log.warn({ tenantId }, 'read models lag behind the ledger; answering from what they hold');
    this.options.onTimeout?.();
    // The request's answer says so (X-Read-Models-Behind).
    noteReadBehind();
    return false;
  }
}

/**
 * When the ledger is outside the store (EventStoreDB), erasure and the transparency log find
 * events by subject or id in read.event_index: they wait (bounded) until the runner has indexed
 * what they look for, and answer 503 rather than from an index that lags.
 *
 * @example
 * const index = eventIndexFence(ledger, runner, 15_000);
 * await index.fence(tenantId); // throws LedgerUnavailableError when the index lags
 */
export function eventIndexFence(
  ledger: Pick<Ledger, 'headPosition'>,
  runner: { waitFor(target: LedgerPosition, timeoutMs: number): Promise<boolean> },
  timeoutMs: number,
): { passed(position: LedgerPosition): Promise<boolean>; fence(tenantId: string): Promise<void> } {
  const passed = (position: LedgerPosition) => runner.waitFor(position, timeoutMs);
  return {
    passed,
    async fence(tenantId) {
      const head = await ledger.headPosition(tenantId);
      if (head && !(await passed(head))) throw new LedgerUnavailableError('the event index lags behind the ledger; try again');
    },
  };
}
