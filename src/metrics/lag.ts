import { countAfter, type Ledger, type LedgerPosition } from '../ledger/ledger.port.js';
import type { Lag, LagSource } from './metrics.js';

/** Lag is counted up to this many events: past it, the figure says "at least". */
export const LAG_COUNT_CAP = 10_000;

/**
 * A ledger follower's lag as this process sees it: the events after the position it has passed
 * (on PostgreSQL also those it cannot read yet, behind an open transaction), and how long ago the
 * first of them was appended (0 when there is none).
 */
export function followerLag(
  follower: string,
  position: () => LedgerPosition,
  ledger: Pick<Ledger, 'readAll' | 'countAfter' | 'appendedAfter'>,
  clock: () => number = Date.now,
): LagSource {
  return {
    follower,
    async lag(): Promise<Lag> {
      const at = position();
      // Where the ledger can tell, what was appended and not passed yet, readable or not (behind an open transaction).
      if (ledger.appendedAfter) {
        const { events, firstAt } = await ledger.appendedAfter(at, LAG_COUNT_CAP);
        return { events, seconds: firstAt === null ? 0 : Math.max(0, (clock() - Date.parse(firstAt)) / 1000) };
      }
      const [first] = await ledger.readAll(at, 1);
      if (!first) return { events: 0, seconds: 0 };
      const events = await countAfter(ledger, at, LAG_COUNT_CAP);
      return { events, seconds: Math.max(0, (clock() - Date.parse(first.recordedAt)) / 1000) };
    },
  };
}
