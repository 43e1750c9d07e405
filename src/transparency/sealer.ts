import { sql, type Kysely } from 'kysely';
import { silentLog, type Log } from '../common/log.js';
import { PokeLoop } from '../common/poke-loop.js';
import { comparePositions, START, type Ledger, type LedgerPosition, type RecordedEvent } from '../ledger/ledger.port.js';
import { PositionWaiters } from '../followers/position-waiters.js';
import { isTransientError } from '../store/database-errors.js';
import type { Database } from '../store/schema.js';
import { appendLeaves, decompose, eventLeafHash, nodeKey, rangeHash, type Hash, type NodeId } from './merkle.js';
import { checkpointText, signNote, type NoteSigner } from './note.js';
import type { TransparencyStore } from './transparency.store.js';

export interface SealerOptions {
  batchSize?: number;
  /** How often to look for events appended by other processes. */
  pollMs?: number;
  /** Spacing of poked batches unless a proof waits (PokeLoopOptions.minIntervalMs). */
  minIntervalMs?: number;
  log?: Log;
  clock?: () => Date;
}

/** A tree's size and the nodes of its frontier (`decompose(0, size)`), by `level/index`. */
interface Frontier {
  size: number;
  nodes: Map<string, Hash>;
}

const NAME = 'merkle';

/**
 * Seals ledger events into each tenant's Merkle tree and signs a checkpoint per tenant after each
 * batch. Like the projection runner, it reads the ledger in order and applies a batch in one
 * transaction that also moves its checkpoint row, locked: several processes seal each event once.
 *
 * @example
 * const sealer = new Sealer(db, ledger, store, signer, (t) => `ledger.example.com/ledger/${t}`);
 * await sealer.start();
 * await sealer.waitFor(appended.position, 1000);
 */
