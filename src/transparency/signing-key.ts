import { randomBytes } from 'node:crypto';
import { join, resolve } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { createKeyFile, readKeyFile, readSettingFile, replaceKeyFile, writeFileDurably } from '../common/key-file.js';
import type { Database } from '../store/schema.js';
import { comparePositions, type LedgerPosition } from '../ledger/ledger.port.js';
import { COSIGNATURE_V1, keyIdOf, parseVerifierKey, signerFromSeed, verifierKey, type NoteSigner } from './note.js';
import { signSuccession, vouchedKeys } from './key-succession.js';
import { transparencyDb, type TransparencyDb } from './transparency.table.js';
import { seedBytes, SigningKeyError } from './signing-seed.js';

/** The key name: the host of PUBLIC_BASE_URL (`ledger.example.com`, `localhost:3000`). */
export const keyNameOf = (publicBaseUrl: string): string => new URL(publicBaseUrl).host;

/** A tenant's log origin: `<PUBLIC_BASE_URL host>/ledger/<tenantId>`. */
export const originOf = (publicBaseUrl: string, tenantId: string): string => `${keyNameOf(publicBaseUrl)}/ledger/${tenantId}`;

export const SIGNING_KEY_FILE_NAME = 'signing.key';

/** Where the signing key comes from: the service's settings. */
export interface SigningKeySettings {
  transparencySigningKey: string | undefined;
  transparencySigningKeyFile: string | undefined;
  dataDir: string;
  databaseUrl: string | undefined;
  publicBaseUrl: string;
}

export interface LoadedSigningKey {
  signer: NoteSigner;
  /** The setting, a file, a file generated or moved out of the store now, or memory (in-memory store). */
  source: 'TRANSPARENCY_SIGNING_KEY' | 'TRANSPARENCY_SIGNING_KEY_FILE' | 'DATA_DIR' | 'generated' | 'moved' | 'ephemeral';
  path?: string;
  /** What start-up should print at warning level (a key moved out of the store, a key generated). */
  notices: string[];
}

/** The path of the default key file, or undefined for the in-memory store. */
const defaultPath = (s: SigningKeySettings): string | undefined =>
  !s.databaseUrl && s.dataDir === 'memory://' ? undefined : join(resolve(s.dataDir), SIGNING_KEY_FILE_NAME);

/**
 * The key from the settings alone: TRANSPARENCY_SIGNING_KEY, TRANSPARENCY_SIGNING_KEY_FILE, or
 * DATA_DIR/signing.key when it exists. Undefined when none is there yet (start generates one).
 */
export function configuredSigningKey(s: SigningKeySettings): Omit<LoadedSigningKey, 'notices'> | undefined {
  const name = keyNameOf(s.publicBaseUrl);
  if (s.transparencySigningKey)
    return { signer: signerFromSeed(name, seedBytes(s.transparencySigningKey)), source: 'TRANSPARENCY_SIGNING_KEY' };
  if (s.transparencySigningKeyFile) {
    const path = resolve(s.transparencySigningKeyFile);
    const text = readSettingFile(path, 'TRANSPARENCY_SIGNING_KEY_FILE', (m) => new SigningKeyError(m));
    return {
      signer: signerFromSeed(name, seedBytes(text, 'TRANSPARENCY_SIGNING_KEY_FILE')),
      source: 'TRANSPARENCY_SIGNING_KEY_FILE',
      path,
    };
  }
  const path = defaultPath(s);
  const text = path === undefined ? undefined : readKeyFile(path);
  return text === undefined ? undefined : { signer: signerFromSeed(name, seedBytes(text, path!)), source: 'DATA_DIR', path: path! };
}

const seedText = (seed: Uint8Array) => `${Buffer.from(seed).toString('base64')}\n`;

/**
 * Opens the key that signs checkpoints, from outside the store (docs/verifying.md, "Keys"): the
 * setting, the file it names, or DATA_DIR/signing.key, generated on the first start. A seed an
 * older version kept in the store (`transparency.signing_keys`) is moved out to that file and
 * deleted from the store. The key must be the log's current key (`transparency.key_history`):
 * the first key a store sees becomes it, and another key is refused until `keys rotate-signing`
 * makes it current, so that no two processes sign one log with different keys.
 *
 * @example
 * const { signer, notices } = await openSigningKey(store.db, settings);
 */
