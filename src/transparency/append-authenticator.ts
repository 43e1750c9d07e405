import { createHash, verify, type KeyObject } from 'node:crypto';
import { eventLeafHash, inclusionRanges, nodeHash, rootFromInclusion, splitPoint, type Hash } from './merkle.js';
import { ed25519PublicKey, type NoteSigner } from './note.js';

/**
 * Event authenticators (docs/verifying.md, "Authenticated events"): whoever appends signs what it
 * appends, with the log's signing key, which the database never holds. A row a database writer
 * inserts has no valid authenticator, so the sealer refuses it and `/verify` calls it tampered.
 *
 * One signature per append group (a group commit's transaction): the root of an RFC 9162 tree over
 * the group's event hashes, in insert order, leaf = SHA-256(0x00 ‖ eventHash bytes). Each event
 * carries the signature and its inclusion path, so it is checked alone, without the group's other
 * events (which may be other tenants'): one signature however many events a group holds.
 *
 *   v2:<hex key id>:<index>:<group size>:<base64 signature>:<base64 path, 32 bytes per hash>
 *
 * The key id is the first four bytes of SHA-256 of the 32-byte public key: unlike a vkey's, it
 * does not change with the key's name (the host of PUBLIC_BASE_URL).
 *
 * The signature is Ed25519 over `consent-ledger/append/v2 NUL <group size> NUL <base64 root>`:
 * the NULs and the missing final newline make it a text no signed note can have, so the checkpoint
 * key's signature on it is never also a signed checkpoint. Events appended before v2 carry v1,
 * signed over `consent-ledger/append/v1\n<group size>\n<base64 root>\n`, still checked as such.
 */

/** An authenticator's key id: SHA-256(32-byte Ed25519 public key)[:4], hex. */
export const appendKeyId = (publicKey: Uint8Array): string =>
  createHash('sha256').update(publicKey).digest().subarray(0, 4).toString('hex');
/** What an authenticator's signature is over, by its version. */
const message = (version: 'v1' | 'v2', size: number, root: Hash): string =>
  version === 'v2'
    ? `consent-ledger/append/v2\u0000${size}\u0000${root.toString('base64')}`
    : `consent-ledger/append/v1\n${size}\n${root.toString('base64')}\n`;

/** The tree over `leaves`, its nodes computed once each (a group of n events: about 2n hashes). */
function tree(leaves: readonly Hash[]): (a: number, b: number) => Hash {
  const memo = new Map<string, Hash>();
  const hash = (a: number, b: number): Hash => {
    if (b - a === 1) return leaves[a]!;
    const key = `${a}:${b}`;
    let h = memo.get(key);
    if (!h) {
      const k = a + splitPoint(b - a);
      h = nodeHash(hash(a, k), hash(k, b));
      memo.set(key, h);
    }
    return h;
  };
  return hash;
}

/**
 * Authenticators for one append group's events, in insert order.
 *
 * @example
 * const auth = authenticateAppend(signer, rows.map((r) => r.event_hash)); // one per row
 */
export function authenticateAppend(signer: NoteSigner, eventHashes: readonly string[]): string[] {
  const n = eventHashes.length;
  if (n === 0) return [];
  const hash = tree(eventHashes.map(eventLeafHash));
  const root = hash(0, n);
  const signature = signer.sign(message('v2', n, root)).toString('base64');
  const id = appendKeyId(signer.publicKey);
  return eventHashes.map((_, i) => {
    const path = Buffer.concat(inclusionRanges(i, n).map(([a, b]) => hash(a, b))).toString('base64');
    return `v2:${id}:${i}:${n}:${signature}:${path}`;
  });
}

/** The public keys authenticators may name, by hex key id: the current and retired signing keys. */
export type AuthenticatorKeys = ReadonlyMap<string, KeyObject>;

/** A key id → public key map from raw Ed25519 public keys. */
export const authenticatorKeys = (keys: readonly { publicKey: Buffer }[]): AuthenticatorKeys =>
  new Map(keys.map((k) => [appendKeyId(k.publicKey), ed25519PublicKey(k.publicKey)]));

/** An authenticator's format: version, key id, leaf index, tree size, signature, inclusion path. */
const AUTHENTICATOR = /^(?:v1|v2):([0-9a-f]{8}):(0|[1-9][0-9]{0,8}):([1-9][0-9]{0,8}):([A-Za-z0-9+/]{86}==):([A-Za-z0-9+/]*={0,2})$/;

/** The key id an authenticator names, or undefined when it is not one. */
export const authenticatorKeyId = (authenticator: string | null | undefined): string | undefined =>
  AUTHENTICATOR.exec(authenticator ?? '')?.[1];

/**
 * Why an event's authenticator does not hold, or null when it does. `keys` resolves its key id;
 * `verified`, when given, remembers signatures already checked (a group's events share one), so
 * each costs one Ed25519 verification however many of its events are checked.
 */
export function authenticatorProblem(
  eventHash: string,
  authenticator: string | null | undefined,
  keys: AuthenticatorKeys,
  verified?: Set<string>,
): string | null {
  if (!authenticator) return 'the event carries no authenticator';
  const m = AUTHENTICATOR.exec(authenticator);
  if (!m) return 'the authenticator is malformed';
  const key = keys.get(m[1]!);
  if (!key) return `the authenticator names key ${m[1]}, which never signed this log`;
  const [index, size] = [Number(m[2]), Number(m[3])];
  const path = Buffer.from(m[5]!, 'base64');
  if (index >= size || path.length % 32 !== 0) return 'the authenticator is malformed';
  const hashes = Array.from({ length: path.length / 32 }, (_, k) => path.subarray(k * 32, k * 32 + 32));
  // The root the path leads to from this event; the signature must be over it.
  const root = rootFromInclusion(index, size, eventLeafHash(eventHash), hashes);
  if (!root) return 'the authenticator does not cover this event';
  const signed = message(authenticator.startsWith('v2:') ? 'v2' : 'v1', size, root);
  const memo = `${m[1]}:${m[4]}:${signed}`;
  if (verified?.has(memo)) return null;
  if (!verify(null, Buffer.from(signed, 'utf8'), key, Buffer.from(m[4]!, 'base64'))) return 'the authenticator’s signature does not verify';
  if (verified) {
    if (verified.size >= 10_000) verified.clear();
    verified.add(memo);
  }
  return null;
}
