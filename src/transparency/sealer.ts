import type { Kysely } from 'kysely';
import { silentLog, type Log } from '../common/log.js';
import { TableCheckpointer } from '../followers/checkpoints.js';
import { Follower, type Processor } from '../followers/follower.js';
import type { Ledger, RecordedEvent } from '../ledger/ledger.port.js';
import { isTransientError } from '../store/database-errors.js';
import type { Database } from '../store/schema.js';
import { appendLeaves, decompose, eventLeafHash, nodeKey, rangeHash, type Hash, type NodeId } from './merkle.js';
import { parseVerifierKey, signCheckpoint, verifierKey, type NoteSigner, type Verifier } from './note.js';
import { openKeptCheckpoint } from './audit.js';
import { assertCurrentKey, keyHistory } from './signing-key.js';
import { transparencyDb } from './transparency.table.js';
import { TIME_TOLERANCE_MS, type EventAuthenticity } from './event-authenticity.js';
import type { Halt, TransparencyStore } from './transparency.store.js';

export interface SealerOptions {
  batchSize?: number;
  /** How often to look for events appended by other processes. */
  pollMs?: number;
  /** Spacing of poked batches unless a proof waits (PokeLoopOptions.minIntervalMs). */
  minIntervalMs?: number;
  log?: Log;
  clock?: () => Date;
  /** Refuses events the service did not append (src/transparency/event-authenticity.ts); none: every event is sealed. */
  authenticity?: EventAuthenticity;
  /** Called once a batch that signed checkpoints committed (the witness relay asks for cosignatures then). */
  onSealed?: () => void;
}

/** A tree's size and the nodes of its frontier (`decompose(0, size)`), by `level/index`. */
interface Frontier {
  size: number;
  nodes: Map<string, Hash>;
}

/** Why the sealer stops a tenant whose events it read past are neither in the log nor held. */
export const UNHELD =
  'events the sealer read past are neither in the log nor held (transparency.halts or transparency.held changed outside the service): held again from this event on';

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
        processors: [
          sealing(
            store,
            signer,
            originOf,
            options.clock ?? (() => new Date()),
            options.authenticity,
            options.log ?? silentLog,
            options.onSealed,
          ),
        ],
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
 * The events of a tenant the sealer may seal, in order: up to the first that is not the service's
 * own (an authenticator that does not verify) or whose time goes back more than the tolerance
 * from the leaf before it. That one, if any, stops the tenant's sealing.
 */
async function admissible(
  tx: Kysely<Database>,
  events: readonly RecordedEvent[],
  lastAt: string | null,
  authenticity: EventAuthenticity | undefined,
): Promise<{ accepted: RecordedEvent[]; refused?: { event: RecordedEvent; reason: string }; after?: RecordedEvent[] }> {
  let previous = lastAt === null ? undefined : Date.parse(lastAt);
  for (const [i, event] of events.entries()) {
    const problem = authenticity ? await authenticity.problem(event, tx) : null;
    const at = Date.parse(event.recordedAt);
    const reason =
      problem ??
      (previous !== undefined && at < previous - TIME_TOLERANCE_MS
        ? `its time ${event.recordedAt} is ${Math.round((previous - at) / 1000)} s before the leaf before it (tolerance ${TIME_TOLERANCE_MS / 1000} s)`
        : null);
    if (reason) return { accepted: events.slice(0, i), refused: { event, reason }, after: events.slice(i + 1) };
    previous = previous === undefined ? at : Math.max(previous, at);
  }
  return { accepted: [...events] };
}

/**
 * The sealer's processor: per tenant, extends the tree by the tenant's events and signs a
 * checkpoint. Per tenant it keeps the frontier of its tree as this process last sealed it; the
 * new frontiers are kept only once the batch committed. An event that is not the service's own
 * stops its tenant's sealing there (transparency.halts, reported by /ready); other tenants go on.
 */
