import { sql, type Kysely } from 'kysely';
import { isUnavailableError } from '../../store/database-errors.js';
import type { Database } from '../../store/schema.js';
import type { Store } from '../../store/store.js';
import { chainEvents } from '../event-hash.js';
import {
  AppendKeyRetiredError,
  LedgerUnavailableError,
  WrongExpectedRevisionError,
  type AppendRequest,
  type AppendResult,
  type AuthenticateAppend,
  type Ledger,
  type LedgerPosition,
  type RecordedEvent,
} from '../ledger.port.js';

interface EventRowOut {
  global_position: number;
  transaction_id: string;
  event_id: string;
  tenant_id: string;
  stream_id: string;
  stream_revision: number;
  event_type: string;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  recorded_at: Date;
  prev_hash: string | null;
  event_hash: string;
  authenticator: string | null;
}

/** First key of the per-stream advisory locks taken by append (the second is the stream's hashtext). */
export const STREAM_LOCK_CLASS = 741_200;
/** Attempts of one append when it lost a race it can win by reading again ('any', deadlock). */
const MAX_APPEND_ATTEMPTS = 5;

/**
 * The transaction id below which every row a reader can see is final (migrations
 * 0024_ledger_read_horizon, 0025_ledger_read_horizon_in_doubt): the oldest transaction still
 * running in this database, else the snapshot's xmax. Transactions running in other databases of
 * the server hold nothing back. When one of the snapshot's transactions ended before the horizon
 * could tell where it ran, it raises HORIZON_IN_DOUBT, or with `hold` holds the read back below it.
 * A subquery, so that it is computed once per read whatever the plan.
 */
const readHorizon = (hold: boolean) => sql`(SELECT ledger.read_horizon_of(pg_current_snapshot(), ${hold}))`;
const HORIZON_IN_DOUBT = 'CLH01';
/**
 * Reads made while the horizon is in doubt: each again with a snapshot of its own, the last one
 * held back instead (it answers what was final before the transaction in doubt, as a read did
 * before 0025), so that a read never fails for it.
 */
const READ_ATTEMPTS = 5;

/**
 * `read` below the horizon, made again while it is in doubt; the last attempt holds the read back
 * instead. `doubted` is told of each doubt: `read_again`, or `held_back` for the last attempt's.
 */
async function belowHorizon<T>(
  read: (horizon: ReturnType<typeof readHorizon>) => Promise<T>,
  doubted: PostgresLedgerOptions['onHorizonDoubt'],
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read(readHorizon(attempt === READ_ATTEMPTS));
    } catch (error) {
      if ((error as { code?: string }).code !== HORIZON_IN_DOUBT || attempt >= READ_ATTEMPTS) throw error;
      doubted?.(attempt + 1 === READ_ATTEMPTS ? 'held_back' : 'read_again');
    }
  }
}

/** The stream named by a unique violation on (stream_id, stream_revision), when the server says. */
const conflictingStream = (detail: string | undefined): string | undefined =>
  /^Key \(stream_id, stream_revision\)=\((.*), \d+\) already exists\.$/s.exec(detail ?? '')?.[1];

const COLUMNS = sql.raw(
  'global_position, transaction_id, event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash, authenticator',
);

const toRecorded = (r: EventRowOut): RecordedEvent => ({
  id: r.event_id,
  tenantId: r.tenant_id,
  stream: r.stream_id,
  revision: r.stream_revision,
  type: r.event_type,
  data: r.data,
  metadata: r.metadata,
  recordedAt: r.recorded_at.toISOString(),
  prevHash: r.prev_hash,
  hash: r.event_hash,
  authenticator: r.authenticator,
  position: { commit: Number(r.transaction_id), prepare: r.global_position },
});

/**
 * An event as the INSERT takes it (one JSON array of these is its only parameter) or COPY: the
 * row less what the database makes up, in insert order, its data and metadata as the canonical
 * JSON its hash was made from (what the table stores).
 */
