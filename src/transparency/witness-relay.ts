import { sql, type Kysely } from 'kysely';
import { silentLog, type Log } from '../common/log.js';
import { PokeLoop } from '../common/poke-loop.js';
import type { Database } from '../store/schema.js';
import { consistencyRanges } from './merkle.js';
import { NoteError, parseVerifierKey, signedTime, type Verifier } from './note.js';
import { CosignatureCheck, REMEMBERED } from './cosignature-check.js';
import { cosignedLines, type TransparencyStore } from './transparency.store.js';
import { transparencyDb, type TransparencyDb } from './transparency.table.js';

/** A witness the log asks to cosign its checkpoints: its cosignature key and its base URL. */
export interface WitnessSpec {
  /** `<name>+<hex key id>+<base64(0x04 ‖ public key)>`, as the witness prints it. */
  vkey: string;
  verifier: Verifier;
  url: string;
}

export class WitnessSettingError extends Error {
  override readonly name = 'WitnessSettingError';
}

/**
 * WITNESSES: comma-separated `VKEY@URL`, the witness's cosignature vkey and its base URL
 * (`POST <URL>/add-checkpoint`). Throws WitnessSettingError naming the entry that is wrong.
 */
export function parseWitnesses(raw: string | undefined): WitnessSpec[] {
  if (raw === undefined || raw.trim() === '') return [];
  return raw.split(',').map((entry) => {
    const e = entry.trim();
    const at = e.lastIndexOf('@http');
    if (at <= 0) throw new WitnessSettingError(`WITNESSES: "${e}" is not VKEY@URL (the witness's vkey, then @ and its http(s):// URL)`);
    const vkey = e.slice(0, at);
    let url: URL;
    try {
      url = new URL(e.slice(at + 1));
    } catch {
      throw new WitnessSettingError(`WITNESSES: ${e.slice(at + 1)} is not a URL`);
    }
    let verifier: Verifier;
    try {
      verifier = parseVerifierKey(vkey);
    } catch (error) {
      throw new WitnessSettingError(`WITNESSES: ${vkey}: ${(error as NoteError).message}`);
    }
    if (verifier.type !== 0x04)
      throw new WitnessSettingError(`WITNESSES: ${vkey} is a log key; give the witness's cosignature vkey (type 0x04)`);
    return { vkey, verifier, url: url.href.replace(/\/$/, '') };
  });
}

export interface WitnessStatus {
  quorum: number;
  /** Whether every tenant's newest checkpoint (past the grace) carries the quorum's cosignatures. */
  quorumReached: boolean;
  witnesses: { name: string; vkey: string; url: string; failing: { tenantId: string; error: string; since: string }[] }[];
  /** Tenants whose newest checkpoint (signed more than the grace ago) has fewer cosignatures than the quorum. */
  belowQuorum: { tenantId: string; treeSize: number; cosignatures: number; signedAt: string }[];
}

export interface WitnessRelayOptions {
  quorum?: number;
  log?: Log;
  /** How often to look for checkpoints signed by other processes, or to retry a failing witness. */
  pollMs?: number;
  /** How long one witness may take to answer. */
  timeoutMs?: number;
  /** How long after a failure a witness is asked again. */
  retryMs?: number;
  /** A checkpoint younger than this is not yet reported below quorum in /ready. */
  graceMs?: number;
  /** How often the stored cosignatures of each tenant's newest checkpoint are checked (default 30 s). */
  sweepMs?: number;
  fetch?: typeof fetch;
}

/** The line of a witness's answer that is its cosignature on `note` and verifies, with its time; undefined when none. */
function cosignatureIn(answer: string, note: string, witness: Verifier): { line: string; at: Date } | undefined {
  for (const line of answer.split('\n')) {
    try {
      const at = signedTime(`${note}${line}\n`, witness);
      if (at) return { line, at };
    } catch {
      // a line by another key, or one that does not verify: not this witness's cosignature
    }
  }
  return undefined;
}

