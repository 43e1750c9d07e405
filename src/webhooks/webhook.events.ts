import { decodeConsentBatchEvent, decodeConsentEvent, type ConsentRecorded, type Sealed } from '../domain/consent/consent.events.js';
import { fold, keptFromWebhooks } from '../domain/events.js';
import { policyAggregate, type PolicyState } from '../domain/policy/policy.decider.js';
import { decodePolicyEvent } from '../domain/policy/policy.events.js';
import { decodeSubjectEvent } from '../domain/subject/subject.events.js';
import type { RecordedEvent } from '../ledger/ledger.port.js';
import { PersonalFields } from '../privacy/personal-fields.js';
import type { ConsentPersonal, Privacy } from '../privacy/privacy.js';
import type { Sealing } from '../privacy/sealing.js';

/** Event names a webhook may subscribe to: the union of the spec's two lists. `*` is every event. */
export const WEBHOOK_EVENT_NAMES = [
  'consent.created',
  'consent.revoked',
  'consent.withdrawn',
  'consent.updated',
  'consent.batch_created',
  'consent.expired',
  'policy.created',
  'policy.updated',
  'policy.deleted',
  'policy.reconsent_required',
  'subject.erased',
] as const;
export type WebhookEventName = (typeof WEBHOOK_EVENT_NAMES)[number];
export const ALL_EVENTS = '*';
export const SUBSCRIBABLE = [...WEBHOOK_EVENT_NAMES, ALL_EVENTS] as const;

/** One withdrawal, three names: a webhook gets it once, named as it subscribed. */
const WITHDRAWAL_NAMES: readonly WebhookEventName[] = ['consent.withdrawn', 'consent.revoked', 'consent.updated'];

/** What a ledger event becomes for webhooks, before it is matched to subscriptions. */
export interface Notification {
  /** The payload's `id`: the ledger event's id, the same for every webhook and every retry. */
  id: string;
  tenantId: string;
  /** `withdrawal` stands for the three names of a withdrawal. */
  kind: WebhookEventName | 'withdrawal';
  createdAt: string;
  data: Record<string, unknown>;
}