type EventRow = Omit<EventRowOut, 'global_position' | 'transaction_id' | 'recorded_at' | 'data' | 'metadata'> & {
  ord: number;
  recorded_at: string;
  data: string;
  metadata: string;
};

/** The INSERT's parameter: the rows as one JSON array, data and metadata written in as the JSON they are. */
const insertPayload = (rows: readonly EventRow[]): string =>
  `[${rows
    .map(
      (r) =>
        `{"ord":${r.ord},"event_id":${JSON.stringify(r.event_id)},"tenant_id":${JSON.stringify(r.tenant_id)},"stream_id":${JSON.stringify(r.stream_id)},` +
        `"stream_revision":${r.stream_revision},"event_type":${JSON.stringify(r.event_type)},"data":${r.data},"metadata":${r.metadata},` +
        `"recorded_at":${JSON.stringify(r.recorded_at)},"prev_hash":${JSON.stringify(r.prev_hash)},"event_hash":${JSON.stringify(r.event_hash)},` +
        `"authenticator":${JSON.stringify(r.authenticator)}}`,
    )
    .join(',')}]`;

/** An event as recorded: a row as sent, with what the database made up; data and metadata parsed from the text it stored. */
const recordedOf = (
  row: EventRow,
  placed: { global_position: number; transaction_id: string; event_id: string; tenant_id: string },
): RecordedEvent => ({
  id: placed.event_id,
  tenantId: placed.tenant_id,
  stream: row.stream_id,
  revision: row.stream_revision,
  type: row.event_type,
  data: JSON.parse(row.data) as Record<string, unknown>,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  recordedAt: row.recorded_at,
  prevHash: row.prev_hash,
  hash: row.event_hash,
  authenticator: row.authenticator,
  position: { commit: Number(placed.transaction_id), prepare: placed.global_position },
});

/** A condition (`c`: stream `s`, last revision `r` or null) that does not hold, as SQL over ledger.events. */
const CONDITION_FAILS = 'c.r IS DISTINCT FROM (SELECT max(e.stream_revision) FROM ledger.events e WHERE e.stream_id = c.s)';

/**
 * The signing key's row in the key history while it is the log's current key, locked to the
 * append's commit (a foreign key's lock). `keys rotate-signing` locks that row FOR UPDATE before it
 * reads the ledger's head: it waits for the appends that found the key current, and an append that
 * waited for it finds the row retired (read again at its newest version) and writes nothing.
 */
const CURRENT_KEY_ROW = 'SELECT 1 FROM transparency.key_history WHERE public_key = $1 AND retired_at IS NULL FOR KEY SHARE';
const currentKeyRow = (publicKey: string) =>
  sql`SELECT 1 FROM transparency.key_history WHERE public_key = ${publicKey} AND retired_at IS NULL FOR KEY SHARE`;
const keyRetired = () =>
  new AppendKeyRetiredError(
    'the key this process signs appends with is no longer the log’s current key (keys rotate-signing ran): restart it with the current key',
  );

/** The group's authenticators, over exactly the rows one statement writes, in their order. */
function signRows(rows: EventRow[], authenticate: AuthenticateAppend | undefined): void {
  if (authenticate) authenticate(rows.map((r) => r.event_hash)).forEach((a, i) => (rows[i]!.authenticator = a));
}

/**
 * Hashes and chains a request's events after `head` (none: the stream starts here) onto `rows`;
 * answers the stream's new head.
 */
function pushRows(
  rows: EventRow[],
  request: AppendRequest,
  at: string,
  head: { revision: number; hash: string } | undefined,
): { revision: number; hash: string } {
  const chained = chainEvents(request, at, head);
  for (const [k, e] of chained.entries()) {
    rows.push({
      ord: rows.length,
      event_id: e.id,
      tenant_id: e.tenantId,
      stream_id: e.stream,
      stream_revision: e.revision,
      event_type: e.type,
      data: e.json.data,
      metadata: e.json.metadata,
      recorded_at: at,
      prev_hash: e.prevHash,
      event_hash: e.hash,
      authenticator: request.events[k]!.authenticator ?? null,
    });
  }
  const last = chained[chained.length - 1]!;
  return { revision: last.revision, hash: last.hash };
}

