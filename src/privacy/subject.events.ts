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
