import { consentHashInput } from '../domain/consent/consent-hash.js';
import { decideConsent, evolveConsent, initialConsentState, policyRefusal, type ConsentState } from '../domain/consent/consent.decider.js';
import {
  consentBatchStream,
  consentStream,
  type ConsentBatchRecorded,
  type ConsentEvent,
  type ConsentRecorded,
  type Sealed,
} from '../domain/consent/consent.events.js';
import { DomainError } from '../domain/errors.js';
import { evolvePolicy, initialPolicyState, type KnownPolicy, type PolicyState } from '../domain/policy/policy.decider.js';
import { policyStream } from '../domain/policy/policy.events.js';
import { checkChain } from '../ledger/event-hash.js';
import type { Sealing } from '../privacy/sealing.js';
import type { DataKey } from '../privacy/key-store.js';
import { sealedAad, type ConsentPersonal, type Privacy } from '../privacy/privacy.js';
import { WrongExpectedRevisionError, type AppendRequest, type Ledger, type RecordedEvent } from '../ledger/ledger.port.js';
import { hashCanonical } from '../common/hashing.js';
import { deriveId, newId } from '../common/ids.js';
import { COMMAND_ATTEMPTS, fold, givenUp, handleCommand, toNewEvent } from './command-handler.js';

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
  /** null once the subject was erased (a replayed answer). */
  userReference: string | null;
  policyVersionId: string;
  consentGiven: boolean;
  timestamp: string;
}

export interface ConsentView {
  id: string;
  consentHash: string;
  /** The personal fields are null once the subject was erased (`erased: true`). */
  userReference: string | null;
  policyVersionId: string;
  consentGiven: boolean;
  status: 'active' | 'withdrawn';
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
  timestamp: string;
  withdrawnAt: string | null;
  withdrawalReason: string | null;
  erased: boolean;
  /** The personal fields are null because they do not open with their key: the stored record was changed. */
  tampered: boolean;
  policyDetails: { title: string; type: string; version: string; contentHash: string };
}

export interface VerificationView {
  valid: boolean;
  consentId: string;
  storedHash: string;
  /** null when the hash cannot be recomputed: the subject was erased. */
  computedHash: string | null;
  verifiedAt: string;
  /** The subject was erased: existence, decision, time and consentHash remain; the hash input does not. */
  erased: boolean;
  /** The sealed personal fields do not open with their key: the stored event was changed (`reason: "tampered"`). */
  tampered: boolean;
  /** Why `valid` is false, in words; null when valid. */
  reason: string | null;
}

export interface BatchView {
  processed: number;
  consents: { id: string; userReference: string | null; consentGiven: boolean }[];
}

type Recorded = ConsentRecorded['data'];
type Known = Extract<ConsentState, { status: 'active' | 'withdrawn' }>;

/** A record's personal fields as the one reader found them: opened, erased or tampered. */
type Revealed = Sealing<ConsentPersonal>;
const personalOf = (r: Revealed): ConsentPersonal | null => (r.state === 'personal' ? r.value : null);

const recordedView = (r: Recorded, p: ConsentPersonal | null): RecordedConsentView => ({
  id: r.consentId,
  consentHash: r.consentHash,
  userReference: p?.userReference ?? null,
  policyVersionId: r.policyVersionId,
  consentGiven: r.consentGiven,
  timestamp: r.timestamp,
});

export const consentView = (s: Known, revealed: Revealed, reason: string | null): ConsentView => {
  const p = personalOf(revealed);
  return {
    id: s.record.consentId,
    consentHash: s.record.consentHash,
    userReference: p?.userReference ?? null,
    policyVersionId: s.record.policyVersionId,
    consentGiven: s.record.consentGiven,
    status: s.status,
    ipAddress: p?.ipAddress ?? null,
    userAgent: p?.userAgent ?? null,
    metadata: p ? p.metadata : null,
    createdAt: s.record.timestamp,
    timestamp: s.record.timestamp,
    withdrawnAt: s.withdrawnAt,
    withdrawalReason: p ? reason : null,
    erased: revealed.state === 'erased',
    tampered: revealed.state === 'tampered',
    policyDetails: {
      title: s.record.policyTitle,
      type: s.record.policyType,
      version: s.record.policyVersion,
      contentHash: s.record.policyContentHash,
    },
  };
};

