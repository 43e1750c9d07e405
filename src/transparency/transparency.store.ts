import { sql, type Kysely } from 'kysely';
import type { EventEnvelope } from '../ledger/event-hash.js';
import { comparePositions, readStreams, type Ledger, type LedgerPosition, type RecordedEvent } from '../ledger/ledger.port.js';
import type { LedgerDatabase } from '../ledger/postgres/ledger.table.js';
import type { Database } from '../store/schema.js';
import { isUuid } from '../common/ids.js';
import { CosignatureCheck } from './cosignature-check.js';
import { nodeKey, nodesFor, rangeHash, type Hash, type NodeId, type NodeSource, type Range } from './merkle.js';
import { keyHistory, type KeyHistoryEntry } from './signing-key.js';
import { transparencyDb, type CheckpointRow, type TransparencyDb } from './transparency.table.js';

export interface StoredCheckpoint {
  treeSize: number;
  rootHash: string;
  note: string;
  signedAt: string;
}

/** Where and why the sealer stopped sealing a tenant. */
export interface Halt {
  tenantId: string;
  eventId: string;
  position: { commit: number; prepare: number };
  reason: string;
}

export interface LogEntry {
  leafIndex: number;
  event: EventEnvelope;
  eventHash: string;
  /** The appender's signature covering eventHash (docs/verifying.md); null before authenticators. */
  authenticator: string | null;
}

/** Stored lines checked by the keys their rows name, when this process asks no witness. */
const NO_WITNESSES = new CosignatureCheck([]);

/** Checkpoints with the quorum's rows a proof looks through for one whose lines verify. */
const COSIGNED_CANDIDATES = 8;

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

type CheckpointWithLines = Pick<CheckpointRow, 'tree_size' | 'root_hash' | 'note' | 'signed_at'> & {
  /** Its stored cosignatures: each row's witness vkey and line. */
  cosigned: { w: string; l: string }[] | null;
};

/** A checkpoint row and the witnesses' cosignature lines served with it: the log's note, then those lines. */
const storedCheckpoint = (r: CheckpointWithLines, lines: string): StoredCheckpoint => ({
  treeSize: Number(r.tree_size),
  rootHash: r.root_hash,
  note: `${r.note}${lines}`,
  signedAt: iso(r.signed_at),
});

/** The witnesses' cosignatures of the checkpoint `cp` (transparency.cosignatures), in a fixed order. */
export const cosignedLines = sql<
  { w: string; l: string }[] | null
>`(SELECT json_agg(json_build_object('w', s.witness, 'l', s.line) ORDER BY s.witness)
  FROM transparency.cosignatures s WHERE s.tenant_id = cp.tenant_id AND s.tree_size = cp.tree_size)`;

/** A row of ledger.events (as `e`) as the JSON of the RecordedEvent the sealer takes. */
const LEDGER_ROW_EVENT = sql`jsonb_build_object(
  'id', e.event_id, 'tenantId', e.tenant_id, 'stream', e.stream_id, 'revision', e.stream_revision, 'type', e.event_type,
  'data', e.data::jsonb, 'metadata', e.metadata::jsonb,
  'recordedAt', to_char(e.recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'prevHash', e.prev_hash, 'hash', e.event_hash, 'authenticator', e.authenticator,
  'position', jsonb_build_object('commit', e.transaction_id::text::bigint, 'prepare', e.global_position))`;

/**
 * Reads and writes of the transparency schema (transparency.table.ts). The sealer's statements
 * (lockTrees, nodesOf, saveSealed) and `nodes` send a batch's keys or rows as one JSON parameter
 * (json_to_recordset), which Kysely has no builder for: one statement per batch whatever its size.
 */
export class TransparencyStore {
  private readonly db: TransparencyDb;

  /**
   * `events`: when the ledger is not in the store's database (EventStoreDB), sealed events are
   * read from the ledger, found through read.event_index once `fence` saw it pass the tenant's head.
   */
  constructor(
    db: Kysely<Database>,
    private readonly events?: { ledger: Ledger; fence(tenantId: string): Promise<void> },
  ) {
    this.db = transparencyDb(db);
  }

  /**
   * The witnesses the service asks and how many must cosign: a proof then takes the newest
   * checkpoint that covers its leaf and carries that many cosignatures that verify, when there is
   * one (the newest is cosigned a moment after it is signed); a stored line by one of them that
   * does not verify is not served. Set once the relay is made.
   */
  cosigning: { check: CosignatureCheck; quorum: number } | undefined;

