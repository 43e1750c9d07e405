import { fold } from '../domain/events.js';
import { purposeAggregate } from '../domain/purpose/purpose.decider.js';
import { purposeStream } from '../domain/purpose/purpose.events.js';
import { policyAggregate } from '../domain/policy/policy.decider.js';
import { policyStream } from '../domain/policy/policy.events.js';
import { iso27560Record, type StandardRecordInput } from './iso27560.js';
import type { Ledger } from '../ledger/ledger.port.js';
import type { ConsentQueries, ConsentQuery, ConsentSearchItem } from '../application/consents/consent.queries.js';
import type { ConsentView } from '../application/consents/consent.views.js';

type PurposeFacts = StandardRecordInput['purpose'];

/** A purpose's facts from each of its ledger events on, oldest first. */
type PurposeHistory = { from: string; facts: PurposeFacts }[];

/**
 * The facts a purpose had when a decision was recorded (both times are their commands'): a later
 * change of name, legal basis or DPV term never rewrites what earlier decisions were made under.
 * Before the purpose was defined (a policy type's own purpose): only its key, legal basis consent.
 */
function factsAt(key: string, history: PurposeHistory, at: string): PurposeFacts {
  let found: PurposeFacts = { key, name: null, legalBasis: null, dpv: null };
  for (const h of history) if (h.from <= at) found = h.facts;
  return found;
}

/**
 * Consent records in the standard form (ISO/IEC TS 27560 with DPV, docs/standard-records.md): one
 * record, or every record a search matches, streamed. Purposes (their whole history) and policy
 * versions are read once per call, not per record.
 */
export class StandardRecords {
  constructor(
    private readonly deps: {
      queries: ConsentQueries;
      ledger: Pick<Ledger, 'readStream'>;
      publicBaseUrl: string;
    },
  ) {}

  async one(tenant: { tenantId: string; name: string }, consentId: string): Promise<Record<string, unknown>> {
    const { view, subject } = await this.deps.queries.getWithSubject(tenant.tenantId, consentId);
    const key = view.purpose ?? view.policyDetails.type;
    const purpose = factsAt(key, await this.purposeHistory(tenant.tenantId, key), view.createdAt);
    return iso27560Record(this.input(tenant, view, subject, view.policyDetails.contentHash, purpose));
  }

  /** Every matching record, oldest first, as `export` reads them. */
  async many(tenant: { tenantId: string; name: string }, query: ConsentQuery): Promise<AsyncIterable<Record<string, unknown>>> {
    const items = await this.deps.queries.export(tenant.tenantId, query);
    const purposes = new Map<string, PurposeHistory>();
    const hashes = new Map<string, string>();
    const records = async function* (this: StandardRecords) {
      for await (const item of items) {
        const key = item.purpose ?? item.policyType;
        let history = purposes.get(key);
        if (!history) purposes.set(key, (history = await this.purposeHistory(tenant.tenantId, key)));
        const purpose = factsAt(key, history, item.createdAt);
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
      proofUrl: `${this.deps.publicBaseUrl.replace(/\/+$/, '')}/api/v1/consent/${v.id}/proof`,
    };
  }

  /** A purpose's facts after each of its events (none for a policy type never defined as a purpose). */
  private async purposeHistory(tenantId: string, key: string): Promise<PurposeHistory> {
    const history: PurposeHistory = [];
    let state = purposeAggregate.initialState();
    for (const stored of await this.deps.ledger.readStream(purposeStream(tenantId, key))) {
      const event = purposeAggregate.decode(stored);
      if (!event) continue;
      state = purposeAggregate.evolve(state, event);
      if (state.status === 'none') continue;
      history.push({ from: state.updatedAt, facts: { key, name: state.name, legalBasis: state.legalBasis, dpv: state.dpv ?? null } });
    }
    return history;
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