/**
 * Inserts the rows, in their order, provided every condition holds (a stream's last revision, or
 * null for no stream, as the statement sees it) and, with `checkKey`, the signing key is current;
 * answers them as recorded, or undefined when one did not hold (nothing was inserted).
 */
async function insertRows(
  db: Kysely<Database>,
  rows: EventRow[],
  conditions: { s: string; r: number | null }[],
  authenticate: AuthenticateAppend | undefined,
  checkKey = false,
): Promise<RecordedEvent[] | undefined> {
  signRows(rows, authenticate);
  const payload = insertPayload(rows);
  // Only what the database makes up comes back (positions; ids and tenants as it spells uuids):
  // the rest is what was sent, data and metadata parsed back from the same text the database
  // stored, so an append answers what a read of its events would.
  const inserted = await sql<{ global_position: number; transaction_id: string; event_id: string; tenant_id: string }>`
    INSERT INTO ledger.events (event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash, authenticator)
    SELECT r.event_id, r.tenant_id, r.stream_id, r.stream_revision, r.event_type, r.data, r.metadata, r.recorded_at, r.prev_hash, r.event_hash, r.authenticator
    FROM json_to_recordset(${payload}::json) AS r(
      ord integer, event_id uuid, tenant_id uuid, stream_id text, stream_revision integer, event_type text,
      data json, metadata json, recorded_at timestamptz, prev_hash text, event_hash text, authenticator text)
    WHERE NOT EXISTS (
      SELECT 1 FROM json_to_recordset(${JSON.stringify(conditions)}::json) AS c(s text, r integer) WHERE ${sql.raw(CONDITION_FAILS)})
      ${checkKey && authenticate?.publicKey ? sql`AND EXISTS (${currentKeyRow(authenticate.publicKey)})` : sql``}
    ORDER BY r.ord
    RETURNING global_position, transaction_id, event_id, tenant_id`.execute(db);
  if (inserted.rows.length === 0) return undefined;
  if (inserted.rows.length !== rows.length) throw new Error(`append: ${inserted.rows.length} of ${rows.length} events inserted`);
  // Sequence numbers are taken in insert order (ORDER BY r.ord): sorted, they line up with `rows`.
  const placed = [...inserted.rows].sort((a, b) => a.global_position - b.global_position);
  return placed.map((p, i) => recordedOf(rows[i]!, p));
}

/** A value in COPY's text format: backslash, tab, newline and carriage return escaped; null as \N. */
const copyText = (value: string | null): string =>
  value === null ? '\\N' : /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : value;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/**
 * What `insertRows` does, by COPY in a transaction of its own: the conditions checked first, the
 * rows copied in their order, then what the database made up read back by transaction. The
 * server parses no JSON for it: about a quarter less of its CPU per row than the INSERT (docs/benchmarks.md).
 */