  /** A checkpoint as served: with its stored lines that verify by the keys their rows name. */
  private served(r: CheckpointWithLines): StoredCheckpoint {
    return storedCheckpoint(r, this.check.sort(r.note, r.cosigned).lines);
  }

  /** The witnesses' check, this process's (set with `cosigning`), or one that asks none. */
  private get check(): CosignatureCheck {
    return this.cosigning?.check ?? NO_WITNESSES;
  }

  /** The hashes of these leaf ranges (an inclusion or consistency proof), from the stored nodes. */
  async rangeHashes(tenantId: string, ranges: readonly Range[]): Promise<Hash[]> {
    const get = await this.nodes(tenantId, nodesFor(ranges));
    return ranges.map(([a, b]) => rangeHash(a, b, get));
  }

  /** The stored nodes asked for, as a lookup that throws on a node the store does not hold. */
  async nodes(tenantId: string, ids: readonly NodeId[], db?: Kysely<Database>): Promise<NodeSource> {
    const found = new Map<string, Hash>();
    if (ids.length > 0) {
      const rows = await sql<{ level: number; idx: string | number; hash: string }>`
        SELECT n.level, n.idx, n.hash FROM transparency.nodes n
        JOIN json_to_recordset(${JSON.stringify(ids.map((i) => ({ l: i.level, i: i.index })))}::json) AS k(l integer, i bigint)
          ON n.level = k.l AND n.idx = k.i
        WHERE n.tenant_id = ${tenantId}::uuid`.execute(db ?? this.db);
      for (const r of rows.rows) found.set(`${r.level}/${Number(r.idx)}`, Buffer.from(r.hash, 'hex'));
    }
    return (id) => {
      const hash = found.get(nodeKey(id));
      if (!hash) throw new Error(`transparency log of ${tenantId}: node ${nodeKey(id)} is missing`);
      return hash;
    };
  }

  /**
   * The trees' sizes (0 for a tenant with none yet) and the time of each one's last leaf, their
   * rows locked (in tenant order, so that two sealers never wait on each other in a cycle) until
   * the transaction ends.
   */
  async lockTrees(tx: Kysely<Database>, tenantIds: readonly string[]): Promise<Map<string, { size: number; lastAt: string | null }>> {
    const rows = await sql<{ tenant_id: string; tree_size: string | number; last_recorded_at: Date | string | null }>`
      SELECT tenant_id, tree_size, last_recorded_at FROM transparency.trees
      WHERE tenant_id IN (SELECT json_array_elements_text(${JSON.stringify(tenantIds)}::json)::uuid)
      ORDER BY tenant_id FOR UPDATE`.execute(tx);
    const trees = new Map(tenantIds.map((t) => [t, { size: 0, lastAt: null as string | null }]));
    for (const r of rows.rows)
      trees.set(r.tenant_id, { size: Number(r.tree_size), lastAt: r.last_recorded_at === null ? null : iso(r.last_recorded_at) });
    return trees;
  }

  /** The tenants among these whose sealing stopped (an event that is not the service's own), with why. */
  async haltsOf(tx: Kysely<Database>, tenantIds: readonly string[]): Promise<Set<string>> {
    if (tenantIds.length === 0) return new Set();
    const rows = await transparencyDb(tx)
      .selectFrom('transparency.halts')
      .select('tenant_id')
      .where('tenant_id', 'in', [...tenantIds])
      .execute();
    return new Set(rows.map((r) => r.tenant_id));
  }

  /** Stops sealing a tenant at an event, for a reason (kept until an operator clears it). */
  async halt(tx: Kysely<Database>, halt: Halt): Promise<void> {
    await transparencyDb(tx)
      .insertInto('transparency.halts')
      .values({
        tenant_id: halt.tenantId,
        event_id: halt.eventId,
        commit_position: halt.position.commit,
        prepare_position: halt.position.prepare,
        reason: halt.reason,
      })
      .onConflict((oc) => oc.column('tenant_id').doNothing())
      .execute();
  }

