import { sql, type Kysely } from 'kysely';
import { comparePositions, START, type Ledger, type LedgerPosition, type RecordedEvent } from '../ledger/ledger.port.js';
import { ledgerDb } from '../ledger/postgres/ledger.table.js';
import type { Database } from '../store/schema.js';
import {
  appendKeyId,
  authenticatorKeyId,
  authenticatorKeys,
  authenticatorProblem,
  type AuthenticatorKeys,
} from './append-authenticator.js';
import { vouchedKeys } from './key-succession.js';
import { transparencyDb } from './transparency.table.js';

/** How far an event's time may go back from the previous event of its tenant (clocks of several processes, queued appends). */
export const TIME_TOLERANCE_MS = 60_000;

/** Records where authenticators begin, unless a row is there already (insert-once). */
export const recordAuthenticatedFrom = (db: Kysely<Database>, from: LedgerPosition) =>
  sql`INSERT INTO ledger.authenticated_from (commit_position, prepare_position) VALUES (${from.commit}, ${from.prepare})
    ON CONFLICT (only_row) DO NOTHING`.execute(db);

/**
 * Where the ledger stood when authenticators began, recorded on the first start of a version
 * that writes them (insert-once, kept by the ledger's append-only trigger). Events up to there
 * carry none and are judged by the checkpoints that already cover them. Missing from a ledger
 * whose events already carry authenticators, it was deleted (by the table's owner): it is then
 * recorded just before the first of them, never at the head, which would exempt every event
 * written behind the service's back so far, and `warn` says so.
 */
export async function authenticatedFrom(
  db: Kysely<Database>,
  ledger: Ledger,
  warn: (message: string) => void = () => undefined,
): Promise<LedgerPosition> {
  const l = ledgerDb(db);
  const read = () => l.selectFrom('ledger.authenticated_from').select(['commit_position', 'prepare_position']).executeTakeFirst();
  let row = await read();
  if (!row) {
    // The store's own ledger table (empty when the ledger is EventStoreDB's).
    const first = await sql<{ commit: string; prepare: string }>`
      SELECT transaction_id::text AS commit, global_position::text AS prepare FROM ledger.events
      WHERE authenticator IS NOT NULL ORDER BY transaction_id, global_position LIMIT 1`.execute(db);
    const signed = first.rows[0];
    const from = signed ? { commit: Number(signed.commit), prepare: Number(signed.prepare) - 1 } : ((await ledger.headPosition()) ?? START);
    await recordAuthenticatedFrom(db, from);
    if (signed)
      warn(
        "consent-ledger: ledger.authenticated_from was missing, though events carry authenticators: only the table's owner can delete it. " +
          'Recorded again just before the first authenticated event, so every event after it must still carry one; find out who deleted it.',
      );
    row = await read();
  }
  return { commit: Number(row!.commit_position), prepare: Number(row!.prepare_position) };
}

/**
 * Whether ledger events are the service's own: each event past `from` must carry an authenticator
 * that verifies under one of the log's signing keys (current or retired, from the key history).
 * The sealer refuses what fails; `/verify` and the receipts call such a record tampered.
 *
 * @example
 * const problem = await authenticity.problem(event); // null, or why the event is not ours
 */
export class EventAuthenticity {
  private keys: AuthenticatorKeys = new Map();
  /** By key id: the last ledger position a retired key authenticates (its succession statement's). */
  private until = new Map<string, LedgerPosition>();
  /** Group signatures verified already (authenticatorProblem). */
  private readonly verified = new Set<string>();
  /**
   * `eventHash authenticator` of events this process authenticated itself (`authenticate`): the
   * same authenticator on the same event is the one it made, so it is not verified again. A row
   * written behind the service's back is never in it (this process's memory is not the database's).
   */
  private readonly madeHere = new Set<string>();

  constructor(
    private readonly db: Kysely<Database>,
    readonly from: LedgerPosition,
    /** The key this process signs with (base64): the history's keys count as far as it vouches for them. */
    private readonly anchor: string,
  ) {}

