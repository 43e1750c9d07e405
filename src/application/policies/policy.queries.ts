import type { Kysely } from 'kysely';
import {
  activePolicyVersionId,
  listPolicyVersions,
  policyVersionDates,
  type PolicyListItem,
} from '../../../projections/policy-versions/policy-versions.queries.js';
import { purposeKnown } from '../../../projections/purposes/purposes.queries.js';
import { requireKnownPurpose } from '../purposes/purposes.js';
import {
  noVersionInForceAt,
  ofTypeAlone,
  ofTypeAloneAt,
  severalPurposes,
  versionInForceAt,
  type Dated,
} from '../../domain/consent/standing.js';
import { DomainError } from '../../domain/errors.js';
import { checkChain } from '../../ledger/event-hash.js';
import { fold } from '../../domain/events.js';
import { policyAggregate } from '../../domain/policy/policy.decider.js';
import { policyStream } from '../../domain/policy/policy.events.js';
import type { Ledger, RecordedEvent } from '../../ledger/ledger.port.js';
import type { Database } from '../../store/schema.js';
import type { ReadFence } from '../read-fence.js';
import { ReadModelsBehindError } from '../../common/read-notes.js';
import { policyView, type PolicyVersionView } from './policy.views.js';

/**
 * Why a ledger event is not the service's own, and why a stream lacks events the log sealed of it
 * (src/transparency/event-authenticity.ts), or null.
 */
export interface Authenticity {
  problem(event: RecordedEvent): Promise<string | null>;
  removed?(tenantId: string, stream: string, events: readonly RecordedEvent[]): Promise<string | null>;
}

/**
 * 409 POLICY_TAMPERED when a policy version's events are not as the service wrote them: edited in
 * place (they no longer hash and chain), rewritten whole, hashes and all, by someone without the
 * service's key (an authenticator that does not verify), or one the log sealed removed (its
 * deactivation, say, to make it recordable again).
 */
export async function refuseTampered(
  id: string,
  events: readonly RecordedEvent[],
  authenticity: Authenticity | undefined,
  of?: { tenantId: string; stream: string },
): Promise<void> {
  let why = checkChain(events).length > 0 ? 'their hashes no longer match' : null;
  for (const event of authenticity && !why ? events : []) {
    if (await authenticity!.problem(event)) {
      why = 'one was not appended by the service';
      break;
    }
  }
  if (!why && of && authenticity?.removed && (await authenticity.removed(of.tenantId, of.stream, events)))
    why = 'one the log sealed was removed';
  if (why)
    throw new DomainError(
      'POLICY_TAMPERED',
      `policy version ${id}: its recorded events were changed after they were written (${why}), so its text is not the one published`,
    );
}

/** What a message adds when the purpose named was never defined (a typo, more often than a version not yet published). */
const NO_SUCH_PURPOSE = ': no such purpose is defined (GET /api/v1/purposes lists them)';

export interface PolicyListFilter {
  policyType?: string | undefined;
  purpose?: string | undefined;
  isActive?: boolean | undefined;
}

/**
 * A version not found (or a type's purposes not told apart) by read models that lag behind the
 * ledger past the read fence, as while `projections rebuild` refills them: not known yet, rather
 * than not there (503, try again, instead of a 4xx the caller would take as final).
 */
function notKnownYet(error: unknown): unknown {
  if (!(error instanceof DomainError) || (error.code !== 'NO_ACTIVE_POLICY' && error.code !== 'VALIDATION_ERROR')) return error;
  return new ReadModelsBehindError(
    'the read models lag behind the ledger, so the policy version in force is not known yet; nothing was recorded, try again',
  );
}

/**
 * Reads of policy versions. Exact reads (one version) fold its ledger stream; lists and the active
 * version come from the read model, after the read fence (the caller's own writes are in it).
 *
 * @example
 * const active = await policies.active(tenantId, 'privacy_policy'); // NO_ACTIVE_POLICY when none
 */
export class PolicyQueries {
  constructor(
    private readonly ledger: Ledger,
    private readonly db: Kysely<Database>,
    private readonly fence: ReadFence,
    private readonly clock: () => Date = () => new Date(),
    private readonly authenticity?: Authenticity,
  ) {}

  /**
   * The version as it stands, or NOT_FOUND when unknown, deleted, or another tenant's; 409
   * POLICY_TAMPERED when its events are not as the service wrote them: its text is then not the
   * one published, and is not served as if it were.
   */
  async get(tenantId: string, id: string): Promise<PolicyVersionView> {
    const stream = policyStream(tenantId, id);
    const events = await this.ledger.readStream(stream);
    const state = fold(policyAggregate, events);
    if (state.status !== 'published') throw new DomainError('NOT_FOUND', 'policy version not found');
    await refuseTampered(state.id, events, this.authenticity, { tenantId, stream });
    return policyView(state);
  }

  /** Versions without their content (deleted ones left out), newest first, and how many match. */
  async list(tenantId: string, filter: PolicyListFilter, page: number, limit: number): Promise<{ items: PolicyListItem[]; total: number }> {
    await this.fence(tenantId);
    if (filter.purpose !== undefined) await requireKnownPurpose(this.db, tenantId, filter.purpose);
    return listPolicyVersions(this.db, tenantId, filter, page, limit);
  }

