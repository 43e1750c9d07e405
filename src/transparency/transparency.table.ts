import type { ColumnType, Kysely, Selectable } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * `transparency` schema (migration 0005_transparency): each tenant's Merkle tree (RFC 9162), its
 * signed checkpoints and the signing key. Kept, not rebuilt: the checkpoints were published.
 * bigint columns come back as numbers (src/store/store.ts parses int8).
 */
export interface TreesTable {
  tenant_id: string;
  tree_size: number;
  root_hash: string;
  updated_at: ColumnType<Date, string | undefined, string>;
  /** The recordedAt of the last leaf's event (migration 0012); null for trees sealed before. */
  last_recorded_at: ColumnType<Date | null, string | null | undefined, string | null>;
}
/** Node (level, idx) covers leaves [idx * 2^level, (idx + 1) * 2^level); level 0 is a leaf hash. */
export interface NodesTable {
  tenant_id: string;
  level: number;
  idx: number;
  /** Hex. */
  hash: string;
}
export interface LeavesTable {
  tenant_id: string;
  leaf_index: number;
  event_id: string;
  /** The event's ledger stream (null for an EventStoreDB ledger's leaves sealed before 0034). */
  stream_id: string | null;
}
export interface CheckpointsTable {
  tenant_id: string;
  tree_size: number;
  root_hash: string;
  /** The signed note (C2SP), as served. */
  note: string;
  signed_at: ColumnType<Date, string, never>;
}
export type CheckpointRow = Selectable<CheckpointsTable>;
/** Where versions before 0010 kept the signing seed; emptied on start (src/transparency/signing-key.ts). */
export interface SigningKeysTable {
  purpose: string;
  /** The Ed25519 seed, base64. */
  seed: string;
  public_key: string;
  created_at: ColumnType<Date, string | undefined, never>;
}

/** The public halves of every signing key, the current one with `retired_at` null (migration 0010). */
export interface KeyHistoryTable {
  /** base64 of the 32 raw Ed25519 bytes. */
  public_key: string;
  vkey: string;
  activated_at: ColumnType<Date, string | undefined, never>;
  retired_at: ColumnType<Date | null, string | undefined, string>;
  /** A retired key's successor (base64 public key) and its signature naming this key (migration 0028). */
  successor_key: ColumnType<string | null, string | undefined, string>;
  successor_signature: ColumnType<string | null, string | undefined, string>;
  /** The retired key's own signature of that statement, made by the rotation (migration 0030; null before it). */
  handover_signature: ColumnType<string | null, string | undefined, string>;
  /** `<commit>.<prepare>`: the last ledger position the retired key authenticates, in its statement (migration 0032; null before it). */
  retired_position: ColumnType<string | null, string | null | undefined, string | null>;
}
/** Which key vouched, on the first start that signed successions, for the keys retired before (insert-once). */
export interface KeyChainStartTable {
  only_row: ColumnType<boolean, boolean | undefined, never>;
  public_key: string;
  recorded_at: ColumnType<Date, string | undefined, never>;
}
/** Per retired key and tenant: the size of the tenant's tree when the key was retired. */
export interface KeyTreeSizesTable {
  public_key: string;
  tenant_id: string;
  last_size: number;
}

/** An event of a tenant whose sealing stopped, held until the halt is cleared (migration 0029). */
export interface HeldTable {
  tenant_id: string;
  commit_position: number;
  prepare_position: number;
  /** The RecordedEvent as the sealer read it. */
  event: ColumnType<unknown, string, never>;
}

/** A tenant whose sealing stopped at an event (migration 0012). */
export interface HaltsTable {
  tenant_id: string;
  event_id: string;
  commit_position: number;
  prepare_position: number;
  reason: string;
  halted_at: ColumnType<Date, string | undefined, never>;
}

/** A witness's cosignature line on a checkpoint (migration 0014), served after the log's own lines. */
export interface CosignaturesTable {
  tenant_id: string;
  tree_size: number;
  /** The witness's cosignature vkey (WITNESSES). */
  witness: string;
  line: string;
  cosigned_at: ColumnType<Date, string, never>;
}

/** Per witness and tenant: the size it last cosigned as far as the log knows, and its last failure. */
export interface WitnessStateTable {
  witness: string;
  tenant_id: string;
  tree_size: number;
  failure: string | null;
  failed_at: Date | null;
  updated_at: ColumnType<Date, string | undefined, unknown>;
}

// A type alias (not an interface) so that it has the index signature `withTables` asks for.
// transparency.sealer, the sealer's follower checkpoint, is declared with the sealer.
export type TransparencyDatabase = {
  'transparency.trees': TreesTable;
  'transparency.nodes': NodesTable;
  'transparency.leaves': LeavesTable;
  'transparency.checkpoints': CheckpointsTable;
  'transparency.signing_keys': SigningKeysTable;
  'transparency.key_history': KeyHistoryTable;
  'transparency.key_chain_start': KeyChainStartTable;
  'transparency.key_tree_sizes': KeyTreeSizesTable;
  'transparency.halts': HaltsTable;
  'transparency.held': HeldTable;
  'transparency.cosignatures': CosignaturesTable;
  'transparency.witness_state': WitnessStateTable;
};

export type TransparencyDb = Kysely<Database & TransparencyDatabase>;

/** The store's handle, seeing the `transparency` tables too. */
export const transparencyDb = (db: Kysely<Database>): TransparencyDb => db.withTables<TransparencyDatabase>();