  /**
   * Notes authenticators this process just made (authenticateAppend with the signing key): the
   * sealer and the webhook subscription then skip the signature check of its own appends, each
   * (a check only reads the note, so neither takes it from the other). Bounded; forgetting costs a check.
   */
  made(hashes: readonly string[], authenticators: readonly string[]): void {
    if (this.madeHere.size + hashes.length > 50_000) this.madeHere.clear();
    hashes.forEach((h, i) => this.madeHere.add(`${h} ${authenticators[i]}`));
  }

  /**
   * Null when the event is authentic (or older than authenticators), else why not. `db`: where to
   * read the key history if a key is unknown (the caller's transaction: on the embedded store a
   * read beside it would wait for the one connection the transaction holds).
   */
  async problem(event: Pick<RecordedEvent, 'hash' | 'authenticator' | 'position'>, db?: Kysely<Database>): Promise<string | null> {
    // Before authenticators began: judged by the checkpoints that cover it. A position the ledger
    // never gives (a row moved there by whoever can switch its triggers off) is not such an event.
    if (event.position.commit > 0 && comparePositions(event.position, this.from) <= 0) return null;
    let problem = this.check(event);
    // A key this process has not loaded yet (rotated by another): read the history once more.
    if (problem?.includes('never signed this log')) {
      await this.reload(db);
      problem = this.check(event);
    }
    return problem;
  }

  /**
   * Null when a stream, as read from the ledger, holds every event the log sealed of it; else why
   * not (removed from the ledger by whoever can switch its triggers off). A removed tail, such as a
   * withdrawal, leaves the rest chained: only the sealed leaves still name it.
   */
  async removed(tenantId: string, stream: string, events: readonly Pick<RecordedEvent, 'id'>[]): Promise<string | null> {
    const sealed = await transparencyDb(this.db)
      .selectFrom('transparency.leaves')
      .select('event_id')
      .where('tenant_id', '=', tenantId)
      .where('stream_id', '=', stream)
      .execute();
    const held = new Set(events.map((e) => e.id.toLowerCase()));
    const gone = sealed.filter((l) => !held.has(l.event_id.toLowerCase())).length;
    if (gone === 0) return null;
    return `${gone === 1 ? 'an event' : `${gone} events`} of the record that the signed log holds ${gone === 1 ? 'is' : 'are'} gone from the ledger: removed`;
  }

  private check(event: Pick<RecordedEvent, 'hash' | 'authenticator' | 'position'>): string | null {
    // A key retired before the event was appended (its succession statement names the last
    // position it authenticates): a process still holding it, or anyone who has its seed.
    const until = this.until.get(authenticatorKeyId(event.authenticator) ?? '');
    if (until && comparePositions(event.position, until) > 0) return 'the authenticator is by a key retired before the event was appended';
    if (event.authenticator && this.madeHere.has(`${event.hash} ${event.authenticator}`)) return null;
    return authenticatorProblem(event.hash, event.authenticator, this.keys, this.verified);
  }

  /**
   * The public keys of the history's signing keys, by key id: those the anchor vouches for (a key
   * the database alone wrote there signs nothing the service accepts).
   */
  async reload(db: Kysely<Database> = this.db): Promise<void> {
    const rows = await transparencyDb(db)
      .selectFrom('transparency.key_history')
      .select(['public_key', 'successor_key', 'successor_signature', 'retired_position'])
      .execute();
    const vouched = vouchedKeys(rows, this.anchor);
    const keys = rows.filter((r) => vouched.has(r.public_key));
    this.keys = authenticatorKeys(keys.map((r) => ({ publicKey: Buffer.from(r.public_key, 'base64') })));
    this.until = new Map(
      keys.flatMap((r) => {
        const until = vouched.get(r.public_key);
        return until ? [[appendKeyId(Buffer.from(r.public_key, 'base64')), until] as const] : [];
      }),
    );
  }
}