  /** Holds a stopped tenant's events until its halt is cleared (kept once per position). */
  async hold(tx: Kysely<Database>, events: readonly RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await transparencyDb(tx)
      .insertInto('transparency.held')
      .values(
        events.map((e) => ({
          tenant_id: e.tenantId,
          commit_position: e.position.commit,
          prepare_position: e.position.prepare,
          event: JSON.stringify(e),
        })),
      )
      .onConflict((oc) => oc.columns(['tenant_id', 'commit_position', 'prepare_position']).doNothing())
      .execute();
  }

  /**
   * Holds what the log lacks: every event of the store's ledger up to where the sealer got (`sealer`,
   * its checkpoint row) that has no leaf, is not held, and is not the event a halt names: what a
   * version that did not hold left out of a stopped tenant's log, and what a halt and its held rows
   * deleted with the database's credentials would drop unseen. Answers, per tenant not stopped now,
   * the first such event (the sealer stops the tenant there, naming it). From the store's own
   * ledger table (EventStoreDB's events are not in it). Run once per process, in its first batch.
   */
  async holdUnsealed(tx: Kysely<Database>, sealer: string): Promise<{ tenantId: string; eventId: string; position: LedgerPosition }[]> {
    const held = await sql<{ tenant_id: string; event_id: string; c: string | number; p: string | number }>`
      WITH missing AS (
        SELECT e.tenant_id, e.event_id, e.transaction_id::text::bigint AS c, e.global_position AS p, ${LEDGER_ROW_EVENT} AS event
        FROM ledger.events e
        CROSS JOIN transparency.sealer s
        WHERE s.name = ${sealer}
          AND (e.transaction_id::text::bigint, e.global_position) <= (s.commit_position, s.prepare_position)
          AND NOT EXISTS (SELECT 1 FROM transparency.leaves l WHERE l.event_id = e.event_id)
          AND NOT EXISTS (SELECT 1 FROM transparency.halts h WHERE h.event_id = e.event_id)
      ), kept AS (
        -- Run to completion whether or not the query below reads it (PostgreSQL's rule for a data-modifying WITH).
        INSERT INTO transparency.held (tenant_id, commit_position, prepare_position, event)
        SELECT tenant_id, c, p, event FROM missing
        ON CONFLICT DO NOTHING
        RETURNING tenant_id
      )
      SELECT DISTINCT ON (m.tenant_id) m.tenant_id, m.event_id, m.c, m.p FROM missing m
      WHERE NOT EXISTS (SELECT 1 FROM transparency.halts h WHERE h.tenant_id = m.tenant_id)
      ORDER BY m.tenant_id, m.c, m.p`.execute(tx);
    return held.rows.map((r) => ({ tenantId: r.tenant_id, eventId: r.event_id, position: { commit: Number(r.c), prepare: Number(r.p) } }));
  }

  /**
   * Takes the events held for tenants no longer stopped (an operator cleared the halt), in ledger
   * order per tenant, deleting them in the caller's transaction: they are sealed with its batch.
   */
  async takeReleased(tx: Kysely<Database>): Promise<Map<string, RecordedEvent[]>> {
    const rows = await sql<{ tenant_id: string; event: RecordedEvent | string }>`
      DELETE FROM transparency.held h
      WHERE NOT EXISTS (SELECT 1 FROM transparency.halts x WHERE x.tenant_id = h.tenant_id)
      RETURNING h.tenant_id, h.commit_position, h.prepare_position, h.event`.execute(tx);
    // Claims only (confirmReleased finds each in the ledger and orders them): whatever a row holds.
    const released = new Map<string, RecordedEvent[]>();
    for (const r of rows.rows) {
      let event: unknown = r.event;
      try {
        if (typeof event === 'string') event = JSON.parse(event);
      } catch {
        event = null;
      }
      const id = (event as { id?: unknown } | null)?.id;
      const claim = { ...(event as object), id: typeof id === 'string' ? id : '', tenantId: r.tenant_id } as RecordedEvent;
      const list = released.get(r.tenant_id);
      if (list) list.push(claim);
      else released.set(r.tenant_id, [claim]);
    }
    return released;
  }

