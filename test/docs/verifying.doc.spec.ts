import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/cli.js';
import { eventHash, type EventEnvelope } from '../../src/ledger/event-hash.js';
import { eventLeafHash, verifyConsistency } from '../../src/transparency/merkle.js';
import { COSIGNATURE_V1, parseVerifierKey, signCheckpoint, signedTime, signerFromSeed, verifierKey } from '../../src/transparency/note.js';

/**
 * docs/verifying.md promises third parties that the formats alone let them check our proofs.
 * This reads its fenced blocks (```<lang> <name>) and checks every published value: hashes
 * recomputed with node:crypto from the formats, signatures reproduced from the published seed,
 * the recipe run as printed, and `audit prove` on the same proof.
 */

const doc = readFileSync(new URL('../../docs/verifying.md', import.meta.url), 'utf8');
const blocks = new Map<string, string>();
for (const m of doc.matchAll(/^```[\w-]+ ([\w-]+)\n([\s\S]*?)\n```$/gm)) blocks.set(m[1]!, m[2]!);
const block = (name: string): string => {
  const text = blocks.get(name);
  if (text === undefined) throw new Error(`docs/verifying.md has no block named ${name}`);
  return text;
};

const sha256 = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const node = (l: Buffer, r: Buffer) => sha256(Buffer.from([1]), l, r);
const proof = JSON.parse(block('proof')) as { event: EventEnvelope; eventHash: string; checkpoint: string; inclusionPath: string[]; rootHash: string; leafIndex: number; treeSize: number };
const dir = mkdtempSync(join(tmpdir(), 'verifying-doc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('docs/verifying.md › when recomputed from the formats › every published value holds', () => {
  const hashes = block('event-hashes').split('\n');
  const leaves = block('leaf-hashes').split('\n').map((h) => Buffer.from(h, 'hex'));

  it('leaf hashes are SHA-256(0x00 ‖ eventHash bytes), and the proof event is leaf 1', () => {
    expect(hashes).toHaveLength(3);
    hashes.forEach((h, i) => expect(sha256(Buffer.from([0]), Buffer.from(h, 'hex')).equals(leaves[i]!)).toBe(true));
    hashes.forEach((h, i) => expect(eventLeafHash(h).equals(leaves[i]!)).toBe(true));
    expect(eventHash(proof.event)).toBe(proof.eventHash);
    expect(hashes[proof.leafIndex]).toBe(proof.eventHash);
  });

  it('the roots follow RFC 9162 and the consistency proof from 2 to 3 verifies', () => {
    const root2 = node(leaves[0]!, leaves[1]!);
    const root3 = node(root2, leaves[2]!);
    expect(block('root-2')).toBe(root2.toString('hex'));
    expect(block('root-3')).toBe(root3.toString('hex'));
    expect(proof.rootHash).toBe(root3.toString('hex'));
    const path = block('consistency-2-3').split('\n').map((h) => Buffer.from(h, 'hex'));
    expect(verifyConsistency(2, 3, path, root2, root3)).toBe(true);
  });

  it('the checkpoints are reproduced byte for byte from the published seed and the vkey matches it', () => {
    const signer = signerFromSeed('ledger.example.com', Buffer.from(block('seed'), 'hex'));
    expect(signer.vkey).toBe(block('vkey'));
    const origin = `ledger.example.com/ledger/${proof.event.tenantId}`;
    expect(verifierKey(signer.name, signer.publicKey, COSIGNATURE_V1)).toBe(block('timestamp-vkey'));
    const at2 = new Date('2026-01-02T10:00:00Z');
    const at3 = new Date('2026-01-02T10:00:01Z');
    expect(signCheckpoint({ origin, treeSize: 2, rootHash: Buffer.from(block('root-2'), 'hex') }, signer, at2)).toBe(`${block('checkpoint-2')}\n`);
    expect(signCheckpoint({ origin, treeSize: 3, rootHash: Buffer.from(block('root-3'), 'hex') }, signer, at3)).toBe(proof.checkpoint);
    expect(signedTime(proof.checkpoint, parseVerifierKey(block('vkey')))).toEqual(at3);
    expect(doc).toContain(`POSIX ${at2.getTime() / 1000}`);
  });
});

describe('docs/verifying.md › when the recipe runs as printed › it verifies the proof and refuses a changed one', () => {
  const script = join(dir, 'verify-proof.mjs');
  writeFileSync(script, block('verify-proof'));
  const run = (p: unknown) => {
    const file = join(dir, `proof-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(p));
    return spawnSync(process.execPath, [script, file, block('vkey')], { encoding: 'utf8' });
  };

  it('prints verified for the published proof', () => {
    const r = run(proof);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^verified: leaf 1 is in the tree of 3 leaves whose root is 65f2/);
  });

  it('refuses a changed decision, a changed path and a changed checkpoint', () => {
    const changed = structuredClone(proof);
    (changed.event.data as { consentGiven: boolean }).consentGiven = false;
    expect(run(changed).status).toBe(1);
    const path = structuredClone(proof);
    path.inclusionPath[1] = `0${path.inclusionPath[1]!.slice(1)}`;
    expect(run(path).status).toBe(1);
    const size = structuredClone(proof);
    size.checkpoint = size.checkpoint.replace('\n3\n', '\n4\n');
    size.treeSize = 4;
    expect(run(size).status).toBe(1);
  });

  it('audit prove agrees', async () => {
    const file = join(dir, 'proof.json');
    writeFileSync(file, block('proof'));
    let out = '';
    const stream = (f: (s: string) => void) => ({ write: (c: string) => (f(String(c)), true) }) as unknown as NodeJS.WriteStream;
    const code = await main(['audit', 'prove', file, '--key', block('vkey')], { env: {}, stdout: stream((s) => (out += s)), stderr: stream(() => undefined) });
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ valid: true, leafIndex: 1, treeSize: 3, rootHash: block('root-3') });
  });
});
