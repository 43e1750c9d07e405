import { decodeConsentEvent } from '../src/domain/consent/consent.events.js';
import type { RecordedEvent } from '../src/ledger/ledger.port.js';

/**
 * `inRuns`' choice of what a run takes, for projectors of consent records: every ConsentRecorded,
 * and a ConsentWithdrawn whose record the same run holds (an imported record comes with its
 * withdrawal, so a history with opt-outs stays in runs instead of one statement per row). A
 * withdrawal of a record from before the run ends it and is applied alone. `flushed` starts the
 * next run's memory; call it from `flush`.
 *
 * @example
 * const runs = consentRuns();
 * await inRuns(events, runs.batched, async (run) => { runs.flushed(); … }, single);
 */
export function consentRuns(): { batched: (e: RecordedEvent) => boolean; flushed: () => void } {
  let recorded = new Set<string>();
  return {
    batched(e) {
      if (e.type === 'ConsentRecorded') {
        const id = (e.data as { consentId?: unknown }).consentId;
        if (typeof id === 'string') recorded.add(recordKey(e.tenantId, id));
        return true;
      }
      const withdrawal = withdrawalOf(e);
      return withdrawal !== null && recorded.has(recordKey(e.tenantId, withdrawal.consentId));
    },
    flushed() {
      recorded = new Set();
    },
  };
}

/** A record's key within a run: its tenant's and its own id (another tenant's withdrawal never names it). */
export const recordKey = (tenantId: string, consentId: string): string => `${tenantId}\u0000${consentId}`;

/** The withdrawal a run's ConsentWithdrawn states, by the record it names (null for any other event). */
export function withdrawalOf(e: RecordedEvent) {
  const event = e.type === 'ConsentWithdrawn' ? decodeConsentEvent(e) : null;
  return event?.type === 'ConsentWithdrawn' ? event.data : null;
}
