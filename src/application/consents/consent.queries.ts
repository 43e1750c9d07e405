import type { Kysely } from 'kysely';
import {
  consentStats,
  countConsents,
  type ConsentStats,
  dailyCounts,
  type DailyCount,
  versionCounts,
  type VersionCount,
} from '../../../projections/consent-counts/consent-counts.queries.js';
import {
  searchConsentRows,
  streamConsentRows,
  type ConsentFilter,
  type ConsentSearchRow,
} from '../../../projections/consents/consents.queries.js';
import { userStatus, type UserPolicyStatus } from '../../../projections/user-status/user-status.queries.js';
import {
  outdatedPage,
  outdatedRows,
  outdatedVersionIds,
  reconsentScopes,
  type OutdatedRun,
} from '../../../projections/user-status/reconsent.queries.js';
import { hashCanonical } from '../../common/hashing.js';
import { consentAggregate } from '../../domain/consent/consent.decider.js';
import { recordStatus, versionInForce, type VersionFacts } from '../../domain/consent/standing.js';
import type { Sealed } from '../../domain/consent/consent.events.js';
import type { Actor } from '../../common/actor.js';
import { consentHashInput } from '../../domain/consent/consent-hash.js';
import { consentStream } from '../../domain/consent/consent.events.js';
import { DomainError } from '../../domain/errors.js';
import { requireKnownPurpose } from '../purposes/purposes.js';
import { fold } from '../../domain/events.js';
import { checkChain } from '../../ledger/event-hash.js';
import { comparePositions, type Ledger, type RecordedEvent } from '../../ledger/ledger.port.js';
import { receiptStream } from '../../domain/receipt/receipt.events.js';
import type { OpenedRecord, PersonalFields } from '../../privacy/personal-fields.js';
import type { ConsentPersonal, Privacy } from '../../privacy/privacy.js';
import type { Sealing } from '../../privacy/sealing.js';
import type { Database } from '../../store/schema.js';
import type { ReadFence } from '../read-fence.js';
import { consentView, importedFields, purposeFields, sealedOf, type ConsentView, type VerificationView } from './consent.views.js';

/** Search filters as a client states them (docs/contract.md, Consent records). Dates bound createdAt: from ≤ createdAt < before. */
export interface ConsentQuery {
  userReference?: string | undefined;
  policyType?: string | undefined;
  policyVersionId?: string | undefined;
  purpose?: string | undefined;
  /** Equality on top-level metadata values (`metadata.source=web`): a record must match every one. */
  metadata?: Record<string, string> | undefined;
  consentGiven?: boolean | undefined;
  status?: 'active' | 'withdrawn' | 'expired' | 'outdated' | undefined;
  from?: Date | undefined;
  before?: Date | undefined;
}

/** A record as search, the user list and the CSV export show it. */
export interface ConsentSearchItem {
  id: string;
  consentHash: string;
  /** The personal fields are null once the subject was erased (`erased: true`). */
  userReference: string | null;
  policyVersionId: string;
  policyType: string;
  /** The version's purpose, when it is not its type. */
  purpose?: string;
  policyVersion: string;
  consentGiven: boolean;
  /** active, withdrawn, or expired (a consent given past its expiresAt, at read time). */
  status: string;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown> | null;
  createdAt: string;
  /** An imported decision's original time, and `imported: true`; both absent for the others. */
  collectedAt?: string;
  imported?: true;
  /** When the consent given expires; absent: never. */
  expiresAt?: string;
  withdrawnAt: string | null;
  erased: boolean;
  /** The personal fields did not open with their key: the stored record was changed (null fields). */
  tampered: boolean;
  policyTitle: string;
  /** The data subject's keyed hash, for standard records (docs/standard-records.md); no API answer shows it. */
  subject: string;
}