  /**
   * The ledger's own copies of the events `takeReleased` answered, as the held rows only claim
   * them (the database's credentials can write any row there): each found by its tenant and id,
   * at its ledger position. `unknown`: the claims the ledger holds no such event for, or one
   * already sealed.
   */
  async confirmReleased(
    tx: Kysely<Database>,
    released: ReadonlyMap<string, readonly RecordedEvent[]>,
  ): Promise<{ confirmed: Map<string, RecordedEvent[]>; unknown: RecordedEvent[] }> {
    const claims = [...released.values()].flat();
    const confirmed = new Map<string, RecordedEvent[]>();
    const unknown: RecordedEvent[] = [];
    if (claims.length === 0) return { confirmed, unknown };
    const key = (tenantId: string, id: string) => `${tenantId} ${id}`;
    let found: RecordedEvent[];
    if (this.events) {
      // EventStoreDB: read beside the transaction (on another server, so it waits for nothing here).
      const read = await readStreams(this.events.ledger, [...new Set(claims.map((c) => c.stream))]);
      found = [...read.values()].flat();
    } else {
      const ids = claims.map((c) => String(c.id)).filter(isUuid);
      const rows = await sql<{ event: RecordedEvent | string }>`
        SELECT ${LEDGER_ROW_EVENT} AS event FROM ledger.events e WHERE e.event_id = ANY(${ids}::uuid[])`.execute(tx);
      found = rows.rows.map((r) => (typeof r.event === 'string' ? JSON.parse(r.event) : r.event) as RecordedEvent);
    }
    // One sealed already (a row written again) is not sealed twice: its second leaf would fail the batch.
    const sealed = new Set(
      (
        await sql<{ event_id: string }>`
          SELECT event_id FROM transparency.leaves WHERE event_id = ANY(${found.map((e) => e.id).filter(isUuid)}::uuid[])`.execute(tx)
      ).rows.map((r) => r.event_id),
    );
    const byKey = new Map(found.filter((e) => !sealed.has(e.id)).map((e) => [key(e.tenantId, e.id), e]));
    for (const claim of claims) {
      const event = byKey.get(key(claim.tenantId, claim.id));
      // Taken once: a second claim of the same event would be a second leaf of it.
      byKey.delete(key(claim.tenantId, claim.id));
      if (!event) {
        unknown.push(claim);
        continue;
      }
      const list = confirmed.get(event.tenantId);
      if (list) list.push(event);
      else confirmed.set(event.tenantId, [event]);
    }
    for (const list of confirmed.values()) list.sort((a, b) => comparePositions(a.position, b.position));
    return { confirmed, unknown };
  }

  /** Whether the event waits in transparency.held (its tenant's sealing stopped, or just cleared). */
  async isHeld(tenantId: string, eventId: string): Promise<boolean> {
    const row = await sql<{ one: number }>`
      SELECT 1 AS one FROM transparency.held WHERE tenant_id = ${tenantId} AND event->>'id' = ${eventId} LIMIT 1`.execute(this.db);
    return row.rows.length > 0;
  }

  /** Every tenant whose sealing stopped, oldest first: what /ready reports. */
  async halts(): Promise<(Halt & { haltedAt: string })[]> {
    const rows = await this.db.selectFrom('transparency.halts').selectAll().orderBy('halted_at').execute();
    return rows.map((r) => ({
      tenantId: r.tenant_id,
      eventId: r.event_id,
      position: { commit: Number(r.commit_position), prepare: Number(r.prepare_position) },
      reason: r.reason,
      haltedAt: iso(r.halted_at),
    }));
  }

  /** Stored nodes of several tenants in one query, by tenant then `level/index`. */
  async nodesOf(
    tx: Kysely<Database>,
    wanted: readonly { tenantId: string; ids: readonly NodeId[] }[],
  ): Promise<Map<string, Map<string, Hash>>> {
    const keys = wanted.flatMap((w) => w.ids.map((i) => ({ t: w.tenantId, l: i.level, i: i.index })));
    const out = new Map<string, Map<string, Hash>>(wanted.map((w) => [w.tenantId, new Map()]));
    if (keys.length === 0) return out;
    const rows = await sql<{ tenant_id: string; level: number; idx: string | number; hash: string }>`
      SELECT n.tenant_id, n.level, n.idx, n.hash FROM transparency.nodes n
      JOIN json_to_recordset(${JSON.stringify(keys)}::json) AS k(t uuid, l integer, i bigint)
        ON n.tenant_id = k.t AND n.level = k.l AND n.idx = k.i`.execute(tx);
    for (const r of rows.rows) out.get(r.tenant_id)?.set(`${r.level}/${Number(r.idx)}`, Buffer.from(r.hash, 'hex'));
    return out;
  }

