import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuditError, followHandovers, openKeptCheckpoint, signerAfter, type PublishedKey } from './audit.js';
import { signSuccession } from './key-succession.js';
import { checkpointText, parseVerifierKey, signerFromSeed, signNote, type NoteSigner } from './note.js';

describe('openKeptCheckpoint › a checkpoint kept before a signing-key rotation', () => {
  const retired = signerFromSeed('log.example', randomBytes(32));
  const current = signerFromSeed('log.example', randomBytes(32));
  const stranger = signerFromSeed('log.example', randomBytes(32));
  const kept = signNote(checkpointText({ origin: 'log.example/ledger/t', treeSize: 7, rootHash: Buffer.alloc(32, 1) }), retired);
  const verifier = (s: { vkey: string }) => parseVerifierKey(s.vkey);

  it('opens with the retired key given after the current one', () => {
    expect(openKeptCheckpoint(kept, [verifier(current), verifier(retired)])).toMatchObject({ treeSize: 7, origin: 'log.example/ledger/t' });
  });

  it('refuses when no key given signed it, naming every key tried', () => {
    const keys = [verifier(current), verifier(stranger)];
    expect(() => openKeptCheckpoint(kept, keys)).toThrow(AuditError);
    expect(() => openKeptCheckpoint(kept, keys)).toThrow(
      `no signature by any of ${current.vkey.split('+').slice(0, 2).join('+')}, ${stranger.vkey.split('+').slice(0, 2).join('+')}`,
    );
    // With one key, the refusal is the key's own.
    expect(() => openKeptCheckpoint(kept, [verifier(current)])).toThrow(/the checkpoint is refused: .*no signature by/);
  });
});

describe('followHandovers › keys trusted by their predecessors’ signatures', () => {
  const [k1, k2, k3, stranger] = [1, 2, 3, 4].map(() => signerFromSeed('log.example', randomBytes(32))) as [
    NoteSigner,
    NoteSigner,
    NoteSigner,
    NoteSigner,
  ];
  const b64 = (s: NoteSigner) => s.publicKey.toString('base64');
  /** The keys document's entry of `retired`, succeeded by `next`, signed as a rotation signs it. */
  const entry = (retired: NoteSigner, next: NoteSigner | null, handoverBy: NoteSigner = retired): PublishedKey => {
    if (!next) return { vkey: retired.vkey, publicKey: b64(retired), successor: null };
    const signed = signSuccession(retired.publicKey, next, handoverBy);
    return { vkey: retired.vkey, publicKey: b64(retired), successor: { publicKey: b64(next), handover: signed.handover_signature } };
  };

  it('follows every rotation on from a key trusted, to the key that signs now', () => {
    const published = [entry(k3, null), entry(k2, k3), entry(k1, k2)];
    const found = followHandovers(published, [parseVerifierKey(k1.vkey)]);
    expect(found.handovers).toEqual([
      { from: k1.vkey, to: k2.vkey },
      { from: k2.vkey, to: k3.vkey },
    ]);
    expect(signerAfter(parseVerifierKey(k1.vkey), found.handovers).publicKeyRaw.equals(k3.publicKey)).toBe(true);
  });

  it('takes no successor whose handover the retired key did not sign, whatever the document says', () => {
    // Signed by the successor itself, or by anyone else: what the database's credentials can write.
    expect(followHandovers([entry(k2, null), entry(k1, k2, k2)], [parseVerifierKey(k1.vkey)]).handovers).toEqual([]);
    expect(followHandovers([entry(k2, null), entry(k1, k2, stranger)], [parseVerifierKey(k1.vkey)]).handovers).toEqual([]);
    // From a key nobody trusts, nothing.
    expect(followHandovers([entry(k2, null), entry(k1, k2)], [parseVerifierKey(stranger.vkey)]).handovers).toEqual([]);
  });

  it("takes the successor's key from the handover, not from a vkey the document names beside it", () => {
    // The successor's entry names another key under the successor's public key field: no vkey holds the key handed over.
    const forgedEntry = { vkey: stranger.vkey, publicKey: b64(k2), successor: null };
    expect(followHandovers([forgedEntry, entry(k1, k2)], [parseVerifierKey(k1.vkey)]).handovers).toEqual([]);
  });
});
