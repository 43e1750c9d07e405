import { DomainError } from '../domain/errors.js';
import { fold } from '../domain/events.js';
import { policyAggregate } from '../domain/policy/policy.decider.js';
import { policyStream } from '../domain/policy/policy.events.js';
import { iso27560Record, type StandardRecordInput } from './iso27560.js';
import type { Ledger } from '../ledger/ledger.port.js';
import { verifyUrl } from '../receipts/receipt.renderer.js';
import type { Purposes } from '../application/purposes/purposes.js';
import type { ConsentQueries, ConsentQuery, ConsentSearchItem } from '../application/consents/consent.queries.js';
import type { ConsentView } from '../application/consents/consent.views.js';

type PurposeFacts = StandardRecordInput['purpose'];

/**
 * Consent records in the standard form (ISO/IEC TS 27560 with DPV, docs/standard-records.md): one
 * record, or every record a search matches, streamed. Purposes and policy versions are read once
 * per call, not per record.
 */
export class StandardRecords {
  constructor(
    private readonly deps: {
      queries: ConsentQueries;
      purposes: Pick<Purposes, 'get'>;
      ledger: Pick<Ledger, 'readStream'>;
      publicBaseUrl: string;
    },
  ) {}

  async one(tenant: { tenantId: string; name: string }, consentId: string): Promise<Record<string, unknown>> {
    const { view, subject } = await this.deps.queries.getWithSubject(tenant.tenantId, consentId);
    const purpose = await this.purposeFacts(tenant.tenantId, view.purpose ?? view.policyDetails.type);
    return iso27560Record(this.input(tenant, view, subject, view.policyDetails.contentHash, purpose));
  }

  /** Every matching record, oldest first, as `export` reads them. */
  async many(tenant: { tenantId: string; name: string }, query: ConsentQuery): Promise<AsyncIterable<Record<string, unknown>>> {
    const items = await this.deps.queries.export(tenant.tenantId, query);
    const purposes = new Map<string, PurposeFacts>();
    const hashes = new Map<string, string>();
    const records = async function* (this: StandardRecords) {
      for await (const item of items) {
        const key = item.purpose ?? item.policyType;
        let purpose = purposes.get(key);
        if (!purpose) purposes.set(key, (purpose = await this.purposeFacts(tenant.tenantId, key)));
        let hash = hashes.get(item.policyVersionId);
        if (hash === undefined) hashes.set(item.policyVersionId, (hash = await this.contentHash(tenant.tenantId, item.policyVersionId)));
        yield iso27560Record(this.input(tenant, searchAsView(item), item.subject, hash, purpose));
      }
    };
    return records.call(this);
  }

  private input(
    tenant: { tenantId: string; name: string },
    v: Pick<
      ConsentView,
      'id' | 'consentHash' | 'consentGiven' | 'createdAt' | 'collectedAt' | 'expiresAt' | 'withdrawnAt' | 'policyVersionId'
    > & {
      status: string;
      policyDetails: { title: string; type: string; version: string };
    },
    subject: string,
    contentHash: string,
    purpose: PurposeFacts,
  ): StandardRecordInput {
    return {
      id: v.id,
      consentHash: v.consentHash,
      subject,
      consentGiven: v.consentGiven,
      status: v.status,
      createdAt: v.createdAt,
      collectedAt: v.collectedAt,
      expiresAt: v.expiresAt,
      withdrawnAt: v.withdrawnAt,
      tenant: { id: tenant.tenantId, name: tenant.name },
      notice: {
        policyVersionId: v.policyVersionId,
        title: v.policyDetails.title,
        type: v.policyDetails.type,
        version: v.policyDetails.version,
        contentHash,
      },
      purpose,
      verifyUrl: verifyUrl(this.deps.publicBaseUrl, v.id, v.consentHash),
    };
  }

  /** A defined purpose's facts; a policy type's own purpose has only its key (legal basis: consent). */
  private async purposeFacts(tenantId: string, key: string): Promise<PurposeFacts> {
    try {
      const p = await this.deps.purposes.get(tenantId, key);
      return { key, name: p.name, legalBasis: p.legalBasis, dpv: p.dpv ?? null };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'NOT_FOUND') return { key, name: null, legalBasis: null, dpv: null };
      throw error;
    }
  }

  /** A version's content hash, deleted or not (its records stand). */
  private async contentHash(tenantId: string, policyVersionId: string): Promise<string> {
    const state = fold(policyAggregate, await this.deps.ledger.readStream(policyStream(tenantId, policyVersionId)));
    return state.status === 'none' ? '' : state.contentHash;
  }
}

const searchAsView = (i: ConsentSearchItem) => ({
  ...i,
  policyDetails: { title: i.policyTitle, type: i.policyType, version: i.policyVersion },
});