const idempotencyOf = (e: RecordedEvent | undefined): Idempotency | undefined =>
  (e?.metadata as { idempotency?: Idempotency } | undefined)?.idempotency;

/**
 * Replays the first answer for a key, or refuses a key that came with another request. `mac`
 * keys the request hash as it was stored; without it (the record's key was destroyed) the
 * request can no longer be compared, and the key answers its record as it is now.
 */
function replay<T>(
  found: Idempotency | undefined,
  sent: Idempotency,
  mac: ((requestHash: string) => string) | undefined,
  answer: () => T,
): T | undefined {
  if (!found || found.key !== sent.key) return undefined;
  if (mac && found.requestHash !== mac(sent.requestHash)) throw new IdempotencyKeyReusedError();
  return answer();
}

/** A policy version as a record needs it, at the revision it was read at. */
interface PolicyAt {
  stream: string;
  state: PolicyState;
  /** The policy stream's last revision; null when it does not exist. */
  revision: number | null;
}

/** Policy versions remembered at once (their content is not kept: a record needs only its hash). */
const POLICY_CACHE_SIZE = 10_000;

/**
 * Records which withdrawal an Idempotency-Key was first used for. Operational, not evidence: no
 * read model or webhook reacts to it. `requestHash` is keyed with the record's data key.
 */
export interface IdempotencyKeyUsed {
  type: 'IdempotencyKeyUsed';
  data: { key: string; requestHash: string; operation: 'withdraw'; consentId: string };
}

/** The one place that names a withdrawal Idempotency-Key's stream (per tenant). */
export const withdrawalKeyStream = (tenantId: string, key: string): string =>
  `withdrawalkey-${tenantId}-${deriveId(tenantId, 'withdraw-key', key)}`;

/**
 * Consent commands and exact reads, straight on the ledger. Personal fields are sealed under a
 * data key of the record's own before they reach the ledger, and opened on the way out
 * (docs/erasure.md).
 */
export class ConsentService {
  /**
   * Policy versions by stream, as last read. Policies change rarely, so a record takes its policy
   * from here and appends with a condition that the policy stream is still at that revision: a
   * policy deactivated or deleted since (by any process) refuses the append, and the record is
   * decided again on a fresh read. Only a policy that allows recording is trusted from here: a
   * refusal is always read again first.
   */
  private readonly policyCache = new Map<string, PolicyAt>();