/** A tenant's newest checkpoint and a digest of its rows by the witnesses asked. */
interface CountedRow {
  tenant_id: string;
  tree_size: string | number;
  digest: string | null;
}

/** A checkpoint's rows as /ready counts them: a row changed, added or removed is counted again. */
const countKey = (r: CountedRow): string => `${r.tenant_id}\n${Number(r.tree_size)}\n${r.digest ?? ''}`;

/** Tenants asked per witness per step. */
const PAGE = 100;
/** Stored cosignatures read per query of a sweep. */
const SWEEP_PAGE = 500;

/**
 * Asks each witness (c2sp.org/tlog-witness) to cosign the newest checkpoint of every tenant's log,
 * with a consistency proof from the size that witness last cosigned, and keeps the cosignature
 * lines (transparency.cosignatures), which are served after the log's own signature lines. Runs
 * beside the sealer, poked when it seals; a witness that is down delays nothing but its own
 * cosignatures. A witness that refuses because it cosigned a larger tree than the log now holds
 * has seen a rollback: logged at error level and reported by /ready.
 *
 * @example
 * const relay = new WitnessRelay(db, store, parseWitnesses(process.env.WITNESSES), { quorum: 1, log });
 * relay.start();
 * sealerSealed(() => relay.poke());
 */
export class WitnessRelay {
  readonly name = 'witness relay';
  private readonly db: TransparencyDb;
  private readonly loop: PokeLoop;
  readonly quorum: number;
  private readonly log: Log;
  private readonly fetch: typeof fetch;
  /** Checks stored lines by these witnesses' keys; the transparency store serves through it too. */
  readonly check: CosignatureCheck;
  private sweptAt = -Infinity;
  /** Verified cosignatures per checkpoint and set of rows (countKey), for /ready. */
  private readonly counted = new Map<string, number>();

  constructor(
    db: Kysely<Database>,
    private readonly store: TransparencyStore,
    readonly witnesses: readonly WitnessSpec[],
    private readonly options: WitnessRelayOptions = {},
  ) {
    this.db = transparencyDb(db);
    this.quorum = options.quorum ?? witnesses.length;
    if (witnesses.length > 0 && !(Number.isInteger(this.quorum) && this.quorum >= 1 && this.quorum <= Math.max(witnesses.length, 1))) {
      throw new WitnessSettingError(`WITNESS_QUORUM must be from 1 to the number of WITNESSES (${witnesses.length})`);
    }
    this.log = options.log ?? silentLog;
    this.fetch = options.fetch ?? fetch;
    this.check = new CosignatureCheck(witnesses);
    this.loop = new PokeLoop(this.name, async () => ({ more: await this.runOnce() }), { pollMs: options.pollMs ?? 1_000, log: this.log });
  }