async function copyRows(
  bulk: NonNullable<Store['bulk']>,
  rows: EventRow[],
  conditions: { s: string; r: number | null }[],
  authenticate: AuthenticateAppend | undefined,
): Promise<RecordedEvent[] | undefined> {
  signRows(rows, authenticate);
  const lines = rows.map(
    (r) =>
      `${copyText(r.event_id)}\t${copyText(r.tenant_id)}\t${copyText(r.stream_id)}\t${r.stream_revision}\t${copyText(r.event_type)}\t${copyText(r.data)}\t${copyText(r.metadata)}\t${r.recorded_at}\t${copyText(r.prev_hash)}\t${r.event_hash}\t${copyText(r.authenticator)}\n`,
  );
  const placed = await bulk(async (tx) => {
    if (authenticate?.publicKey && (await tx.query(CURRENT_KEY_ROW, [authenticate.publicKey])).length === 0) return undefined;
    if (conditions.length > 0) {
      const failed = await tx.query(`SELECT 1 FROM json_to_recordset($1::json) AS c(s text, r integer) WHERE ${CONDITION_FAILS} LIMIT 1`, [
        JSON.stringify(conditions),
      ]);
      if (failed.length > 0) return undefined;
    }
    await tx.copyIn(
      'COPY ledger.events (event_id, tenant_id, stream_id, stream_revision, event_type, data, metadata, recorded_at, prev_hash, event_hash, authenticator) FROM STDIN',
      lines,
    );
    return tx.query<{ global_position: number; transaction_id: string; event_id: string; tenant_id: string }>(
      `SELECT global_position, transaction_id, event_id, tenant_id FROM ledger.events
       WHERE transaction_id = pg_current_xact_id() ORDER BY global_position`,
    );
  });
  if (!placed) return undefined;
  if (placed.length !== rows.length) throw new Error(`append: ${placed.length} of ${rows.length} events copied`);
  return placed.map((p, i) => recordedOf(rows[i]!, p));
}

const resultOf = (events: RecordedEvent[]): AppendResult => ({ events, position: events[events.length - 1]!.position });

/**
 * Whether every member only creates streams (and checks others): no stream created twice in the
 * group, none both created and checked (a check must see the group's earlier members).
 */
function onlyCreates(group: Pending[]): boolean {
  const created = new Set<string>();
  const checked = new Set<string>();
  for (const { requests } of group) {
    for (const r of requests) {
      if (r.events.length === 0) {
        // A condition that a stream does not exist is checked under that stream's lock (appendTogether).
        if (created.has(r.stream) || r.expectedRevision === 'no_stream') return false;
        checked.add(r.stream);
        continue;
      }
      if (r.expectedRevision !== 'no_stream' || created.has(r.stream) || checked.has(r.stream)) return false;
      created.add(r.stream);
    }
  }
  return true;
}

/** One caller's append, waiting for a group transaction. */
interface Pending {
  requests: AppendRequest[];
  at: string;
  events: number;
  resolve(result: AppendResult): void;
  reject(error: unknown): void;
}

/** What a group transaction answers one of its members. */
type Outcome = { result: AppendResult } | { error: WrongExpectedRevisionError };

export interface PostgresLedgerOptions {
  /**
   * Appends that arrive while a group transaction is being committed wait for it, and the next
   * transaction takes them together, up to this many events (a call larger than that goes alone).
   */
  maxGroupEvents?: number;
  /** Group transactions in flight at once (each holds a connection until its COMMIT). */
  maxInFlight?: number;
  /** Signs each group's events (the service gives the log's signing key); none: events carry no authenticator. */
  authenticate?: AuthenticateAppend;
  /** Told of each group as it is taken: its appends and events (the group sizes on /metrics). */
  onGroup?: (appends: number, events: number) => void;
  /**
   * Told when a read's horizon was in doubt (a transaction of its snapshot ended before it could
   * tell where it ran): `read_again` with a new snapshot, or `held_back` below it after four doubts in a row.
   */
  onHorizonDoubt?: (outcome: 'read_again' | 'held_back') => void;
  /** The store's bulk transactions (a PostgreSQL server): groups of new streams from `copyFromEvents` events are copied in. */
  bulk?: Store['bulk'];
  /** Events from which a group of new streams goes in by COPY when `bulk` is given (200). */
  copyFromEvents?: number;
}