/** A subject a purpose must ask again (`GET /consent/reconsent`). */
export interface ReconsentItem {
  /** null once the subject was erased. */
  userReference: string | null;
  consentId: string;
  purpose: string;
  consentGiven: boolean;
  decidedAt: string;
  /** The version decided on, now outdated. */
  policyVersionId: string;
  policyVersion: string;
  /** The version in force that asks for re-consent. */
  reconsentVersionId: string;
  reconsentVersion: string;
  erased: boolean;
}

/** A record in a user's list (`GET /consent/user/:userReference`). */
export interface UserConsentItem {
  id: string;
  userReference: string | null;
  policyVersionId: string;
  consentGiven: boolean;
  status: string;
  /** As on a search item: the purpose when not the type, the expiry, an imported decision's original time. */
  purpose?: string;
  expiresAt?: string;
  createdAt: string;
  collectedAt?: string;
  imported?: true;
  withdrawnAt: string | null;
  erased: boolean;
  tampered: boolean;
  policyDetails: { title: string; type: string };
}

export interface ConsentQueriesDeps {
  ledger: Pick<Ledger, 'readStream'>;
  db: Kysely<Database>;
  /** The one reader of personal fields. */
  reader: PersonalFields;
  /** Subjects of user references (read models hold no reference in clear). */
  privacy: Pick<Privacy, 'subjectOf' | 'metadataTagOf'>;
  fence: ReadFence;
  /** Rows per keyset page of the CSV export (smaller on the embedded store, whose reads hold the event loop). */
  exportPageRows: number;
  /**
   * Why a ledger event is not the service's own, and why a stream lacks events the log sealed of
   * it (src/transparency/event-authenticity.ts), or null; none: not checked.
   */
  authenticity?: {
    problem(event: RecordedEvent): Promise<string | null>;
    removed?(tenantId: string, stream: string, events: readonly RecordedEvent[]): Promise<string | null>;
  };
  clock?: () => Date;
}

/** One event of a record's history (`GET /consent/:id/history`). */
export interface HistoryEntry {
  id: string;
  type: string;
  recordedAt: string;
  actor: Actor | null;
  stream: string;
  revision: number;
  eventHash: string;
  prevHash: string | null;
}

/** Who recorded and who withdrew a record, as its events' metadata names them (absent before actors were recorded). */
function actorsOf(recorded: readonly RecordedEvent[]): { recordedBy?: Actor; withdrawnBy?: Actor; collectedVia?: 'browser' } {
  const by = (type: string) => recorded.find((e) => e.type === type)?.metadata.actor as Actor | undefined;
  const [recordedBy, withdrawnBy] = [by('ConsentRecorded'), by('ConsentWithdrawn')];
  // A publishable key records only from a browser (docs/browser.md).
  const browser = recordedBy?.type === 'key' && recordedBy.id.startsWith('pk_');
  return {
    ...(recordedBy ? { recordedBy } : {}),
    ...(withdrawnBy ? { withdrawnBy } : {}),
    ...(browser ? { collectedVia: 'browser' as const } : {}),
  };
}

/** A read-model row's sealed fields, as the one reader takes them (the read model knows an erasure already). */
const sealedRow = (r: ConsentSearchRow) => ({
  tenantId: r.tenant_id,
  consentId: r.id,
  subject: r.subject,
  personal: r.personal as Sealed | null,
  erased: r.erased,
});

/** A row as the API shows it: its personal fields if they opened, else nulls and why (erased or tampered). */
function searchItem(r: ConsentSearchRow, opened: Sealing<ConsentPersonal>, now: Date): ConsentSearchItem {
  const p = opened.state === 'personal' ? opened.value : undefined;
  return {
    id: r.id,
    consentHash: r.consent_hash,
    userReference: p?.userReference ?? null,
    policyVersionId: r.policy_version_id,
    policyType: r.policy_type,
    ...purposeFields({ purpose: r.purpose === r.policy_type ? undefined : r.purpose, expiresAt: r.expires_at?.toISOString() }),
    policyVersion: r.policy_version,
    consentGiven: r.consent_given,
    status: recordStatus(r.status as 'active' | 'withdrawn' | 'expired', r.expires_at, now),
    ipAddress: p?.ipAddress ?? null,
    userAgent: p?.userAgent ?? null,
    metadata: p ? p.metadata : null,
    createdAt: r.created_at.toISOString(),
    ...importedFields({ collectedAt: r.collected_at?.toISOString() }),
    withdrawnAt: r.withdrawn_at?.toISOString() ?? null,
    erased: opened.state === 'erased',
    tampered: opened.state === 'tampered',
    policyTitle: r.policy_title,
    subject: r.subject,
  };
}

