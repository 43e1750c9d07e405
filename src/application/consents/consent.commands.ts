import { hashCanonical } from '../../common/hashing.js';
import { newId } from '../../common/ids.js';
import { consentHashInput } from '../../domain/consent/consent-hash.js';
import {
  consentAggregate,
  consentBatchAggregate,
  decideConsent,
  standsGiven,
  type ConsentState,
  policyRefusal,
  withdrawalKeyAggregate,
} from '../../domain/consent/consent.decider.js';
import {
  consentBatchStream,
  consentStream,
  withdrawalKeyStream,
  type ConsentBatchRecorded,
  type ConsentEvent,
  type ConsentRecorded,
  type IdempotencyKeyUsed,
  type Sealed,
} from '../../domain/consent/consent.events.js';
import { DomainError } from '../../domain/errors.js';
import { fold, NO_WEBHOOKS } from '../../domain/events.js';
import { policyAggregate, type KnownPolicy, type PolicyState } from '../../domain/policy/policy.decider.js';
import { isPolicyType, policyStream } from '../../domain/policy/policy.events.js';
import { purposeAggregate } from '../../domain/purpose/purpose.decider.js';
import { purposeStream } from '../../domain/purpose/purpose.events.js';
import { readStreams, type Ledger } from '../../ledger/ledger.port.js';
import type { DataKey } from '../../privacy/key-store.js';
import type { PersonalFields } from '../../privacy/personal-fields.js';
import { sealedAad, type ConsentPersonal, type Privacy } from '../../privacy/privacy.js';
import { answered, write, type Attempt, type CommandHandler, type Decision, type Loaded, type StreamWrite } from '../command-handler.js';
import { keyReused, type Idempotency, type IdempotencyKeys, type KeyedIdempotency } from '../idempotency.js';
import type { PolicyAt, PolicyCache } from '../policies/policy-cache.js';
import {
  consentView,
  consentViews,
  personalOf,
  recordedView,
  sealedOf,
  type BatchView,
  type ConsentView,
  type KnownConsent,
  type RecordedConsentView,
} from './consent.views.js';

export interface ConsentInput {
  policyVersionId: string;
  userReference: string;
  consentGiven: boolean;
  ipAddress?: string | undefined;
  userAgent?: string | undefined;
  metadata?: Record<string, unknown> | undefined;
  /** An imported decision's original time (ISO 8601 UTC, as toISOString writes it): after 1990, in the past. */
  collectedAt?: string | undefined;
  /** An imported decision's withdrawal, at its original time: recorded with it, in the same append. */
  withdrawnAt?: string | undefined;
}

/** A decision to import, under the id its source row derives (`consent-ledger import`). */
export interface ImportRow {
  consentId: string;
  input: ConsentInput;
}

/**
 * What one call of `importRecords` did: rows recorded, rows found recorded before (as they were,
 * or given now the withdrawal a later file states: `withdrawn`), rows refused (by index, field).
 */
export interface ImportOutcome {
  recorded: number;
  existing: number;
  /** Of `existing`, the rows whose record stood and whose withdrawnAt this call appended. */
  withdrawn: number;
  errors: ItemError[];
}

/** A batch item that cannot be recorded, named like the batch's schema errors. */
export interface ItemError {
  index: number;
  field: string;
  message: string;
}

/** The top-level metadata values a record can be found by: strings, numbers and booleans, as their text. */
export function metadataTagsOf(privacy: Pick<Privacy, 'metadataTagOf'>, tenantId: string, metadata: Record<string, unknown>): string[] {
  return Object.entries(metadata).flatMap(([key, value]) =>
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? [privacy.metadataTagOf(tenantId, key, String(value))]
      : [],
  );
}

/**
 * A keyed write's streams with the conditions that its key names nothing on another route
 * (ConsentCommands.keyElsewhere): writing to such a stream is the key reused.
 */