export class Sealer {
  private readonly progress = new PositionWaiters();
  /** Per tenant, the frontier of its tree as this process last sealed it. */
  private readonly frontiers = new Map<string, Frontier>();
  private readonly loop: PokeLoop;
  /** Where the next read starts: the sealer's checkpoint as this process last saw it. */
  private cursor: LedgerPosition | undefined;
  private readonly batchSize: number;
  private readonly log: Log;
  private readonly clock: () => Date;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly ledger: Ledger,
    private readonly store: TransparencyStore,
    private readonly signer: NoteSigner,
    private readonly originOf: (tenantId: string) => string,
    options: SealerOptions = {},
  ) {
    this.batchSize = options.batchSize ?? 1000;
    this.log = options.log ?? silentLog;
    this.clock = options.clock ?? (() => new Date());
    // A failure here is never "skip this event": a leaf left out would change every later leaf
    // index. The loop retries with back-off, and says so loudly when it is not the database's.
    this.loop = new PokeLoop('transparency sealer', async () => ({ more: (await this.runOnce()) >= this.batchSize }), {
      pollMs: options.pollMs ?? 250,
      log: this.log,
      levelOf: (error) => (isTransientError(error) ? 'warn' : 'error'),
      minIntervalMs: options.minIntervalMs ?? 0,
      isUrgent: () => this.progress.waiting,
    });
  }

  /** The ledger position sealed so far, as last seen. */
  get position(): LedgerPosition {
    return this.progress.position;
  }

  /** Creates the sealer's checkpoint row when missing (start does; `runOnce` needs it). */
  async ensureCheckpoint(): Promise<void> {
    await sql`INSERT INTO transparency.sealer (name, commit_position, prepare_position) VALUES (${NAME}, 0, 0) ON CONFLICT (name) DO NOTHING`.execute(
      this.db,
    );
  }

  async start(): Promise<void> {
    await this.ensureCheckpoint();
    this.loop.start();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.progress.cancelAll();
  }

  /** Asks the sealer to look for new events now (called after every append). */
  poke(): void {
    this.loop.poke();
  }

  /** Resolves true once the events up to `target` are sealed, false after `timeoutMs`. */
  waitFor(target: LedgerPosition, timeoutMs: number): Promise<boolean> {
    return this.progress.waitFor(target, timeoutMs, () => this.poke());
  }

  /** One batch: read after the checkpoint, extend the trees, sign, move the checkpoint. Answers how many events were read. */
  async runOnce(): Promise<number> {
    if (this.cursor === undefined) {
      const row = await sql<{ commit_position: string | number; prepare_position: string | number }>`
        SELECT commit_position, prepare_position FROM transparency.sealer WHERE name = ${NAME}`.execute(this.db);
      const r = row.rows[0];
      this.cursor = r ? { commit: Number(r.commit_position), prepare: Number(r.prepare_position) } : START;
    }
    const from = this.cursor;
    const events = await this.ledger.readAll(from, this.batchSize);
    if (events.length === 0) {
      this.advance(from);
      return 0;
    }
    let movedBack = false;
    let frontiers: Map<string, Frontier> | undefined;
    try {
      await this.db.transaction().execute(async (tx) => {
        const locked = await sql<{ commit_position: string | number; prepare_position: string | number }>`
          SELECT commit_position, prepare_position FROM transparency.sealer WHERE name = ${NAME} FOR UPDATE`.execute(tx);
        const l = locked.rows[0];
        const at = l ? { commit: Number(l.commit_position), prepare: Number(l.prepare_position) } : START;
        // Behind where we read from: never seal past a gap; read again from the stored checkpoint.
        if (comparePositions(at, from) < 0) {
          movedBack = true;
          return;
        }
        const fresh = events.filter((e) => comparePositions(e.position, at) > 0);
        if (fresh.length === 0) return;
        const byTenant = new Map<string, RecordedEvent[]>();
        for (const e of fresh) {
          const list = byTenant.get(e.tenantId);
          if (list) list.push(e);
          else byTenant.set(e.tenantId, [e]);
        }
        frontiers = await this.seal(tx, byTenant, this.clock().toISOString());
        const last = fresh[fresh.length - 1]!.position;
        await sql`
          UPDATE transparency.sealer SET commit_position = ${last.commit}, prepare_position = ${last.prepare}, updated_at = now()
          WHERE name = ${NAME}`.execute(tx);
      });
    } catch (error) {
      this.cursor = undefined;
      throw error;
    }
    if (movedBack) {
      this.cursor = undefined;
      return 0;
    }
    // Committed: the trees' new frontiers are what the next batch extends.
    for (const [tenantId, f] of frontiers ?? []) this.frontiers.set(tenantId, f);
    this.advance(events[events.length - 1]!.position);
    return events.length;
  }

  /**
   * Extends every tenant's tree by its events, signs one checkpoint per tenant, and writes it all
   * in a few statements whatever the number of tenants. A tree's frontier (the nodes its next
   * leaves are hashed with) is kept from the previous batch when the locked size shows nobody else
   * sealed since; otherwise it is read, for all such tenants in one query.
   */
  private async seal(
    tx: Kysely<Database>,
    byTenant: ReadonlyMap<string, readonly RecordedEvent[]>,
    signedAt: string,
  ): Promise<Map<string, Frontier>> {
    const sizes = await this.store.lockTrees(tx, [...byTenant.keys()]);
    const stale = [...sizes].filter(([tenantId, size]) => this.frontiers.get(tenantId)?.size !== size);
    const read = await this.store.nodesOf(
      tx,
      stale.map(([tenantId, size]) => ({ tenantId, ids: decompose(0, size) })),
    );
    const next = new Map<string, Frontier>();
    const sealed: Parameters<TransparencyStore['saveSealed']>[1][number][] = [];
    for (const [tenantId, events] of byTenant) {
      const size = sizes.get(tenantId) ?? 0;
      const known = read.get(tenantId) ?? this.frontiers.get(tenantId)!.nodes;
      const frontier = (id: NodeId): Hash => {
        const hash = known.get(nodeKey(id));
        if (!hash) throw new Error(`transparency log of ${tenantId}: node ${nodeKey(id)} is missing`);
        return hash;
      };
      const created = appendLeaves(
        size,
        frontier,
        events.map((e) => eventLeafHash(e.hash)),
      );
      const fresh = new Map<string, Hash>(created.map((n) => [nodeKey(n), n.hash]));
      const lookup = (id: NodeId) => fresh.get(nodeKey(id)) ?? frontier(id);
      const treeSize = size + events.length;
      const root = rangeHash(0, treeSize, lookup);
      const note = signNote(checkpointText({ origin: this.originOf(tenantId), treeSize, rootHash: root }), this.signer);
      sealed.push({
        tenantId,
        nodes: created,
        from: size,
        eventIds: events.map((e) => e.id),
        checkpoint: { treeSize, rootHash: root.toString('hex'), note, signedAt },
      });
      next.set(tenantId, { size: treeSize, nodes: new Map(decompose(0, treeSize).map((id) => [nodeKey(id), lookup(id)])) });
    }
    await this.store.saveSealed(tx, sealed);
    return next;
  }

  private advance(position: LedgerPosition): void {
    if (!this.cursor || comparePositions(position, this.cursor) > 0) this.cursor = position;
    this.progress.advance(position);
  }
}
