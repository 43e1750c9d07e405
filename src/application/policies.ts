import { DomainError } from '../domain/errors.js';
import { decidePolicy, evolvePolicy, initialPolicyState, type KnownPolicy, type PolicyState } from '../domain/policy/policy.decider.js';
import { policyStream, type PolicyEvent, type PolicyType } from '../domain/policy/policy.events.js';
import { WrongExpectedRevisionError, type Ledger } from '../ledger/ledger.port.js';
import { sha256Hex } from '../common/hashing.js';
import { deriveId } from '../common/ids.js';
import { fold, handleCommand, toNewEvent } from './command-handler.js';

export interface PolicyVersionView {
  id: string;
  policyType: PolicyType;
  version: string;
  title: string;
  content: string;
  contentHash: string;
  effectiveDate: string;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
}

export const policyView = (s: KnownPolicy): PolicyVersionView => ({
  id: s.id,
  policyType: s.policyType,
  version: s.version,
  title: s.title,
  content: s.content,
  contentHash: s.contentHash,
  effectiveDate: s.effectiveDate,
  isActive: s.isActive,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export interface PublishInput {
  policyType: PolicyType;
  version: string;
  title: string;
  content: string;
  effectiveDate?: string | undefined;
}

/** Policy version commands and exact reads, straight on the ledger. */
export class PolicyService {
  constructor(
    private readonly ledger: Ledger,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * A version's id follows from (tenant, type, version), so the ledger's "stream must not exist"
   * check is what makes (type, version) unique per tenant, with no separate index to race.
   */
  static idFor(tenantId: string, policyType: string, version: string): string {
    return deriveId(tenantId, 'policy-version', policyType, version);
  }

  async publish(tenantId: string, input: PublishInput): Promise<PolicyVersionView> {
    const id = PolicyService.idFor(tenantId, input.policyType, input.version);
    const stream = policyStream(tenantId, id);
    const now = this.clock();
    const nowIso = now.toISOString();
    const events = decidePolicy(
      {
        type: 'PublishPolicyVersion',
        data: {
          policyVersionId: id,
          policyType: input.policyType,
          version: input.version,
          title: input.title,
          content: input.content,
          contentHash: sha256Hex(input.content),
          effectiveDate: input.effectiveDate ? new Date(input.effectiveDate).toISOString() : nowIso,
          now: nowIso,
        },
      },
      initialPolicyState(),
    );
    try {
      await this.ledger.append([{ tenantId, stream, expectedRevision: 'no_stream', events: events.map((e) => toNewEvent(e)) }], now);
    } catch (error) {
      if (error instanceof WrongExpectedRevisionError) {
        // Published meanwhile (or long ago, perhaps since deleted): the version exists.
        throw new DomainError('POLICY_VERSION_EXISTS', `version ${input.version} of ${input.policyType} already exists`, {
          policyType: input.policyType,
          version: input.version,
        });
      }
      throw error;
    }
    return policyView(events.reduce(evolvePolicy, initialPolicyState()) as KnownPolicy);
  }

  async state(tenantId: string, id: string): Promise<PolicyState> {
    return fold(await this.ledger.readStream(policyStream(tenantId, id)), initialPolicyState, evolvePolicy);
  }

  /** The version as it stands, or NOT_FOUND when unknown, deleted, or another tenant's. */
  async get(tenantId: string, id: string): Promise<PolicyVersionView> {
    const state = await this.state(tenantId, id);
    if (state.status !== 'published') throw new DomainError('NOT_FOUND', 'policy version not found');
    return policyView(state);
  }

  async setActive(tenantId: string, id: string, isActive: boolean): Promise<PolicyVersionView> {
    const { state } = await handleCommand<PolicyState, PolicyEvent>(this.ledger, {
      tenantId,
      stream: policyStream(tenantId, id),
      initial: initialPolicyState,
      evolve: evolvePolicy,
      clock: this.clock,
      decide: (s, now) => decidePolicy({ type: 'SetPolicyVersionActive', data: { isActive, now } }, s),
    });
    if (state.status !== 'published') throw new DomainError('NOT_FOUND', 'policy version not found');
    return policyView(state);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await handleCommand<PolicyState, PolicyEvent>(this.ledger, {
      tenantId,
      stream: policyStream(tenantId, id),
      initial: initialPolicyState,
      evolve: evolvePolicy,
      clock: this.clock,
      decide: (s, now) => decidePolicy({ type: 'DeletePolicyVersion', data: { now } }, s),
    });
  }
}
