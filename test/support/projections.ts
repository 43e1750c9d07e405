import { randomBytes, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { allProjectors } from '../../projections/index.js';
import type { Projector } from '../../src/followers/projector.js';
import { ensureReadSchema } from '../../projections/read-schema.js';
import { ProjectionRunner, type RunnerOptions } from '../../projections/runner.js';
import { consentHashInput } from '../../src/domain/consent/consent-hash.js';
import {
  consentStream,
  type ConsentExpired,
  type ConsentRecorded,
  type ConsentWithdrawn,
} from '../../src/domain/consent/consent.events.js';
import {
  policyStream,
  type PolicyType,
  type PolicyVersionActivated,
  type PolicyVersionDeactivated,
  type PolicyVersionDeleted,
  type PolicyVersionPublished,
} from '../../src/domain/policy/policy.events.js';
import type { AppendResult, Ledger } from '../../src/ledger/ledger.port.js';
import { PostgresLedger } from '../../src/ledger/postgres/postgres.ledger.js';
import type { DataKey } from '../../src/privacy/key-store.js';
import { Privacy, sealedAad, type ConsentPersonal } from '../../src/privacy/privacy.js';
import type { SubjectErased } from '../../src/domain/subject/subject.events.js';
import { addDuration, purposeStream, type PurposeDefined } from '../../src/domain/purpose/purpose.events.js';
import { subjectStream } from '../../src/domain/subject/subject.events.js';
import { hashCanonical, sha256Hex } from '../../src/common/hashing.js';
import type { Database } from '../../src/store/schema.js';
import { eventStoreLedger, eventStoreUrl } from './eventstore.js';
import { availableEngines, pgliteStore, type TestStore } from './stores.js';

/** A ConsentRecorded as a test writes it: plaintext personal fields, sealed by the harness on append. */
export interface PlainConsentRecorded {
  type: 'ConsentRecorded';
  data: Omit<ConsentRecorded['data'], 'subject' | 'personal'> & ConsentPersonal;
}
/** A ConsentWithdrawn with a plaintext reason, sealed by the harness on append. */
export interface PlainConsentWithdrawn {
  type: 'ConsentWithdrawn';
  data: { consentId: string; reason: string | null; withdrawnAt: string };
}

type DomainEvent =
  | PolicyVersionPublished
  | PolicyVersionActivated
  | PolicyVersionDeactivated
  | PolicyVersionDeleted
  | PlainConsentRecorded
  | PlainConsentWithdrawn
  | SubjectErased
  | PurposeDefined
  | ConsentExpired;

/**
 * A real store with the read schema, a PostgresLedger on it, and runners over the real
 * projectors: projector specs append events through the ledger and read the rows.
 */
export interface ProjectionHarness {
  engine: TestStore['name'];
  db: Kysely<Database>;
  /** The store's PostgreSQL ledger, or EventStoreDB (harnessEngines). */
  ledger: Ledger;
  /** The key store the harness seals with; queries open rows with it. */
  privacy: Privacy;
  /** The subject (keyed hash) of a user reference in a tenant. */
  subject(tenantId: string, userReference: string): string;
  /** A SubjectErased for the user reference (its key destroyed, as the erasure does). */
  erase(tenantId: string, userReference: string, at?: string): Promise<SubjectErased>;
  /** A new runner over `projectors` (every projector by default), on this store's ledger. */
  runner(options?: RunnerOptions & { projectors?: readonly Projector[]; ledger?: Ledger }): ProjectionRunner;
  /** Appends events to their streams (one transaction), recorded at `at`. */
  append(tenantId: string, events: DomainEvent[], at?: Date): Promise<AppendResult>;
  dispose(): Promise<void>;
}

type StoredEvent = Exclude<DomainEvent, PlainConsentRecorded | PlainConsentWithdrawn> | ConsentRecorded | ConsentWithdrawn;

const streamOf = (tenantId: string, e: StoredEvent): string =>
  e.type === 'SubjectErased'
    ? subjectStream(tenantId, e.data.subject)
    : e.type === 'PurposeDefined'
      ? purposeStream(tenantId, e.data.key)
      : 'consentId' in e.data
        ? consentStream(tenantId, e.data.consentId)
        : policyStream(tenantId, e.data.policyVersionId);

/** A store engine for projection tests, with the ledger somewhere else when `ledger` is given. */
export interface HarnessEngine {
  name: string;
  open: () => Promise<TestStore>;
  ledger?: () => Promise<{ ledger: Ledger; dispose(): Promise<void> }>;
}

/**
 * Every engine the projection tests run on: each store engine with its own PostgreSQL ledger, and
 * PGlite with the ledger on EventStoreDB when one is there (test/support/eventstore.ts; a spec
 * that uses these calls `reportEventStoreSkip` to say when it is not).
 */
export const harnessEngines: readonly HarnessEngine[] = [
  ...availableEngines,
  ...(eventStoreUrl ? [{ name: 'pglite + eventstoredb', open: pgliteStore, ledger: eventStoreLedger }] : []),
];

export async function openHarness(open: () => Promise<TestStore>, external?: HarnessEngine['ledger']): Promise<ProjectionHarness> {
  const test = await open();
  const db = test.store.db;
  await ensureReadSchema(db);
  const elsewhere = await external?.();
  const ledger: Ledger = elsewhere?.ledger ?? new PostgresLedger(db);
  const privacy = await Privacy.open(db, randomBytes(32));
  const subjects = new Map<string, string>();
  const kids = new Map<string, DataKey>();
  // Seals what the service would seal: the personal fields and the reason, under the subject's key.
  async function seal(tenantId: string, e: DomainEvent): Promise<StoredEvent> {
    if (e.type === 'ConsentRecorded') {
      const { userReference, ipAddress, userAgent, metadata, ...rest } = e.data;
      const subject = privacy.subjectOf(tenantId, userReference);
      subjects.set(`${tenantId}/${rest.consentId}`, subject);
      const [key] = await privacy.keys.fresh(1);
      kids.set(`${tenantId}/${rest.consentId}`, key!);
      const personal = privacy.seal(key!, sealedAad('ConsentRecorded', tenantId, rest.consentId, subject), {
        userReference,
        ipAddress,
        userAgent,
        metadata,
      });
      return { type: 'ConsentRecorded', data: { ...rest, subject, personal } };
    }
    if (e.type === 'ConsentWithdrawn') {
      const subject = subjects.get(`${tenantId}/${e.data.consentId}`) ?? 'unknown-subject';
      const key = kids.get(`${tenantId}/${e.data.consentId}`) ?? (await privacy.keys.fresh(1))[0]!;
      const reason =
        e.data.reason === null
          ? null
          : privacy.seal(key, sealedAad('ConsentWithdrawn', tenantId, e.data.consentId, subject), e.data.reason);
      return { type: 'ConsentWithdrawn', data: { ...e.data, subject, reason } };
    }
    return e;
  }
  return {
    engine: test.name,
    db,
    ledger,
    privacy,
    subject: (tenantId, userReference) => privacy.subjectOf(tenantId, userReference),
    async erase(tenantId, userReference, at = '2024-06-01T00:00:00.000Z') {
      const subject = privacy.subjectOf(tenantId, userReference);
      const consentIds = [...subjects]
        .filter(([k, s]) => s === subject && k.startsWith(`${tenantId}/`))
        .map(([k]) => k.slice(tenantId.length + 1));
      await privacy.keys.destroy(consentIds.map((id) => kids.get(`${tenantId}/${id}`)!.kid));
      return { type: 'SubjectErased', data: { subject, consentIds, erasedAt: at } };
    },
    runner: ({ projectors = allProjectors, ledger: l = ledger, ...options } = {}) => new ProjectionRunner(db, l, projectors, options),
    async append(tenantId, plain, at = new Date()) {
      const events: StoredEvent[] = [];
      for (const e of plain) events.push(await seal(tenantId, e));
      const byStream = new Map<string, StoredEvent[]>();
      for (const e of events) {
        const s = streamOf(tenantId, e);
        byStream.set(s, [...(byStream.get(s) ?? []), e]);
      }
      return ledger.append(
        [...byStream].map(([stream, es]) => ({
          tenantId,
          stream,
          expectedRevision: 'any' as const,
          events: es.map((e) => ({ type: e.type, data: e.data as unknown as Record<string, unknown> })),
        })),
        at,
      );
    },
    async dispose() {
      await elsewhere?.dispose();
      await test.dispose();
    },
  };
}

/** A published policy version, as the decider records it. */
export function published(over: Partial<PolicyVersionPublished['data']> = {}): PolicyVersionPublished {
  const content = over.content ?? `Policy text ${randomUUID()}`;
  const at = over.publishedAt ?? '2024-03-01T10:00:00.000Z';
  return {
    type: 'PolicyVersionPublished',
    data: {
      policyVersionId: randomUUID(),
      policyType: 'privacy_policy',
      version: '1.0.0',
      title: 'Privacy policy',
      content,
      contentHash: sha256Hex(content),
      effectiveDate: at,
      publishedAt: at,
      ...over,
    },
  };
}

export const activated = (policyVersionId: string, at: string): PolicyVersionActivated => ({
  type: 'PolicyVersionActivated',
  data: { policyVersionId, at },
});
export const deactivated = (policyVersionId: string, at: string): PolicyVersionDeactivated => ({
  type: 'PolicyVersionDeactivated',
  data: { policyVersionId, at },
});
export const deleted = (policyVersionId: string, at: string): PolicyVersionDeleted => ({
  type: 'PolicyVersionDeleted',
  data: { policyVersionId, at },
});

/** A recorded decision against `policy`, with a real consentHash (sealed when appended). */
export function recorded(
  policy: PolicyVersionPublished,
  over: Partial<Omit<PlainConsentRecorded['data'], 'consentHash'>> = {},
): PlainConsentRecorded {
  const p = policy.data;
  const base = {
    consentId: randomUUID(),
    policyVersionId: p.policyVersionId,
    policyType: p.policyType,
    policyVersion: p.version,
    policyTitle: p.title,
    policyContentHash: p.contentHash,
    userReference: 'user-1',
    consentGiven: true,
    ipAddress: '203.0.113.7',
    userAgent: 'Mozilla/5.0 (test)',
    metadata: {},
    timestamp: '2024-03-02T12:00:00.000Z',
    batchId: null,
    ...over,
  };
  // What the decider derives from the version: its purpose, and the expiry of a consent given.
  const derived = {
    ...(p.purpose === undefined || p.purpose === p.policyType ? {} : { purpose: p.purpose }),
    ...(base.consentGiven && p.consentValidFor && over.expiresAt === undefined
      ? { expiresAt: addDuration(base.timestamp, p.consentValidFor) }
      : {}),
  };
  return { type: 'ConsentRecorded', data: { ...base, ...derived, consentHash: hashCanonical(consentHashInput(base)) } };
}

export const withdrawn = (consentId: string, withdrawnAt: string, reason: string | null = null): PlainConsentWithdrawn => ({
  type: 'ConsentWithdrawn',
  data: { consentId, reason, withdrawnAt },
});

export const policyTypes: readonly PolicyType[] = ['privacy_policy', 'terms_of_service', 'cookie_policy', 'marketing_consent'];

/** Every read table, with the order that makes a snapshot comparable. */
const READ_TABLES: Record<string, string> = {
  'read.meta': 'key',
  'read.checkpoints': 'name',
  'read.projection_failures': 'projector, event_id',
  'read.policy_versions': 'id',
  'read.consents': 'id',
  'read.consent_counts': 'tenant_id, day, decided_day, policy_type, purpose, policy_version_id, consent_given, status, tag',
  'read.user_policy_status': 'tenant_id, subject, purpose',
  'read.standing_counts': 'tenant_id, purpose, policy_version_id',
};
/** Columns that say when a row was written, not what it holds. */
const WRITE_TIME_COLUMNS: Record<string, string[]> = {
  'read.checkpoints': ['updated_at'],
  'read.projection_failures': ['failed_at'],
};

/**
 * Every row of every read table (and every table the read schema has that this list does not
 * know, so a new read model cannot escape the comparison), ordered, without write times.
 */
export async function snapshotReadModels(db: Kysely<Database>): Promise<Record<string, unknown[]>> {
  const tables = await sql<{ name: string }>`
    SELECT 'read.' || table_name AS name FROM information_schema.tables WHERE table_schema = 'read' ORDER BY 1`.execute(db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    const order = READ_TABLES[name] ?? '1';
    const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.raw(name)} ORDER BY ${sql.raw(order)}`.execute(db);
    const drop = WRITE_TIME_COLUMNS[name] ?? [];
    out[name] = rows.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k))));
  }
  return out;
}

/** Rows of one read table, ordered as in a snapshot. */
export async function rowsOf(db: Kysely<Database>, table: string): Promise<Record<string, unknown>[]> {
  const order = READ_TABLES[table];
  if (!order) throw new Error(`unknown read table ${table}`);
  const rows = await sql<Record<string, unknown>>`SELECT * FROM ${sql.raw(table)} ORDER BY ${sql.raw(order)}`.execute(db);
  const drop = WRITE_TIME_COLUMNS[table] ?? [];
  return rows.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !drop.includes(k))));
}

/** Resolves once `n` callers have arrived: makes racing runners read the same batch. */
export function barrier(n: number): () => Promise<void> {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    arrived += 1;
    if (arrived >= n) open();
    return opened;
  };
}

/** The ledger, except that the first `readAll` waits at `gate` (so that racing runners hold the same batch). */
export function gatedLedger(ledger: Ledger, gate: () => Promise<void>): Ledger {
  let first = true;
  return {
    append: (r, at) => ledger.append(r, at),
    readStream: (s) => ledger.readStream(s),
    headPosition: (t) => ledger.headPosition(t),
    async readAll(after, limit) {
      const events = await ledger.readAll(after, limit);
      if (first) {
        first = false;
        await gate();
      }
      return events;
    },
  };
}

/**
 * Runs `batchSizes.length` runners over the same ledger at once. Each runner's first read waits
 * until all of them have read, so they all hold the same events before any applies them: every
 * event is delivered to each projector as many times as there are runners.
 */
export async function raceRunners(h: ProjectionHarness, batchSizes: readonly number[] = [500, 500]): Promise<number[]> {
  const gate = barrier(batchSizes.length);
  const runners = batchSizes.map((batchSize) => h.runner({ batchSize, ledger: gatedLedger(h.ledger, gate) }));
  return Promise.all(runners.map((r) => r.catchUp()));
}