export async function openSigningKey(db: Kysely<Database>, settings: SigningKeySettings): Promise<LoadedSigningKey> {
  const t = transparencyDb(db);
  const notices: string[] = [];
  const legacy = await t.selectFrom('transparency.signing_keys').select('seed').where('purpose', '=', 'checkpoint').executeTakeFirst();
  let loaded: Omit<LoadedSigningKey, 'notices'> | undefined = configuredSigningKey(settings);
  const name = keyNameOf(settings.publicBaseUrl);
  const legacySeed = legacy ? seedBytes(legacy.seed, 'transparency.signing_keys') : undefined;
  if (!loaded) {
    const path = defaultPath(settings);
    // A log already signed must keep its key: a new one would be refused below anyway, after a
    // file nobody wants was written (the usual case: a store restored without its key files).
    const current = legacySeed ? undefined : await activeKey(db);
    if (current && path !== undefined) throw new SigningKeyError(missingSigningKeyMessage(path, current.vkey));
    const seed = legacySeed ?? randomBytes(32);
    if (path === undefined) loaded = { signer: signerFromSeed(name, seed), source: 'ephemeral' };
    else {
      const { text, created } = createKeyFile(path, seedText(seed));
      loaded = {
        signer: signerFromSeed(name, seedBytes(text, path)),
        source: created ? (legacy ? 'moved' : 'generated') : 'DATA_DIR',
        path,
      };
    }
  }
  const signer = loaded.signer;
  await db.transaction().execute(async (tx) => {
    await lockHistory(tx);
    // Before this transaction writes: what keys retired now may authenticate at most.
    const { until } = await storeLedgerHead(tx);
    const legacySigner = legacySeed ? signerFromSeed(name, legacySeed) : undefined;
    if (legacySigner) {
      // The seed an older version kept: its public half joins the history (it signed the
      // checkpoints so far), and the seed leaves the store.
      const active = await activeKey(tx);
      if (!active) await activate(tx, legacySigner);
      await transparencyDb(tx).deleteFrom('transparency.signing_keys').where('purpose', '=', 'checkpoint').execute();
      notices.push(
        loaded.source === 'moved'
          ? `consent-ledger: the checkpoint signing key was kept in the database by an older version; it is now in ${loaded.path} and no longer in the database. Anyone who could read the database could sign checkpoints with it: rotate it (npx consent-ledger keys rotate-signing) and back the file up.`
          : 'consent-ledger: deleted the checkpoint signing seed an older version kept in the database (transparency.signing_keys). Anyone who could read the database could sign checkpoints with it: rotate it (npx consent-ledger keys rotate-signing).',
      );
      if (
        !legacySigner.publicKey.equals(signer.publicKey) &&
        (await activeKey(tx))?.publicKey === legacySigner.publicKey.toString('base64')
      ) {
        // The operator's key replaces the one the store held: a rotation, as `keys rotate-signing` makes it.
        await retireAndActivate(tx, legacySigner, signer, until);
      }
    }
    const active = await activeKey(tx);
    if (!active) await activate(tx, signer);
    else if (active.publicKey !== signer.publicKey.toString('base64')) {
      // A rotation stopped between its file write and its commit kept the key before it beside the file.
      const before = loaded.path ? keptBeforeRotation(loaded.path) : undefined;
      const interrupted =
        before && existsSync(before)
          ? ` A rotation stopped before its commit left the key before it in ${before}: move it back to ${loaded.path} and start again.`
          : '';
      throw new SigningKeyError(
        `the checkpoint signing key of this process (${signer.vkey}, from ${describeSource(loaded)}) is not the log's current key (${active.vkey}, since ${active.activatedAt}). ` +
          'Give every process the same key (TRANSPARENCY_SIGNING_KEY_FILE), or make this one current with `npx consent-ledger keys rotate-signing`.' +
          interrupted,
      );
    } else if (active.vkey !== signer.vkey) {
      // The same key under another name (PUBLIC_BASE_URL changed): the history names it as it signs
      // now, and the operator is told, for the log's origin changes with it; not when no checkpoint
      // was signed yet (a CLI command run with another PUBLIC_BASE_URL made the store): no auditor holds one.
      const was = parseVerifierKey(active.vkey).name;
      const signed = await transparencyDb(tx)
        .selectFrom('transparency.checkpoints')
        .select(sql<number>`1`.as('one'))
        .limit(1)
        .executeTakeFirst();
      if (signed)
        notices.push(
          `consent-ledger: PUBLIC_BASE_URL names this service ${signer.name}, but its transparency log was signed as ${was} until now. ` +
            `New checkpoints carry the origin ${signer.name}/ledger/<tenant> and the key ${signer.vkey}: an auditor's checkpoints kept under ${was} do not connect with them. ` +
            `Unless the service has really moved, set PUBLIC_BASE_URL back to the address that gives ${was} (docs/verifying.md).`,
        );
      await transparencyDb(tx)
        .updateTable('transparency.key_history')
        .set({ vkey: signer.vkey })
        .where('public_key', '=', active.publicKey)
        .execute();
    }
    await vouchForEarlierKeys(tx, signer, until);
    const unvouched = await unvouchedKeys(tx, signer);
    if (unvouched.length > 0) notices.push(unvouchedKeysWarning(unvouched));
  });
  if (loaded.source === 'generated') notices.push(generatedSigningKeyWarning(loaded.path!));
  return { ...loaded, notices };
}