  /**
   * The active version of a type (of one of its purposes, when given): the latest effectiveDate
   * not in the future; ties go to the highest version.
   */
  async active(tenantId: string, policyType: string, purpose?: string): Promise<PolicyVersionView> {
    await this.fence(tenantId);
    const id = await activePolicyVersionId(this.db, tenantId, { policyType, purpose }, this.clock());
    if (!id) {
      // A purpose never defined is bad input, as on every other read: not "none active" that reads as a state.
      if (purpose !== undefined) await requireKnownPurpose(this.db, tenantId, purpose);
      throw new DomainError('NO_ACTIVE_POLICY', `no active ${policyType} version${purpose === undefined ? '' : ` for purpose ${purpose}`}`);
    }
    return this.get(tenantId, id);
  }

  /** What a NO_ACTIVE_POLICY adds for a purpose never defined (a typo, more often than a version not yet published); else nothing. */
  private async noSuchPurpose(tenantId: string, purpose: string): Promise<string> {
    return (await purposeKnown(this.db, tenantId, purpose)) ? '' : NO_SUCH_PURPOSE;
  }

  /** The active version of a purpose (a defined one, or a type's own), chosen as by type. */
  async activeFor(tenantId: string, purpose: string): Promise<PolicyVersionView> {
    await this.fence(tenantId);
    const id = await activePolicyVersionId(this.db, tenantId, { purpose }, this.clock());
    if (!id) {
      await requireKnownPurpose(this.db, tenantId, purpose);
      throw new DomainError('NO_ACTIVE_POLICY', `no active version for purpose ${purpose}`);
    }
    return this.get(tenantId, id);
  }

  /**
   * The version a decision made now is recorded on when it names a purpose or a policy type: the
   * purpose's active version; a type alone names its own purpose, else its only purpose with an
   * active version (`ofTypeAlone`), and is refused when several have one.
   */
  async recordableNow(tenantId: string, of: { purpose: string } | { policyType: string }): Promise<string> {
    const caughtUp = await this.fence(tenantId);
    try {
      return await this.recordableIn(tenantId, of);
    } catch (error) {
      throw caughtUp ? error : notKnownYet(error);
    }
  }

  private async recordableIn(tenantId: string, of: { purpose: string } | { policyType: string }): Promise<string> {
    const now = this.clock();
    if ('purpose' in of) {
      const id = await activePolicyVersionId(this.db, tenantId, { purpose: of.purpose }, now);
      if (id) return id;
      throw new DomainError(
        'NO_ACTIVE_POLICY',
        `no active version for purpose ${of.purpose}${await this.noSuchPurpose(tenantId, of.purpose)}`,
      );
    }
    const usable = (await policyVersionDates(this.db, tenantId, of)).filter((v) => v.isActive && v.effectiveDate <= now);
    const found = versionInForceAt(this.namedByType(usable, of.policyType), now);
    if (!found) throw new DomainError('NO_ACTIVE_POLICY', `no active ${of.policyType} version`);
    return found.id;
  }

  /**
   * For decisions imported with their original time (`collectedAt`): a picker answering the version
   * of a purpose or a type that was in force at a time, the latest effectiveDate at or before it
   * (ties to the highest version), from one read. A version deactivated since counts, as it was in
   * force then; a deleted one does not. A type alone chooses among its own purpose's versions, else
   * its only purpose's (`ofTypeAlone`). The picker throws NO_ACTIVE_POLICY when none was.
   */
  async inForceAt(tenantId: string, of: { purpose: string } | { policyType: string }): Promise<(at: string) => string> {
    const caughtUp = await this.fence(tenantId);
    const pick = await this.inForceIn(tenantId, of);
    return (at) => {
      try {
        return pick(at);
      } catch (error) {
        throw caughtUp ? error : notKnownYet(error);
      }
    };
  }

  private async inForceIn(tenantId: string, of: { purpose: string } | { policyType: string }): Promise<(at: string) => string> {
    const all = await policyVersionDates(this.db, tenantId, of);
    const named = 'purpose' in of ? `purpose ${of.purpose}` : `type ${of.policyType}`;
    const undefinedPurpose = all.length === 0 && 'purpose' in of && !(await purposeKnown(this.db, tenantId, of.purpose));
    return (at) => {
      const when = new Date(at);
      // A type alone chooses among what was in force then (ofTypeAloneAt), as a decision made now does.
      const versions = 'purpose' in of ? all : this.namedByType(all, of.policyType, when);
      const found = versionInForceAt(versions, when);
      if (found) return found.id;
      throw new DomainError(
        'NO_ACTIVE_POLICY',
        undefinedPurpose ? `no version of ${named} was in force at ${at}${NO_SUCH_PURPOSE}` : noVersionInForceAt(named, at, all),
      );
    };
  }

  /** The versions a policy type alone names; VALIDATION_ERROR on `policyType` when they are of several purposes. */
  private namedByType<V extends Dated & { purpose: string }>(versions: readonly V[], policyType: string, at?: Date): V[] {
    const scope = at === undefined ? ofTypeAlone(versions, policyType) : ofTypeAloneAt(versions, policyType, at);
    if ('versions' in scope) return scope.versions;
    const why = severalPurposes(scope.severalPurposes);
    throw new DomainError('VALIDATION_ERROR', `policy type ${policyType} ${why}`, { errors: [{ field: 'policyType', message: why }] });
  }
}
