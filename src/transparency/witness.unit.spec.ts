import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { consistencyRanges, leafHash, nodeHash, splitPoint, type Hash } from './merkle.js';
import { checkpointText, cosignersOf, parseVerifierKey, signCheckpoint, signerFromSeed, signNote } from './note.js';
import { Witness } from './witness.js';

/** MTH over the leaves [a, b) of a list, straight from RFC 9162 §2.1.1 (no stored nodes). */
const mth = (leaves: readonly Hash[], a = 0, b = leaves.length): Hash => {
  if (b - a === 1) return leaves[a]!;
  const k = splitPoint(b - a);
  return nodeHash(mth(leaves, a, a + k), mth(leaves, a + k, b));
};

const log = signerFromSeed('log.example', Buffer.alloc(32, 7));
const stranger = signerFromSeed('log.example', Buffer.alloc(32, 8));
const origin = 'log.example/ledger/00000000-0000-4000-8000-000000000001';
const leaves = (n: number, tag = 'a') => Array.from({ length: n }, (_, i) => leafHash(Buffer.from(`${tag}${i}`)));

const checkpoint = (l: readonly Hash[], signer = log) =>
  signCheckpoint({ origin, treeSize: l.length, rootHash: mth(l) }, signer, new Date());
const proof = (l: readonly Hash[], from: number) => consistencyRanges(from, l.length).map(([a, b]) => mth(l, a, b));
const body = (old: number, path: readonly Hash[], note: string) =>
  `old ${old}\n${path.map((h) => `${h.toString('base64')}\n`).join('')}\n${note}`;