const describeSource = (k: Omit<LoadedSigningKey, 'notices'>) => (k.path ? `${k.source} ${k.path}` : k.source);

/** The refusal when the log has a key and this process has none. */
const missingSigningKeyMessage = (path: string, vkey: string): string =>
  `this store's transparency log is signed by ${vkey}, and no signing key was found (TRANSPARENCY_SIGNING_KEY, TRANSPARENCY_SIGNING_KEY_FILE, or ${path}). ` +
  'Give this process the key file the log was signed with (a restored backup needs the key files of the store it was taken from; docs/operations.md, Backups).';

/**
 * Whether `signer` is the log's current key; undefined when the log has none yet (a restore's
 * check of the key files it is given).
 */
export async function isCurrentKey(db: Kysely<Database>, signer: NoteSigner): Promise<boolean | undefined> {
  const active = await activeKey(db);
  return active ? active.publicKey === signer.publicKey.toString('base64') : undefined;
}

/**
 * Whether `signer` still signs for the log: its current key, named as the log names it (false once
 * a rotation, a rename or a change to the key history took that from it; true for a log with no key yet).
 */
export async function signsForLog(db: Kysely<Database>, signer: NoteSigner): Promise<boolean> {
  const active = await activeKey(db);
  return !active || (active.publicKey === signer.publicKey.toString('base64') && active.vkey === signer.vkey);
}

/** The warning printed when a signing key was generated. */
export const generatedSigningKeyWarning = (path: string): string =>
  [
    `consent-ledger: generated a new checkpoint signing key in ${path}.`,
    '  It signs every checkpoint of the transparency log; its public half is at /.well-known/consent-ledger/keys.',
    '  BACK IT UP, apart from the database, and give every process of this service the same file',
    '  (TRANSPARENCY_SIGNING_KEY_FILE), or set TRANSPARENCY_SIGNING_KEY (docs/verifying.md).',
  ].join('\n');

/**
 * Once, on the first start of a version that signs successions: the current key vouches for the
 * keys retired before it, which carry no successor's signature (trust on that start, recorded in
 * transparency.key_chain_start; later rows need a real successor's). Run with the history locked,
 * by the log's current key.
 */
