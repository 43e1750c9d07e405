import type { Kysely } from 'kysely';
import { noVersionInForceAt, ofTypeAlone, ofTypeAloneAt, severalPurposes, versionInForceAt } from '../../domain/consent/standing.js';
import { fold } from '../../domain/events.js';
import { policyAggregate, type KnownPolicy } from '../../domain/policy/policy.decider.js';
import { isPolicyType } from '../../domain/policy/policy.events.js';
import { purposeAggregate } from '../../domain/purpose/purpose.decider.js';
import { readStreams, type Ledger } from '../../ledger/ledger.port.js';
import { ledgerDb } from '../../ledger/postgres/ledger.table.js';
import type { Database } from '../../store/schema.js';
import type { RowError, SourceRow } from './mapping.js';

/** Whether a version is of the type and the purpose a row gives (either may be left out). */
const namedBy =
  (row: SourceRow) =>
  (p: KnownPolicy): boolean =>
    (row.policyType === undefined || p.policyType === row.policyType) && (row.purpose === undefined || p.purpose === row.purpose);

/**
 * A tenant's policy versions as its ledger holds them now (published, not deleted), found by id or
 * by (purpose or policy type, version), which is how a row from another tenant or platform names
 * the version decided on. Read from the ledger, not a read model, so that a version published a
 * moment ago is there, service running or not.
 */
export class PolicyIndex {
  /** What a row's purpose text stands for: a purpose's key as the file writes it (read once per text). */
  private readonly purposeKeys = new Map<string, string>();

  private constructor(
    private readonly byId: Map<string, KnownPolicy>,
    private readonly byName: Map<string, KnownPolicy[]>,
    /** The tenant's purposes: key → name. */
    private readonly purposes: Map<string, string>,
  ) {}

  static async load(db: Kysely<Database>, ledger: Pick<Ledger, 'readStream' | 'readStreams'>, tenantId: string): Promise<PolicyIndex> {
    // The streams that hold an event of this type (the one that creates them), each with its events.
    const streamsWith = async (eventType: string) => {
      const streams = await ledgerDb(db)
        .selectFrom('ledger.events')
        .select('stream_id')
        .where('tenant_id', '=', tenantId)
        .where('event_type', '=', eventType)
        .execute();
      return readStreams(
        ledger,
        streams.map((s) => s.stream_id),
      );
    };
    const read = await streamsWith('PolicyVersionPublished');
    const purposes = new Map<string, string>();
    for (const events of (await streamsWith('PurposeDefined')).values()) {
      const purpose = fold(purposeAggregate, events);
      if (purpose.status === 'defined') purposes.set(purpose.key, purpose.name);
    }
    const states = [...read.values()].map((events) => fold(policyAggregate, events));
    const byId = new Map<string, KnownPolicy>();
    const byName = new Map<string, KnownPolicy[]>();
    for (const p of states) {
      if (p.status !== 'published') continue;
      byId.set(p.id, p);
      for (const name of new Set([p.purpose, p.policyType])) {
        const key = `${name}\u0000${p.version}`;
        byName.set(key, [...(byName.get(key) ?? []), p]);
      }
    }
    return new PolicyIndex(byId, byName, purposes);
  }

  /**
   * The key of the purpose a file names: its key, or the key in another case (`Newsletter`), or a
   * purpose's name in any case when no other purpose has it (`SMS offers`, as another platform's
   * export writes it); else the text as it is (a policy type, or a purpose this tenant lacks).
   */
  private purposeKey(text: string): string {
    let key = this.purposeKeys.get(text);
    if (key !== undefined) return key;
    const lower = text.toLowerCase();
    const named = [...this.purposes].filter(([, name]) => name.toLowerCase() === lower).map(([k]) => k);
    key = this.purposes.has(text) ? text : this.purposes.has(lower) ? lower : named.length === 1 ? named[0]! : text;
    if (this.purposeKeys.size < 10_000) this.purposeKeys.set(text, key);
    return key;
  }

