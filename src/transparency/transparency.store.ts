import { sql, type Kysely } from 'kysely';
import type { EventEnvelope } from '../ledger/event-hash.js';
import type { Database } from '../store/schema.js';
import { nodeKey, type Hash, type NodeId, type NodeSource } from './merkle.js';

export interface StoredCheckpoint {
  treeSize: number;
  rootHash: string;
  note: string;
  signedAt: string;
}

export interface LogEntry {
  leafIndex: number;
  event: EventEnvelope;
  eventHash: string;
}

const iso = (v: Date | string): string => (v instanceof Date ? v : new Date(v)).toISOString();

/** Reads and writes of the transparency schema (see migration 0005_transparency). */
export class TransparencyStore {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored nodes asked for, as a lookup that throws on a node the store does not hold. */
  async nodes(tenantId: string, ids: readonly NodeId[], db: Kysely<Database> = this.db): Promise<NodeSource> {
    const found = new Map<string, Hash>();
    if (ids.length > 0) {
      const rows = await sql<{ level: number; idx: string | number; hash: string }>`
        SELECT n.level, n.idx, n.hash FROM transparency.nodes n
        JOIN json_to_recordset(${JSON.stringify(ids.map((i) => ({ l: i.level, i: i.index })))}::json) AS k(l integer, i bigint)
          ON n.level = k.l AND n.idx = k.i
        WHERE n.tenant_id = ${tenantId}::uuid`.execute(db);
      for (const r of rows.rows) found.set(`${r.level}/${Number(r.idx)}`, Buffer.from(r.hash, 'hex'));
    }
    return (id) => {
      const hash = found.get(nodeKey(id));
      if (!hash) throw new Error(`transparency log of ${tenantId}: node ${nodeKey(id)} is missing`);
      return hash;
    };
  }

  async insertNodes(tx: Kysely<Database>, tenantId: string, nodes: readonly (NodeId & { hash: Hash })[]): Promise<void> {
    const rows = nodes.map((n) => ({ l: n.level, i: n.index, h: n.hash.toString('hex') }));
    await sql`
      INSERT INTO transparency.nodes (tenant_id, level, idx, hash)
      SELECT ${tenantId}::uuid, r.l, r.i, r.h FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(l integer, i bigint, h text)`.execute(tx);
  }

  async insertLeaves(tx: Kysely<Database>, tenantId: string, from: number, eventIds: readonly string[]): Promise<void> {
    const rows = eventIds.map((id, k) => ({ i: from + k, e: id }));
    await sql`
      INSERT INTO transparency.leaves (tenant_id, leaf_index, event_id)
      SELECT ${tenantId}::uuid, r.i, r.e FROM json_to_recordset(${JSON.stringify(rows)}::json) AS r(i bigint, e uuid)`.execute(tx);
  }

  /** The tree's size, with its row locked until the transaction ends. */
  async lockTree(tx: Kysely<Database>, tenantId: string): Promise<number> {
    const row = await sql<{ tree_size: string | number }>`
      SELECT tree_size FROM transparency.trees WHERE tenant_id = ${tenantId}::uuid FOR UPDATE`.execute(tx);
    return Number(row.rows[0]?.tree_size ?? 0);
  }

  async saveTree(tx: Kysely<Database>, tenantId: string, checkpoint: StoredCheckpoint): Promise<void> {
    await sql`
      INSERT INTO transparency.trees (tenant_id, tree_size, root_hash, updated_at)
      VALUES (${tenantId}::uuid, ${checkpoint.treeSize}, ${checkpoint.rootHash}, ${checkpoint.signedAt})
      ON CONFLICT (tenant_id) DO UPDATE SET tree_size = EXCLUDED.tree_size, root_hash = EXCLUDED.root_hash, updated_at = EXCLUDED.updated_at`.execute(tx);
    await sql`
      INSERT INTO transparency.checkpoints (tenant_id, tree_size, root_hash, note, signed_at)
      VALUES (${tenantId}::uuid, ${checkpoint.treeSize}, ${checkpoint.rootHash}, ${checkpoint.note}, ${checkpoint.signedAt})`.execute(tx);
  }

  /** The newest signed checkpoint of a tenant's log, or null before its first event is sealed. */
  async latestCheckpoint(tenantId: string): Promise<StoredCheckpoint | null> {
    const row = await sql<{ tree_size: string | number; root_hash: string; note: string; signed_at: Date | string }>`
      SELECT tree_size, root_hash, note, signed_at FROM transparency.checkpoints
      WHERE tenant_id = ${tenantId}::uuid ORDER BY tree_size DESC LIMIT 1`.execute(this.db);
    const r = row.rows[0];
    return r ? { treeSize: Number(r.tree_size), rootHash: r.root_hash, note: r.note, signedAt: iso(r.signed_at) } : null;
  }

  /** The leaf index of an event, or null while it is not sealed. */
  async leafOf(tenantId: string, eventId: string): Promise<number | null> {
    const row = await sql<{ leaf_index: string | number }>`
      SELECT leaf_index FROM transparency.leaves WHERE tenant_id = ${tenantId}::uuid AND event_id = ${eventId}::uuid`.execute(this.db);
    const r = row.rows[0];
    return r ? Number(r.leaf_index) : null;
  }

  /** Sealed leaves with index > after and < below, in order, at most `limit`. */
  async entries(tenantId: string, after: number, limit: number, below = Number.MAX_SAFE_INTEGER): Promise<LogEntry[]> {
    const rows = await sql<{
      leaf_index: string | number;
      event_id: string;
      tenant_id: string;
      stream_id: string;
      stream_revision: number;
      event_type: string;
      data: Record<string, unknown>;
      metadata: Record<string, unknown>;
      recorded_at: Date | string;
      prev_hash: string | null;
      event_hash: string;
    }>`
      SELECT l.leaf_index, e.event_id, e.tenant_id, e.stream_id, e.stream_revision, e.event_type, e.data, e.metadata,
             e.recorded_at, e.prev_hash, e.event_hash
      FROM transparency.leaves l JOIN ledger.events e ON e.event_id = l.event_id
      WHERE l.tenant_id = ${tenantId}::uuid AND l.leaf_index > ${after} AND l.leaf_index < ${below}
      ORDER BY l.leaf_index
      LIMIT ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({
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
    }));
  }
}