const ERASED_REASON =
  'the subject was erased: the personal fields the hash covers were destroyed with their key, so the hash can no longer be recomputed';

/**
 * Reads of consent records. Exact reads (one record, verify) fold its ledger stream; lists,
 * search, status, stats and the CSV export read the read models, after the read fence (the
 * caller's own writes are in them). Personal fields are opened by the one reader.
 *
 * @example
 * const { items, total } = await consents.search(tenantId, { policyType: 'privacy_policy' }, 1, 20);
 * const verification = await consents.verify(tenantId, id); // { valid, computedHash, ... }
 */
export class ConsentQueries {
  private readonly clock: () => Date;

  constructor(private readonly deps: ConsentQueriesDeps) {
    this.clock = deps.clock ?? (() => new Date());
  }

  /** The record as the ledger has it, its personal fields opened (null once the subject was erased). */
  async get(tenantId: string, consentId: string): Promise<ConsentView> {
    return (await this.getWithSubject(tenantId, consentId)).view;
  }

  /** The record (as `get`) with its data subject: the keyed hash a standard record names it by. */
  async getWithSubject(tenantId: string, consentId: string): Promise<{ view: ConsentView; subject: string }> {
    const loaded = await this.load(tenantId, consentId);
    const opened = await this.deps.reader.openOne(sealedOf(tenantId, loaded.state));
    return { view: this.viewOf(loaded, opened), subject: loaded.state.record.subject };
  }

  /**
   * Recomputes consentHash from the ledger's event (never a read model), its personal fields
   * opened with the record's key, and checks the event's own hash chain: valid only when both
   * hold. Once the subject was erased the hash input is gone: `valid` is false, `erased` true,
   * `computedHash` null, and `reason` says why; the record's existence, decision, time and
   * consentHash remain.
   */
  async verify(tenantId: string, consentId: string): Promise<VerificationView> {
    const loaded = await this.load(tenantId, consentId);
    // A forged record is refused before its fields are opened (the reason is no part of the hash).
    const personal = loaded.forged
      ? undefined
      : (await this.deps.reader.openOne({ ...sealedOf(tenantId, loaded.state), reason: null })).personal;
    return this.verificationOf(consentId, loaded, personal);
  }

  /** The record (as `get`) and its verification (as `verify`) from one read of its stream: what a receipt and the public page need. */
  async getVerified(tenantId: string, consentId: string): Promise<{ view: ConsentView; check: VerificationView }> {
    const loaded = await this.load(tenantId, consentId);
    const opened = await this.deps.reader.openOne(sealedOf(tenantId, loaded.state));
    return { view: this.viewOf(loaded, opened), check: this.verificationOf(consentId, loaded, opened.personal) };
  }

  /**
   * The record's events, folded; whether one of them is one the service did not append (a row a
   * database writer inserted), whether they no longer chain (a row edited in place), and whether
   * one the log sealed is gone.
   */
  private async load(tenantId: string, consentId: string) {
    const { state, recorded } = await this.record(tenantId, consentId);
    const authenticity = this.deps.authenticity;
    let forged = false;
    for (const event of authenticity ? recorded : []) {
      if (await authenticity!.problem(event)) {
        forged = true;
        break;
      }
    }
    // An event the log sealed and the stream no longer holds (a withdrawal removed, say).
    const removed = authenticity?.removed ? await authenticity.removed(tenantId, consentStream(tenantId, consentId), recorded) : null;
    return { state, recorded, forged, unchained: checkChain(recorded).length > 0, removed };
  }

