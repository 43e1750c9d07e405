import type { Sealed } from '../domain/consent/consent.events.js';
import { fold } from '../domain/events.js';
import { subjectAggregate, subjectStream } from '../domain/subject/subject.events.js';
import { readStreams, type Ledger } from '../ledger/ledger.port.js';
import type { DataKey } from './key-store.js';
import { sealedAad, type ConsentPersonal, type Privacy } from './privacy.js';
import type { Sealing } from './sealing.js';

/** A consent record's sealed fields, as its ledger events or its read-model row name them. */
export interface SealedRecord {
  tenantId: string;
  consentId: string;
  subject: string;
  /** The sealed personal fields; null where a read model dropped them after an erasure. */
  personal: Sealed | null;
  /** The sealed withdrawal reason, when there is one. */
  reason?: Sealed | null | undefined;
  /**
   * Whether a `SubjectErased` event covers the record, where the caller knows (a read model's
   * `erased`); when absent, the reader reads the subject's stream in the ledger.
   */
  erased?: boolean | undefined;
}

/** A record's personal fields as the reader found them, and its withdrawal reason when they opened. */
export interface OpenedRecord {
  personal: Sealing<ConsentPersonal>;
  reason: string | null;
}

const kidOf = (sealed: unknown): string | undefined => {
  const kid = (sealed as Partial<Sealed> | null | undefined)?.kid;
  return typeof kid === 'string' ? kid : undefined;
};

const ERASED: OpenedRecord = { personal: { state: 'erased' }, reason: null };
const TAMPERED: OpenedRecord = { personal: { state: 'tampered' }, reason: null };

/**
 * The one reader of consent records' personal fields, for every answer that shows them (get,
 * verify, lists, search, the CSV export, webhook payloads, receipts). One rule everywhere:
 *
 * - `erased` when, and only when, a `SubjectErased` event covers the record (its key was, or is
 *   about to be, destroyed): the fields are not opened even while the key still exists;
 * - `personal` when the fields open with their key;
 * - `tampered` otherwise: a seal that does not open, or a key missing with no erasure behind it
 *   (deleting a key row does not make a record read as erased). A withdrawal reason that does not
 *   open is the record's tampering too.
 *
 * @example
 * const [{ personal, reason }] = await reader.open([{ tenantId, consentId, subject, personal: sealed, reason }]);
 * personal.state // 'personal' | 'erased' | 'tampered'
 */
export class PersonalFields {
  constructor(
    private readonly privacy: Privacy,
    /** Where subjects' erasures are read (the ledger), for records whose coverage is not given. */
    private readonly ledger: Pick<Ledger, 'readStream' | 'readStreams'>,
  ) {}

  /** Opens records with one read of their keys (and of their subjects' streams), in their order. */
  async open(records: readonly SealedRecord[]): Promise<OpenedRecord[]> {
    const erased = await this.erasedAmong(records);
    const live = records.filter((r) => !erased(r));
    const kids = live.flatMap((r) => [kidOf(r.personal), kidOf(r.reason)].filter((k): k is string => k !== undefined));
    const keys = kids.length > 0 ? await this.privacy.keys.byIds(kids) : new Map<string, DataKey>();
    return records.map((r) => (erased(r) ? ERASED : this.opened(r, keys)));
  }

  /** Opens one record. */
  async openOne(record: SealedRecord): Promise<OpenedRecord> {
    return (await this.open([record]))[0]!;
  }

  /**
   * Opens records read from the store together with their wrapped data keys (null once
   * destroyed), on the privacy module's worker threads when there are any: the CSV export. Same
   * rule as `open`; the rows say whether an erasure covers them (`erased`), and the export
   * carries no withdrawal reason.
   */
  async openStored(records: readonly (SealedRecord & { wrapped: string | null; erased: boolean })[]): Promise<Sealing<ConsentPersonal>[]> {
    const sealed = records.flatMap((r) =>
      !r.erased && r.personal
        ? [{ wrapped: r.wrapped, aad: sealedAad('ConsentRecorded', r.tenantId, r.consentId, r.subject), sealed: r.personal }]
        : [],
    );
    const opened = await this.privacy.openStored<ConsentPersonal>(sealed);
    let k = 0;
    return records.map((r) => {
      if (r.erased) return { state: 'erased' };
      if (!r.personal) return { state: 'tampered' };
      const o = opened[k++]!;
      return o.state === 'erased' ? { state: 'tampered' } : o;
    });
  }

  /** Which records an erasure covers: as given, else as their subjects' streams say. */
  private async erasedAmong(records: readonly SealedRecord[]): Promise<(r: SealedRecord) => boolean> {
    const unknown = records.filter((r) => r.erased === undefined);
    const streams = [...new Set(unknown.map((r) => subjectStream(r.tenantId, r.subject)))];
    const covered = new Set<string>();
    // One read of every subject's stream (a batch's answer names up to 1,000), not one each.
    for (const events of (await readStreams(this.ledger, streams)).values()) {
      for (const id of fold(subjectAggregate, events).erased) covered.add(id);
    }
    return (r) => r.erased ?? covered.has(r.consentId);
  }

  private opened(r: SealedRecord, keys: ReadonlyMap<string, DataKey>): OpenedRecord {
    if (!r.personal) return TAMPERED;
    const keyOf = (sealed: unknown) => {
      const kid = kidOf(sealed);
      return kid === undefined ? undefined : keys.get(kid);
    };
    const personal = this.privacy.read<ConsentPersonal>(
      keyOf(r.personal),
      sealedAad('ConsentRecorded', r.tenantId, r.consentId, r.subject),
      r.personal,
    );
    // No erasure covers the record: a key that is gone was taken, not erased.
    if (personal.state !== 'personal') return TAMPERED;
    if (!r.reason) return { personal, reason: null };
    const reason = this.privacy.read<string>(keyOf(r.reason), sealedAad('ConsentWithdrawn', r.tenantId, r.consentId, r.subject), r.reason);
    return reason.state === 'personal' ? { personal, reason: reason.value } : TAMPERED;
  }
}
