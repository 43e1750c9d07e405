import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * C2SP signed notes (c2sp.org/signed-note) with Ed25519 keys, and the tlog-checkpoint text they
 * carry (c2sp.org/tlog-checkpoint): `<origin>\n<tree size>\n<base64 root hash>\n`.
 */

const ED25519 = 0x01;
/** The signature type of a timestamped Ed25519 cosignature (c2sp.org/tlog-cosignature). */
export const COSIGNATURE_V1 = 0x04;
/** PKCS #8 wrapping of a 32-byte Ed25519 seed (RFC 8410). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** Key names: non-empty, no Unicode spaces, no '+'. */
export const isKeyName = (name: string): boolean =>
  name.length > 0 && !/[\s+\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u.test(name);

/** key ID = first four bytes of SHA-256(key name ‖ 0x0A ‖ type ‖ 32-byte public key); type 0x01 for notes, 0x04 for cosignatures. */
export const keyIdOf = (name: string, publicKey: Uint8Array, type = ED25519): Buffer =>
  createHash('sha256')
    .update(name, 'utf8')
    .update(Buffer.from([0x0a, type]))
    .update(publicKey)
    .digest()
    .subarray(0, 4);

/** `<name>+<hex key id>+<base64(type ‖ public key)>`: type 0x01 (signed note) unless told. */
export const verifierKey = (name: string, publicKey: Uint8Array, type = ED25519): string =>
  `${name}+${keyIdOf(name, publicKey, type).toString('hex')}+${Buffer.concat([Buffer.from([type]), publicKey]).toString('base64')}`;

export interface NoteSigner {
  name: string;
  keyId: Buffer;
  /** The 32 raw bytes. */
  publicKey: Buffer;
  vkey: string;
  sign(text: string): Buffer;
}

/**
 * A signer from a 32-byte Ed25519 seed.
 *
 * @example
 * const signer = signerFromSeed('ledger.example.com', seed);
 * signNote('hello\n', signer); // 'hello\n\n— ledger.example.com …\n'
 */
export function signerFromSeed(name: string, seed: Uint8Array): NoteSigner {
  if (!isKeyName(name)) throw new TypeError(`not a signed-note key name: ${JSON.stringify(name)}`);
  if (seed.length !== 32) throw new TypeError('an Ed25519 seed is 32 bytes');
  const privateKey = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const jwk = createPublicKey(privateKey).export({ format: 'jwk' });
  const publicKey = Buffer.from(jwk.x!, 'base64url');
  return {
    name,
    keyId: keyIdOf(name, publicKey),
    publicKey,
    vkey: verifierKey(name, publicKey),
    sign: (text) => sign(null, Buffer.from(text, 'utf8'), privateKey),
  };
}

/** The note: text, a blank line, `— <name> base64(key id ‖ signature)`. */
export function signNote(text: string, signer: NoteSigner): string {
  if (!text.endsWith('\n')) throw new TypeError('a note text ends with a newline');
  const signature = Buffer.concat([signer.keyId, signer.sign(text)]).toString('base64');
  return `${text}\n\u2014 ${signer.name} ${signature}\n`;
}

export interface Verifier {
  name: string;
  keyId: Buffer;
  publicKey: KeyObject;
  publicKeyRaw: Buffer;
  /** 0x01: signs notes (a log's key); 0x04: signs timestamped cosignatures (a witness's key). */
  type: number;
}

export class NoteError extends Error {
  override readonly name = 'NoteError';
}

/**
 * Parses a verifier key (`<name>+<hex id>+<base64(type ‖ key)>`), type 0x01 (a log's key) or 0x04
 * (a witness's cosignature key); throws NoteError when malformed.
 */
export function parseVerifierKey(vkey: string): Verifier {
  const first = vkey.indexOf('+');
  const second = vkey.indexOf('+', first + 1);
  if (first <= 0 || second < 0) throw new NoteError('a verifier key reads <name>+<hex key id>+<base64 key>');
  const name = vkey.slice(0, first);
  const idHex = vkey.slice(first + 1, second);
  const material = Buffer.from(vkey.slice(second + 1), 'base64');
  if (!isKeyName(name) || !/^[0-9a-f]{8}$/.test(idHex)) throw new NoteError('a verifier key reads <name>+<8 hex digits>+<base64 key>');
  const type = material[0]!;
  if (material.length !== 33 || (type !== ED25519 && type !== COSIGNATURE_V1) || material.toString('base64') !== vkey.slice(second + 1)) {
    throw new NoteError('only Ed25519 verifier keys (type 0x01, or 0x04 for a witness, and 32 bytes) are supported');
  }
  const raw = material.subarray(1);
  const keyId = Buffer.from(idHex, 'hex');
  if (!keyIdOf(name, raw, type).equals(keyId)) throw new NoteError('the verifier key id does not match its name and key');
  return { name, keyId, publicKey: ed25519PublicKey(raw), publicKeyRaw: raw, type };
}

/** An Ed25519 public key from its 32 raw bytes (throws when they are not one). */
export const ed25519PublicKey = (raw: Buffer): KeyObject =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') }, format: 'jwk' });

/**
 * Checks a signed note against one trusted key and answers its text. Throws NoteError when the
 * note is malformed, carries no signature by that key, or that signature does not verify.
 */
export function openNote(note: string, verifier: Verifier): string {
  if (verifier.type !== ED25519) throw new NoteError(`${verifier.name}'s key is a witness's cosignature key (type 0x04), not a log's`);
  if ([...note].some((c) => c < ' ' && c !== '\n')) throw new NoteError('a note holds no control characters but newlines');
  const split = note.lastIndexOf('\n\n');
  if (split < 0 || !note.endsWith('\n')) throw new NoteError('a note is text, a blank line and signature lines');
  const text = note.slice(0, split + 1);
  const lines = note.slice(split + 2, -1).split('\n');
  let verified = false;
  for (const line of lines) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(line);
    if (!m) throw new NoteError(`malformed signature line: ${JSON.stringify(line.slice(0, 80))}`);
    const blob = Buffer.from(m[2]!, 'base64');
    if (blob.length < 5) throw new NoteError('a signature is a 4-byte key id and the signature');
    if (m[1] !== verifier.name || !blob.subarray(0, 4).equals(verifier.keyId)) continue;
    if (blob.length !== 68 || !verify(null, Buffer.from(text, 'utf8'), verifier.publicKey, blob.subarray(4))) {
      throw new NoteError(`the signature by ${verifier.name} does not verify`);
    }
    verified = true;
  }
  if (!verified) throw new NoteError(`the note carries no signature by ${verifier.name}+${verifier.keyId.toString('hex')}`);
  return text;
}