async function vouchForEarlierKeys(tx: Kysely<Database>, signer: NoteSigner, until: LedgerPosition | undefined): Promise<void> {
  const t = transparencyDb(tx);
  if (await t.selectFrom('transparency.key_chain_start').select('only_row').executeTakeFirst()) return;
  const earlier = await t
    .selectFrom('transparency.key_history')
    .select('public_key')
    .where('retired_at', 'is not', null)
    .where('successor_signature', 'is', null)
    .execute();
  // None of them authenticates an event appended after now (`until`, the store's own ledger's).
  for (const { public_key } of earlier) {
    await t
      .updateTable('transparency.key_history')
      .set({ retired_position: null, ...signSuccession(Buffer.from(public_key, 'base64'), signer, undefined, until) })
      .where('public_key', '=', public_key)
      .execute();
  }
  await t
    .insertInto('transparency.key_chain_start')
    .values({ public_key: signer.publicKey.toString('base64') })
    .execute();
}

/** The history's keys (vkeys) that the key this process holds does not vouch for. */
async function unvouchedKeys(tx: Kysely<Database>, signer: NoteSigner): Promise<string[]> {
  const rows = await transparencyDb(tx)
    .selectFrom('transparency.key_history')
    .select(['public_key', 'vkey', 'successor_key', 'successor_signature', 'retired_position'])
    .execute();
  const vouched = vouchedKeys(rows, signer.publicKey.toString('base64'));
  return rows.filter((r) => !vouched.has(r.public_key)).map((r) => r.vkey);
}

const unvouchedKeysWarning = (vkeys: string[]): string =>
  `consent-ledger: the key history holds ${vkeys.length === 1 ? 'a key' : 'keys'} no successor vouches for: ${vkeys.join(', ')}. ` +
  'Events they authenticated read as tampered, and they are not published. Either someone with the database’s credentials wrote ' +
  'them there, or an older version’s keys rotate-signing retired them after this version had started (docs/verifying.md, Keys).';

/** Serializes changes to the key history (start, rotation) and the sealer's check against them. */
const lockHistory = (tx: Kysely<Database>) => sql`LOCK TABLE transparency.key_history IN SHARE ROW EXCLUSIVE MODE`.execute(tx);

interface ActiveKey {
  publicKey: string;
  vkey: string;
  activatedAt: string;
}

async function activeKey(tx: Kysely<Database>): Promise<ActiveKey | undefined> {
  const r = await transparencyDb(tx)
    .selectFrom('transparency.key_history')
    .select(['public_key', 'vkey', 'activated_at'])
    .where('retired_at', 'is', null)
    .executeTakeFirst();
  return r ? { publicKey: r.public_key, vkey: r.vkey, activatedAt: new Date(r.activated_at).toISOString() } : undefined;
}

const activate = (tx: Kysely<Database>, signer: NoteSigner) =>
  transparencyDb(tx)
    .insertInto('transparency.key_history')
    .values({ public_key: signer.publicKey.toString('base64'), vkey: signer.vkey })
    .execute();

/**
 * The last position of the store's own ledger table a retired key may authenticate, read in the
 * caller's transaction before it writes: the newest event committed, or, while a transaction that
 * may still append is open (its rows would land before that event), just before that transaction.
 * `open`: that transaction's id. Undefined `until` when the table holds no event (an EventStoreDB
 * ledger's are not in it: its caller gives the head).
 */