  /** The tenant's purposes, to name in an error: `key (name)`. */
  private purposeList(): string {
    return this.purposes.size === 0 ? 'none defined' : [...this.purposes].map(([key, name]) => `${key} (${name})`).join(', ');
  }

  /** Why a purpose a file names (its key, or its name) is none of this tenant's, or undefined when it is one (or a policy type). */
  unknownPurpose(text: string): string | undefined {
    const key = this.purposeKey(text);
    if (this.purposes.has(key) || isPolicyType(key)) return undefined;
    return `no purpose ${text} in this tenant, by key or name (its purposes: ${this.purposeList()})`;
  }

  /**
   * The version a row names: by its id, else by its purpose (or type) and version label, else by its
   * purpose (or type) alone: the version in force when the decision was made (`collectedAt`).
   */
  resolve(source: SourceRow): { policy: KnownPolicy } | { error: RowError } {
    const row = source.purpose === undefined ? source : { ...source, purpose: this.purposeKey(source.purpose) };
    const byId = row.policyVersionId === undefined ? undefined : this.byId.get(row.policyVersionId.toLowerCase());
    if (byId) return { policy: byId };
    if (row.policyVersionId !== undefined && row.policyVersion === undefined) {
      return { error: { field: 'policyVersionId', message: `no policy version ${row.policyVersionId} in this tenant` } };
    }
    // A purpose the tenant does not have, by key or name: say which it has.
    const unknown = row.purpose === undefined ? undefined : this.unknownPurpose(row.purpose);
    if (unknown) return { error: { field: 'purpose', message: unknown } };
    const name = row.purpose ?? row.policyType;
    if (name === undefined) return { error: { field: 'purpose', message: 'is required with policyVersion (or policyType)' } };
    if (row.policyVersion === undefined) return this.inForceAt(row, name);
    const found = (this.byName.get(`${name}\u0000${row.policyVersion}`) ?? []).filter(namedBy(row));
    // A policy type alone names its own purpose first (ofTypeAlone); two custom purposes with one version label need the purpose.
    const scope = row.purpose === undefined ? ofTypeAlone(found, name) : { versions: found };
    if ('versions' in scope && scope.versions.length === 1) return { policy: scope.versions[0]! };
    if (found.length > 1) {
      return { error: { field: 'purpose', message: `${name} ${row.policyVersion} names ${found.length} versions: give the purpose` } };
    }
    return {
      error: {
        field: 'policyVersion',
        message: `no version ${row.policyVersion} of ${name} is published in this tenant (publish the text the user saw, with its original effectiveDate)`,
      },
    };
  }

  /**
   * The version of the row's purpose (or type: its own purpose first, among those in force then) in force at its `collectedAt`:
   * the latest effectiveDate at or before it, ties to the highest version. Inactive versions count.
   */
  private inForceAt(row: SourceRow, name: string): { policy: KnownPolicy } | { error: RowError } {
    const all = [...this.byId.values()]
      .filter(namedBy(row))
      .map((policy) => ({ policy, purpose: policy.purpose, version: policy.version, effectiveDate: new Date(policy.effectiveDate) }));
    // readRow refuses a row without its time before its version is looked for.
    const at = new Date(row.collectedAt!);
    // A type alone chooses among what was in force then: its own purpose first (ofTypeAloneAt).
    const scope = row.purpose === undefined ? ofTypeAloneAt(all, name, at) : { versions: all };
    if ('severalPurposes' in scope) return { error: { field: 'policyType', message: `${name} ${severalPurposes(scope.severalPurposes)}` } };
    const chosen = versionInForceAt(scope.versions, at);
    if (chosen) return { policy: chosen.policy };
    const field = row.purpose !== undefined ? 'purpose' : 'policyType';
    if (all.length === 0) {
      return {
        error: {
          field,
          message: `no version of ${name} is published in this tenant (publish the text the user saw, with its original effectiveDate)`,
        },
      };
    }
    return { error: { field, message: noVersionInForceAt(name, row.collectedAt!, all) } };
  }
}