  /**
   * The stored checkpoint of each tree's size, in one query: for a size of 0, any checkpoint the
   * tenant has (none is expected). By tenant; a tenant with none is absent.
   */
  async checkpointsOfSize(
    tx: Kysely<Database>,
    trees: readonly { tenantId: string; size: number }[],
  ): Promise<Map<string, { treeSize: number; rootHash: string; note: string }>> {
    if (trees.length === 0) return new Map();
    const rows = await sql<{ tenant_id: string; tree_size: string | number; root_hash: string; note: string }>`
      SELECT c.tenant_id, c.tree_size, c.root_hash, c.note
      FROM json_to_recordset(${JSON.stringify(trees.map((t) => ({ t: t.tenantId, n: t.size })))}::json) AS k(t uuid, n bigint)
      CROSS JOIN LATERAL (
        SELECT * FROM transparency.checkpoints c
        WHERE c.tenant_id = k.t AND (CASE WHEN k.n = 0 THEN c.tree_size > 0 ELSE c.tree_size = k.n END)
        LIMIT 1
      ) c`.execute(tx);
    return new Map(rows.rows.map((r) => [r.tenant_id, { treeSize: Number(r.tree_size), rootHash: r.root_hash, note: r.note }]));
  }

  /** Stores leaves `from`, `from + 1`, … for these events (the sealer writes its own in saveSealed). */
  async insertLeaves(
    tx: Kysely<Database>,
    tenantId: string,
    from: number,
    events: readonly { id: string; stream: string }[],
  ): Promise<void> {
    if (events.length === 0) return;
    await transparencyDb(tx)
      .insertInto('transparency.leaves')
      .values(events.map((e, k) => ({ tenant_id: tenantId, leaf_index: from + k, event_id: e.id, stream_id: e.stream })))
      .execute();
  }

  /**
   * Writes what sealing a batch made, for every tenant in it, in four statements: the new nodes,
   * the new leaves, the trees' sizes and roots, and the signed checkpoints.
   */
  async saveSealed(
    tx: Kysely<Database>,
    sealed: readonly {
      tenantId: string;
      nodes: readonly (NodeId & { hash: Hash })[];
      from: number;
      /** The new leaves' events, in leaf order. */
      events: readonly { id: string; stream: string }[];
      checkpoint: StoredCheckpoint;
      /** The time of the tree's last leaf (its event's recordedAt). */
      lastAt: string;
    }[],
  ): Promise<void> {
    if (sealed.length === 0) return;
    const nodes = sealed.flatMap((s) => s.nodes.map((n) => ({ t: s.tenantId, l: n.level, i: n.index, h: n.hash.toString('hex') })));
    const leaves = sealed.flatMap((s) => s.events.map((e, k) => ({ t: s.tenantId, i: s.from + k, e: e.id, s: e.stream })));
    const trees = sealed.map((s) => ({
      t: s.tenantId,
      n: s.checkpoint.treeSize,
      r: s.checkpoint.rootHash,
      note: s.checkpoint.note,
      at: s.checkpoint.signedAt,
      last: s.lastAt,
    }));
    await sql`
      INSERT INTO transparency.nodes (tenant_id, level, idx, hash)
      SELECT r.t, r.l, r.i, r.h FROM json_to_recordset(${JSON.stringify(nodes)}::json) AS r(t uuid, l integer, i bigint, h text)`.execute(
      tx,
    );
    await sql`
      INSERT INTO transparency.leaves (tenant_id, leaf_index, event_id, stream_id)
      SELECT r.t, r.i, r.e, r.s FROM json_to_recordset(${JSON.stringify(leaves)}::json) AS r(t uuid, i bigint, e uuid, s text)`.execute(tx);
    await sql`
      INSERT INTO transparency.trees (tenant_id, tree_size, root_hash, updated_at, last_recorded_at)
      SELECT r.t, r.n, r.r, r.at, r.last FROM json_to_recordset(${JSON.stringify(trees)}::json) AS r(t uuid, n bigint, r text, at timestamptz, last timestamptz)
      ON CONFLICT (tenant_id) DO UPDATE SET tree_size = EXCLUDED.tree_size, root_hash = EXCLUDED.root_hash, updated_at = EXCLUDED.updated_at,
        last_recorded_at = EXCLUDED.last_recorded_at`.execute(tx);
    await sql`
      INSERT INTO transparency.checkpoints (tenant_id, tree_size, root_hash, note, signed_at)
      SELECT r.t, r.n, r.r, r.note, r.at FROM json_to_recordset(${JSON.stringify(trees)}::json) AS r(t uuid, n bigint, r text, note text, at timestamptz)`.execute(
      tx,
    );
  }