async function storeLedgerHead(tx: Kysely<Database>): Promise<{ until: LedgerPosition | undefined; open: number | null }> {
  // pg_stat_activity is read once per transaction unless cleared, and this is asked again in a loop.
  await sql`SELECT pg_stat_clear_snapshot()`.execute(tx);
  // Another session of this database with a transaction id: it has written, or may yet. Its id
  // is widened to the ledger's 64-bit form from the snapshot's xmax, which running ids are within
  // 2^31 of; not taken from the snapshot's list, which leaves out the newest ids (xmax and above).
  const row = await sql<{ commit: string | null; prepare: string | null; open: string | null }>`
    WITH s AS (SELECT pg_snapshot_xmax(pg_current_snapshot())::text::bigint AS xmax),
    running AS (
      SELECT a.backend_xid::text::bigint AS xid FROM pg_stat_activity a
      WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database())
        AND a.backend_xid IS NOT NULL AND a.pid <> pg_backend_pid()
      UNION ALL
      SELECT p.transaction::text::bigint FROM pg_prepared_xacts p WHERE p.database = current_database())
    SELECT e.commit, e.prepare, (
      SELECT min(s.xmax + ((r.xid - s.xmax % 4294967296 + 6442450944) % 4294967296) - 2147483648)::text
      FROM running r, s) AS open
    FROM (SELECT 1) AS one
    LEFT JOIN LATERAL (
      SELECT transaction_id::text AS commit, global_position::text AS prepare FROM ledger.events
      ORDER BY transaction_id DESC, global_position DESC LIMIT 1) e ON true`.execute(tx);
  const r = row.rows[0]!;
  const open = r.open === null ? null : Number(r.open);
  const head = r.commit === null ? undefined : { commit: Number(r.commit), prepare: Number(r.prepare) };
  if (open === null || head === undefined) return { until: head, open };
  const beforeOpen = { commit: open - 1, prepare: Number.MAX_SAFE_INTEGER };
  return { until: comparePositions(head, beforeOpen) < 0 ? head : beforeOpen, open };
}

/**
 * Retires `old` (recording the size of every tenant's tree it signed up to) and makes `next`
 * current; `until`, the ledger's head, is the last position `old` authenticates.
 */
async function retireAndActivate(
  tx: Kysely<Database>,
  old: NoteSigner,
  next: NoteSigner,
  until: LedgerPosition | undefined,
): Promise<void> {
  const t = transparencyDb(tx);
  const oldKey = old.publicKey.toString('base64');
  // The new key names the one it succeeds and the last position it authenticates: what vouches for
  // the old key's authenticators from now on; the old key signs the same statement, its handover
  // to the new one for auditors.
  await t
    .updateTable('transparency.key_history')
    .set({ retired_at: sql<string>`clock_timestamp()`, ...signSuccession(old.publicKey, next, old, until) })
    .where('public_key', '=', oldKey)
    .execute();
  await sql`
    INSERT INTO transparency.key_tree_sizes (public_key, tenant_id, last_size)
    SELECT ${oldKey}, tenant_id, tree_size FROM transparency.trees`.execute(tx);
  const known = await t
    .selectFrom('transparency.key_history')
    .select('retired_at')
    .where('public_key', '=', next.publicKey.toString('base64'))
    .executeTakeFirst();
  if (known) throw new SigningKeyError(`${next.vkey} signed this log before and was retired: a retired key is never used again`);
  await activate(tx, next);
}

/**
 * The sealer's check, in its batch's transaction: this process still holds the current key (and,
 * with `sameName`, names it as the log does). The lock it takes makes a rotation wait for the
 * batch, and the next batch see the rotation.
 */
export async function assertCurrentKey(tx: Kysely<Database>, signer: NoteSigner, options: { sameName?: boolean } = {}): Promise<void> {
  const rows = await sql<{ public_key: string; vkey: string }>`
    SELECT public_key, vkey FROM transparency.key_history WHERE retired_at IS NULL FOR SHARE`.execute(tx);
  const current = rows.rows[0];
  if (current === undefined) return;
  if (current.public_key !== signer.publicKey.toString('base64')) {
    // Retired (a rotation since this process started), or never the log's: said as what it is.
    const retired = await sql<{ one: number }>`
      SELECT 1 AS one FROM transparency.key_history WHERE public_key = ${signer.publicKey.toString('base64')} AND retired_at IS NOT NULL`.execute(
      tx,
    );
    throw new SigningKeyError(
      retired.rows.length > 0
        ? `the checkpoint signing key of this process (${signer.vkey}) was retired by keys rotate-signing: restart the service with the new key`
        : `the checkpoint signing key of this process (${signer.vkey}) is not the log's current key (${current.vkey}): give it the key the service signs with`,
    );
  }
  // The sealer's too: the same key under another name, a process started since with another
  // PUBLIC_BASE_URL renamed the log, and signing on under this name would mix two origins in it.
  // (Appends' authenticators name the key by its id alone: a command's PUBLIC_BASE_URL is not asked.)
  if (options.sameName && current.vkey !== signer.vkey) {
    const named = parseVerifierKey(current.vkey).name;
    throw new SigningKeyError(
      `this process names the log ${signer.name} (PUBLIC_BASE_URL), but it is signed as ${named} since a process started with that name: ` +
        'give every process the same PUBLIC_BASE_URL and restart this one (docs/scaling.md)',
    );
  }
}