/**
 * The ledger on PostgreSQL (a server, or PGlite embedded).
 *
 * Ordering: every row carries its transaction id (xid8) and a sequence number. Readers order by
 * (transaction id, sequence) and only read rows whose transaction id is below the oldest
 * transaction still running in this database (`readHorizon`). Every such row's transaction has
 * ended, and any row that becomes visible later has a larger transaction id, so a reader that
 * resumes after its last position can never skip one. Sequence numbers alone are not safe: they are taken
 * before commit, and commits land out of order.
 *
 * Group commit: while a transaction is being committed, the appends that arrive queue up; the
 * next transaction takes them all (bounded): one lock statement, one head read, one multi-row
 * INSERT and one COMMIT (one WAL flush) for all of them, and each caller is answered after that
 * COMMIT. Each call's expected revisions are checked against the heads read under the locks,
 * updated in memory by the calls before it in the same group, so one call's wrong revision
 * refuses that call only. A group that fails for a reason that may be one member's (a concurrent
 * writer elsewhere, a deadlock, a value the database refuses) is retried one call at a time, so
 * that each caller gets its own answer. Nothing waits on a timer: an append arriving while the
 * ledger is idle starts at once.
 */
export class PostgresLedger implements Ledger {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private readonly maxGroupEvents: number;
  private readonly maxInFlight: number;
  private readonly authenticate: AuthenticateAppend | undefined;
  private readonly onGroup: PostgresLedgerOptions['onGroup'];
  private readonly onHorizonDoubt: PostgresLedgerOptions['onHorizonDoubt'];
  private readonly bulk: PostgresLedgerOptions['bulk'];
  private readonly copyFromEvents: number;

  constructor(
    private readonly db: Kysely<Database>,
    options: PostgresLedgerOptions = {},
  ) {
    this.maxGroupEvents = options.maxGroupEvents ?? 2_000;
    this.maxInFlight = options.maxInFlight ?? 1;
    this.authenticate = options.authenticate;
    this.onGroup = options.onGroup;
    this.onHorizonDoubt = options.onHorizonDoubt;
    this.bulk = options.bulk;
    this.copyFromEvents = options.copyFromEvents ?? 200;
  }

  append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult> {
    if (requests.length === 0 || requests.every((r) => r.events.length === 0)) {
      return Promise.reject(new Error('append needs at least one event'));
    }
    const streams = requests.map((r) => r.stream);
    if (new Set(streams).size !== streams.length) return Promise.reject(new Error('append: a stream may appear once per call'));
    const at = recordedAt.toISOString();
    const events = requests.reduce((n, r) => n + r.events.length, 0);
    return new Promise<AppendResult>((resolve, reject) => {
      this.queue.push({ requests, at, events, resolve, reject });
      this.pump();
    });
  }

  /** Starts group transactions while there is work and room. */
  private pump(): void {
    while (this.inFlight < this.maxInFlight && this.queue.length > 0) {
      let count = 1;
      let events = this.queue[0]!.events;
      while (count < this.queue.length && events + this.queue[count]!.events <= this.maxGroupEvents) events += this.queue[count++]!.events;
      const group = this.queue.splice(0, count);
      this.onGroup?.(count, events);
      this.inFlight += 1;
      void this.commitGroup(group)
        // Every member is answered by commitGroup; this only keeps a bug from leaving one waiting.
        .catch((error: unknown) => group.forEach((m) => m.reject(error)))
        .finally(() => {
          this.inFlight -= 1;
          this.pump();
        });
    }
  }

  private async commitGroup(group: Pending[]): Promise<void> {
    if (onlyCreates(group)) {
      let outcomes: Outcome[] | undefined;
      try {
        outcomes = await this.appendNew(group);
      } catch (error) {
        // Not retried: a statement that lost its connection may have committed.
        for (const m of group) m.reject(new LedgerUnavailableError('the ledger is unavailable', { cause: error, unconfirmed: true }));
        return;
      }
      if (outcomes) {
        group.forEach((m, i) => m.resolve((outcomes[i] as { result: AppendResult }).result));
        return;
      }
    }
    if (group.length === 1) {
      const [only] = group;
      await this.appendAlone(only!.requests, only!.at).then(only!.resolve, only!.reject);
      return;
    }
    let outcomes: Outcome[];
    try {
      outcomes = await this.appendTogether(group);
    } catch (error) {
      if (isUnavailableError(error)) {
        // Not retried: a COMMIT that lost its connection may have landed (as for a single append).
        for (const m of group) m.reject(new LedgerUnavailableError('the ledger is unavailable', { cause: error, unconfirmed: true }));
        return;
      }
      // Possibly one member's doing (a writer elsewhere created one of its streams, a deadlock,
      // a value the database refuses): nothing was written; each member alone gets its own answer.
      for (const m of group) await this.appendAlone(m.requests, m.at).then(m.resolve, m.reject);
      return;
    }
    group.forEach((m, i) => {
      const outcome = outcomes[i]!;
      if ('error' in outcome) m.reject(outcome.error);
      else m.resolve(outcome.result);
    });
  }