export interface WebhookPayload {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

/**
 * The name under which a webhook subscribed to `events` receives a notification, or null when it
 * does not receive it.
 *
 * @example
 * eventNameFor(['consent.revoked'], 'withdrawal') // 'consent.revoked'
 * eventNameFor(['*'], 'withdrawal')               // 'consent.withdrawn'
 */
export function eventNameFor(events: readonly string[], kind: Notification['kind']): string | null {
  if (kind === 'withdrawal') {
    const named = events.find((e) => (WITHDRAWAL_NAMES as readonly string[]).includes(e));
    if (named) return named;
    return events.includes(ALL_EVENTS) ? 'consent.withdrawn' : null;
  }
  return events.includes(kind) || events.includes(ALL_EVENTS) ? kind : null;
}

/** The body sent to one webhook: fixed once, so every retry sends the same bytes. */
export const payloadFor = (n: Notification, type: string): string =>
  JSON.stringify({ id: n.id, type, created_at: n.createdAt, data: n.data } satisfies WebhookPayload);

const POLICY_EVENT_NAMES: Record<string, WebhookEventName> = {
  PolicyVersionPublished: 'policy.created',
  PolicyVersionActivated: 'policy.updated',
  PolicyVersionDeactivated: 'policy.updated',
  PolicyVersionDeleted: 'policy.deleted',
};

const policyData = (state: PolicyState): Record<string, unknown> | null =>
  state.status === 'none'
    ? null
    : {
        id: state.id,
        policy_type: state.policyType,
        version: state.version,
        title: state.title,
        content_hash: state.contentHash,
        effective_date: state.effectiveDate,
        is_active: state.isActive,
      };

/** The personal fields of `consent.created`, or nulls with `erased: true` (subject erased) or `tampered: true` (the seal does not open). */
const consentCreatedData = (d: ConsentRecorded['data'], opened: Sealing<ConsentPersonal>): Record<string, unknown> => {
  const p = opened.state === 'personal' ? opened.value : undefined;
  return {
    id: d.consentId,
    subject_id: p?.userReference ?? null,
    subject_email: p && typeof p.metadata.email === 'string' ? p.metadata.email : null,
    policy_id: d.policyVersionId,
    consent_type: d.policyType,
    granted: d.consentGiven,
    consent_hash: `sha256:${d.consentHash}`,
    metadata: p
      ? {
          ...p.metadata,
          ip_address: p.ipAddress,
          user_agent: p.userAgent,
          source: typeof p.metadata.source === 'string' ? p.metadata.source : null,
        }
      : null,
    recorded_at: d.timestamp,
    // As on the record: a purpose other than the type, and when a consent given expires.
    ...(d.purpose ? { purpose: d.purpose } : {}),
    ...(d.expiresAt ? { expires_at: d.expiresAt } : {}),
    // An imported decision: its original time (docs/purposes.md, Moving in).
    ...(d.collectedAt ? { collected_at: d.collectedAt, imported: true } : {}),
    ...notOpened(opened),
  };
};

/** How a payload says why its personal fields are null: erased, or tampered (never "erased" for a broken seal). */
const notOpened = (opened: Sealing<unknown>): Record<string, true> =>
  opened.state === 'erased' ? { erased: true } : opened.state === 'tampered' ? { tampered: true } : {};

/** Fields of a stored payload that carry personal data: cleared when the subject is erased. */
const PERSONAL_PAYLOAD_FIELDS = ['subject_id', 'subject_email', 'metadata', 'reason'] as const;

/**
 * A queued or sent payload with the personal fields nulled and `erased: true` (a subject's
 * erasure reaches the delivery history too). Other payloads come back unchanged.
 *
 * @example
 * erasePayload('{"id":"…","type":"consent.created","data":{"subject_id":"u-1",…}}') // …"subject_id":null,…,"erased":true
 */
export function erasePayload(payload: string): string {
  const p = JSON.parse(payload) as WebhookPayload;
  const data = { ...p.data };
  for (const f of PERSONAL_PAYLOAD_FIELDS) if (f in data) data[f] = null;
  return JSON.stringify({ ...p, data: { ...data, erased: true } });
}

/**
 * The record a later event of its stream is about, its personal fields (and `reason`) opened:
 * either seal broken is the record's tampering; else erased when the record's key is gone.
 */
async function recordBehind(
  event: RecordedEvent,
  readStream: (stream: string) => Promise<RecordedEvent[]>,
  reader: PersonalFields,
  d: { consentId: string; subject: string },
  reason: Sealed | null,
) {
  const first = (await readStream(event.stream)).map(decodeConsentEvent).find((e) => e?.type === 'ConsentRecorded');
  const r = first?.type === 'ConsentRecorded' ? first.data : undefined;
  const opened = r
    ? await reader.openOne({ tenantId: event.tenantId, consentId: d.consentId, subject: d.subject, personal: r.personal, reason })
    : { personal: { state: 'tampered' } as const, reason: null };
  return { r, personal: opened.personal, reason: opened.reason };
}

/**
 * Maps a ledger event to what webhooks receive, or null for an event type webhooks do not carry
 * (unknown types included). Policy and withdrawal payloads need their stream's earlier events,
 * read through `readStream`; personal fields are opened with `privacy` (null once erased).
 *
 * @example
 * await toNotification(event, (s) => ledger.readStream(s)) // { kind: 'consent.created', data: {...} }
 */
export async function toNotification(
  event: RecordedEvent,
  readStream: (stream: string) => Promise<RecordedEvent[]>,
  privacy: Privacy,
): Promise<Notification | null> {
  if (keptFromWebhooks(event.metadata)) return null;
  const base = { id: event.id, tenantId: event.tenantId, createdAt: event.recordedAt };
  const policyName = POLICY_EVENT_NAMES[event.type];
  if (policyName) {
    const history = (await readStream(event.stream)).filter((e) => e.revision <= event.revision);
    const data = policyData(fold(policyAggregate, history));
    return data ? { ...base, kind: policyName, data } : null;
  }
  const reconsent = decodePolicyEvent(event);
  if (reconsent?.type === 'PolicyReconsentRequired') {
    const history = (await readStream(event.stream)).filter((e) => e.revision <= event.revision);
    const data = policyData(fold(policyAggregate, history));
    const d = reconsent.data;
    return data
      ? {
          ...base,
          kind: 'policy.reconsent_required',
          data: { ...data, purpose: d.purpose, outdated_count: d.outdated, effective_at: d.effectiveAt },
        }
      : null;
  }
  // The one reader of personal fields, reading erasures through the same stream reads.
  const reader = new PersonalFields(privacy, { readStream });
  const erased = decodeSubjectEvent(event);
  if (erased) {
    // No personal data, not even the subject's hash: the consents let receivers forget their copies.
    const d = erased.data;
    return { ...base, kind: 'subject.erased', data: { consent_ids: d.consentIds, erased_at: d.erasedAt } };
  }
  const batch = decodeConsentBatchEvent(event);
  if (batch) {
    const d = batch.data;
    return { ...base, kind: 'consent.batch_created', data: { batchId: d.batchId, count: d.count, consentIds: d.consentIds } };
  }
  const consent = decodeConsentEvent(event);
  switch (consent?.type) {
    case 'ConsentRecorded': {
      const d = consent.data;
      const { personal } = await reader.openOne({
        tenantId: event.tenantId,
        consentId: d.consentId,
        subject: d.subject,
        personal: d.personal,
      });
      return { ...base, kind: 'consent.created', data: consentCreatedData(d, personal) };
    }
    case 'ConsentExpired': {
      const d = consent.data;
      const { r, personal } = await recordBehind(event, readStream, reader, d, null);
      const p = personal.state === 'personal' ? personal.value : undefined;
      return {
        ...base,
        kind: 'consent.expired',
        data: {
          id: d.consentId,
          subject_id: p?.userReference ?? null,
          policy_id: r?.policyVersionId ?? null,
          purpose: r ? (r.purpose ?? r.policyType) : null,
          consent_hash: r ? `sha256:${r.consentHash}` : null,
          expired_at: d.expiredAt,
          ...notOpened(personal),
        },
      };
    }
    case 'ConsentWithdrawn': {
      const d = consent.data;
      const { r, personal, reason } = await recordBehind(event, readStream, reader, d, d.reason);
      const p = personal.state === 'personal' ? personal.value : undefined;
      return {
        ...base,
        kind: 'withdrawal',
        data: {
          id: d.consentId,
          subject_id: p?.userReference ?? null,
          policy_id: r?.policyVersionId ?? null,
          consent_hash: r ? `sha256:${r.consentHash}` : null,
          withdrawn_at: d.withdrawnAt,
          reason: reason ?? null,
          // A withdrawal moved in with its record: made on the other platform, at withdrawn_at.
          ...(d.imported ? { imported: true } : {}),
          ...notOpened(personal),
        },
      };
    }
    default:
      return null;
  }
}