function keyedWrites(writes: StreamWrite[], elsewhere: readonly StreamWrite[]): StreamWrite[] {
  if (elsewhere.length === 0) return writes;
  if (writes.some((w) => elsewhere.some((c) => c.stream === w.stream))) throw keyReused();
  return [...writes, ...elsewhere];
}

/** The records among decided events. */
const recordedOf = (events: readonly ConsentEvent[]): ConsentRecorded['data'][] =>
  events.flatMap((e) => (e.type === 'ConsentRecorded' ? [e.data] : []));

/** What the consent commands need, given at wiring time. */
export interface ConsentCommandsDeps {
  commands: CommandHandler;
  /** Policy reads for refusals (`policyErrors`), never cached. */
  ledger: Pick<Ledger, 'readStream'>;
  policies: PolicyCache;
  privacy: Privacy;
  reader: PersonalFields;
  idempotency: IdempotencyKeys;
  /** The consents a subject still stands by on a purpose or a policy type (the user status read model, after the read fence). */
  standing: (tenantId: string, subject: string, of: { purpose: string } | { policyType: string }, now: Date) => Promise<string[]>;
}

/**
 * Consent commands: record one decision, record a batch (all or nothing), withdraw. Personal
 * fields are sealed under a data key of the record's own before they reach the ledger
 * (docs/erasure.md). With an Idempotency-Key, a repeat answers the first write (`replayed`).
 *
 * @example
 * const { view, replayed } = await consents.record(tenantId, { policyVersionId, userReference: 'user-42', consentGiven: true });
 */
export class ConsentCommands {
  constructor(private readonly deps: ConsentCommandsDeps) {}

  /** Records one decision. With an Idempotency-Key, a repeat answers the first record. */
  record(tenantId: string, input: ConsentInput, sent?: Idempotency): Promise<{ view: RecordedConsentView; replayed: boolean }> {
    const { commands, idempotency: keys } = this.deps;
    const keyed = keys.keyed(tenantId, sent);
    const consentId = keyed ? keys.consentId(tenantId, keyed) : newId();
    const stream = consentStream(tenantId, consentId);
    const subject = this.deps.privacy.subjectOf(tenantId, input.userReference);
    const elsewhere = keyed ? this.keyElsewhere(tenantId, keyed, 'record') : [];
    return commands.run(tenantId, async (attempt) => {
      this.afterConflict(attempt, elsewhere);
      // The record's stream is expected not to exist: with a key, a repeat finds it taken (a
      // conflict) and the next attempt answers from it, so the first use of a key costs no read.
      const consent = await attempt.create(consentAggregate, stream);
      if (keyed && consent.state.status !== 'none') return this.replayRecord(tenantId, consent, keyed);
      const [policy, [key]] = await Promise.all([this.deps.policies.get(tenantId, input.policyVersionId), this.deps.privacy.keys.fresh(1)]);
      let events: ConsentEvent[];
      try {
        events = this.decideRecord(tenantId, input, consentId, policy.state, attempt.now.toISOString(), null, subject, key!);
      } catch (error) {
        // A key used before answers its first record, even once its policy no longer allows recording.
        if (error instanceof DomainError && keyed && attempt.number === 1) {
          const first = await attempt.load(consentAggregate, stream);
          if (first.state.status !== 'none') return this.replayRecord(tenantId, first, keyed);
        }
        throw error;
      }
      const metadata = keyed ? keys.metadata([key!], keyed) : undefined;
      const [recorded] = recordedOf(events);
      return {
        writes: keyedWrites([write(consent, events, metadata), ...this.deps.policies.conditions([policy])], elsewhere),
        answer: () => ({ view: recordedView(recorded!, input.userReference), replayed: false }),
      };
    });
  }