  /** One call in a transaction of its own, retried when it lost a race it can win by reading again. */
  private async appendAlone(requests: AppendRequest[], at: string): Promise<AppendResult> {
    const streams = requests.map((r) => r.stream);
    for (let attempt = 1; ; attempt++) {
      try {
        const [outcome] = await this.appendTogether([{ requests, at }]);
        if ('error' in outcome!) throw outcome.error;
        return outcome!.result;
      } catch (error) {
        if (error instanceof WrongExpectedRevisionError) throw error;
        const e = error as { code?: string; constraint?: string; detail?: string };
        if (e.code === '23505' && e.constraint === 'events_stream_revision_unique') {
          // A concurrent append created the stream (with 'no_stream', which takes no lock) between
          // our read of its head and our insert. Wrong for a number or 'no_stream'; for 'any', try
          // again on the new head.
          const stream = conflictingStream(e.detail);
          const request = requests.find((r) => r.stream === stream);
          if (request?.expectedRevision === 'any' && attempt < MAX_APPEND_ATTEMPTS) continue;
          const actual = stream === undefined ? null : await this.revisionOf(stream).catch(() => null);
          throw new WrongExpectedRevisionError(
            stream ?? streams.join(', '),
            request?.expectedRevision ?? requests[0]!.expectedRevision,
            actual,
          );
        }
        if (e.code === '40P01') {
          // Two appends created the same new streams in opposite orders. One of them was aborted
          // here; on the next attempt it sees the other's streams and answers as it should.
          if (attempt < MAX_APPEND_ATTEMPTS) continue;
          throw new WrongExpectedRevisionError(streams.join(', '), requests[0]!.expectedRevision, null);
        }
        if (isUnavailableError(error)) throw new LedgerUnavailableError('the ledger is unavailable', { cause: error, unconfirmed: true });
        throw error;
      }
    }
  }