  /** The record as the API shows it; a forged or edited event (what its status may read) marks it tampered. */
  private viewOf(loaded: Loaded, opened: OpenedRecord): ConsentView {
    const view = { ...consentView(loaded.state, opened, this.clock()), ...actorsOf(loaded.recorded) };
    if (loaded.forged || loaded.unchained || loaded.removed) view.tampered = true;
    return view;
  }

  /** `verify`'s answer from the loaded record and its opened personal fields (none read when forged). */
  private verificationOf(
    consentId: string,
    { state, forged, unchained, removed }: Loaded,
    personal: OpenedRecord['personal'] | undefined,
  ): VerificationView {
    const r = state.record;
    const base = { consentId, storedHash: r.consentHash, verifiedAt: this.clock().toISOString() };
    if (forged || !personal) return { ...base, valid: false, computedHash: null, erased: false, tampered: true, reason: 'tampered' };
    // The sealed personal fields do not open with their key: the stored event was changed.
    if (personal.state === 'tampered')
      return { ...base, valid: false, computedHash: null, erased: false, tampered: true, reason: 'tampered' };
    if (personal.state === 'erased')
      return { ...base, valid: false, computedHash: null, erased: true, tampered: false, reason: ERASED_REASON };
    const computedHash = hashCanonical(consentHashInput({ ...r, ...personal.value }));
    // Events that no longer chain were changed in the ledger: what they say is not what was recorded.
    if (unchained) {
      const reason = "the consent's ledger events do not chain: one was changed, removed or reordered";
      return { ...base, valid: false, computedHash, erased: false, tampered: true, reason };
    }
    if (removed) return { ...base, valid: false, computedHash, erased: false, tampered: true, reason: removed };
    const valid = computedHash === r.consentHash;
    return {
      ...base,
      valid,
      computedHash,
      erased: false,
      tampered: false,
      reason: valid ? null : 'the recomputed hash differs from the stored consentHash',
    };
  }

  /** A page of matching records, newest first, and how many match in all. */
  async search(tenantId: string, query: ConsentQuery, page: number, limit: number): Promise<{ items: ConsentSearchItem[]; total: number }> {
    await this.deps.fence(tenantId);
    // One read time for the filter and the statuses shown, so that expiry agrees between them.
    const now = this.clock();
    const filter = await this.filter(tenantId, query, now);
    // The total from the counters where the filter allows (as stats): counting a large tenant's
    // rows took longer than the whole page.
    const [rows, total] = await Promise.all([
      searchConsentRows(this.deps.db, tenantId, filter, page, limit),
      countConsents(this.deps.db, tenantId, filter),
    ]);
    const opened = await this.deps.reader.open(rows.map(sealedRow));
    return { items: rows.map((r, i) => searchItem(r, opened[i]!.personal, now)), total };
  }

  /** A user's records, newest first (the other filters apply too). */
  async byUser(
    tenantId: string,
    userReference: string,
    query: ConsentQuery,
    page: number,
    limit: number,
  ): Promise<{ items: UserConsentItem[]; total: number }> {
    const { items, total } = await this.search(tenantId, { ...query, userReference }, page, limit);
    return {
      items: items.map((r) => ({
        id: r.id,
        userReference: r.userReference,
        policyVersionId: r.policyVersionId,
        consentGiven: r.consentGiven,
        status: r.status,
        ...(r.purpose === undefined ? {} : { purpose: r.purpose }),
        ...(r.expiresAt === undefined ? {} : { expiresAt: r.expiresAt }),
        createdAt: r.createdAt,
        ...(r.imported ? { collectedAt: r.collectedAt!, imported: true as const } : {}),
        withdrawnAt: r.withdrawnAt,
        erased: r.erased,
        tampered: r.tampered,
        policyDetails: { title: r.policyTitle, type: r.policyType },
      })),
      total,
    };
  }

