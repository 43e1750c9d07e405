import { createHash, createPublicKey, randomBytes, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { authenticateAppend, authenticatorKeys, authenticatorProblem } from './append-authenticator.js';
import { signerFromSeed } from './note.js';

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
    const message = `consent-ledger/append/v1\n3\n${root.toString('base64')}\n`;
    expect(verify(null, Buffer.from(message), key, Buffer.from(sig!, 'base64'))).toBe(true);
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
  });

  it('verifies a group’s signature once however many of its events are checked', () => {
    const group = hashes(50);
    const auth = authenticateAppend(signer, group);
    const verified = new Set<string>();
    group.forEach((h, i) => expect(authenticatorProblem(h, auth[i], keys, verified)).toBeNull());
    expect(verified.size).toBe(1);
  });
});