  /** The first record of an Idempotency-Key, if it was made by this request. */
  private async replayRecord(
    tenantId: string,
    consent: Loaded<ConsentState>,
    keyed: KeyedIdempotency,
  ): Promise<Decision<{ view: RecordedConsentView; replayed: boolean }>> {
    const state = consent.state as KnownConsent;
    const key = await this.deps.privacy.keys.byId(state.record.personal.kid);
    this.deps.idempotency.checkReplay(this.deps.idempotency.recordedWith(consent.recorded[0]), keyed, key ? [key] : undefined);
    const { personal } = await this.deps.reader.openOne(sealedOf(tenantId, state));
    return answered({ view: recordedView(state.record, personalOf(personal)?.userReference ?? null), replayed: true });
  }

  /** Records every item, or none: an invalid item refuses the batch with every item's errors. */
  recordBatch(tenantId: string, items: ConsentInput[], sent?: Idempotency): Promise<{ view: BatchView; replayed: boolean }> {
    const { commands, idempotency: keys, privacy } = this.deps;
    const keyed = keys.keyed(tenantId, sent);
    const batchId = keyed ? keys.batchId(tenantId, keyed) : newId();
    const subjects = items.map((i) => privacy.subjectOf(tenantId, i.userReference));
    const elsewhere = keyed ? this.keyElsewhere(tenantId, keyed, 'batch') : [];
    return commands.run(tenantId, async (attempt) => {
      this.afterConflict(attempt, elsewhere);
      const batch = keyed
        ? await attempt.load(consentBatchAggregate, consentBatchStream(tenantId, batchId))
        : await attempt.create(consentBatchAggregate, consentBatchStream(tenantId, batchId));
      if (keyed && batch.state) return this.replayBatch(tenantId, batch, keyed);
      const [policies, dataKeys] = await Promise.all([
        this.deps.policies.getMany(
          tenantId,
          items.map((i) => i.policyVersionId),
        ),
        privacy.keys.fresh(items.length),
      ]);
      const timestamp = attempt.now.toISOString();
      const errors: ItemError[] = [];
      const decided: ConsentEvent[][] = [];
      items.forEach((item, index) => {
        const consentId = keyed ? keys.consentIdInBatch(batchId, index) : newId();
        try {
          const policy = policies.get(item.policyVersionId)!.state;
          decided.push(this.decideRecord(tenantId, item, consentId, policy, timestamp, batchId, subjects[index]!, dataKeys[index]!));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          errors.push(...itemErrors(error, index));
        }
      });
      if (errors.length > 0) {
        // A refusal is never taken from the cache: the cache read the refused ones.
        throw new DomainError('VALIDATION_ERROR', `${errors.length} of ${items.length} items are invalid; nothing was recorded`, {
          errors,
        });
      }
      const recorded = decided.map((events) => recordedOf(events)[0]!);
      const batchEvent: ConsentBatchRecorded = {
        type: 'ConsentBatchRecorded',
        data: { batchId, count: recorded.length, consentIds: recorded.map((r) => r.consentId), recordedAt: timestamp },
      };
      return {
        writes: keyedWrites(
          [
            ...decided.map((events, i) => ({
              stream: consentStream(tenantId, recorded[i]!.consentId),
              expected: 'no_stream' as const,
              events,
            })),
            write(batch, [batchEvent], keyed ? keys.metadata(dataKeys, keyed) : undefined),
            ...this.deps.policies.conditions(policies.values()),
          ],
          elsewhere,
        ),
        answer: () => ({
          view: {
            processed: recorded.length,
            consents: recorded.map((r, index) => ({
              id: r.consentId,
              userReference: items[index]!.userReference,
              consentGiven: r.consentGiven,
            })),
          },
          replayed: false,
        }),
      };
    });
  }

