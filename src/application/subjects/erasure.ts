import { subjectAggregate, subjectStream, type SubjectErased } from '../../domain/subject/subject.events.js';
import type { LedgerPosition } from '../../ledger/ledger.port.js';
import type { Privacy } from '../../privacy/privacy.js';
import { answered, write, type CommandHandler } from '../command-handler.js';

export interface ErasureView {
  /** Always true: the subject's personal data is erased (now or by an earlier request). */
  erased: true;
  erasedAt: string;
  /** The consent records whose personal fields the erasure covered; they stay, without them. */
  consentIds: string[];
  /** Stored PDF receipts deleted by this request. */
  receiptsDeleted: number;
}

/** What an erasure needs from the parts around it, given at wiring time. */
export interface ErasureDeps {
  commands: CommandHandler;
  privacy: Pick<Privacy, 'subjectOf' | 'keys'>;
  /**
   * The subject's consents (in ledger order) and the data keys their events name, read from the
   * ledger (or its index); with `before`, only those of events before that position.
   */
  subjectRecords(tenantId: string, subject: string, before?: LedgerPosition): Promise<{ consentIds: string[]; kids: string[] }>;
  /**
   * Waits until every event that will ever stand before `position` in the ledger can be found by
   * `subjectRecords` (appends still in flight have ended, an index has caught up).
   */
  settled(tenantId: string, position: LedgerPosition): Promise<void>;
  /** Deletes the stored receipts of these consents; answers how many. */
  purgeReceipts(tenantId: string, consentIds: string[]): Promise<number>;
  /** Clears the personal fields of the subject's webhook payloads, queued or sent. */
  scrubDeliveries(tenantId: string, subject: string): Promise<unknown>;
  /**
   * Waits until the subject's events can be found (the EventStoreDB ledger's index has passed the
   * tenant's head); absent when the ledger is in the store's own database.
   */
  fence?: (tenantId: string) => Promise<void>;
}

/**
 * Erasure on request (GDPR Art. 17) by crypto-shredding (docs/erasure.md): records SubjectErased
 * (naming the records it covers) in the subject's own stream, destroys the data keys those
 * records name, deletes their stored receipts and clears their webhook payloads. Read models
 * follow from the event. Idempotent: a repeat finds every record covered and answers the same
 * erasure (finishing any destruction or purge left undone).
 *
 * @example
 * const { view, replayed } = await erasure.erase(tenantId, 'user-42'); // { erased: true, erasedAt, consentIds, receiptsDeleted }
 */
export class SubjectErasure {
  constructor(private readonly deps: ErasureDeps) {}

  async erase(tenantId: string, userReference: string): Promise<{ view: ErasureView; replayed: boolean }> {
    const { deps } = this;
    const subject = deps.privacy.subjectOf(tenantId, userReference);
    await deps.fence?.(tenantId);
    const found = await deps.subjectRecords(tenantId, subject);
    // The erasure is recorded first: from the moment SubjectErased covers a record, every reader
    // answers it erased (without opening it), and only such a record may lack its key. The keys
    // are destroyed right after; a repeat (after a crash in between) destroys what is left.
    const first = await this.record(tenantId, subject, found.consentIds);
    let { consentIds, kids } = found;
    if (first.position) {
      // A consent recorded while this erasure was being decided can stand before it in the ledger
      // without being in its list: once every such append has ended, one more event covers it.
      // What was found first stands before the event too, so this read holds all of it.
      await deps.settled(tenantId, first.position);
      const before = await deps.subjectRecords(tenantId, subject, first.position);
      const listed = new Set(consentIds);
      const missed = before.consentIds.filter((id) => !listed.has(id));
      if (missed.length > 0) await this.record(tenantId, subject, missed);
      ({ consentIds, kids } = before);
    }
    await deps.privacy.keys.destroy(kids);
    const receiptsDeleted = await deps.purgeReceipts(tenantId, consentIds);
    await deps.scrubDeliveries(tenantId, subject);
    return { view: { erased: true, erasedAt: first.erasure.erasedAt, consentIds, receiptsDeleted }, replayed: first.replayed };
  }

  /**
   * Appends SubjectErased covering `consentIds`, unless every one is covered already (answers the
   * last erasure, replayed). `position` is the new event's, null when nothing was appended.
   */
  private record(tenantId: string, subject: string, consentIds: string[]) {
    return this.deps.commands.run(tenantId, async (attempt) => {
      const stream = await attempt.load(subjectAggregate, subjectStream(tenantId, subject));
      // Every record of the subject is covered by an erasure already: the same erasure again. A
      // concurrent erasure of the same subject that recorded first is answered the same way.
      const covered = new Set(stream.state.erased);
      if (stream.state.last && consentIds.every((id) => covered.has(id)))
        return answered({ erasure: stream.state.last, replayed: true, position: null as LedgerPosition | null });
      const event: SubjectErased = { type: 'SubjectErased', data: { subject, consentIds, erasedAt: attempt.now.toISOString() } };
      return {
        writes: [write(stream, [event])],
        answer: (appended) => ({ erasure: event.data, replayed: false, position: appended?.position ?? null }),
      };
    });
  }
}
