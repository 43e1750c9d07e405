import { consentHashInput } from '../domain/consent/consent-hash.js';
import { decideConsent, evolveConsent, initialConsentState, policyRefusal, type ConsentState } from '../domain/consent/consent.decider.js';
import {
  consentBatchStream,
  consentStream,
  type ConsentBatchRecorded,
  type ConsentEvent,
  type ConsentRecorded,
} from '../domain/consent/consent.events.js';
import { DomainError } from '../domain/errors.js';
import { evolvePolicy, initialPolicyState, type KnownPolicy, type PolicyState } from '../domain/policy/policy.decider.js';
import { policyStream } from '../domain/policy/policy.events.js';
import { checkChain } from '../ledger/event-hash.js';
import { WrongExpectedRevisionError, type AppendRequest, type Ledger, type RecordedEvent } from '../ledger/ledger.port.js';
import { hashCanonical } from '../shared/hashing.js';
import { deriveId, newId } from '../shared/ids.js';
import { fold, handleCommand, toNewEvent } from './command-handler.js';

export interface ConsentInput {
  policyVersionId: string;
  userReference: string;
  consentGiven: boolean;
  ipAddress?: string | undefined;
  userAgent?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
}

/** A client's Idempotency-Key and the hash of what it sent with it. */
export interface Idempotency {
  key: string;
  requestHash: string;
}

/** Thrown when an Idempotency-Key comes back with another request. */
export class IdempotencyKeyReusedError extends Error {
  override readonly name = 'IdempotencyKeyReusedError';
  constructor() {
    super('this Idempotency-Key was used with a different request');
  }
}

export interface RecordedConsentView {
  id: string;
  consentHash: string;
  userReference: string;
  policyVersionId: string;
  consentGiven: boolean;
  timestamp: string;
}

export interface ConsentView {
  id: string;
  consentHash: string;
  userReference: string;
  policyVersionId: string;
  consentGiven: boolean;
  status: 'active' | 'withdrawn';
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown>;
  createdAt: string;
  timestamp: string;
  withdrawnAt: string | null;
  withdrawalReason: string | null;
  policyDetails: { title: string; type: string; version: string; contentHash: string };
}

export interface VerificationView {
  valid: boolean;
  consentId: string;
  storedHash: string;
  computedHash: string;
  verifiedAt: string;
}

export interface BatchView {
  processed: number;
  consents: { id: string; userReference: string; consentGiven: boolean }[];
}

type Recorded = ConsentRecorded['data'];

const recordedView = (r: Recorded): RecordedConsentView => ({
  id: r.consentId,
  consentHash: r.consentHash,
  userReference: r.userReference,
  policyVersionId: r.policyVersionId,
  consentGiven: r.consentGiven,
  timestamp: r.timestamp,
});

export const consentView = (s: Extract<ConsentState, { status: 'active' | 'withdrawn' }>): ConsentView => ({
  id: s.record.consentId,
  consentHash: s.record.consentHash,
  userReference: s.record.userReference,
  policyVersionId: s.record.policyVersionId,
  consentGiven: s.record.consentGiven,
  status: s.status,
  ipAddress: s.record.ipAddress,
  userAgent: s.record.userAgent,
  metadata: s.record.metadata,
  createdAt: s.record.timestamp,
  timestamp: s.record.timestamp,
  withdrawnAt: s.withdrawnAt,
  withdrawalReason: s.reason,
  policyDetails: {
    title: s.record.policyTitle,
    type: s.record.policyType,
    version: s.record.policyVersion,
    contentHash: s.record.policyContentHash,
  },
});

const idempotencyOf = (e: RecordedEvent | undefined): Idempotency | undefined =>
  (e?.metadata as { idempotency?: Idempotency } | undefined)?.idempotency;

/** Replays the first answer for a key, or refuses a key that came with another request. */
function replay<T>(found: Idempotency | undefined, sent: Idempotency, answer: () => T): T | undefined {
  if (!found || found.key !== sent.key) return undefined;
  if (found.requestHash !== sent.requestHash) throw new IdempotencyKeyReusedError();
  return answer();
}

const MAX_ATTEMPTS = 5;

/**
 * Records which withdrawal an Idempotency-Key was first used for. Operational, not evidence: no
 * read model or webhook reacts to it.
 */
export interface IdempotencyKeyUsed {
  type: 'IdempotencyKeyUsed';
  data: { key: string; requestHash: string; operation: 'withdraw'; consentId: string };
}

/** The one place that names a withdrawal Idempotency-Key's stream (per tenant). */
export const withdrawalKeyStream = (tenantId: string, key: string): string => `withdrawalkey-${tenantId}-${deriveId(tenantId, 'withdraw-key', key)}`;