  /** Per purpose (or for one), the user's latest decision as it stands now (docs/purposes.md). */
  async status(
    tenantId: string,
    userReference: string,
    purpose?: string,
  ): Promise<{ userReference: string; policies: UserPolicyStatus[] }> {
    await this.knownPurpose(tenantId, purpose);
    const subject = this.deps.privacy.subjectOf(tenantId, userReference);
    const policies = await userStatus(this.deps.db, tenantId, subject, this.clock(), purpose);
    return { userReference, policies };
  }

  /**
   * A page of the subjects a purpose (or, without one, every purpose) must ask again: standing
   * decisions (not withdrawn, not expired) on a version before the newest one in force that requires re-consent.
   */
  async reconsent(
    tenantId: string,
    purpose: string | undefined,
    page: number,
    limit: number,
  ): Promise<{ items: ReconsentItem[]; total: number }> {
    await this.knownPurpose(tenantId, purpose);
    const { runs, total } = await outdatedPage(this.deps.db, tenantId, purpose, this.clock(), page, limit);
    return { items: (await Promise.all(runs.map((run) => this.reconsentItems(tenantId, run)))).flat(), total };
  }

  /** Every subject a purpose (or every purpose) must ask again, in the page order, for the CSV. */
  async reconsentExport(tenantId: string, purpose: string | undefined): Promise<AsyncIterable<ReconsentItem>> {
    await this.knownPurpose(tenantId, purpose);
    const now = this.clock();
    const scopes = await reconsentScopes(this.deps.db, tenantId, purpose, now);
    const runs = outdatedRows(this.deps.db, tenantId, scopes, now, this.deps.exportPageRows);
    const items = (run: OutdatedRun) => this.reconsentItems(tenantId, run);
    return (async function* () {
      for await (const run of runs) yield* await items(run);
    })();
  }

  /** After the read fence: a purpose the tenant defined, or a policy type (or none asked); else 400 naming the field. */
  private async knownPurpose(tenantId: string, purpose: string | undefined): Promise<void> {
    await this.deps.fence(tenantId);
    if (purpose !== undefined) await requireKnownPurpose(this.deps.db, tenantId, purpose);
  }

  private async reconsentItems(tenantId: string, { purpose, scope, rows }: OutdatedRun): Promise<ReconsentItem[]> {
    const opened = await this.deps.reader.open(
      rows.map((r) => ({ tenantId, consentId: r.consent_id, subject: r.subject, personal: r.personal as Sealed | null, erased: r.erased })),
    );
    return rows.map((r, i) => {
      const p = opened[i]!.personal;
      return {
        userReference: p.state === 'personal' ? p.value.userReference : null,
        consentId: r.consent_id,
        purpose,
        consentGiven: r.consent_given,
        decidedAt: r.decided_at.toISOString(),
        policyVersionId: r.policy_version_id,
        policyVersion: r.policy_version,
        reconsentVersionId: scope.since!.id,
        reconsentVersion: scope.since!.version,
        erased: p.state === 'erased',
      };
    });
  }

  /**
   * Every policy version with its records by status now and its acceptance rate (`versionCounts`),
   * and whether it is its purpose's version in force now (the console).
   */
  async byVersion(tenantId: string): Promise<(VersionCount & { inForce: boolean })[]> {
    await this.deps.fence(tenantId);
    const now = this.clock();
    const counts = await versionCounts(this.deps.db, tenantId, now);
    const byPurpose = new Map<string, VersionFacts[]>();
    for (const v of counts) {
      const facts: VersionFacts = {
        id: v.policyVersionId,
        version: v.version,
        effectiveDate: new Date(v.effectiveDate),
        requiresReconsent: v.requiresReconsent,
        usable: v.isActive && !v.deleted,
      };
      byPurpose.set(v.purpose, [...(byPurpose.get(v.purpose) ?? []), facts]);
    }
    const inForce = new Set([...byPurpose.values()].flatMap((versions) => versionInForce(versions, now)?.id ?? []));
    return counts.map((v) => ({ ...v, inForce: inForce.has(v.policyVersionId) }));
  }

