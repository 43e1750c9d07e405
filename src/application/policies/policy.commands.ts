import { sha256Hex } from '../../common/hashing.js';
import { deriveId } from '../../common/ids.js';
import { DomainError } from '../../domain/errors.js';
import { decidePolicy, policyAggregate, type KnownPolicy } from '../../domain/policy/policy.decider.js';
import { POLICY_TYPES, policyStream, type PolicyType } from '../../domain/policy/policy.events.js';
import { purposeAggregate } from '../../domain/purpose/purpose.decider.js';
import { purposeStream } from '../../domain/purpose/purpose.events.js';
import { write, type CommandHandler } from '../command-handler.js';
import { policyView, type PolicyVersionView } from './policy.views.js';

export interface PublishInput {
  policyType: PolicyType;
  /** A purpose the tenant defined (docs/purposes.md), or the type itself; absent: the type's. */
  purpose?: string | undefined;
  version: string;
  title: string;
  content: string;
  effectiveDate?: string | undefined;
  /** Whether the version is a material change that outdates decisions on older versions (default true). */
  requiresReconsent?: boolean | undefined;
}

/**
 * Policy version commands: publish, activate or deactivate, delete. Content is never edited: a new
 * content is a new version.
 *
 * @example
 * const view = await policies.publish(tenantId, { policyType: 'privacy_policy', version: '1.0.0', title, content });
 */
export class PolicyCommands {
  constructor(private readonly commands: CommandHandler) {}

  /**
   * A version's id follows from (tenant, type, version), so the ledger's "stream must not exist"
   * check is what makes (type, version) unique per tenant, with no separate index to race.
   */
  static idFor(tenantId: string, policyType: string, version: string, purpose?: string | null): string {
    // A version of its type's own purpose keeps the id it had before purposes.
    return purpose === undefined || purpose === null || purpose === policyType
      ? deriveId(tenantId, 'policy-version', policyType, version)
      : deriveId(tenantId, 'policy-version', policyType, version, purpose);
  }

  /**
   * Publishes a version; POLICY_VERSION_EXISTS when (type, version) was published before for its
   * purpose, or the purpose has that version under another type, even if since deleted.
   */
  async publish(tenantId: string, input: PublishInput): Promise<PolicyVersionView> {
    const purpose = input.purpose === undefined || input.purpose === input.policyType ? null : input.purpose;
    const id = PolicyCommands.idFor(tenantId, input.policyType, input.version, purpose);
    return this.commands.run(tenantId, async (attempt) => {
      // A new version's stream is expected not to exist; after a conflict it is read, and the
      // decider refuses the version that now exists.
      const policy = await attempt.create(policyAggregate, policyStream(tenantId, id));
      // The same number of the same purpose under the other types, expected absent as well: a
      // purpose's versions form one sequence, so one number names one document.
      const namesakes = await attempt.createMany(
        policyAggregate,
        POLICY_TYPES.filter((type) => type !== input.policyType).map((type) =>
          policyStream(tenantId, PolicyCommands.idFor(tenantId, type, input.version, purpose ?? input.policyType)),
        ),
      );
      const numberedUnder = namesakes.map((n) => n.state).find((s): s is KnownPolicy => s.status !== 'none')?.policyType;
      // The purpose (a type may be defined as one too) gives the version its validity; the append
      // is conditioned on the purpose not changing meanwhile.
      const defined = await attempt.load(purposeAggregate, purposeStream(tenantId, purpose ?? input.policyType));
      if (purpose !== null && defined.state.status === 'none') {
        throw new DomainError(
          'VALIDATION_ERROR',
          `purpose ${purpose} is not defined: define it with POST /api/v1/purposes, or leave purpose out`,
          {
            errors: [{ field: 'purpose', message: 'must be a purpose defined with POST /api/v1/purposes' }],
          },
        );
      }
      const now = attempt.now.toISOString();
      const events = decidePolicy(
        {
          type: 'PublishPolicyVersion',
          data: {
            policyVersionId: id,
            policyType: input.policyType,
            purpose,
            version: input.version,
            title: input.title,
            content: input.content,
            contentHash: sha256Hex(input.content),
            effectiveDate: input.effectiveDate ? new Date(input.effectiveDate).toISOString() : now,
            requiresReconsent: input.requiresReconsent ?? true,
            consentValidFor: defined.state.status === 'none' ? null : defined.state.consentValidFor,
            numberedUnder,
            now,
          },
        },
        policy.state,
      );
      const published = events.reduce(policyAggregate.evolve, policy.state);
      if (published.status === 'none') throw new Error('publishing decided no version');
      return {
        writes: [write(policy, events), write(defined, []), ...namesakes.map((n) => write(n, []))],
        answer: () => policyView(published),
      };
    });
  }

  async setActive(tenantId: string, id: string, isActive: boolean): Promise<PolicyVersionView> {
    const { state } = await this.commands.handle(tenantId, policyAggregate, policyStream(tenantId, id), (s, now) =>
      decidePolicy({ type: 'SetPolicyVersionActive', data: { isActive, now } }, s),
    );
    if (state.status !== 'published') throw new DomainError('NOT_FOUND', 'policy version not found');
    return policyView(state);
  }

  async delete(tenantId: string, id: string): Promise<void> {
    await this.commands.handle(tenantId, policyAggregate, policyStream(tenantId, id), (s, now) =>
      decidePolicy({ type: 'DeletePolicyVersion', data: { now } }, s),
    );
  }
}