function sealing(
  store: TransparencyStore,
  signer: NoteSigner,
  originOf: (tenantId: string) => string,
  clock: () => Date,
  authenticity: EventAuthenticity | undefined,
  log: Log,
  onSealed: (() => void) | undefined,
): Processor {
  const frontiers = new Map<string, Frontier>();

  /**
   * Null when the stored frontier of a tenant's tree of `size` leaves gives the root of the stored
   * checkpoint of that size (`signed`), and this log signed it (by a key the current one vouches
   * for); else why not. A tree of no leaves is one only if the tenant has no checkpoint at all.
   */
  async function unsignedTree(
    tenantId: string,
    size: number,
    nodes: Map<string, Hash>,
    signed: { treeSize: number; rootHash: string; note: string } | undefined,
    logKeys: () => Promise<Verifier[]>,
  ): Promise<string | null> {
    const tampered =
      'its tree in transparency.nodes, leaves or trees is not those of a checkpoint the log signed (changed outside the service)';
    if (size === 0) return signed ? tampered : null;
    let root: Hash;
    try {
      root = rangeHash(0, size, (id) => {
        const hash = nodes.get(nodeKey(id));
        if (!hash) throw new Error(`node ${nodeKey(id)} is missing`);
        return hash;
      });
    } catch (error) {
      return `${tampered}: ${(error as Error).message}`;
    }
    if (!signed || signed.treeSize !== size || signed.rootHash !== root.toString('hex')) return tampered;
    try {
      // A checkpoint signed before the service was renamed (PUBLIC_BASE_URL changed, or a restore
      // served elsewhere) names the earlier host: the log's own key signed it under that name.
      const origin = signed.note.slice(0, signed.note.indexOf('\n'));
      const suffix = `/ledger/${tenantId}`;
      if (!origin.endsWith(suffix)) return tampered;
      const name = origin.slice(0, -suffix.length);
      const keys = (await logKeys()).map((k) => parseVerifierKey(verifierKey(name, k.publicKeyRaw)));
      const checkpoint = openKeptCheckpoint(signed.note, keys);
      if (checkpoint.origin === origin && checkpoint.treeSize === size && checkpoint.rootHash.equals(root)) return null;
    } catch {
      // Signed by none of the log's keys, or under no name a key can carry.
    }
    return tampered;
  }

  /** Stops sealing a tenant at `halt` (transparency.halts, /ready), holds `held`, and says why at error level. */
  async function stop(tx: Kysely<Database>, halt: Halt, held: readonly RecordedEvent[], logged: object = {}): Promise<void> {
    await store.halt(tx, halt);
    await store.hold(tx, held);
    log.error({ ...halt, ...logged }, `transparency log of ${halt.tenantId}: sealing stopped at event ${halt.eventId}: ${halt.reason}`);
  }

  /** Whether this process held what an earlier version left out of a stopped tenant's log (once). */
  let caughtUp = false;
  /**
   * Extends every tenant's tree by its events, signs one checkpoint per tenant, and writes it all
   * in a few statements whatever the number of tenants. A tree's frontier (the nodes its next
   * leaves are hashed with) is kept from the previous batch when the locked size shows nobody else
   * sealed since; otherwise it is read, for all such tenants in one query.
   */
  async function seal(
    tx: Kysely<Database>,
    batch: ReadonlyMap<string, readonly RecordedEvent[]>,
    signedAt: Date,
  ): Promise<Map<string, Frontier>> {
    if (!caughtUp) {
      // Events read past with no leaf and nothing holding them: their halt and held rows were
      // deleted behind the service. Held again, and their tenant stopped, named in /ready.
      for (const missing of await store.holdUnsealed(tx, NAME)) await stop(tx, { ...missing, reason: UNHELD }, []);
    }
    // What a cleared halt held goes first, in ledger order, checked again like any event: the
    // ledger's own copy of each, as a held row only names it.
    const { confirmed, unknown } = await store.confirmReleased(tx, await store.takeReleased(tx));
    // One this batch read from the ledger anyway is sealed there, once.
    const inBatch = new Set([...batch.values()].flat().map((e) => e.id));
    const released = new Map([...confirmed].map(([tenantId, events]) => [tenantId, events.filter((e) => !inBatch.has(e.id))] as const));
    for (const e of unknown)
      log.error(
        { tenantId: e.tenantId, eventId: e.id },
        `transparency log of ${e.tenantId}: a held event ${e.id} is not in the ledger, or sealed already, so it is not sealed (again): someone wrote transparency.held`,
      );
    const all = new Map(batch);
    for (const [tenantId, held] of released) all.set(tenantId, [...held, ...(batch.get(tenantId) ?? [])]);
    const trees = await store.lockTrees(tx, [...all.keys()]);
    const halted = await store.haltsOf(tx, [...all.keys()]);
    const byTenant = new Map<string, readonly RecordedEvent[]>();
    for (const [tenantId, events] of all) {
      // Stopped: its events wait for the operator, held (the sealer's position moves on for the others).
      if (halted.has(tenantId)) {
        await store.hold(tx, events);
        continue;
      }
      const { accepted, refused, after } = await admissible(tx, events, trees.get(tenantId)?.lastAt ?? null, authenticity);
      if (refused) {
        const { event, reason } = refused;
        await stop(tx, { tenantId, eventId: event.id, position: event.position, reason }, after ?? [], {
          stream: event.stream,
          type: event.type,
        });
      }
      if (accepted.length > 0) byTenant.set(tenantId, accepted);
    }
    const sizes = new Map([...trees].map(([t, tree]) => [t, tree.size]));
    const stale = [...sizes].filter(([tenantId, size]) => byTenant.has(tenantId) && frontiers.get(tenantId)?.size !== size);
    const read = await store.nodesOf(
      tx,
      stale.map(([tenantId, size]) => ({ tenantId, ids: decompose(0, size) })),
    );
    // A frontier read from the tables (after a restart, or another process's batch) is extended only
    // when it is the tree of a checkpoint this log signed: nodes, leaves or a size written behind the
    // sealer would otherwise be signed over. The tenant stops instead, its events held. The log's
    // keys (this process's, and the retired ones it vouches for) are read once a batch, if needed.
    let keys: Promise<Verifier[]> | undefined;
    const logKeys = () =>
      (keys ??= keyHistory(transparencyDb(tx), signer.publicKey).then((history) =>
        [...new Set([verifierKey(signer.name, signer.publicKey), ...history.map((k) => k.vkey)])].map(parseVerifierKey),
      ));
    const signed = await store.checkpointsOfSize(
      tx,
      stale.map(([tenantId, size]) => ({ tenantId, size })),
    );
    for (const [tenantId, size] of stale) {
      const problem = await unsignedTree(tenantId, size, read.get(tenantId) ?? new Map(), signed.get(tenantId), logKeys);
      if (!problem) continue;
      const events = byTenant.get(tenantId)!;
      await stop(tx, { tenantId, eventId: events[0]!.id, position: events[0]!.position, reason: problem }, events);
      byTenant.delete(tenantId);
    }
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
        events: events.map((e) => ({ id: e.id, stream: e.stream })),
        checkpoint: { treeSize, rootHash: root.toString('hex'), note, signedAt: signedAt.toISOString() },
        lastAt: new Date(
          events.reduce((t, e) => Math.max(t, Date.parse(e.recordedAt)), Date.parse(trees.get(tenantId)?.lastAt ?? '1970-01-01')),
        ).toISOString(),
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
      await assertCurrentKey(tx, signer, { sameName: true });
      // The signed time is whole seconds (c2sp.org/tlog-cosignature); the stored one is the same.
      const next = await seal(tx, byTenant, new Date(Math.floor(clock().getTime() / 1000) * 1000));
      // Committed: the trees' new frontiers are what the next batch extends.
      afterCommit(() => {
        caughtUp = true;
        for (const [tenantId, f] of next) frontiers.set(tenantId, f);
        if (next.size > 0) onSealed?.();
      });
    },
  };
}