  /** Records per UTC day over inclusive days, by what they stand at now (the console's chart). */
  async daily(tenantId: string, range: Parameters<typeof dailyCounts>[2]): Promise<DailyCount[]> {
    await this.knownPurpose(tenantId, range.purpose);
    return dailyCounts(this.deps.db, tenantId, { ...range, now: this.clock() });
  }

  async stats(tenantId: string, query: ConsentQuery): Promise<ConsentStats> {
    await this.deps.fence(tenantId);
    return consentStats(this.deps.db, tenantId, await this.filter(tenantId, query));
  }

  /**
   * Every matching record, oldest first, for the CSV export: read in keyset pages, their personal
   * fields opened on the privacy module's worker threads while the previous page goes out.
   */
  async export(tenantId: string, query: ConsentQuery): Promise<AsyncIterable<ConsentSearchItem>> {
    await this.deps.fence(tenantId);
    const { db, reader, exportPageRows } = this.deps;
    const now = this.clock();
    return streamConsentRows(db, tenantId, await this.filter(tenantId, query, now), exportPageRows, async (rows) => {
      const opened = await reader.openStored(rows.map((r) => ({ ...sealedRow(r), wrapped: r.wrapped })));
      return rows.map((r, i) => searchItem(r, opened[i]!, now));
    });
  }

  /** The consentHash each receipt of the record was issued with (its ReceiptIssued events), oldest first. */
  async issuedHashes(tenantId: string, consentId: string): Promise<string[]> {
    const receipts = await this.deps.ledger.readStream(receiptStream(tenantId, consentId));
    return receipts.flatMap((e) => (e.type === 'ReceiptIssued' && typeof e.data.consentHash === 'string' ? [e.data.consentHash] : []));
  }

  /**
   * A record's history as the ledger holds it: its own events and its receipts' issues, in ledger
   * order, each with its time, actor and hashes (what the console shows; the data stays sealed).
   */
  async history(tenantId: string, consentId: string): Promise<HistoryEntry[]> {
    const { recorded } = await this.record(tenantId, consentId);
    const receipts = await this.deps.ledger.readStream(receiptStream(tenantId, consentId));
    return [...recorded, ...receipts]
      .sort((a, b) => comparePositions(a.position, b.position))
      .map((e) => ({
        id: e.id,
        type: e.type,
        recordedAt: e.recordedAt,
        actor: (e.metadata.actor as Actor | undefined) ?? null,
        stream: e.stream,
        revision: e.revision,
        eventHash: e.hash,
        prevHash: e.prevHash,
      }));
  }

  private async record(tenantId: string, consentId: string) {
    const recorded = await this.deps.ledger.readStream(consentStream(tenantId, consentId));
    const state = fold(consentAggregate, recorded);
    if (state.status === 'none') throw new DomainError('NOT_FOUND', 'consent record not found');
    return { state, recorded };
  }

  /** Read models know subjects (keyed hashes), never user references. */
  private async filter(tenantId: string, q: ConsentQuery, now = this.clock()): Promise<ConsentFilter> {
    // A purpose filter never defined is a typo: a 400, not an empty answer that reads as "none".
    if (q.purpose !== undefined) await requireKnownPurpose(this.deps.db, tenantId, q.purpose);
    const { userReference, metadata, ...rest } = q;
    const tags = Object.entries(metadata ?? {}).map(([key, value]) => this.deps.privacy.metadataTagOf(tenantId, key, value));
    return {
      ...rest,
      now,
      subject: userReference === undefined ? undefined : this.deps.privacy.subjectOf(tenantId, userReference),
      metadataTags: tags.length > 0 ? tags : undefined,
      outdatedVersionIds: q.status === 'outdated' ? await outdatedVersionIds(this.deps.db, tenantId, now) : undefined,
    };
  }
}

/** A record's events as `ConsentQueries` loads them once for every answer about it. */
type Loaded = Awaited<ReturnType<ConsentQueries['load']>>;