/**
 * `keys rotate-signing`: retires the current key and makes `next` current, in one transaction
 * (every tenant's tree size at that moment is recorded as the last the old key signed). When the
 * current key is the default file's, the new seed replaces it there; otherwise the operator puts
 * the new key where the setting points. Run with the service stopped.
 */
export async function rotateSigningKey(
  db: Kysely<Database>,
  settings: SigningKeySettings,
  nextSeed: Buffer | undefined,
  until?: LedgerPosition,
): Promise<{ retired: string; current: string; path?: string }> {
  const current = configuredSigningKey(settings);
  if (!current) {
    const active = await activeKey(db);
    throw new SigningKeyError(
      active
        ? `no signing key to rotate: this store's log is signed by ${active.vkey}, and no signing key was found (TRANSPARENCY_SIGNING_KEY, TRANSPARENCY_SIGNING_KEY_FILE, or DATA_DIR/${SIGNING_KEY_FILE_NAME}): give the command the key the service signs with`
        : 'no signing key to rotate: the service has not started on this store yet',
    );
  }
  if (!nextSeed && current.source !== 'DATA_DIR')
    throw new SigningKeyError(
      `the current key comes from ${current.source}: give the new one with --new-key-file, then point ${current.source} at it`,
    );
  const seed = nextSeed ?? randomBytes(32);
  // The default file is replaced inside the transaction, its old text kept beside it until the
  // commit: a commit that fails puts it back, and a crash before the commit leaves it there.
  const kept = nextSeed ? undefined : keptBeforeRotation(current.path!);
  let replaced = false;
  try {
    const writeFile = () => {
      writeFileDurably(kept!, readFileSync(current.path!, 'utf8'));
      replaceKeyFile(current.path!, seedText(seed));
      replaced = true;
    };
    const names = await rotateInStore(db, current, seed, kept === undefined ? undefined : writeFile, until);
    if (kept) rmSync(kept, { force: true });
    return { ...names, ...(current.source === 'DATA_DIR' ? { path: current.path! } : {}) };
  } catch (error) {
    if (replaced) {
      writeFileDurably(current.path!, readFileSync(kept!, 'utf8'));
      rmSync(kept!, { force: true });
    }
    throw error;
  }
}

/** Where a rotation keeps the key file's old text until its commit. */
const keptBeforeRotation = (path: string): string => `${path}.before-rotation`;

/** Retires the configured key and makes `seed`'s current, in one transaction; `beforeCommit`, when given, writes the key file. */
async function rotateInStore(
  db: Kysely<Database>,
  current: NonNullable<ReturnType<typeof configuredSigningKey>>,
  seed: Buffer,
  beforeCommit: (() => void) | undefined,
  until: LedgerPosition | undefined,
): Promise<{ retired: string; current: string }> {
  return db.transaction().execute(async (tx) => {
    await lockHistory(tx);
    // Appends lock the current key's row while they commit (src/ledger/postgres): taken here, this
    // waits for those that found it current, and those after it find it retired and write nothing.
    await sql`SELECT 1 FROM transparency.key_history WHERE retired_at IS NULL FOR UPDATE`.execute(tx);
    // A transaction that may still append would put the retired key's events after the position
    // its statement names, or (a forger's, kept open) before it: waited for a moment (a process
    // finishing its batch), then refused, as the service must be stopped.
    let head = await storeLedgerHead(tx);
    for (const deadline = Date.now() + 5_000; head.open !== null && Date.now() < deadline; head = await storeLedgerHead(tx))
      await new Promise((resolve) => setTimeout(resolve, 50));
    if (head.open !== null)
      throw new SigningKeyError(
        `a transaction that may append to the ledger is open on the database (transaction ${head.open}): stop every process of the service, let it end, and rotate again`,
      );
    const active = await activeKey(tx);
    if (active?.publicKey !== current.signer.publicKey.toString('base64'))
      throw new SigningKeyError(`the configured key (${current.signer.vkey}) is not the log's current key (${active?.vkey ?? 'none'})`);
    // Named as the log knows its key (the service's PUBLIC_BASE_URL), not by this command's
    // settings, which may lack it: the vkeys printed are those the auditors will see.
    const next = signerFromSeed(parseVerifierKey(active.vkey).name, seed);
    if (next.publicKey.equals(current.signer.publicKey)) throw new SigningKeyError('the new key is the current key');
    await retireAndActivate(tx, current.signer, next, until ?? head.until);
    // The default file: replaced before the transaction commits, so that a failed write leaves both unchanged.
    beforeCommit?.();
    return { retired: active.vkey, current: next.vkey };
  });
}

