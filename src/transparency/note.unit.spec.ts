import { createHash, createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  checkpointText,
  NoteError,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  signCheckpoint,
  signedTime,
  signerFromSeed,
  signNote,
} from './note.js';

// The example of golang.org/x/mod/sumdb/note (the reference implementation of C2SP signed-note):
// its signer key, verifier key, text and the exact note it signs.
const GO_SKEY_PAYLOAD = 'AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz'; // base64(0x01 ‖ seed)
const GO_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const GO_TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const GO_NOTE = `${GO_TEXT}\n\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`;
const goSigner = () => signerFromSeed('PeterNeumann', Buffer.from(GO_SKEY_PAYLOAD, 'base64').subarray(1));

/** Verification written here from the C2SP text, without note.ts: key id, then Ed25519 over the text. */
function independentVerify(note: string, vkey: string): boolean {
  const [name, idHex, keyB64] = [vkey.slice(0, vkey.indexOf('+')), vkey.split('+')[1]!, vkey.split('+').slice(2).join('+')];
  const key = Buffer.from(keyB64, 'base64');
  const id = createHash('sha256')
    .update(Buffer.concat([Buffer.from(`${name}\n`), key]))
    .digest()
    .subarray(0, 4);
  if (id.toString('hex') !== idHex || key[0] !== 1) return false;
  const at = note.indexOf('\n\n');
  const text = note.slice(0, at + 1);
  const line = note.slice(at + 2).trimEnd();
  if (!line.startsWith(`\u2014 ${name} `)) return false;
  const blob = Buffer.from(line.slice(`\u2014 ${name} `.length), 'base64');
  const pub = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.subarray(1).toString('base64url') }, format: 'jwk' });
  return blob.subarray(0, 4).equals(id) && verify(null, Buffer.from(text), pub, blob.subarray(4));
}

describe('note › when given the sumdb/note reference key › signs and verifies exactly as the reference does', () => {
  it('derives the reference verifier key (name, key id, base64 key)', () => {
    expect(goSigner().vkey).toBe(GO_VKEY);
  });

  it('signs the reference text into the reference note, byte for byte', () => {
    expect(signNote(GO_TEXT, goSigner())).toBe(GO_NOTE);
  });

  it('opens the reference note and refuses it when one character changes', () => {
    const v = parseVerifierKey(GO_VKEY);
    expect(openNote(GO_NOTE, v)).toBe(GO_TEXT);
    expect(() => openNote(GO_NOTE.replace('cryptography', 'cryptographY'), v)).toThrow(NoteError);
  });
});

describe('note › when a checkpoint is signed with a fresh key › an independent verifier accepts it and forgeries fail', () => {
  const seed = createHash('sha256').update('test seed').digest();
  const signer = signerFromSeed('ledger.example.com', seed);
  const text = checkpointText({
    origin: 'ledger.example.com/ledger/t-1',
    treeSize: 42,
    rootHash: createHash('sha256').update('root').digest(),
  });
  const note = signNote(text, signer);

  it('reads origin, size and base64 root, and verifies independently', () => {
    expect(text).toBe(`ledger.example.com/ledger/t-1\n42\n${createHash('sha256').update('root').digest('base64')}\n`);
    expect(parseCheckpoint(openNote(note, parseVerifierKey(signer.vkey)))).toMatchObject({
      origin: 'ledger.example.com/ledger/t-1',
      treeSize: 42,
    });
    expect(independentVerify(note, signer.vkey)).toBe(true);
  });

  it('refuses a forged signature, a changed size and another key', () => {
    const v = parseVerifierKey(signer.vkey);
    const forged = note.replace(/ (\S+)\n$/, (_m, b64: string) => {
      const blob = Buffer.from(b64, 'base64');
      blob[10] = blob[10]! ^ 1;
      return ` ${blob.toString('base64')}\n`;
    });
    expect(() => openNote(forged, v)).toThrow(/does not verify/);
    expect(independentVerify(forged, signer.vkey)).toBe(false);
    expect(() => openNote(note.replace('\n42\n', '\n43\n'), v)).toThrow(/does not verify/);
    const other = signerFromSeed('ledger.example.com', createHash('sha256').update('other').digest());
    expect(() => openNote(signNote(text, other), v)).toThrow(/no signature by/);
  });

  it('refuses malformed verifier keys', () => {
    expect(() => parseVerifierKey('nope')).toThrow(NoteError);
    expect(() => parseVerifierKey(signer.vkey.replace(/\+[0-9a-f]{8}\+/, '+00000000+'))).toThrow(/key id/);
  });
});

describe('note › a checkpoint with its signed time (c2sp.org/tlog-cosignature, Ed25519, type 0x04)', () => {
  const signer = signerFromSeed('ledger.example.com', Buffer.alloc(32, 9));
  const checkpoint = { origin: 'ledger.example.com/ledger/t', treeSize: 3, rootHash: Buffer.alloc(32, 1) };
  const at = new Date('2026-11-25T10:00:07.900Z');
  const note = signCheckpoint(checkpoint, signer, at);

  it('is the signed note plus a timestamped line that a reader of the spec verifies without note.ts', () => {
    expect(note.startsWith(signNote(checkpointText(checkpoint), signer))).toBe(true);
    const line = note.trimEnd().split('\n').at(-1)!;
    const blob = Buffer.from(line.split(' ')[2]!, 'base64');
    const key = signer.publicKey;
    const id = createHash('sha256')
      .update(Buffer.concat([Buffer.from('ledger.example.com\n'), Buffer.from([0x04]), key]))
      .digest()
      .subarray(0, 4);
    expect(blob.subarray(0, 4).equals(id)).toBe(true);
    const seconds = blob.readBigUInt64BE(4);
    expect(seconds).toBe(BigInt(Math.floor(at.getTime() / 1000)));
    const message = `cosignature/v1\ntime ${seconds}\n${checkpointText(checkpoint)}`;
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') }, format: 'jwk' });
    expect(verify(null, Buffer.from(message), publicKey, blob.subarray(12))).toBe(true);
  });

  it('answers the whole second it was signed at, and still opens as a plain signed note', () => {
    const verifier = parseVerifierKey(signer.vkey);
    expect(signedTime(note, verifier)?.toISOString()).toBe('2026-11-25T10:00:07.000Z');
    expect(parseCheckpoint(openNote(note, verifier)).treeSize).toBe(3);
  });

  it('answers null for a checkpoint signed without a time, and refuses a changed time', () => {
    const verifier = parseVerifierKey(signer.vkey);
    expect(signedTime(signNote(checkpointText(checkpoint), signer), verifier)).toBeNull();
    const line = note.trimEnd().split('\n').at(-1)!;
    const blob = Buffer.from(line.split(' ')[2]!, 'base64');
    blob.writeBigUInt64BE(blob.readBigUInt64BE(4) + 3600n, 4);
    const moved = note.replace(line, `${line.split(' ').slice(0, 2).join(' ')} ${blob.toString('base64')}`);
    expect(() => signedTime(moved, verifier)).toThrow(/timestamped signature .* does not verify/);
  });
});