const dirs: string[] = [];
const open = (dir = mkdtempSync(join(tmpdir(), 'witness-'))) => {
  dirs.push(dir);
  return { dir, witness: Witness.open(dir, [parseVerifierKey(log.vkey)], 'witness.test/w1') };
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('witness › add-checkpoint (c2sp.org/tlog-witness)', () => {
  it('cosigns a first checkpoint and then one consistent with it; the cosignature verifies with its vkey', async () => {
    const { witness } = open();
    const five = leaves(5);
    const first = await witness.addCheckpoint(body(0, [], checkpoint(five)));
    expect(first.status).toBe(200);
    const note = checkpoint(five);
    const eight = leaves(8);
    eight.splice(0, 5, ...five);
    const next = checkpoint(eight);
    const answer = await witness.addCheckpoint(body(5, proof(eight, 5), next));
    expect(answer.status, answer.body).toBe(200);
    expect(answer.body).toMatch(/^\u2014 witness\.test\/w1 [A-Za-z0-9+/=]+\n$/);
    const cosigned = cosignersOf(`${next}${answer.body}`, [parseVerifierKey(witness.vkey)]);
    expect(cosigned).toHaveLength(1);
    expect(cosignersOf(`${note}${answer.body}`, [parseVerifierKey(witness.vkey)])).toHaveLength(0);
  });

  it('answers 409 with its size (text/x.tlog.size) when the old size is not the one it cosigned', async () => {
    const { witness } = open();
    const l = leaves(6);
    expect((await witness.addCheckpoint(body(0, [], checkpoint(l.slice(0, 4))))).status).toBe(200);
    const answer = await witness.addCheckpoint(body(0, [], checkpoint(l)));
    expect(answer).toEqual({ status: 409, body: '4\n', contentType: 'text/x.tlog.size' });
  });

  it('refuses a rollback: a smaller tree can never be submitted with the size it knows (400), nor with another (409)', async () => {
    const { witness } = open();
    const l = leaves(6);
    expect((await witness.addCheckpoint(body(0, [], checkpoint(l)))).status).toBe(200);
    expect((await witness.addCheckpoint(body(6, [], checkpoint(l.slice(0, 4))))).status).toBe(400);
    expect((await witness.addCheckpoint(body(0, [], checkpoint(l.slice(0, 4))))).status).toBe(409);
  });

  it('refuses a fork: the same size with another root (409), a rewritten history whose proof does not verify (422), and keeps the evidence', async () => {
    const { dir, witness } = open();
    const honest = leaves(4);
    expect((await witness.addCheckpoint(body(0, [], checkpoint(honest)))).status).toBe(200);
    const rewritten = leaves(4, 'b');
    expect((await witness.addCheckpoint(body(4, [], checkpoint(rewritten)))).status).toBe(409);
    const grown = [...rewritten, ...leaves(3, 'c')];
    expect((await witness.addCheckpoint(body(4, proof(grown, 4), checkpoint(grown)))).status).toBe(422);
    const evidence = readFileSync(join(dir, 'evidence.jsonl'), 'utf8').trim().split('\n');
    expect(evidence.map((e) => JSON.parse(e).reason)).toEqual([
      'same size, different root hash: a fork',
      'the consistency proof does not verify',
    ]);
  });

  it('answers 404 for an origin no trusted key signs, 403 when no trusted signature verifies, 400 for a malformed body', async () => {
    const { witness } = open();
    const l = leaves(2);
    const other = signCheckpoint({ origin: 'elsewhere.example/log', treeSize: 2, rootHash: mth(l) }, log, new Date());
    expect((await witness.addCheckpoint(body(0, [], other))).status).toBe(404);
    expect((await witness.addCheckpoint(body(0, [], checkpoint(l, stranger)))).status).toBe(403);
    expect((await witness.addCheckpoint(`old 0\n${checkpoint(l)}`)).status).toBe(400);
    expect((await witness.addCheckpoint(body(3, [], checkpoint(l)))).status).toBe(400);
    const plain = signNote(checkpointText({ origin, treeSize: 2, rootHash: mth(l) }), log);
    expect((await witness.addCheckpoint(body(0, [], plain))).status).toBe(200);
  });

  it('refuses sizes a number would round (400): a larger tree, once cosigned, is never followed by a smaller one', async () => {
    const { witness } = open();
    const root = mth(leaves(1));
    const huge = (treeSize: string) => signNote(`${origin}\n${treeSize}\n${root.toString('base64')}\n`, log);
    // 2^53 + 1 would be held as 2^53, and 2^53 then taken as no rollback.
    expect((await witness.addCheckpoint(body(0, [], huge('9007199254740993')))).status).toBe(400);
    expect((await witness.addCheckpoint(`old 9007199254740993\n\n${huge('9007199254740993')}`)).status).toBe(400);
    expect(witness.latest(origin)).toBeNull();
    const safe = await witness.addCheckpoint(body(0, [], huge(String(Number.MAX_SAFE_INTEGER))));
    expect(safe.status, safe.body).toBe(200);
  });

  it('reads the checkpoint up to the last blank line, as signed-note does: an empty extension line is refused, not cosigned in part', async () => {
    const { witness } = open();
    const l = leaves(3);
    const withBlank = signNote(`${checkpointText({ origin, treeSize: 3, rootHash: mth(l) })}\nsomething else\n`, log);
    const answer = await witness.addCheckpoint(body(0, [], withBlank));
    expect(answer.status, answer.body).toBe(400);
    expect(answer.body).toMatch(/extension lines are not empty/);
    expect(witness.latest(origin)).toBeNull();
    // With a line of its own after the root it is cosigned, over the whole text.
    const extended = signNote(`${checkpointText({ origin, treeSize: 3, rootHash: mth(l) })}an extension\n`, log);
    const cosigned = await witness.addCheckpoint(body(0, [], extended));
    expect(cosigned.status, cosigned.body).toBe(200);
    expect(cosignersOf(`${extended}${cosigned.body}`, [parseVerifierKey(witness.vkey)])).toHaveLength(1);
  });

  it('remembers what it cosigned across a restart, under the same name and key', async () => {
    const { dir, witness } = open();
    const l = leaves(3);
    expect((await witness.addCheckpoint(body(0, [], checkpoint(l)))).status).toBe(200);
    const again = open(dir).witness;
    expect(again.vkey).toBe(witness.vkey);
    expect((await again.addCheckpoint(body(0, [], checkpoint(l.slice(0, 2))))).body).toBe('3\n');
    expect(() => Witness.open(dir, [parseVerifierKey(log.vkey)], 'another/name')).toThrow(/named witness.test\/w1/);
  });

  it('takes concurrent submissions one at a time: of two from the same old size, one is cosigned and the other told the new size', async () => {
    const { witness } = open();
    const l = leaves(10);
    expect((await witness.addCheckpoint(body(0, [], checkpoint(l.slice(0, 4))))).status).toBe(200);
    const a = l.slice(0, 7);
    const answers = await Promise.all([
      witness.addCheckpoint(body(4, proof(a, 4), checkpoint(a))),
      witness.addCheckpoint(body(4, proof(l, 4), checkpoint(l))),
    ]);
    expect(answers.map((x) => x.status)).toEqual([200, 409]);
    expect(answers[1]!.body).toBe('7\n');
  });
});
