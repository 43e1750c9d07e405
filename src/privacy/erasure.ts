import type { Kysely } from 'kysely';
import { COMMAND_ATTEMPTS, givenUp, toNewEvent } from '../application/command-handler.js';
import { WrongExpectedRevisionError, type Ledger } from '../ledger/ledger.port.js';
import type { ReceiptStore } from '../receipts/receipt.store.js';
import type { Database } from '../store/schema.js';
import type { Privacy } from './privacy.js';
import { scrubDeliveries, subjectRecords } from './purge.js';
import { subjectStream, type SubjectErased } from './subject.events.js';

export interface ErasureView {
  /** Always true: the subject's personal data is erased (now or by an earlier request). */
  erased: true;
  erasedAt: string;
  /** The consent records whose personal fields the erasure covered; they stay, without them. */
  consentIds: string[];
  /** Stored PDF receipts deleted by this request. */
  receiptsDeleted: number;
}

/**
 * Erasure on request (GDPR Art. 17) by crypto-shredding (docs/erasure.md): destroys the data keys
 * the subject's records name, records SubjectErased in the subject's own stream, deletes their
 * stored receipts and clears their webhook payloads. Read models follow from the event.
 * Idempotent: a repeat finds no key left and the erasure recorded, and answers it again
 * (finishing any purge left undone).
 *
 * @example
 * const { view, replayed } = await erasure.erase(tenantId, 'user-42'); // { erased: true, erasedAt, consentIds, receiptsDeleted }
 */
export class SubjectErasure {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly ledger: Ledger,
    private readonly privacy: Privacy,
    private readonly receipts: ReceiptStore,
    private readonly clock: () => Date = () => new Date(),
    /**
     * When the ledger is not in the store's database (EventStoreDB), the subject's events are
     * found in read.event_index: `fence` waits until the projections passed the tenant's head.
     */
    private readonly index?: { fence(tenantId: string): Promise<void> },
  ) {}

  async erase(tenantId: string, userReference: string): Promise<{ view: ErasureView; replayed: boolean }> {
    const subject = this.privacy.subjectOf(tenantId, userReference);
    const stream = subjectStream(tenantId, subject);
    // The keys first: from this moment nothing of theirs can be read, whatever happens next.
    const source = this.index ? 'index' : 'ledger';
    await this.index?.fence(tenantId);
    const { consentIds, kids } = await subjectRecords(this.db, tenantId, subject, source);
    const destroyed = (await this.privacy.keys.destroy(kids)) > 0;
    for (let attempt = 1; ; attempt++) {
      const history = await this.ledger.readStream(stream);
      const last = history[history.length - 1];
      let erasure: SubjectErased['data'];
      let replayed = false;
      // Erased before, and nothing recorded (no key used) since: the same erasure again.
      if (!destroyed && last?.type === 'SubjectErased') {
        erasure = last.data as SubjectErased['data'];
        replayed = true;
      } else {
        const now = this.clock();
        erasure = { subject, consentIds, erasedAt: now.toISOString() };
        const event: SubjectErased = { type: 'SubjectErased', data: erasure };
        try {
          await this.ledger.append(
            [{ tenantId, stream, expectedRevision: last ? last.revision : 'no_stream', events: [toNewEvent(event)] }],
            now,
          );
        } catch (error) {
          // A concurrent erasure of the same subject recorded it first: answer that one.
          if (!(error instanceof WrongExpectedRevisionError)) throw error;
          if (attempt >= COMMAND_ATTEMPTS) throw givenUp(error);
          continue;
        }
      }
      const receiptsDeleted = await this.receipts.purge(tenantId, consentIds);
      await scrubDeliveries(this.db, tenantId, subject, source);
      return { view: { erased: true, erasedAt: erasure.erasedAt, consentIds, receiptsDeleted }, replayed };
    }
  }
}
