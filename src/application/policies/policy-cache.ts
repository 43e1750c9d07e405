import { fold } from '../../domain/events.js';
import { policyRefusal } from '../../domain/consent/consent.decider.js';
import { policyAggregate, type KnownPolicy, type PolicyState } from '../../domain/policy/policy.decider.js';
import { policyStream } from '../../domain/policy/policy.events.js';
import type { Ledger } from '../../ledger/ledger.port.js';
import { unchanged, type StreamWrite } from '../command-handler.js';
import { refuseTampered, type Authenticity } from './policy.queries.js';

/** A policy version as a record is decided on, at the revision it was read at. */
export interface PolicyAt {
  stream: string;
  state: PolicyState;
  /** The policy stream's last revision; null when it does not exist. */
  revision: number | null;
}

/** Policy versions remembered at once (their content is not kept: a record needs only its hash). */
const POLICY_CACHE_SIZE = 10_000;
/**
 * How long a version is taken from memory before it is read (and its authenticity checked) again:
 * a version rewritten in the database (POLICY_TAMPERED) is refused by a process that held it
 * within this, and a version deactivated elsewhere is found by the append's condition at once.
 */
export const POLICY_RECHECK_MS = 5_000;

/**
 * Policy versions as last read, for the consent commands. Policies change rarely, so a record takes
 * its policy from here and its append is conditioned on the policy stream still being at that
 * revision (`conditions`): a policy deactivated or deleted since, by any process, refuses the
 * append, the command's next attempt `forget`s it and decides again on a fresh read. Only a policy
 * that allows recording is kept: a refusal is always read again first.
 *
 * @example
 * const policy = await policies.get(tenantId, policyVersionId);
 * const writes = [write(consent, events), ...policies.conditions([policy])];
 */
export class PolicyCache {
  private readonly cache = new Map<string, PolicyAt & { readAt: number }>();

  constructor(
    private readonly ledger: Ledger,
    private readonly authenticity?: Authenticity,
  ) {}

  /**
   * The policy version a record is decided on: remembered while it allows recording, else read;
   * 409 POLICY_TAMPERED when its events are not as the service wrote them (no record is decided
   * on a text that is not the one published).
   */
  async get(tenantId: string, policyVersionId: string): Promise<PolicyAt> {
    const stream = policyStream(tenantId, policyVersionId);
    const cached = this.cache.get(stream);
    if (cached && Date.now() - cached.readAt < POLICY_RECHECK_MS) return cached;
    const recorded = await this.ledger.readStream(stream);
    await refuseTampered(policyVersionId, recorded, this.authenticity, { tenantId, stream });
    const state = fold(policyAggregate, recorded);
    const at: PolicyAt = { stream, state, revision: recorded.length === 0 ? null : recorded[recorded.length - 1]!.revision };
    this.cache.delete(stream);
    if (at.revision !== null && policyRefusal(state) === null) {
      if (this.cache.size >= POLICY_CACHE_SIZE) this.cache.clear();
      this.cache.set(stream, { ...at, state: { ...(state as KnownPolicy), content: '' }, readAt: Date.now() });
    }
    return at;
  }

  /** Several versions at once, by id. */
  async getMany(tenantId: string, ids: readonly string[]): Promise<Map<string, PolicyAt>> {
    const unique = [...new Set(ids)];
    return new Map(await Promise.all(unique.map(async (id) => [id, await this.get(tenantId, id)] as const)));
  }

  /** The conditions that each policy is still at the revision the record was decided on. */
  conditions(policies: Iterable<PolicyAt>): StreamWrite[] {
    return [...policies].flatMap((p) => (p.revision === null ? [] : [unchanged(p.stream, p.revision)]));
  }

  /** Forgets a policy version whose stream moved (the stream of a conflict), so it is read again. */
  forget(stream: string): void {
    this.cache.delete(stream);
  }
}