  /**
   * What an inclusion proof starts from, in one query: the event's leaf index and the newest
   * signed checkpoint (which holds it: both are written in one transaction). Null while unsealed.
   */
  async proofBasis(tenantId: string, eventId: string): Promise<{ leafIndex: number; checkpoint: StoredCheckpoint } | null> {
    const r = await this.db
      .selectFrom('transparency.leaves as l')
      .crossJoinLateral((eb) =>
        eb
          .selectFrom('transparency.checkpoints as cp')
          .select(['cp.tree_size', 'cp.root_hash', 'cp.note', 'cp.signed_at', cosignedLines.as('cosigned')])
          .whereRef('cp.tenant_id', '=', 'l.tenant_id')
          .orderBy('cp.tree_size', 'desc')
          .limit(1)
          .as('c'),
      )
      .select(['l.leaf_index', 'c.tree_size', 'c.root_hash', 'c.note', 'c.signed_at', 'c.cosigned'])
      .where('l.tenant_id', '=', tenantId)
      .where('l.event_id', '=', eventId)
      .executeTakeFirst();
    if (!r) return null;
    const leafIndex = Number(r.leaf_index);
    const cosigned = leafIndex < Number(r.tree_size) ? await this.cosignedCovering(tenantId, leafIndex) : null;
    return { leafIndex, checkpoint: cosigned && cosigned.treeSize < Number(r.tree_size) ? cosigned : this.served(r) };
  }

  /**
   * The newest checkpoint holding leaf `leafIndex` that the witnesses' quorum cosigned, or null:
   * of the newest few with that many stored lines, the first whose lines verify.
   */
  private async cosignedCovering(tenantId: string, leafIndex: number): Promise<StoredCheckpoint | null> {
    if (!this.cosigning || this.cosigning.check.witnesses.length === 0) return null;
    const { check, quorum } = this.cosigning;
    const r = await sql<CheckpointWithLines>`
      SELECT cp.tree_size, cp.root_hash, cp.note, cp.signed_at, ${cosignedLines} AS cosigned
      FROM transparency.checkpoints cp
      WHERE cp.tenant_id = ${tenantId} AND cp.tree_size IN (
        SELECT s.tree_size FROM transparency.cosignatures s
        WHERE s.tenant_id = ${tenantId} AND s.tree_size > ${leafIndex} AND s.witness IN (${sql.join(check.witnesses.map((w) => w.vkey))})
        GROUP BY s.tree_size HAVING count(*) >= ${quorum}
        ORDER BY s.tree_size DESC LIMIT ${COSIGNED_CANDIDATES})
      ORDER BY cp.tree_size DESC`.execute(this.db);
    for (const row of r.rows) {
      const sorted = check.sort(row.note, row.cosigned);
      if (sorted.by.size >= quorum) return storedCheckpoint(row, sorted.lines);
    }
    return null;
  }

  /** The signing keys' public history (signing-key.ts): those `anchor`, the key this process signs with, vouches for. */
  keyHistory(anchor: Buffer, tenantId?: string): Promise<KeyHistoryEntry[]> {
    return keyHistory(this.db, anchor, tenantId);
  }