  constructor(
    private readonly ledger: Ledger,
    private readonly privacy: Privacy,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  private async policy(tenantId: string, policyVersionId: string): Promise<PolicyState> {
    return fold(await this.ledger.readStream(policyStream(tenantId, policyVersionId)), initialPolicyState, evolvePolicy);
  }

  /** The policy version a record is decided on: remembered while it allows recording, else read. */
  private async policyForRecord(tenantId: string, policyVersionId: string): Promise<PolicyAt> {
    const stream = policyStream(tenantId, policyVersionId);
    const cached = this.policyCache.get(stream);
    if (cached) return cached;
    const recorded = await this.ledger.readStream(stream);
    const state = fold(recorded, initialPolicyState, evolvePolicy);
    const at: PolicyAt = { stream, state, revision: recorded.length === 0 ? null : recorded[recorded.length - 1]!.revision };
    if (at.revision !== null && policyRefusal(state) === null) {
      if (this.policyCache.size >= POLICY_CACHE_SIZE) this.policyCache.clear();
      this.policyCache.set(stream, { ...at, state: { ...(state as KnownPolicy), content: '' } });
    }
    return at;
  }

  /** The append's condition that each policy is still at the revision the record was decided on. */
  private static policyConditions(tenantId: string, policies: Iterable<PolicyAt>): AppendRequest[] {
    return [...policies].flatMap((p) =>
      p.revision === null ? [] : [{ tenantId, stream: p.stream, expectedRevision: p.revision, events: [] }],
    );
  }

  /** After a refused append: whether one of the policies it was decided on moved (then forgotten). */
  private policyMoved(error: unknown, policies: Iterable<PolicyAt>): boolean {
    if (!(error instanceof WrongExpectedRevisionError)) return false;
    if (![...policies].some((p) => p.stream === error.stream)) return false;
    this.policyCache.delete(error.stream);
    return true;
  }

  private async consent(tenantId: string, consentId: string): Promise<{ state: ConsentState; recorded: RecordedEvent[] }> {
    const recorded = await this.ledger.readStream(consentStream(tenantId, consentId));
    return { state: fold(recorded, initialConsentState, evolveConsent), recorded };
  }

  /** The record's personal fields and withdrawal reason, through the one reader (erased or tampered: nulls). */
  private async reveal(tenantId: string, s: Known): Promise<{ personal: Revealed; reason: string | null }> {
    const keys = await this.privacy.keys.byIds(s.reason ? [s.record.personal.kid, s.reason.kid] : [s.record.personal.kid]);
    let personal = this.privacy.read<ConsentPersonal>(
      keys.get(s.record.personal.kid),
      sealedAad('ConsentRecorded', tenantId, s.record.consentId, s.record.subject),
      s.record.personal,
    );
    let reason: string | null = null;
    if (s.reason && personal.state === 'personal') {
      const opened = this.privacy.read<string>(
        keys.get(s.reason.kid),
        sealedAad('ConsentWithdrawn', tenantId, s.record.consentId, s.record.subject),
        s.reason,
      );
      // A withdrawal reason that does not open is the record's tampering too.
      if (opened.state === 'tampered') personal = opened;
      else if (opened.state === 'personal') reason = opened.value;
    }
    return { personal, reason };
  }

  private async view(tenantId: string, s: Known): Promise<ConsentView> {
    const { personal, reason } = await this.reveal(tenantId, s);
    return consentView(s, personal, reason);
  }

  private decideRecord(
    tenantId: string,
    input: ConsentInput,
    consentId: string,
    policy: PolicyState,
    timestamp: string,
    batchId: string | null,
    subject: string,
    key: DataKey,
  ): ConsentEvent[] {
    const refusal = policyRefusal(policy);
    if (refusal) throw refusal;
    const published = policy as KnownPolicy;
    const personal: ConsentPersonal = {
      userReference: input.userReference,
      ipAddress: input.ipAddress ?? null,
      userAgent: input.userAgent ?? null,
      metadata: input.metadata ?? {},
    };
    // The hash covers the plaintext (docs/hashing.md): it verifies while the key exists.
    const consentHash = hashCanonical(
      consentHashInput({
        ...personal,
        consentId,
        consentGiven: input.consentGiven,
        timestamp,
        policyVersionId: published.id,
        policyContentHash: published.contentHash,
      }),
    );
    const sealed = this.privacy.seal(key, sealedAad('ConsentRecorded', tenantId, consentId, subject), personal);
    return decideConsent(
      {
        type: 'RecordConsent',
        data: { consentId, subject, consentGiven: input.consentGiven, personal: sealed, timestamp, consentHash, batchId, policy },
      },
      initialConsentState(),
    );
  }

  /**
   * The Idempotency-Key as the ledger holds it: its keyed hash, never the key (docs/erasure.md).
   * Ids and stream names derived from a key are derived from this, so none lets a key be guessed.
   */
  private keyed(tenantId: string, sent: Idempotency | undefined): Idempotency | undefined {
    return sent && { key: this.privacy.idempotencyKeyOf(tenantId, sent.key), requestHash: sent.requestHash };
  }

  /** Records one decision. With an Idempotency-Key, a repeat answers the first record. */
  async record(tenantId: string, input: ConsentInput, sent?: Idempotency): Promise<{ view: RecordedConsentView; replayed: boolean }> {
    const idempotency = this.keyed(tenantId, sent);
    const consentId = idempotency ? deriveId(tenantId, 'consent', idempotency.key) : newId();
    const stream = consentStream(tenantId, consentId);
    const subject = this.privacy.subjectOf(tenantId, input.userReference);
    for (let attempt = 1; ; attempt++) {
      const [policy, [key]] = await Promise.all([this.policyForRecord(tenantId, input.policyVersionId), this.privacy.keys.fresh(1)]);
      const now = this.clock();
      let events: ConsentEvent[];
      try {
        events = this.decideRecord(tenantId, input, consentId, policy.state, now.toISOString(), null, subject, key!);
      } catch (error) {
        // A key used before answers its first record, even once its policy no longer allows recording.
        if (error instanceof DomainError && idempotency) {
          const replayed = await this.replayRecord(tenantId, consentId, idempotency);
          if (replayed) return replayed;
        }
        throw error;
      }
      const metadata = idempotency
        ? { idempotency: { key: idempotency.key, requestHash: this.privacy.mac([key!], idempotency.requestHash) } }
        : undefined;
      try {
        // A new record's stream is expected not to exist: with an Idempotency-Key, a repeat finds
        // it taken and is answered from it, so the first use of a key costs no read.
        await this.ledger.append(
          [
            { tenantId, stream, expectedRevision: 'no_stream', events: events.map((e) => toNewEvent(e, metadata)) },
            ...ConsentService.policyConditions(tenantId, [policy]),
          ],
          now,
        );
        return { view: { ...recordedView(events[0]!.data as Recorded, null), userReference: input.userReference }, replayed: false };
      } catch (error) {
        if (attempt >= COMMAND_ATTEMPTS) throw givenUp(error);
        if (this.policyMoved(error, [policy])) continue;
        // Only a request with the same key can take a derived id first: answer its record.
        if (!(error instanceof WrongExpectedRevisionError) || !idempotency || error.stream !== stream) throw error;
        const replayed = await this.replayRecord(tenantId, consentId, idempotency);
        if (replayed) return replayed;
      }
    }
  }

  /** The first record of an Idempotency-Key, or undefined when the key was not used yet. */
  private async replayRecord(
    tenantId: string,
    consentId: string,
    idempotency: Idempotency,
  ): Promise<{ view: RecordedConsentView; replayed: true } | undefined> {
    const { state, recorded } = await this.consent(tenantId, consentId);
    if (state.status === 'none') return undefined;
    const key = await this.privacy.keys.byId(state.record.personal.kid);
    const mac = key ? (h: string) => this.privacy.mac([key], h) : undefined;
    const found = replay(idempotencyOf(recorded[0]), idempotency, mac, () => true);
    if (!found) throw new IdempotencyKeyReusedError();
    const { personal } = await this.reveal(tenantId, state);
    return { view: recordedView(state.record, personalOf(personal)), replayed: true };
  }

  /** Records every item, or none: an invalid item refuses the batch with every item's errors. */
  async recordBatch(tenantId: string, items: ConsentInput[], sent?: Idempotency): Promise<{ view: BatchView; replayed: boolean }> {
    const idempotency = this.keyed(tenantId, sent);
    const batchId = idempotency ? deriveId(tenantId, 'consent-batch', idempotency.key) : newId();
    const batchStream = consentBatchStream(tenantId, batchId);
    const subjects = items.map((i) => this.privacy.subjectOf(tenantId, i.userReference));
    for (let attempt = 1; ; attempt++) {
      if (idempotency) {
        const existing = await this.ledger.readStream(batchStream);
        if (existing.length > 0) {
          const first = existing[0]!.data as ConsentBatchRecorded['data'];
          const states = await this.states(tenantId, first.consentIds);
          const kids = states.map((s) => s.record.personal.kid);
          const keys = await this.privacy.keys.byIds(kids);
          const mac = kids.every((k) => keys.has(k))
            ? (h: string) =>
                this.privacy.mac(
                  kids.map((k) => keys.get(k)!),
                  h,
                )
            : undefined;
          if (!replay(idempotencyOf(existing[0]), idempotency, mac, () => true)) throw new IdempotencyKeyReusedError();
          return { view: await this.batchView(tenantId, states), replayed: true };
        }
      }
      const [policies, keys] = await Promise.all([
        this.policiesForRecord(
          tenantId,
          items.map((i) => i.policyVersionId),
        ),
        this.privacy.keys.fresh(items.length),
      ]);
      const now = this.clock();
      const timestamp = now.toISOString();
      const errors: { index: number; field: string; message: string }[] = [];
      const decided: ConsentEvent[] = [];
      items.forEach((item, index) => {
        const consentId = idempotency ? deriveId(batchId, String(index)) : newId();
        try {
          decided.push(
            ...this.decideRecord(
              tenantId,
              item,
              consentId,
              policies.get(item.policyVersionId)!.state,
              timestamp,
              batchId,
              subjects[index]!,
              keys[index]!,
            ),
          );
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          errors.push({ index, field: `consents[${index}].policyVersionId`, message: error.message });
        }
      });
      if (errors.length > 0) {
        // A refusal is never taken from the cache: policyForRecord read the refused ones.
        throw new DomainError('VALIDATION_ERROR', `${errors.length} of ${items.length} items are invalid; nothing was recorded`, {
          errors,
        });
      }
      const metadata = idempotency
        ? { idempotency: { key: idempotency.key, requestHash: this.privacy.mac(keys, idempotency.requestHash) } }
        : undefined;
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
      requests.push(...ConsentService.policyConditions(tenantId, policies.values()));
      try {
        await this.ledger.append(requests, now);
        return {
          view: {
            processed: consentIds.length,
            consents: decided.map((e, index) => {
              const d = e.data as Recorded;
              return { id: d.consentId, userReference: items[index]!.userReference, consentGiven: d.consentGiven };
            }),
          },
          replayed: false,
        };
      } catch (error) {
        if (attempt >= COMMAND_ATTEMPTS) throw givenUp(error);
        if (this.policyMoved(error, policies.values())) continue;
        if (!(error instanceof WrongExpectedRevisionError) || !idempotency) throw error;
      }
    }
  }

  private async policiesForRecord(tenantId: string, ids: string[]): Promise<Map<string, PolicyAt>> {
    const unique = [...new Set(ids)];
    return new Map(await Promise.all(unique.map(async (id) => [id, await this.policyForRecord(tenantId, id)] as const)));
  }

  private async policies(tenantId: string, ids: string[]): Promise<Map<string, PolicyState>> {
    const unique = [...new Set(ids)];
    return new Map(await Promise.all(unique.map(async (id) => [id, await this.policy(tenantId, id)] as const)));
  }

  /**
   * Why batch items could not be recorded against their policy versions (unknown, inactive or
   * deleted), named like the batch's other errors. Empty when every item can be.
   */
  async policyErrors(
    tenantId: string,
    items: { index: number; policyVersionId: string }[],
  ): Promise<{ index: number; field: string; message: string }[]> {
    const policies = await this.policies(
      tenantId,
      items.map((i) => i.policyVersionId),
    );
    return items.flatMap(({ index, policyVersionId }) => {
      const refusal = policyRefusal(policies.get(policyVersionId)!);
      return refusal ? [{ index, field: `consents[${index}].policyVersionId`, message: refusal.message }] : [];
    });
  }

  private async states(tenantId: string, consentIds: string[]): Promise<Known[]> {
    return Promise.all(
      consentIds.map(async (id) => {
        const { state } = await this.consent(tenantId, id);
        if (state.status === 'none') throw new Error(`batch consent ${id} is missing from the ledger`);
        return state;
      }),
    );
  }

  private async batchView(tenantId: string, states: Known[]): Promise<BatchView> {
    const consents = await Promise.all(
      states.map(async (s) => {
        const { personal } = await this.reveal(tenantId, s);
        return { id: s.record.consentId, userReference: personalOf(personal)?.userReference ?? null, consentGiven: s.record.consentGiven };
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
  async withdraw(
    tenantId: string,
    consentId: string,
    reason: string | null,
    sent?: Idempotency,
  ): Promise<{ view: ConsentView; replayed: boolean }> {
    const idempotency = this.keyed(tenantId, sent);
    // The reason is sealed under the record's key, so that the subject's erasure takes it too.
    const known = await this.consent(tenantId, consentId);
    if (known.state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
    const subject = known.state.record.subject;
    const recordKey = await this.privacy.keys.byId(known.state.record.personal.kid);
    // An erased subject's record has no key left: a reason (or a request hash) gets a new one,
    // which its ConsentWithdrawn names, so a later erasure takes it too.
    const key = recordKey ?? (reason !== null || idempotency ? (await this.privacy.keys.fresh(1))[0] : undefined);
    const sealReason = (): Sealed | null =>
      reason === null ? null : this.privacy.seal(key!, sealedAad('ConsentWithdrawn', tenantId, consentId, subject), reason);
    if (!idempotency) {
      const { state } = await handleCommand<ConsentState, ConsentEvent>(this.ledger, {
        tenantId,
        stream: consentStream(tenantId, consentId),
        initial: initialConsentState,
        evolve: evolveConsent,
        clock: this.clock,
        decide: (s, now) => decideConsent({ type: 'WithdrawConsent', data: { reason: sealReason(), now } }, s),
      });
      if (state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
      return { view: await this.view(tenantId, state), replayed: false };
    }
    const keyStream = withdrawalKeyStream(tenantId, idempotency.key);
    const requestHash = this.privacy.mac([key!], idempotency.requestHash);
    for (let attempt = 1; ; attempt++) {
      // The consent first, then the key: the two are appended together, so a key not seen yet
      // means the consent read was not withdrawn by it either.
      const { state, recorded } = attempt === 1 ? known : await this.consent(tenantId, consentId);
      const used = await this.ledger.readStream(keyStream);
      if (used.length > 0) {
        const first = used[0]!.data as IdempotencyKeyUsed['data'];
        // Without the record's key (erased) the request can no longer be compared: answer the record.
        if (first.consentId !== consentId || (recordKey && first.requestHash !== requestHash)) throw new IdempotencyKeyReusedError();
        return { view: await this.get(tenantId, first.consentId), replayed: true };
      }
      const now = this.clock();
      const events = decideConsent({ type: 'WithdrawConsent', data: { reason: sealReason(), now: now.toISOString() } }, state);
      const keyUsed: IdempotencyKeyUsed = {
        type: 'IdempotencyKeyUsed',
        data: { key: idempotency.key, requestHash, operation: 'withdraw', consentId },
      };
      try {
        await this.ledger.append(
          [
            {
              tenantId,
              stream: consentStream(tenantId, consentId),
              expectedRevision: recorded[recorded.length - 1]!.revision,
              events: events.map((e) => toNewEvent(e)),
            },
            { tenantId, stream: keyStream, expectedRevision: 'no_stream', events: [toNewEvent(keyUsed)] },
          ],
          now,
        );
        return {
          view: await this.view(tenantId, events.reduce(evolveConsent, state) as Extract<ConsentState, { status: 'withdrawn' }>),
          replayed: false,
        };
      } catch (error) {
        if (!(error instanceof WrongExpectedRevisionError)) throw error;
        if (attempt >= COMMAND_ATTEMPTS) throw givenUp(error);
      }
    }
  }

  /** The record as the ledger has it, its personal fields opened (null once the subject was erased). */
  async get(tenantId: string, consentId: string): Promise<ConsentView> {
    const { state } = await this.consent(tenantId, consentId);
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
    return this.view(tenantId, state);
  }

  /**
   * Recomputes consentHash from the ledger's event (never a read model), its personal fields
   * opened with the record's key, and checks the event's own hash chain: valid only when both
   * hold. Once the subject was erased the hash input is gone: `valid` is false, `erased` true,
   * `computedHash` null, and `reason` says why; the record's existence, decision, time and
   * consentHash remain.
   */
  async verify(tenantId: string, consentId: string): Promise<VerificationView> {
    const { state, recorded } = await this.consent(tenantId, consentId);
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
    const r = state.record;
    const intact = checkChain(recorded).length === 0;
    const base = { consentId, storedHash: r.consentHash, verifiedAt: this.clock().toISOString() };
    const opened = this.privacy.read<ConsentPersonal>(
      await this.privacy.keys.byId(r.personal.kid),
      sealedAad('ConsentRecorded', tenantId, r.consentId, r.subject),
      r.personal,
    );
    // The sealed personal fields do not open with their key: the stored event was changed.
    if (opened.state === 'tampered')
      return { ...base, valid: false, computedHash: null, erased: false, tampered: true, reason: 'tampered' };
    if (opened.state === 'erased') {
      return {
        ...base,
        valid: false,
        computedHash: null,
        erased: true,
        tampered: false,
        reason:
          'the subject was erased: the personal fields the hash covers were destroyed with their key, so the hash can no longer be recomputed',
      };
    }
    const computedHash = hashCanonical(consentHashInput({ ...r, ...opened.value }));
    const valid = intact && computedHash === r.consentHash;
    return {
      ...base,
      valid,
      computedHash,
      erased: false,
      tampered: false,
      reason: valid
        ? null
        : intact
          ? 'the recomputed hash differs from the stored consentHash'
          : "the consent's ledger events do not chain: one was changed, removed or reordered",
    };
  }
}
