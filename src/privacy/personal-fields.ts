import type { Sealed } from '../domain/consent/consent.events.js';
import type { DataKey } from './key-store.js';
import { sealedAad, type ConsentPersonal, type Privacy } from './privacy.js';
import type { Sealing } from './sealing.js';

/** A consent record's sealed fields, as its ledger events or its read-model row name them. */
export interface SealedRecord {
  tenantId: string;
  consentId: string;
  subject: string;
  /** The sealed personal fields; null where a read model already knows the subject was erased. */
  personal: Sealed | null;
  /** The sealed withdrawal reason, when there is one. */
  reason?: Sealed | null | undefined;
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

/**
 * The one reader of consent records' personal fields, for every answer that shows them (get,
 * verify, lists, search, the CSV export, webhook payloads, receipts). One rule everywhere: the
 * fields are `personal` when they open with their key, `erased` when the key is gone (the
 * subject's erasure destroyed it), and `tampered` when the key is there and the seal does not
 * open. A withdrawal reason that does not open is the record's tampering too.
 *
 * @example
 * const [{ personal, reason }] = await reader.open([{ tenantId, consentId, subject, personal: sealed, reason }]);
 * personal.state // 'personal' | 'erased' | 'tampered'
 */
export class PersonalFields {
  constructor(private readonly privacy: Privacy) {}

  /** Opens records with one read of their keys, in their order. */
  async open(records: readonly SealedRecord[]): Promise<OpenedRecord[]> {
    const kids = records.flatMap((r) => [kidOf(r.personal), kidOf(r.reason)].filter((k): k is string => k !== undefined));
    const keys = kids.length > 0 ? await this.privacy.keys.byIds(kids) : new Map<string, DataKey>();
    return records.map((r) => this.opened(r, keys));
  }

  /** Opens one record (one read of its keys). */
  async openOne(record: SealedRecord): Promise<OpenedRecord> {
    return (await this.open([record]))[0]!;
  }

  /**
   * Opens records read from the store together with their wrapped data keys (null once destroyed),
   * on the privacy module's worker threads when there are any: the CSV export. Same rule as
   * `open`; the export carries no withdrawal reason.
   */
  async openStored(records: readonly (SealedRecord & { wrapped: string | null })[]): Promise<Sealing<ConsentPersonal>[]> {
    const sealed = records.flatMap((r) =>
      r.personal ? [{ wrapped: r.wrapped, aad: sealedAad('ConsentRecorded', r.tenantId, r.consentId, r.subject), sealed: r.personal }] : [],
    );
    const opened = await this.privacy.openStored<ConsentPersonal>(sealed);
    let k = 0;
    return records.map((r) => (r.personal ? opened[k++]! : { state: 'erased' }));
  }

  private opened(r: SealedRecord, keys: ReadonlyMap<string, DataKey>): OpenedRecord {
    if (!r.personal) return { personal: { state: 'erased' }, reason: null };
    const keyOf = (sealed: unknown) => {
      const kid = kidOf(sealed);
      return kid === undefined ? undefined : keys.get(kid);
    };
    const personal = this.privacy.read<ConsentPersonal>(
      keyOf(r.personal),
      sealedAad('ConsentRecorded', r.tenantId, r.consentId, r.subject),
      r.personal,
    );
    if (!r.reason) return { personal, reason: null };
    const reason = this.privacy.read<string>(keyOf(r.reason), sealedAad('ConsentWithdrawn', r.tenantId, r.consentId, r.subject), r.reason);
    if (reason.state === 'tampered') return { personal: reason, reason: null };
    return { personal, reason: personal.state === 'personal' && reason.state === 'personal' ? reason.value : null };
  }
}