  start(): void {
    if (this.witnesses.length > 0) this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  poke(): void {
    this.loop.poke();
  }

  /** One pass over every witness: answers whether some tenant was left for the next pass. */
  async runOnce(): Promise<boolean> {
    if (Date.now() - this.sweptAt >= (this.options.sweepMs ?? 30_000)) {
      await this.sweep();
      this.sweptAt = Date.now();
    }
    let more = false;
    for (const w of this.witnesses) more = (await this.relayTo(w)) || more;
    return more;
  }

  /**
   * The stored cosignatures of each tenant's newest checkpoint by these witnesses that do not
   * verify: written into the database by someone else, they would count toward the quorum in
   * /ready and keep the witness from being asked. Each is deleted, so the witness is asked again,
   * and recorded as the witness's failure for that tenant.
   */
  private async sweep(): Promise<void> {
    if (this.witnesses.length === 0) return;
    const byVkey = new Map(this.witnesses.map((w) => [w.vkey, w]));
    let after = { tenant: '00000000-0000-0000-0000-000000000000', witness: '' };
    for (;;) {
      const rows = await sql<{ tenant_id: string; tree_size: string | number; witness: string; line: string; note: string }>`
        SELECT s.tenant_id, s.tree_size, s.witness, s.line, c.note
        FROM transparency.trees t
        JOIN transparency.cosignatures s ON s.tenant_id = t.tenant_id AND s.tree_size = t.tree_size
        JOIN transparency.checkpoints c ON c.tenant_id = t.tenant_id AND c.tree_size = t.tree_size
        WHERE s.witness IN (${sql.join([...byVkey.keys()])}) AND (s.tenant_id, s.witness) > (${after.tenant}::uuid, ${after.witness})
        ORDER BY s.tenant_id, s.witness
        LIMIT ${SWEEP_PAGE}`.execute(this.db);
      for (const r of rows.rows) {
        const w = byVkey.get(r.witness)!;
        if (this.check.holds(r.note, r.line, w)) continue;
        const size = Number(r.tree_size);
        const failure = `its stored cosignature of checkpoint ${size} does not verify by its key: it was written into the database, not by the witness; deleted, and the witness is asked again after the retry interval`;
        this.log.error({ tenantId: r.tenant_id, witness: w.vkey, treeSize: size }, `witness ${w.verifier.name}: ${failure}`);
        await this.db
          .deleteFrom('transparency.cosignatures')
          .where('tenant_id', '=', r.tenant_id)
          .where('tree_size', '=', size)
          .where('witness', '=', r.witness)
          .where('line', '=', r.line)
          .execute();
        await this.failed(w, r.tenant_id, null, failure);
      }
      if (rows.rows.length < SWEEP_PAGE) return;
      const last = rows.rows[rows.rows.length - 1]!;
      after = { tenant: last.tenant_id, witness: last.witness };
    }
  }

  private async relayTo(w: WitnessSpec): Promise<boolean> {
    const retryMs = this.options.retryMs ?? 5_000;
    // Each tenant whose newest checkpoint this witness has not cosigned, unless it failed lately.
    const due = await sql<{ tenant_id: string; tree_size: string | number; note: string; known: string | number | null }>`
      SELECT t.tenant_id, t.tree_size, c.note, w.tree_size AS known
      FROM transparency.trees t
      JOIN transparency.checkpoints c ON c.tenant_id = t.tenant_id AND c.tree_size = t.tree_size
      LEFT JOIN transparency.witness_state w ON w.witness = ${w.vkey} AND w.tenant_id = t.tenant_id
      WHERE t.tree_size > 0
        AND NOT EXISTS (SELECT 1 FROM transparency.cosignatures s
                        WHERE s.tenant_id = t.tenant_id AND s.tree_size = t.tree_size AND s.witness = ${w.vkey})
        AND (w.failed_at IS NULL OR w.failed_at < now() - make_interval(secs => ${retryMs / 1000}))
      ORDER BY t.tenant_id
      LIMIT ${PAGE}`.execute(this.db);
    for (const row of due.rows) {
      const ok = await this.submit(w, row.tenant_id, Number(row.tree_size), row.note, row.known === null ? 0 : Number(row.known));
      // A witness that cannot be reached is not asked about the other tenants in this pass.
      if (ok === 'unreachable') return false;
    }
    return due.rows.length === PAGE;
  }

  /** add-checkpoint for one tenant, once more after a 409 that names the witness's size. */
  private async submit(
    w: WitnessSpec,
    tenantId: string,
    size: number,
    note: string,
    known: number,
  ): Promise<'ok' | 'failed' | 'unreachable'> {
    let old = known > size ? 0 : known;
    for (let attempt = 0; attempt < 2; attempt++) {
      const proof = old > 0 && old < size ? await this.store.rangeHashes(tenantId, consistencyRanges(old, size)) : [];
      const body = `old ${old}\n${proof.map((h) => `${h.toString('base64')}\n`).join('')}\n${note}`;
      let res: Response;
      let answer: string;
      try {
        res = await this.fetch(`${w.url}/add-checkpoint`, {
          method: 'POST',
          body,
          headers: { 'content-type': 'text/plain; charset=utf-8' },
          signal: AbortSignal.timeout(this.options.timeoutMs ?? 5_000),
        });
        answer = await res.text();
      } catch (error) {
        await this.failed(w, tenantId, null, `unreachable: ${(error as Error).message}`);
        return 'unreachable';
      }
      if (res.status === 200) {
        const cosignature = cosignatureIn(answer, note, w.verifier);
        if (!cosignature) {
          await this.failed(w, tenantId, size, 'answered 200 without a cosignature by its key that verifies');
          return 'failed';
        }
        await this.cosigned(w, tenantId, size, `${cosignature.line}\n`, cosignature.at);
        return 'ok';
      }
      const witnessSize = /^(0|[1-9][0-9]*)\n?$/.exec(answer)?.[1];
      if (res.status === 409 && (res.headers.get('content-type') ?? '').startsWith('text/x.tlog.size') && witnessSize !== undefined) {
        const theirs = Number(witnessSize);
        // Larger than what this pass read: another process may have had a newer checkpoint
        // cosigned since. Only a log that now holds fewer leaves than the witness saw rolled back.
        if (theirs > size && (await this.treeSize(tenantId)) >= theirs) return 'ok';
        if (theirs > size) {
          const error = `ROLLBACK: the witness cosigned ${theirs} leaves of this log; the log now holds ${size}`;
          this.log.error({ tenantId, witness: w.vkey, witnessSize: theirs, treeSize: size }, `transparency log of ${tenantId}: ${error}`);
          await this.failed(w, tenantId, theirs, error);
          return 'failed';
        }
        old = theirs;
        continue;
      }
      const error = `refused with ${res.status}: ${answer.trim().slice(0, 300)}`;
      this.log.error({ tenantId, witness: w.vkey, status: res.status }, `witness ${w.verifier.name} ${error}`);
      await this.failed(w, tenantId, null, error);
      return 'failed';
    }
    await this.failed(w, tenantId, null, 'the witness changed its size twice in a row');
    return 'failed';
  }

  /** The tenant's log as it stands now (this pass read it a moment ago). */
  private async treeSize(tenantId: string): Promise<number> {
    const row = await this.db.selectFrom('transparency.trees').select('tree_size').where('tenant_id', '=', tenantId).executeTakeFirst();
    return row === undefined ? 0 : Number(row.tree_size);
  }

  private async cosigned(w: WitnessSpec, tenantId: string, size: number, line: string, at: Date): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('transparency.cosignatures')
        .values({ tenant_id: tenantId, tree_size: size, witness: w.vkey, line, cosigned_at: at.toISOString() })
        .onConflict((oc) => oc.doNothing())
        .execute();
      await tx
        .insertInto('transparency.witness_state')
        .values({ witness: w.vkey, tenant_id: tenantId, tree_size: size, failure: null, failed_at: null })
        .onConflict((oc) =>
          oc.columns(['witness', 'tenant_id']).doUpdateSet({
            tree_size: sql`GREATEST(transparency.witness_state.tree_size, excluded.tree_size)`,
            failure: null,
            failed_at: null,
            updated_at: sql`now()`,
          }),
        )
        .execute();
    });
  }

  /** Records why a witness did not cosign; `size`, when known, is the size it last cosigned. */
  private async failed(w: WitnessSpec, tenantId: string, size: number | null, failure: string): Promise<void> {
    await this.db
      .insertInto('transparency.witness_state')
      .values({ witness: w.vkey, tenant_id: tenantId, tree_size: size ?? 0, failure, failed_at: sql`now()` as never })
      .onConflict((oc) =>
        oc.columns(['witness', 'tenant_id']).doUpdateSet({
          ...(size === null ? {} : { tree_size: size }),
          failure,
          failed_at: sql`now()` as never,
          updated_at: sql`now()`,
        }),
      )
      .execute();
  }

  /**
   * How many of these witnesses' stored lines verify on each checkpoint given (by countKey): read
   * and verified only for a checkpoint and set of rows not counted before.
   */
  private async verifiedCounts(rows: readonly CountedRow[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    const unknown = rows.filter((r) => {
      const known = this.counted.get(countKey(r));
      if (known !== undefined) counts.set(countKey(r), known);
      return known === undefined;
    });
    for (let i = 0; i < unknown.length; i += SWEEP_PAGE) {
      const page = unknown.slice(i, i + SWEEP_PAGE);
      const found = await sql<{ tenant_id: string; tree_size: string | number; note: string; rows: { w: string; l: string }[] | null }>`
        SELECT cp.tenant_id, cp.tree_size, cp.note, ${cosignedLines} AS rows
        FROM transparency.checkpoints cp
        JOIN json_to_recordset(${JSON.stringify(page.map((r) => ({ t: r.tenant_id, n: Number(r.tree_size) })))}::json) AS k(t uuid, n bigint)
          ON cp.tenant_id = k.t AND cp.tree_size = k.n`.execute(this.db);
      const byCheckpoint = new Map(found.rows.map((f) => [`${f.tenant_id}\n${Number(f.tree_size)}`, f]));
      for (const r of page) {
        const f = byCheckpoint.get(`${r.tenant_id}\n${Number(r.tree_size)}`);
        const n = f ? this.check.sort(f.note, f.rows).by.size : 0;
        if (this.counted.size >= REMEMBERED) this.counted.clear();
        this.counted.set(countKey(r), n);
        counts.set(countKey(r), n);
      }
    }
    return counts;
  }

  /** What /ready reports: the quorum, each witness's failing tenants, and tenants below the quorum. */
  async status(): Promise<WitnessStatus | null> {
    if (this.witnesses.length === 0) return null;
    const failing = await this.db
      .selectFrom('transparency.witness_state')
      .select(['witness', 'tenant_id', 'failure', 'failed_at'])
      .where('failure', 'is not', null)
      .orderBy('failed_at', 'desc')
      .limit(100)
      .execute();
    const graceMs = this.options.graceMs ?? 5_000;
    const mine = sql.join(this.witnesses.map((w) => w.vkey));
    // Each tenant's newest checkpoint past the grace, with how many of these witnesses' rows it has
    // and a digest of them: rows are counted only once their lines verify (remembered by digest).
    const newest = await sql<{
      tenant_id: string;
      tree_size: string | number;
      signed_at: Date | string;
      n: string | number;
      digest: string | null;
    }>`
      SELECT c.tenant_id, c.tree_size, c.signed_at, n.n, n.digest
      FROM transparency.trees t
      JOIN transparency.checkpoints c ON c.tenant_id = t.tenant_id AND c.tree_size = t.tree_size
      CROSS JOIN LATERAL (SELECT count(*) AS n, md5(string_agg(s.witness || ' ' || s.line, '' ORDER BY s.witness)) AS digest
        FROM transparency.cosignatures s
        WHERE s.tenant_id = c.tenant_id AND s.tree_size = c.tree_size AND s.witness IN (${mine})) n
      WHERE t.tree_size > 0 AND c.signed_at < now() - make_interval(secs => ${graceMs / 1000})
      ORDER BY c.signed_at`.execute(this.db);
    const counted = await this.verifiedCounts(newest.rows.filter((r) => Number(r.n) >= this.quorum));
    const below = newest.rows
      .map((r) => ({ ...r, n: Number(r.n) >= this.quorum ? counted.get(countKey(r))! : Number(r.n) }))
      .filter((r) => r.n < this.quorum)
      .slice(0, 100);
    return {
      quorum: this.quorum,
      quorumReached: below.length === 0,
      witnesses: this.witnesses.map((w) => ({
        name: w.verifier.name,
        vkey: w.vkey,
        url: w.url,
        failing: failing
          .filter((f) => f.witness === w.vkey)
          .map((f) => ({ tenantId: f.tenant_id, error: f.failure!, since: new Date(f.failed_at!).toISOString() })),
      })),
      belowQuorum: below.map((r) => ({
        tenantId: r.tenant_id,
        treeSize: Number(r.tree_size),
        cosignatures: Number(r.n),
        signedAt: new Date(r.signed_at).toISOString(),
      })),
    };
  }
}
