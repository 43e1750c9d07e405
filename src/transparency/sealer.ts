import { sql, type Kysely } from 'kysely';
import { isTransientError, type RunnerLog } from '../../projections/runner.js';
import { PokeLoop } from '../shared/poke-loop.js';
import { comparePositions, START, type Ledger, type LedgerPosition, type RecordedEvent } from '../ledger/ledger.port.js';
import { PositionWaiters } from '../ledger/position-waiters.js';
import type { Database } from '../store/schema.js';
import { appendLeaves, decompose, eventLeafHash, nodeKey, rangeHash, type Hash } from './merkle.js';
import { checkpointText, signNote, type NoteSigner } from './note.js';
import type { TransparencyStore } from './transparency.store.js';

export interface SealerOptions {
  batchSize?: number;
  /** How often to look for events appended by other processes. */
  pollMs?: number;
  log?: RunnerLog;
  clock?: () => Date;
}

const silent: RunnerLog = { warn: () => undefined, error: () => undefined };
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
  private readonly loop: PokeLoop;
  /** Where the next read starts: the sealer's checkpoint as this process last saw it. */
  private cursor: LedgerPosition | undefined;
  private readonly batchSize: number;
  private readonly log: RunnerLog;
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
    this.log = options.log ?? silent;
    this.clock = options.clock ?? (() => new Date());
    // A failure here is never "skip this event": a leaf left out would change every later leaf
    // index. The loop retries with back-off, and says so loudly when it is not the database's.
    this.loop = new PokeLoop('transparency sealer', async () => ({ more: (await this.runOnce()) >= this.batchSize }), {
      pollMs: options.pollMs ?? 250,
      log: this.log,
      levelOf: (error) => (isTransientError(error) ? 'warn' : 'error'),
    });
  }

  /** The ledger position sealed so far, as last seen. */
  get position(): LedgerPosition {
    return this.progress.position;
  }

  async start(): Promise<void> {
    await sql`INSERT INTO transparency.sealer (name, commit_position, prepare_position) VALUES (${NAME}, 0, 0) ON CONFLICT (name) DO NOTHING`.execute(this.db);
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
        const signedAt = this.clock().toISOString();
        for (const [tenantId, list] of byTenant) await this.seal(tx, tenantId, list, signedAt);
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
    this.advance(events[events.length - 1]!.position);
    return events.length;
  }

  private async seal(tx: Kysely<Database>, tenantId: string, events: readonly RecordedEvent[], signedAt: string): Promise<void> {
    const size = await this.store.lockTree(tx, tenantId);
    const frontier = await this.store.nodes(tenantId, decompose(0, size), tx);
    const created = appendLeaves(size, frontier, events.map((e) => eventLeafHash(e.hash)));
    const fresh = new Map<string, Hash>(created.map((n) => [nodeKey(n), n.hash]));
    const treeSize = size + events.length;
    const root = rangeHash(0, treeSize, (id) => fresh.get(nodeKey(id)) ?? frontier(id));
    await this.store.insertNodes(tx, tenantId, created);
    await this.store.insertLeaves(tx, tenantId, size, events.map((e) => e.id));
    const note = signNote(checkpointText({ origin: this.originOf(tenantId), treeSize, rootHash: root }), this.signer);
    await this.store.saveTree(tx, tenantId, { treeSize, rootHash: root.toString('hex'), note, signedAt });
  }

  private advance(position: LedgerPosition): void {
    if (!this.cursor || comparePositions(position, this.cursor) > 0) this.cursor = position;
    this.progress.advance(position);
  }
}
