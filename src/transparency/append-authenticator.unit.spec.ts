import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authenticateAppend, authenticatorKeys, authenticatorProblem } from './append-authenticator.js';
import { NoteError, openNote, parseVerifierKey, signerFromSeed } from './note.js';

const signer = signerFromSeed('ledger.example.com', Buffer.alloc(32, 5));
const keys = authenticatorKeys([{ publicKey: signer.publicKey }]);
const hashes = (n: number) => Array.from({ length: n }, () => randomBytes(32).toString('hex'));

describe('append authenticator › one signature per group, each event checked alone', () => {
  it.each([1, 2, 3, 7, 64, 100])('a group of %i: every event verifies with its own authenticator, under one signature', (n) => {
    const group = hashes(n);
    const auth = authenticateAppend(signer, group);
    expect(auth).toHaveLength(n);
    expect(new Set(auth.map((a) => a.split(':')[4])).size).toBe(1);
    group.forEach((h, i) => expect(authenticatorProblem(h, auth[i], keys)).toBeNull());
  });

  it('is the signature of the group root as docs/verifying.md spells it, checked without this module', () => {
    const group = hashes(3);
    const [a] = authenticateAppend(signer, group);
    const [, id, index, size, sig, path] = a!.split(':');
    const keyId = createHash('sha256').update(signer.publicKey).digest().subarray(0, 4).toString('hex');
    expect([id, index, size]).toEqual([keyId, '0', '3']);
    const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
    const leaf = (h: string) => sha(Buffer.from([0]), Buffer.from(h, 'hex'));
    // RFC 9162: root(3) = H(0x01 ‖ H(0x01 ‖ l0 ‖ l1) ‖ l2); leaf 0's path is l1, then l2.
    const root = sha(Buffer.from([1]), sha(Buffer.from([1]), leaf(group[0]!), leaf(group[1]!)), leaf(group[2]!));
    expect(Buffer.from(path!, 'base64').equals(Buffer.concat([leaf(group[1]!), leaf(group[2]!)]))).toBe(true);
    const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: signer.publicKey.toString('base64url') }, format: 'jwk' });
    expect(a!.startsWith('v2:')).toBe(true);
    const message = `consent-ledger/append/v2\u00003\u0000${root.toString('base64')}`;
    expect(verify(null, Buffer.from(message), key, Buffer.from(sig!, 'base64'))).toBe(true);
  });

  it('signs a text no signed note can be, so that no checkpoint of any origin is made from it', () => {
    const group = hashes(1);
    const [a] = authenticateAppend(signer, group);
    const [version, , , size, sig] = a!.split(':');
    const root = createHash('sha256')
      .update(Buffer.concat([Buffer.from([0]), Buffer.from(group[0]!, 'hex')]))
      .digest();
    // The signature as a signed note's line (c2sp.org/signed-note: key id of name, 0x0A, 0x01, key).
    const noteKeyId = createHash('sha256').update(`${signer.name}\n\u0001`).update(signer.publicKey).digest().subarray(0, 4);
    const line = `\u2014 ${signer.name} ${Buffer.concat([noteKeyId, Buffer.from(sig!, 'base64')]).toString('base64')}\n`;
    // Read as a checkpoint of origin consent-ledger/append/<version>, or with the signed text as it is.
    for (const text of [
      `consent-ledger/append/${version}\n${size}\n${root.toString('base64')}\n`,
      `consent-ledger/append/${version}\u0000${size}\u0000${root.toString('base64')}\n`,
    ]) {
      expect(() => openNote(`${text}\n${line}`, parseVerifierKey(signer.vkey))).toThrow(NoteError);
    }
  });

  it('still verifies the v1 authenticators events appended before v2 carry, over the v1 text', () => {
    const group = hashes(2);
    const sha = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
    const leaf = (h: string) => sha(Buffer.from([0]), Buffer.from(h, 'hex'));
    const root = sha(Buffer.from([1]), leaf(group[0]!), leaf(group[1]!));
    const signature = signer.sign(`consent-ledger/append/v1\n2\n${root.toString('base64')}\n`).toString('base64');
    const id = createHash('sha256').update(signer.publicKey).digest().subarray(0, 4).toString('hex');
    const v1 = (i: number) => `v1:${id}:${i}:2:${signature}:${leaf(group[1 - i]!).toString('base64')}`;
    expect(authenticatorProblem(group[0]!, v1(0), keys)).toBeNull();
    expect(authenticatorProblem(group[1]!, v1(1), keys)).toBeNull();
    // The same signature under the v2 name is over another text: it does not verify.
    expect(authenticatorProblem(group[0]!, v1(0).replace(/^v1/, 'v2'), keys)).toMatch(/does not verify/);
  });

  it('refuses a missing one, another event’s, another key’s, a changed index and a changed signature', () => {
    const group = hashes(4);
    const auth = authenticateAppend(signer, group);
    expect(authenticatorProblem(group[0]!, null, keys)).toMatch(/no authenticator/);
    expect(authenticatorProblem(group[0]!, auth[1], keys)).toMatch(/does not verify|does not cover/);
    expect(authenticatorProblem(hashes(1)[0]!, auth[0], keys)).toMatch(/does not verify|does not cover/);
    // The same key under another name (PUBLIC_BASE_URL changed) is the same key.
    expect(
      authenticatorProblem(group[0]!, authenticateAppend(signerFromSeed('other.example.com', Buffer.alloc(32, 5)), group)[0], keys),
    ).toBeNull();
    const stranger = signerFromSeed('ledger.example.com', Buffer.alloc(32, 6));
    expect(authenticatorProblem(group[0]!, authenticateAppend(stranger, group)[0], keys)).toMatch(/never signed this log/);
    const parts = auth[2]!.split(':');
    expect(authenticatorProblem(group[2]!, [...parts.slice(0, 2), '3', ...parts.slice(3)].join(':'), keys)).not.toBeNull();
    const sig = Buffer.from(parts[4]!, 'base64');
    sig[10] = sig[10]! ^ 1;
    expect(authenticatorProblem(group[2]!, [...parts.slice(0, 4), sig.toString('base64'), parts[5]].join(':'), keys)).toMatch(
      /does not verify/,
    );
    expect(authenticatorProblem(group[2]!, 'v2:whatever', keys)).toMatch(/malformed/);
    expect(authenticatorProblem(group[2]!, auth[2]!.replace(/^v2/, 'v3'), keys)).toMatch(/malformed/);
  });

  it('verifies a group’s signature once however many of its events are checked', () => {
    const group = hashes(50);
    const auth = authenticateAppend(signer, group);
    const verified = new Set<string>();
    group.forEach((h, i) => expect(authenticatorProblem(h, auth[i], keys, verified)).toBeNull());
    expect(verified.size).toBe(1);
  });
});