  /**
   * Records decisions moved in from another platform (`consent-ledger import`), each under the id
   * its row derives, so that running an import again records nothing twice. Unlike a batch, a
   * refused row does not refuse the others: they are recorded in one atomic append, and the
   * refusals come back by row. Rows whose record exists already are counted, not recorded.
   */
  importRecords(
    tenantId: string,
    rows: readonly ImportRow[],
    { expectNew = true, webhooks = true }: { expectNew?: boolean; webhooks?: boolean } = {},
  ): Promise<ImportOutcome> {
    // Left out of webhooks (`import --no-webhooks`), as the events' metadata says.
    const metadata = webhooks ? undefined : NO_WEBHOOKS;
    const { commands, privacy } = this.deps;
    const subjects = rows.map((r) => privacy.subjectOf(tenantId, r.input.userReference));
    return commands.run(tenantId, async (attempt) => {
      this.afterConflict(attempt);
      // Expected new, the first attempt reads nothing; after a conflict (an interrupted import run
      // again), or when the caller expects rows recorded before, the rows' streams are read together.
      const streams = rows.map((r) => consentStream(tenantId, r.consentId));
      const loaded = expectNew ? await attempt.createMany(consentAggregate, streams) : await attempt.loadMany(consentAggregate, streams);
      const fresh = rows.flatMap((r, index) => (loaded[index]!.state.status === 'none' ? [{ ...r, index }] : []));
      // A row may come twice (a line repeated in the file, a source id given twice): one data key per record.
      const ids = [...new Set(fresh.map((r) => r.consentId))];
      const [policies, dataKeys] = await Promise.all([
        this.deps.policies.getMany(
          tenantId,
          fresh.map((r) => r.input.policyVersionId),
        ),
        ids.length > 0 ? privacy.keys.fresh(ids.length) : Promise.resolve([]),
      ]);
      const keyOf = new Map(ids.map((id, n) => [id, dataKeys[n]!]));
      const timestamp = attempt.now.toISOString();
      const errors: ItemError[] = [];
      const writes: StreamWrite[] = [];
      const used = new Set<PolicyAt>();
      // Of a repeated row, the first that can be recorded is; the others count as found, as a
      // later run would count them, and one saying the record was withdrawn withdraws it while it
      // stands, as a later run would: its events join the record's own write.
      const written = new Set<string>();
      const decided = new Map<string, { at: number; events: ConsentEvent[] }>();
      let recorded = 0;
      let repeated = 0;
      let withdrawn = 0;
      for (const r of fresh) {
        const earlier = decided.get(r.consentId);
        if (earlier) {
          const at = r.input.withdrawnAt;
          const state = earlier.events.reduce(consentAggregate.evolve, consentAggregate.initialState());
          if (at !== undefined && standsGiven(state, timestamp)) {
            try {
              earlier.events = [
                ...earlier.events,
                ...decideConsent({ type: 'WithdrawConsent', data: { reason: null, now: timestamp, at } }, state),
              ];
              writes[earlier.at] = write(loaded[r.index]!, earlier.events, metadata);
              withdrawn++;
            } catch (error) {
              if (!(error instanceof DomainError)) throw error;
              errors.push(...itemErrors(error, r.index, ''));
              continue;
            }
          }
          repeated++;
          continue;
        }
        try {
          const policy = policies.get(r.input.policyVersionId)!;
          const key = keyOf.get(r.consentId)!;
          const events = this.decideRecord(tenantId, r.input, r.consentId, policy.state, timestamp, null, subjects[r.index]!, key);
          decided.set(r.consentId, { at: writes.length, events });
          writes.push(write(loaded[r.index]!, events, metadata));
          written.add(r.consentId);
          used.add(policy);
          recorded++;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          errors.push(...itemErrors(error, r.index, ''));
        }
      }
      // A row recorded before whose file now says it was withdrawn (an export taken again later):
      // the withdrawal is appended to the record while it still stands, once.
      let refusedFound = 0;
      for (const [index, r] of rows.entries()) {
        const found = loaded[index]!;
        const at = r.input.withdrawnAt;
        if (at === undefined || !standsGiven(found.state, timestamp) || written.has(r.consentId)) continue;
        try {
          const events = decideConsent({ type: 'WithdrawConsent', data: { reason: null, now: timestamp, at } }, found.state);
          writes.push(write(found, events, metadata));
          written.add(r.consentId);
          withdrawn++;
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          errors.push(...itemErrors(error, index, ''));
          refusedFound++;
        }
      }
      const existing = rows.length - fresh.length + repeated - refusedFound;
      const outcome = { recorded, existing, withdrawn, errors };
      if (writes.length === 0) return answered(outcome);
      return { writes: [...writes, ...this.deps.policies.conditions(used)], answer: () => outcome };
    });
  }