/** Consent commands and exact reads, straight on the ledger. */
export class ConsentService {
  constructor(
    private readonly ledger: Ledger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private async policy(tenantId: string, policyVersionId: string): Promise<PolicyState> {
    return fold(await this.ledger.readStream(policyStream(tenantId, policyVersionId)), initialPolicyState, evolvePolicy);
  }

  private async consent(tenantId: string, consentId: string): Promise<{ state: ConsentState; recorded: RecordedEvent[] }> {
    const recorded = await this.ledger.readStream(consentStream(tenantId, consentId));
    return { state: fold(recorded, initialConsentState, evolveConsent), recorded };
  }

  private decideRecord(input: ConsentInput, consentId: string, policy: PolicyState, timestamp: string, batchId: string | null): ConsentEvent[] {
    const refusal = policyRefusal(policy);
    if (refusal) throw refusal;
    const published = policy as KnownPolicy;
    const base = {
      consentId,
      userReference: input.userReference,
      consentGiven: input.consentGiven,
      ipAddress: input.ipAddress ?? null,
      userAgent: input.userAgent ?? null,
      metadata: input.metadata ?? {},
      timestamp,
    };
    const consentHash = hashCanonical(
      consentHashInput({ ...base, policyVersionId: published.id, policyContentHash: published.contentHash }),
    );
    return decideConsent({ type: 'RecordConsent', data: { ...base, consentHash, batchId, policy } }, initialConsentState());
  }

  /** Records one decision. With an Idempotency-Key, a repeat answers the first record. */
  async record(tenantId: string, input: ConsentInput, idempotency?: Idempotency): Promise<{ view: RecordedConsentView; replayed: boolean }> {
    const consentId = idempotency ? deriveId(tenantId, 'consent', idempotency.key) : newId();
    for (let attempt = 1; ; attempt++) {
      if (idempotency) {
        const { state, recorded } = await this.consent(tenantId, consentId);
        if (state.status !== 'none') {
          const replayed = replay(idempotencyOf(recorded[0]), idempotency, () => recordedView(state.record));
          if (replayed) return { view: replayed, replayed: true };
          throw new IdempotencyKeyReusedError();
        }
      }
      const now = this.clock();
      const events = this.decideRecord(input, consentId, await this.policy(tenantId, input.policyVersionId), now.toISOString(), null);
      const metadata = idempotency ? { idempotency } : undefined;
      try {
        await this.ledger.append(
          [{ tenantId, stream: consentStream(tenantId, consentId), expectedRevision: 'no_stream', events: events.map((e) => toNewEvent(e, metadata)) }],
          now,
        );
        return { view: recordedView(events[0]!.data as Recorded), replayed: false };
      } catch (error) {
        // Only a concurrent request with the same key can take a derived id first: replay it.
        if (!(error instanceof WrongExpectedRevisionError) || !idempotency || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  /** Records every item, or none: an invalid item refuses the batch with every item's errors. */
  async recordBatch(tenantId: string, items: ConsentInput[], idempotency?: Idempotency): Promise<{ view: BatchView; replayed: boolean }> {
    const batchId = idempotency ? deriveId(tenantId, 'consent-batch', idempotency.key) : newId();
    const batchStream = consentBatchStream(tenantId, batchId);
    for (let attempt = 1; ; attempt++) {
      if (idempotency) {
        const existing = await this.ledger.readStream(batchStream);
        if (existing.length > 0) {
          const answer = replay(idempotencyOf(existing[0]), idempotency, () => existing[0]!.data as ConsentBatchRecorded['data']);
          if (!answer) throw new IdempotencyKeyReusedError();
          return { view: await this.batchView(tenantId, answer.consentIds), replayed: true };
        }
      }
      const policies = await this.policies(tenantId, items.map((i) => i.policyVersionId));
      const now = this.clock();
      const timestamp = now.toISOString();
      const errors: { index: number; field: string; message: string }[] = [];
      const decided: ConsentEvent[] = [];
      items.forEach((item, index) => {
        const consentId = idempotency ? deriveId(batchId, String(index)) : newId();
        try {
          decided.push(...this.decideRecord(item, consentId, policies.get(item.policyVersionId)!, timestamp, batchId));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          errors.push({ index, field: `consents[${index}].policyVersionId`, message: error.message });
        }
      });
      if (errors.length > 0) {
        throw new DomainError('VALIDATION_ERROR', `${errors.length} of ${items.length} items are invalid; nothing was recorded`, { errors });
      }
      const metadata = idempotency ? { idempotency } : undefined;
      const consentIds = decided.map((e) => (e.data as Recorded).consentId);
      const batchEvent: ConsentBatchRecorded = {
        type: 'ConsentBatchRecorded',
        data: { batchId, count: consentIds.length, consentIds, recordedAt: timestamp },
      };
      const requests: AppendRequest[] = decided.map((e) => ({
        tenantId,
        stream: consentStream(tenantId, (e.data as Recorded).consentId),
        expectedRevision: 'no_stream' as const,
        events: [toNewEvent(e)],
      }));
      requests.push({ tenantId, stream: batchStream, expectedRevision: 'no_stream', events: [toNewEvent(batchEvent, metadata)] });
      try {
        await this.ledger.append(requests, now);
        return {
          view: {
            processed: consentIds.length,
            consents: decided.map((e) => {
              const d = e.data as Recorded;
              return { id: d.consentId, userReference: d.userReference, consentGiven: d.consentGiven };
            }),
          },
          replayed: false,
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || !idempotency || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  private async policies(tenantId: string, ids: string[]): Promise<Map<string, PolicyState>> {
    const unique = [...new Set(ids)];
    return new Map(await Promise.all(unique.map(async (id) => [id, await this.policy(tenantId, id)] as const)));
  }

  /**
   * Why batch items could not be recorded against their policy versions (unknown, inactive or
   * deleted), named like the batch's other errors. Empty when every item can be.
   */
  async policyErrors(tenantId: string, items: { index: number; policyVersionId: string }[]): Promise<{ index: number; field: string; message: string }[]> {
    const policies = await this.policies(tenantId, items.map((i) => i.policyVersionId));
    return items.flatMap(({ index, policyVersionId }) => {
      const refusal = policyRefusal(policies.get(policyVersionId)!);
      return refusal ? [{ index, field: `consents[${index}].policyVersionId`, message: refusal.message }] : [];
    });
  }

  private async batchView(tenantId: string, consentIds: string[]): Promise<BatchView> {
    const consents = await Promise.all(
      consentIds.map(async (id) => {
        const { state } = await this.consent(tenantId, id);
        if (state.status === 'none') throw new Error(`batch consent ${id} is missing from the ledger`);
        return { id, userReference: state.record.userReference, consentGiven: state.record.consentGiven };
      }),
    );
    return { processed: consents.length, consents };
  }

  /**
   * Withdraws a given consent. The record and its hash stay; the withdrawal is a new event.
   *
   * With an Idempotency-Key, the key's own stream is appended in the same atomic write: a key
   * names one withdrawal (route, consent and reason), so the same key sent for another consent or
   * reason is refused rather than withdrawing a second record.
   */
  async withdraw(tenantId: string, consentId: string, reason: string | null, idempotency?: Idempotency): Promise<{ view: ConsentView; replayed: boolean }> {
    if (!idempotency) {
      const { state } = await handleCommand<ConsentState, ConsentEvent>(this.ledger, {
        tenantId,
        stream: consentStream(tenantId, consentId),
        initial: initialConsentState,
        evolve: evolveConsent,
        clock: this.clock,
        decide: (s, now) => decideConsent({ type: 'WithdrawConsent', data: { reason, now } }, s),
      });
      if (state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
      return { view: consentView(state), replayed: false };
    }
    const keyStream = withdrawalKeyStream(tenantId, idempotency.key);
    for (let attempt = 1; ; attempt++) {
      // The consent first, then the key: the two are appended together, so a key not seen yet
      // means the consent read was not withdrawn by it either.
      const { state, recorded } = await this.consent(tenantId, consentId);
      const used = await this.ledger.readStream(keyStream);
      if (used.length > 0) {
        const first = used[0]!.data as IdempotencyKeyUsed['data'];
        if (first.requestHash !== idempotency.requestHash) throw new IdempotencyKeyReusedError();
        return { view: await this.get(tenantId, first.consentId), replayed: true };
      }
      const now = this.clock();
      const events = decideConsent({ type: 'WithdrawConsent', data: { reason, now: now.toISOString() } }, state);
      const keyUsed: IdempotencyKeyUsed = {
        type: 'IdempotencyKeyUsed',
        data: { key: idempotency.key, requestHash: idempotency.requestHash, operation: 'withdraw', consentId },
      };
      try {
        await this.ledger.append(
          [
            { tenantId, stream: consentStream(tenantId, consentId), expectedRevision: recorded[recorded.length - 1]!.revision, events: events.map((e) => toNewEvent(e)) },
            { tenantId, stream: keyStream, expectedRevision: 'no_stream', events: [toNewEvent(keyUsed)] },
          ],
          now,
        );
        return { view: consentView(events.reduce(evolveConsent, state) as Extract<ConsentState, { status: 'withdrawn' }>), replayed: false };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw error;
      }
    }
  }

  /** The record as the ledger has it. */
  async get(tenantId: string, consentId: string): Promise<ConsentView> {
    const { state } = await this.consent(tenantId, consentId);
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
    return consentView(state);
  }

  /**
   * Recomputes consentHash from the ledger's event (never a read model) and checks the event's
   * own hash chain: valid only when both hold.
   */
  async verify(tenantId: string, consentId: string): Promise<VerificationView> {
    const { state, recorded } = await this.consent(tenantId, consentId);
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
    const r = state.record;
    const computedHash = hashCanonical(consentHashInput(r));
    const intact = checkChain(recorded).length === 0;
    return {
      valid: intact && computedHash === r.consentHash,
      consentId,
      storedHash: r.consentHash,
      computedHash,
      verifiedAt: this.clock().toISOString(),
    };
  }
}