  /** The newest signed checkpoint of a tenant's log, or null before its first event is sealed. */
  async latestCheckpoint(tenantId: string): Promise<StoredCheckpoint | null> {
    const r = await this.db
      .selectFrom('transparency.checkpoints as cp')
      .select(['tree_size', 'root_hash', 'note', 'signed_at', cosignedLines.as('cosigned')])
      .where('tenant_id', '=', tenantId)
      .orderBy('tree_size', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? this.served(r) : null;
  }

  /**
   * The newest signed checkpoint whose every leaf is at or before `position` in the ledger (its
   * last leaf is: leaves are sealed in ledger order), or null when none is: the checkpoint a read
   * of the read models standing at `position` reflects whole. On EventStoreDB the leaf's position
   * comes from read.event_index (a leaf it has not indexed yet counts as after).
   */
  async latestCheckpointWithin(tenantId: string, position: LedgerPosition): Promise<StoredCheckpoint | null> {
    const last = this.events
      ? sql`SELECT 1 FROM read.event_index i WHERE i.event_id = l.event_id
          AND (i.commit_position, i.prepare_position) <= (${position.commit}::bigint, ${position.prepare}::bigint)`
      : sql`SELECT 1 FROM ledger.events e WHERE e.event_id = l.event_id
          AND (e.transaction_id, e.global_position) <= (${String(position.commit)}::xid8, ${position.prepare}::bigint)`;
    const r = await this.db
      .selectFrom('transparency.checkpoints as cp')
      .innerJoin('transparency.leaves as l', (j) =>
        j.onRef('l.tenant_id', '=', 'cp.tenant_id').on(sql<boolean>`l.leaf_index = cp.tree_size - 1`),
      )
      .select(['cp.tree_size', 'cp.root_hash', 'cp.note', 'cp.signed_at', cosignedLines.as('cosigned')])
      .where('cp.tenant_id', '=', tenantId)
      .where(sql<boolean>`EXISTS (${last})`)
      .orderBy('cp.tree_size', 'desc')
      .limit(1)
      .executeTakeFirst();
    return r ? this.served(r) : null;
  }

  /** Sealed leaves with index > after and < below, in order, at most `limit`. */
  async entries(tenantId: string, after: number, limit: number, below = Number.MAX_SAFE_INTEGER): Promise<LogEntry[]> {
    if (this.events) return this.entriesFromLedger(this.events, tenantId, after, limit, below);
    const rows = await this.db
      .withTables<LedgerDatabase>()
      .selectFrom('transparency.leaves as l')
      .innerJoin('ledger.events as e', 'e.event_id', 'l.event_id')
      .select([
        'l.leaf_index',
        'e.event_id',
        'e.tenant_id',
        'e.stream_id',
        'e.stream_revision',
        'e.event_type',
        'e.data',
        'e.metadata',
        'e.recorded_at',
        'e.prev_hash',
        'e.event_hash',
        'e.authenticator',
      ])
      .where('l.tenant_id', '=', tenantId)
      .where('l.leaf_index', '>', after)
      .where('l.leaf_index', '<', below)
      .orderBy('l.leaf_index')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      leafIndex: Number(r.leaf_index),
      event: {
        id: r.event_id,
        tenantId: r.tenant_id,
        stream: r.stream_id,
        revision: r.stream_revision,
        type: r.event_type,
        data: r.data,
        metadata: r.metadata,
        recordedAt: iso(r.recorded_at),
        prevHash: r.prev_hash,
      },
      eventHash: r.event_hash,
      authenticator: r.authenticator,
    }));
  }

  private async entriesFromLedger(
    events: NonNullable<TransparencyStore['events']>,
    tenantId: string,
    after: number,
    limit: number,
    below: number,
  ): Promise<LogEntry[]> {
    await events.fence(tenantId);
    // read.event_index is a projection's table (projections/event-index): src/ does not import its types.
    const rows = await sql<{ leaf_index: string | number; event_id: string; stream_id: string | null; stream_revision: number | null }>`
      SELECT l.leaf_index, l.event_id, i.stream_id, i.stream_revision
      FROM transparency.leaves l LEFT JOIN read.event_index i ON i.event_id = l.event_id
      WHERE l.tenant_id = ${tenantId}::uuid AND l.leaf_index > ${after} AND l.leaf_index < ${below}
      ORDER BY l.leaf_index
      LIMIT ${limit}`.execute(this.db);
    const streams = new Map<string, Promise<RecordedEvent[]>>();
    const out: LogEntry[] = [];
    for (const r of rows.rows) {
      if (r.stream_id === null || r.stream_revision === null)
        throw new Error(`transparency log of ${tenantId}: leaf ${r.leaf_index} (event ${r.event_id}) is not in the event index yet`);
      let read = streams.get(r.stream_id);
      if (!read) streams.set(r.stream_id, (read = events.ledger.readStream(r.stream_id)));
      const e = (await read)[r.stream_revision];
      if (!e || e.id !== r.event_id)
        throw new Error(
          `transparency log of ${tenantId}: leaf ${r.leaf_index} names event ${r.event_id}, which the ledger does not hold there`,
        );
      const { hash, position: _position, authenticator, ...envelope } = e;
      out.push({ leafIndex: Number(r.leaf_index), event: envelope, eventHash: hash, authenticator: authenticator ?? null });
    }
    return out;
  }
}