  /** The first answer of a batch's Idempotency-Key, if it was sent with this request. */
  private async replayBatch(
    tenantId: string,
    batch: Loaded<ConsentBatchRecorded['data'] | null>,
    keyed: KeyedIdempotency,
  ): Promise<Decision<{ view: BatchView; replayed: boolean }>> {
    // Up to 1,000 records: one read of all their streams, not a read each (which would take every
    // connection of the pool, and hold up the process's other requests, for a replay).
    const ids = batch.state!.consentIds;
    const found = await readStreams(
      this.deps.ledger,
      ids.map((id) => consentStream(tenantId, id)),
    );
    const states = ids.map((id) => {
      const state = fold(consentAggregate, found.get(consentStream(tenantId, id)) ?? []);
      if (state.status === 'none') throw new Error(`batch consent ${id} is missing from the ledger`);
      return state;
    });
    const kids = states.map((s) => s.record.personal.kid);
    const dataKeys = await this.deps.privacy.keys.byIds(kids);
    const all = kids.every((k) => dataKeys.has(k)) ? kids.map((k) => dataKeys.get(k)!) : undefined;
    this.deps.idempotency.checkReplay(this.deps.idempotency.recordedWith(batch.recorded[0]), keyed, all);
    const views = await consentViews(this.deps.reader, tenantId, states);
    return answered({
      view: {
        processed: views.length,
        consents: views.map((v) => ({ id: v.id, userReference: v.userReference, consentGiven: v.consentGiven })),
      },
      replayed: true,
    });
  }

  /**
   * Why batch items could not be recorded against their policy versions (unknown, inactive or
   * deleted), named like the batch's other errors. Empty when every item can be. Read fresh.
   */
  async policyErrors(tenantId: string, items: { index: number; policyVersionId: string; imported?: boolean }[]): Promise<ItemError[]> {
    const unique = [...new Set(items.map((i) => i.policyVersionId))];
    const states = new Map<string, PolicyState>(
      await Promise.all(
        unique.map(async (id) => [id, fold(policyAggregate, await this.deps.ledger.readStream(policyStream(tenantId, id)))] as const),
      ),
    );
    return items.flatMap(({ index, policyVersionId, imported }) => {
      const refusal = policyRefusal(states.get(policyVersionId)!, imported);
      return refusal ? [{ index, field: `consents[${index}].policyVersionId`, message: refusal.message }] : [];
    });
  }