export interface Checkpoint {
  origin: string;
  treeSize: number;
  rootHash: Buffer;
}

/** What a timestamped Ed25519 cosignature signs (c2sp.org/tlog-cosignature): two header lines, then the checkpoint text. */
const cosignedMessage = (text: string, seconds: number): Buffer => Buffer.from(`cosignature/v1\ntime ${seconds}\n${text}`, 'utf8');

/**
 * A checkpoint as the log signs it: the signed note, and a second line, the log's own timestamped
 * cosignature (c2sp.org/tlog-cosignature, type 0x04, with the same Ed25519 key), which signs the
 * time of signing with the text. Tools that know only signed notes skip that line.
 *
 * @example
 * signCheckpoint({ origin, treeSize: 3, rootHash }, signer, new Date());
 */
export function signCheckpoint(c: Checkpoint, signer: NoteSigner, at: Date): string {
  const text = checkpointText(c);
  return `${signNote(text, signer)}${cosignatureLine(text, signer, at)}`;
}

/**
 * A timestamped Ed25519 cosignature line over a checkpoint's text (c2sp.org/tlog-cosignature):
 * `— <name> base64(key id ‖ 8-byte time ‖ signature)\n`, the key id of type 0x04. What a witness
 * answers, and the log's own signed time.
 */
export function cosignatureLine(text: string, signer: NoteSigner, at: Date): string {
  const seconds = Math.floor(at.getTime() / 1000);
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(seconds));
  const blob = Buffer.concat([
    keyIdOf(signer.name, signer.publicKey, COSIGNATURE_V1),
    time,
    signer.sign(cosignedMessage(text, seconds).toString('utf8')),
  ]);
  return `\u2014 ${signer.name} ${blob.toString('base64')}\n`;
}

