import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AuditError, openKeptCheckpoint } from './audit.js';
import { checkpointText, parseVerifierKey, signerFromSeed, signNote } from './note.js';

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