  /**
   * Appends the members' requests in one transaction. A member whose expected revisions do not
   * hold (against the heads read, as earlier members of the group left them) gets its error and
   * writes nothing; the others land. Throws when the transaction itself fails.
   */
  private async appendTogether(members: { requests: AppendRequest[]; at: string }[]): Promise<Outcome[]> {
    const all = members.flatMap((m) => m.requests);
    const streams = [...new Set(all.map((r) => r.stream))];
    return await this.db.transaction().execute(async (tx) => {
      // One writer at a time per existing stream: lock the streams (in one global order, so that
      // appends naming them in other orders cannot deadlock) before reading their heads.
      // Otherwise two appends read the same head and race to the same revision: the loser fails
      // on the unique constraint, even with 'any', and its error names no stream. Streams
      // expected not to exist need no lock: the unique constraint on revision 0 decides, and a
      // 1,000-stream batch would otherwise take 1,000 locks (the lock table is shared and small).
      // A request without events is a condition, checked against the head read: unlocked, but for
      // one that a stream does not exist. A keyed write expects the other routes' streams for its
      // key absent, so two routes given one new key both lock the third's and go one after the
      // other, the second reading the first's stream (docs/contract.md, Idempotency-Key).
      if (this.authenticate?.publicKey && (await currentKeyRow(this.authenticate.publicKey).execute(tx)).rows.length === 0)
        throw keyRetired();
      const locks = (r: AppendRequest) => (r.events.length > 0 ? r.expectedRevision !== 'no_stream' : r.expectedRevision === 'no_stream');
      const locked = [...new Set(all.filter(locks).map((r) => r.stream))];
      if (locked.length > 0) {
        await sql`
          SELECT pg_advisory_xact_lock(${sql.lit(STREAM_LOCK_CLASS)}, k.h)
          FROM (SELECT DISTINCT hashtext(s) AS h FROM json_array_elements_text(${JSON.stringify(locked)}::json) AS s ORDER BY h) AS k`.execute(
          tx,
        );
      }
      // One index lookup per stream (its last revision): an IN (…) over the whole table made the
      // planner hash-join a sequential scan of the ledger once it held a few thousand events.
      const heads = await sql<{ stream_id: string; stream_revision: number; event_hash: string }>`
        SELECT s.stream_id, h.stream_revision, h.event_hash
        FROM json_array_elements_text(${JSON.stringify(streams)}::json) AS s(stream_id)
        CROSS JOIN LATERAL (
          SELECT e.stream_revision, e.event_hash FROM ledger.events e
          WHERE e.stream_id = s.stream_id ORDER BY e.stream_revision DESC LIMIT 1) AS h`.execute(tx);
      const headOf = new Map(heads.rows.map((h) => [h.stream_id, { revision: h.stream_revision, hash: h.event_hash }]));
      const rows: EventRow[] = [];
      const planned: ({ from: number; to: number } | WrongExpectedRevisionError)[] = members.map(({ requests, at }) => {
        for (const request of requests) {
          const actual = headOf.get(request.stream)?.revision ?? null;
          const expected = request.expectedRevision;
          const ok = expected === 'any' || (expected === 'no_stream' ? actual === null : actual === expected);
          if (!ok) return new WrongExpectedRevisionError(request.stream, expected, actual);
        }
        const from = rows.length;
        for (const request of requests) {
          if (request.events.length === 0) continue;
          // The next member of the group that names this stream chains to what this one wrote.
          headOf.set(request.stream, pushRows(rows, request, at, headOf.get(request.stream)));
        }
        return { from, to: rows.length };
      });
      if (rows.length === 0) return planned.map((p) => ({ error: p as WrongExpectedRevisionError }));
      const events = await insertRows(tx, rows, [], this.authenticate);
      if (!events) throw new Error('append: the insert answered no rows');
      return planned.map((p) =>
        p instanceof WrongExpectedRevisionError ? { error: p } : { result: resultOf(events.slice(p.from, p.to)) },
      );
    });
  }

  /**
   * The common case in one statement, without BEGIN or COMMIT: every member only creates streams
   * ('no_stream', none named twice in the group), so nothing needs reading first (revisions start
   * at 0, chains at null) and no lock is taken; the members' conditions are checked by the same
   * statement. Answers undefined, having written nothing, when a condition does not hold or a
   * stream exists already (the unique constraint refuses it): the transactional path then
   * answers each member. Throws only when the database is unavailable.
   */
  private async appendNew(group: Pending[]): Promise<Outcome[] | undefined> {
    try {
      const rows: EventRow[] = [];
      const conditions: { s: string; r: number | null }[] = [];
      const spans = group.map(({ requests, at }) => {
        const from = rows.length;
        for (const request of requests) {
          if (request.events.length > 0) pushRows(rows, request, at, undefined);
          else if (request.expectedRevision !== 'any')
            conditions.push({ s: request.stream, r: request.expectedRevision === 'no_stream' ? null : request.expectedRevision });
        }
        return { from, to: rows.length };
      });
      const events =
        this.bulk && rows.length >= this.copyFromEvents
          ? await copyRows(this.bulk, rows, conditions, this.authenticate)
          : await insertRows(this.db, rows, conditions, this.authenticate, true);
      return events && spans.map((p) => ({ result: resultOf(events.slice(p.from, p.to)) }));
    } catch (error) {
      // A stream that exists, a value refused (by the database or the hashing): the
      // transactional path answers each member as it should.
      if (isUnavailableError(error)) throw error;
      return undefined;
    }
  }

