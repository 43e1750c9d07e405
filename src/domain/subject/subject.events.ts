import type { Aggregate } from '../events.js';
import { asStored, eventDecoder } from '../events.js';

/**
 * A data subject's personal data was erased (GDPR Art. 17): their data keys were destroyed, so
 * every sealed field of theirs in the ledger is unreadable for good. Carries the subject's HMAC,
 * never the user reference, and the consents it covered, so that read models, receipts and
 * webhook receivers can forget them too. Consumers that do not know this type ignore it.
 */
export interface SubjectErased {
  type: 'SubjectErased';
  data: { subject: string; consentIds: string[]; erasedAt: string };
}

/** The one place that names a data subject's stream: `subject-{tenantId}-{subject HMAC}`. */
export const subjectStream = (tenantId: string, subject: string): string => `subject-${tenantId}-${subject}`;

export type SubjectEvent = SubjectErased;

/** Reads back a subject stream's events (the place to upcast older shapes of them). */
export const decodeSubjectEvent = eventDecoder<SubjectEvent>({ SubjectErased: asStored() });

/** A subject's stream folded: its last erasure, and every consent record an erasure of it covers. */
export interface SubjectState {
  last: SubjectErased['data'] | null;
  erased: readonly string[];
}

export const subjectAggregate: Aggregate<SubjectState, SubjectEvent> = {
  initialState: () => ({ last: null, erased: [] }),
  evolve: (state, event) => ({ last: event.data, erased: [...new Set([...state.erased, ...event.data.consentIds])] }),
  decode: decodeSubjectEvent,
};
