import type { Kysely } from 'kysely';
import type { Log } from '../common/log.js';
import { TableCheckpointer } from '../followers/checkpoints.js';
import { Follower, type Processor } from '../followers/follower.js';
import type { Ledger, RecordedEvent } from '../ledger/ledger.port.js';
import { isTransientError } from '../store/database-errors.js';
import type { Database } from '../store/schema.js';
import { appendLeaves, decompose, eventLeafHash, nodeKey, rangeHash, type Hash, type NodeId } from './merkle.js';
import { signCheckpoint, type NoteSigner } from './note.js';
import { assertCurrentKey } from './signing-key.js';
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

/** The sealer's checkpoint row in transparency.sealer. */
const NAME = 'merkle';

/**
 * Seals ledger events into each tenant's Merkle tree and signs a checkpoint per tenant after each
 * batch: a follower (src/followers/follower.ts) with one processor and one checkpoint row, locked,
 * moved in the transaction that writes the leaves: several processes seal each event once.
 *
 * A failure is never "skip this event": a leaf left out would change every later leaf index. The
 * loop retries with back-off, and logs at error level when the failure is not the database's.
 *
 * @example
 * const sealer = new Sealer(db, ledger, store, signer, (t) => `ledger.example.com/ledger/${t}`);
 * await sealer.start();
 * await sealer.waitFor(appended.position, 1000);
 */
export class Sealer extends Follower {
  constructor(
    db: Kysely<Database>,
    ledger: Ledger,
    store: TransparencyStore,
    signer: NoteSigner,
    originOf: (tenantId: string) => string,
    options: SealerOptions = {},
  ) {
    super(
      db,
      ledger,
      {
        name: 'transparency sealer',
        checkpoints: new TableCheckpointer('transparency.sealer'),
        processors: [sealing(store, signer, originOf, options.clock ?? (() => new Date()))],
        levelOf: (error) => (isTransientError(error) ? 'warn' : 'error'),
      },
      options,
    );
  }

  /** Creates the sealer's checkpoint row when missing (start does; `runOnce` needs it). */
  ensureCheckpoint(): Promise<void> {
    return this.ensureCheckpoints();
  }
}

/**
 * The sealer's processor: per tenant, extends the tree by the tenant's events and signs a
 * checkpoint. Per tenant it keeps the frontier of its tree as this process last sealed it; the
 * new frontiers are kept only once the batch committed.
 */
function sealing(store: TransparencyStore, signer: NoteSigner, originOf: (tenantId: string) => string, clock: () => Date): Processor {
  const frontiers = new Map<string, Frontier>();
  /**
   * Extends every tenant's tree by its events, signs one checkpoint per tenant, and writes it all
   * in a few statements whatever the number of tenants. A tree's frontier (the nodes its next
   * leaves are hashed with) is kept from the previous batch when the locked size shows nobody else
   * sealed since; otherwise it is read, for all such tenants in one query.
   */
  async function seal(
    tx: Kysely<Database>,
    byTenant: ReadonlyMap<string, readonly RecordedEvent[]>,
    signedAt: Date,
  ): Promise<Map<string, Frontier>> {
    const sizes = await store.lockTrees(tx, [...byTenant.keys()]);
    const stale = [...sizes].filter(([tenantId, size]) => frontiers.get(tenantId)?.size !== size);
    const read = await store.nodesOf(
      tx,
      stale.map(([tenantId, size]) => ({ tenantId, ids: decompose(0, size) })),
    );
    const next = new Map<string, Frontier>();
    const sealed: Parameters<TransparencyStore['saveSealed']>[1][number][] = [];
    for (const [tenantId, events] of byTenant) {
      const size = sizes.get(tenantId) ?? 0;
      const known = read.get(tenantId) ?? frontiers.get(tenantId)!.nodes;
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
      const note = signCheckpoint({ origin: originOf(tenantId), treeSize, rootHash: root }, signer, signedAt);
      sealed.push({
        tenantId,
        nodes: created,
        from: size,
        eventIds: events.map((e) => e.id),
        checkpoint: { treeSize, rootHash: root.toString('hex'), note, signedAt: signedAt.toISOString() },
      });
      next.set(tenantId, { size: treeSize, nodes: new Map(decompose(0, treeSize).map((id) => [nodeKey(id), lookup(id)])) });
    }
    await store.saveSealed(tx, sealed);
    return next;
  }

  return {
    processorId: NAME,
    async handle(tx, events, { afterCommit }) {
      const byTenant = new Map<string, RecordedEvent[]>();
      for (const e of events) {
        const list = byTenant.get(e.tenantId);
        if (list) list.push(e);
        else byTenant.set(e.tenantId, [e]);
      }
      // Signed only with the log's current key (a rotation waits for this batch, and stops the next).
      await assertCurrentKey(tx, signer);
      // The signed time is whole seconds (c2sp.org/tlog-cosignature); the stored one is the same.
      const next = await seal(tx, byTenant, new Date(Math.floor(clock().getTime() / 1000) * 1000));
      // Committed: the trees' new frontiers are what the next batch extends.
      afterCommit(() => {
        for (const [tenantId, f] of next) frontiers.set(tenantId, f);
      });
    },
  };
}