  private async revisionOf(stream: string): Promise<number | null> {
    const result = await sql<{ r: number | null }>`SELECT max(stream_revision) AS r FROM ledger.events WHERE stream_id = ${stream}`.execute(
      this.db,
    );
    return result.rows[0]?.r ?? null;
  }

  async readStream(stream: string): Promise<RecordedEvent[]> {
    const result = await sql<EventRowOut>`
      SELECT ${COLUMNS} FROM ledger.events WHERE stream_id = ${stream} ORDER BY stream_revision`.execute(this.db);
    return result.rows.map(toRecorded);
  }

  async readStreams(streams: readonly string[]): Promise<Map<string, RecordedEvent[]>> {
    const out = new Map<string, RecordedEvent[]>(streams.map((s) => [s, []]));
    if (streams.length === 0) return out;
    const result = await sql<EventRowOut>`
      SELECT ${COLUMNS} FROM ledger.events WHERE stream_id = ANY(${[...new Set(streams)]}::text[]) ORDER BY stream_id, stream_revision`.execute(
      this.db,
    );
    for (const r of result.rows) out.get(r.stream_id)!.push(toRecorded(r));
    return out;
  }

  async readAll(after: LedgerPosition, limit: number): Promise<RecordedEvent[]> {
    const result = await belowHorizon(
      (horizon) =>
        sql<EventRowOut>`
        SELECT ${COLUMNS} FROM ledger.events
        WHERE (transaction_id, global_position) > (${String(after.commit)}::xid8, ${after.prepare}::bigint)
          AND transaction_id < ${horizon}
        ORDER BY transaction_id, global_position
        LIMIT ${limit}`.execute(this.db),
      this.onHorizonDoubt,
    );
    return result.rows.map(toRecorded);
  }

  async countAfter(after: LedgerPosition, cap: number): Promise<number> {
    const result = await belowHorizon(
      (horizon) =>
        sql<{ n: number }>`
        SELECT count(*)::int AS n FROM (
          SELECT 1 FROM ledger.events
          WHERE (transaction_id, global_position) > (${String(after.commit)}::xid8, ${after.prepare}::bigint)
            AND transaction_id < ${horizon}
          LIMIT ${cap}) t`.execute(this.db),
      this.onHorizonDoubt,
    );
    return result.rows[0]!.n;
  }

  async appendedAfter(after: LedgerPosition, cap: number): Promise<{ events: number; firstAt: string | null }> {
    // No read horizon: rows committed behind an open transaction count, for that is the lag it causes.
    const result = await sql<{ n: number; first: Date | string | null }>`
      SELECT count(*)::int AS n, min(recorded_at) AS first FROM (
        SELECT recorded_at FROM ledger.events
        WHERE (transaction_id, global_position) > (${String(after.commit)}::xid8, ${after.prepare}::bigint)
        ORDER BY transaction_id, global_position
        LIMIT ${cap}) t`.execute(this.db);
    const row = result.rows[0];
    return { events: row?.n ?? 0, firstAt: row?.first == null ? null : new Date(row.first).toISOString() };
  }

  async headPosition(tenantId?: string): Promise<LedgerPosition | null> {
    const result = tenantId
      ? await sql<{ transaction_id: string; global_position: number }>`
          SELECT transaction_id, global_position FROM ledger.events WHERE tenant_id = ${tenantId}::uuid
          ORDER BY transaction_id DESC, global_position DESC LIMIT 1`.execute(this.db)
      : await sql<{ transaction_id: string; global_position: number }>`
          SELECT transaction_id, global_position FROM ledger.events
          ORDER BY transaction_id DESC, global_position DESC LIMIT 1`.execute(this.db);
    const row = result.rows[0];
    return row ? { commit: Number(row.transaction_id), prepare: row.global_position } : null;
  }
}