export interface KeyHistoryEntry {
  keyName: string;
  keyId: string;
  publicKey: string;
  vkey: string;
  /** The same key as the verifier of the checkpoints' signed time (type 0x04, c2sp.org/tlog-cosignature). */
  timestampVkey: string;
  status: 'current' | 'retired';
  activatedAt: string;
  retiredAt: string | null;
  /** With a tenant: the tree sizes of that tenant's log this key signed checkpoints for (null: none). */
  treeSizes?: { from: number; to: number | null } | null;
  /**
   * A retired key's successor (null while current): its public key, its signature of the
   * succession statement, and this key's own signature of it (the handover; null for a key retired
   * before handovers were signed).
   */
  successor: { publicKey: string; signature: string; handover: string | null; position: string | null } | null;
}

/** Every key that signed this service's checkpoints, the current one first, then the retired newest first. */
export async function keyHistory(db: TransparencyDb, anchor: Buffer, tenantId?: string): Promise<KeyHistoryEntry[]> {
  const all = await db
    .selectFrom('transparency.key_history as h')
    .leftJoin('transparency.key_tree_sizes as s', (j) =>
      j.onRef('s.public_key', '=', 'h.public_key').on('s.tenant_id', '=', tenantId ?? '00000000-0000-0000-0000-000000000000'),
    )
    .select([
      'h.public_key',
      'h.vkey',
      'h.activated_at',
      'h.retired_at',
      'h.successor_key',
      'h.successor_signature',
      'h.handover_signature',
      'h.retired_position',
      's.last_size',
    ])
    .orderBy('h.activated_at')
    .execute();
  // Only the keys this process's key vouches for: a row the database alone wrote is no key of the log's.
  const vouched = vouchedKeys(all, anchor.toString('base64'));
  const rows = all.filter((r) => vouched.has(r.public_key));
  let previous = -1;
  const entries = rows.map((r): KeyHistoryEntry => {
    // The id and vkey are made from the row's public key, never taken as written: a vkey the
    // database changed would publish another key under this one's name.
    const keyName = r.vkey.split('+')[0]!;
    const publicKey = Buffer.from(r.public_key, 'base64');
    const entry: KeyHistoryEntry = {
      keyName,
      keyId: keyIdOf(keyName, publicKey).toString('hex'),
      publicKey: r.public_key,
      vkey: verifierKey(keyName, publicKey),
      timestampVkey: verifierKey(keyName, publicKey, COSIGNATURE_V1),
      status: r.retired_at === null ? 'current' : 'retired',
      activatedAt: new Date(r.activated_at).toISOString(),
      retiredAt: r.retired_at === null ? null : new Date(r.retired_at).toISOString(),
      successor:
        r.retired_at === null || r.successor_key === null || r.successor_signature === null
          ? null
          : { publicKey: r.successor_key, signature: r.successor_signature, handover: r.handover_signature, position: r.retired_position },
    };
    if (tenantId !== undefined) {
      const last = r.retired_at === null ? null : Number(r.last_size ?? previous);
      entry.treeSizes = last !== null && last <= previous ? null : { from: previous + 1, to: last };
      if (last !== null) previous = Math.max(previous, last);
    }
    return entry;
  });
  return entries.reverse();
}