/** A witness's key as cosignature verifier key: `<name>+<hex id>+<base64(0x04 ‖ key)>`. */
export const cosignerVkey = (signer: NoteSigner): string => verifierKey(signer.name, signer.publicKey, COSIGNATURE_V1);

/**
 * The time a checkpoint was signed, from the timestamped cosignature line by `verifier`'s key
 * (the log's own, see signCheckpoint, or a witness's); null when the note has no such line
 * (checkpoints signed before signed time existed, a witness that did not cosign). Throws
 * NoteError when the line is there and does not verify.
 */
export function signedTime(note: string, verifier: Verifier): Date | null {
  const split = note.lastIndexOf('\n\n');
  if (split < 0) throw new NoteError('a note is text, a blank line and signature lines');
  const text = note.slice(0, split + 1);
  const id = keyIdOf(verifier.name, verifier.publicKeyRaw, COSIGNATURE_V1);
  for (const line of note.slice(split + 2, -1).split('\n')) {
    const m = /^\u2014 (\S+) ([A-Za-z0-9+/]+={0,2})$/.exec(line);
    if (!m || m[1] !== verifier.name) continue;
    const blob = Buffer.from(m[2]!, 'base64');
    if (!blob.subarray(0, 4).equals(id)) continue;
    if (blob.length !== 4 + 8 + 64) throw new NoteError('a timestamped signature is a key id, 8 bytes of time and 64 of signature');
    const seconds = blob.readBigUInt64BE(4);
    if (
      seconds > BigInt(Number.MAX_SAFE_INTEGER) / 1000n ||
      !verify(null, cosignedMessage(text, Number(seconds)), verifier.publicKey, blob.subarray(12))
    )
      throw new NoteError(`the timestamped signature by ${verifier.name} does not verify`);
    return new Date(Number(seconds) * 1000);
  }
  return null;
}

/**
 * The witnesses among `witnesses` whose timestamped cosignature on the note verifies, each with
 * its time (a line by a witness's key that does not verify counts as no cosignature).
 */
export function cosignersOf(note: string, witnesses: readonly Verifier[]): { vkey: string; at: Date }[] {
  const found: { vkey: string; at: Date }[] = [];
  for (const w of witnesses) {
    try {
      const at = signedTime(note, w);
      const vkey = verifierKey(w.name, w.publicKeyRaw, COSIGNATURE_V1);
      if (at && !found.some((f) => f.vkey === vkey)) found.push({ vkey, at });
    } catch (error) {
      if (!(error instanceof NoteError)) throw error;
    }
  }
  return found;
}

/** `<origin>\n<tree size>\n<base64 root hash>\n` */
export const checkpointText = (c: Checkpoint): string => `${c.origin}\n${c.treeSize}\n${c.rootHash.toString('base64')}\n`;

/**
 * Parses a checkpoint's text (after openNote). Extension lines are allowed and ignored, but not
 * empty (c2sp.org/tlog-checkpoint). A size beyond 2^53 - 1, which a number would round (and so
 * compare wrongly), is refused.
 */
export function parseCheckpoint(text: string): Checkpoint {
  const [origin, size, root, ...extensions] = text.split('\n');
  if (!origin || !/^(0|[1-9][0-9]{0,15})$/.test(size ?? '') || !/^[A-Za-z0-9+/]{43}=$/.test(root ?? '')) {
    throw new NoteError('a checkpoint reads <origin>\\n<tree size>\\n<base64 root hash>\\n');
  }
  if (!Number.isSafeInteger(Number(size))) throw new NoteError(`a tree size above ${Number.MAX_SAFE_INTEGER} is not taken`);
  // The text ends with a newline: the last piece is empty, any other empty one is an empty line.
  if (extensions.slice(0, -1).some((line) => line === '')) throw new NoteError("a checkpoint's extension lines are not empty");
  return { origin, treeSize: Number(size), rootHash: Buffer.from(root!, 'base64') };
}