  /**
   * Withdraws a given consent. The record and its hash stay; the withdrawal is a new event.
   *
   * With an Idempotency-Key, the key's own stream is appended in the same atomic write: a key
   * names one withdrawal (route, consent and reason), so the same key sent for another consent or
   * reason is refused rather than withdrawing a second record.
   */
  withdraw(
    tenantId: string,
    consentId: string,
    reason: string | null,
    sent?: Idempotency,
  ): Promise<{ view: ConsentView; replayed: boolean }> {
    const { commands, idempotency: keys, privacy } = this.deps;
    const keyed = keys.keyed(tenantId, sent);
    // The reason is sealed under the record's key, so that the subject's erasure takes it too; an
    // erased subject's record has no key left, and a reason (or a request hash) gets a new one,
    // which its ConsentWithdrawn names, so a later erasure takes it too. Chosen once.
    let sealing: { key: DataKey | undefined; recordKey: DataKey | undefined } | undefined;
    const elsewhere = keyed ? this.keyElsewhere(tenantId, keyed, 'withdraw') : [];
    return commands.run(tenantId, async (attempt) => {
      this.afterConflict(attempt, elsewhere);
      // The consent first, then the key: the two are appended together, so a key not seen yet
      // means the consent read was not withdrawn by it either.
      const consent = await attempt.load(consentAggregate, consentStream(tenantId, consentId));
      if (consent.state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
      const state = consent.state;
      if (!sealing) {
        const recordKey = await privacy.keys.byId(state.record.personal.kid);
        const key = recordKey ?? (reason !== null || keyed ? (await privacy.keys.fresh(1))[0] : undefined);
        sealing = { key, recordKey };
      }
      const { key, recordKey } = sealing;
      const used = keyed
        ? await attempt.load(withdrawalKeyAggregate, withdrawalKeyStream(tenantId, keys.withdrawalKeyId(tenantId, keyed)))
        : undefined;
      const requestHash = keyed ? keys.storedRequestHash([key!], keyed) : undefined;
      if (used?.state) {
        // Without the record's key (erased) the request can no longer be compared: answer the record.
        if (
          used.state.operation !== 'withdraw' ||
          used.state.consentId !== consentId ||
          (recordKey && used.state.requestHash !== requestHash)
        ) {
          throw keyReused();
        }
        // The record as read may predate the key's withdrawal (both landed between the two
        // reads): read it again, now that the key says it was withdrawn, to answer what was recorded.
        return answered({ view: await this.view(tenantId, (await this.readConsent(tenantId, consentId)) as KnownConsent), replayed: true });
      }
      const sealed = this.sealReason(tenantId, state.record, key, reason);
      const events = decideConsent({ type: 'WithdrawConsent', data: { reason: sealed, now: attempt.now.toISOString() } }, state);
      const withdrawn = events.reduce(consentAggregate.evolve, state);
      const answer = async () => ({ view: await this.view(tenantId, withdrawn as KnownConsent), replayed: false });
      if (!keyed || !used) return { writes: [write(consent, events)], answer };
      const keyUsed: IdempotencyKeyUsed = {
        type: 'IdempotencyKeyUsed',
        data: { key: keyed.key, requestHash: requestHash!, operation: 'withdraw', consentId },
      };
      return { writes: keyedWrites([write(consent, events), write(used, [keyUsed])], elsewhere), answer };
    });
  }

  /**
   * Withdraws what a user still stands by on a purpose (or on every purpose of a policy type): the
   * latest consent given on each, not withdrawn, not expired. All in one atomic append;
   * CONSENT_NOT_WITHDRAWABLE when there is none. With an Idempotency-Key, a repeat answers the
   * records the first call withdrew.
   */
  withdrawStanding(
    tenantId: string,
    userReference: string,
    of: { purpose: string } | { policyType: string },
    reason: string | null,
    sent?: Idempotency,
  ): Promise<{ withdrawn: ConsentView[]; replayed: boolean }> {
    const { commands, idempotency: keys, privacy } = this.deps;
    const keyed = keys.keyed(tenantId, sent);
    const subject = privacy.subjectOf(tenantId, userReference);
    const named = 'purpose' in of ? `purpose ${of.purpose}` : `policy type ${of.policyType}`;
    const elsewhere = keyed ? this.keyElsewhere(tenantId, keyed, 'withdraw') : [];
    return commands.run(tenantId, async (attempt) => {
      this.afterConflict(attempt, elsewhere);
      const ids = await this.deps.standing(tenantId, subject, of, attempt.now);
      const loaded = await Promise.all(ids.map((id) => attempt.load(consentAggregate, consentStream(tenantId, id))));
      // The records first, then the key (they are appended together): a key not seen yet means
      // the records read were not withdrawn by it either.
      const used = keyed
        ? await attempt.load(withdrawalKeyAggregate, withdrawalKeyStream(tenantId, keys.withdrawalKeyId(tenantId, keyed)))
        : undefined;
      if (used?.state) return answered(await this.replayStanding(tenantId, used.state, keyed!));
      const now = attempt.now.toISOString();
      // Only what the ledger says still stands: a record withdrawn meanwhile is left out.
      const standing = loaded.filter(
        (c): c is Loaded<KnownConsent> =>
          c.state.status === 'active' &&
          c.state.record.consentGiven &&
          (c.state.record.expiresAt === undefined || c.state.record.expiresAt > now),
      );
      if (standing.length === 0) {
        if ('purpose' in of && !isPolicyType(of.purpose)) {
          const purpose = await attempt.load(purposeAggregate, purposeStream(tenantId, of.purpose));
          if (purpose.state.status === 'none') {
            throw new DomainError('VALIDATION_ERROR', `purpose ${of.purpose} is not defined`, {
              errors: [{ field: 'purpose', message: 'must be a purpose defined with POST /api/v1/purposes, or a policy type' }],
            });
          }
        }
        throw new DomainError('CONSENT_NOT_WITHDRAWABLE', `the user has no standing consent on ${named} to withdraw`, {
          userReference,
          ...of,
        });
      }
      const recordKeys = await privacy.keys.byIds(standing.map((c) => c.state.record.personal.kid));
      const fresh = standing.some((c) => !recordKeys.has(c.state.record.personal.kid)) ? (await privacy.keys.fresh(1))[0]! : undefined;
      const keyOf = (c: Loaded<KnownConsent>) => recordKeys.get(c.state.record.personal.kid) ?? fresh!;
      const decided = standing.map((c) =>
        decideConsent(
          { type: 'WithdrawConsent', data: { reason: this.sealReason(tenantId, c.state.record, keyOf(c), reason), now } },
          c.state,
        ),
      );
      const writes = standing.map((c, i) => write(c, decided[i]!));
      const after = standing.map((c, i) => decided[i]!.reduce<ConsentState>(consentAggregate.evolve, c.state) as KnownConsent);
      if (keyed && used) {
        const keyUsed: IdempotencyKeyUsed = {
          type: 'IdempotencyKeyUsed',
          data: {
            key: keyed.key,
            requestHash: keys.storedRequestHash(standing.map(keyOf), keyed),
            operation: 'withdraw-standing',
            consentIds: standing.map((c) => c.state.record.consentId),
          },
        };
        writes.push(write(used, [keyUsed]));
      }
      return {
        writes: keyedWrites(writes, elsewhere),
        answer: async () => ({ withdrawn: await consentViews(this.deps.reader, tenantId, after), replayed: false }),
      };
    });
  }

  /** The answer to a repeat of a keyed `withdrawStanding`: the records it withdrew, as they are now. */
  private async replayStanding(
    tenantId: string,
    used: IdempotencyKeyUsed['data'],
    keyed: KeyedIdempotency,
  ): Promise<{ withdrawn: ConsentView[]; replayed: boolean }> {
    if (used.operation !== 'withdraw-standing') throw keyReused();
    const states = await Promise.all(used.consentIds.map(async (id) => (await this.readConsent(tenantId, id)) as KnownConsent));
    const kids = states.map((s) => s.record.personal.kid);
    const found = await this.deps.privacy.keys.byIds(kids);
    // With a record's key destroyed (erasure) the request can no longer be compared: answer the records.
    if (
      kids.every((k) => found.has(k)) &&
      used.requestHash !==
        this.deps.idempotency.storedRequestHash(
          kids.map((k) => found.get(k)!),
          keyed,
        )
    ) {
      throw keyReused();
    }
    return { withdrawn: await consentViews(this.deps.reader, tenantId, states), replayed: true };
  }

  /** A withdrawal's reason, sealed under the record's key (or the fresh one an erased record gets), bound to the record. */
  private sealReason(tenantId: string, record: ConsentRecorded['data'], key: DataKey | undefined, reason: string | null): Sealed | null {
    return reason === null
      ? null
      : this.deps.privacy.seal(key!, sealedAad('ConsentWithdrawn', tenantId, record.consentId, record.subject), reason);
  }

  /** A record as the ledger holds it now, read outside any attempt (for a replay's answer). */
  private async readConsent(tenantId: string, consentId: string): Promise<ConsentState> {
    return fold(consentAggregate, await this.deps.ledger.readStream(consentStream(tenantId, consentId)));
  }

  private async view(tenantId: string, state: KnownConsent): Promise<ConsentView> {
    return consentView(state, await this.deps.reader.openOne(sealedOf(tenantId, state)));
  }

  /**
   * After a conflict: a policy version that moved is read again; a key found on another route
   * (`elsewhere`, see keyElsewhere) is refused as reused.
   */
  private afterConflict(attempt: Attempt, elsewhere: readonly StreamWrite[] = []): void {
    if (!attempt.conflict) return;
    if (elsewhere.some((c) => c.stream === attempt.conflict!.stream)) throw keyReused();
    this.deps.policies.forget(attempt.conflict.stream);
  }

  /**
   * A key names one write, whatever the route: a keyed write also expects the streams the key
   * would name on the other routes (a record's, a batch's, a withdrawal key's) not to exist, and
   * one found there refuses it as reused (afterConflict). Conditions of the append, not reads, so
   * the first use of a key still costs no read; two routes racing on one new key may both land.
   */
  private keyElsewhere(tenantId: string, keyed: KeyedIdempotency, route: 'record' | 'batch' | 'withdraw'): StreamWrite[] {
    const keys = this.deps.idempotency;
    const streams: Record<typeof route, string> = {
      record: consentStream(tenantId, keys.consentId(tenantId, keyed)),
      batch: consentBatchStream(tenantId, keys.batchId(tenantId, keyed)),
      withdraw: withdrawalKeyStream(tenantId, keys.withdrawalKeyId(tenantId, keyed)),
    };
    return (Object.keys(streams) as (typeof route)[])
      .filter((r) => r !== route)
      .map((r) => ({ stream: streams[r], expected: 'no_stream' as const, events: [] }));
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
    const refusal = policyRefusal(policy, input.collectedAt !== undefined);
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
        collectedAt: input.collectedAt,
        policyVersionId: published.id,
        policyContentHash: published.contentHash,
      }),
    );
    const sealed = this.deps.privacy.seal(key, sealedAad('ConsentRecorded', tenantId, consentId, subject), personal);
    const recorded = decideConsent(
      {
        type: 'RecordConsent',
        data: {
          consentId,
          subject,
          consentGiven: input.consentGiven,
          personal: sealed,
          timestamp,
          collectedAt: input.collectedAt,
          consentHash,
          batchId,
          metadataTags: metadataTagsOf(this.deps.privacy, tenantId, personal.metadata),
          policy,
        },
      },
      consentAggregate.initialState(),
    );
    if (input.withdrawnAt === undefined) return recorded;
    // An imported withdrawal: decided on the record just decided, appended with it.
    const state = recorded.reduce(consentAggregate.evolve, consentAggregate.initialState());
    return [
      ...recorded,
      ...decideConsent({ type: 'WithdrawConsent', data: { reason: null, now: timestamp, at: input.withdrawnAt } }, state),
    ];
  }
}

/**
 * A batch item's refusal, as errors named by the item's field (the policy version, unless the
 * refusal names another), each after `prefix` (the item's place in a batch body; none for an import row).
 */
function itemErrors(error: DomainError, index: number, prefix = `consents[${index}].`): ItemError[] {
  const named = (error.details?.errors as { field: string; message: string }[] | undefined) ?? [];
  return named.length > 0
    ? named.map((e) => ({ index, field: `${prefix}${e.field}`, message: e.message }))
    : [{ index, field: `${prefix}policyVersionId`, message: error.message }];
}
