import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  appendLeaves,
  consistencyRanges,
  decompose,
  EMPTY_ROOT,
  inclusionRanges,
  leafHash,
  nodeKey,
  nodesFor,
  rangeHash,
  verifyConsistency,
  verifyInclusion,
  type Hash,
  type NodeSource,
} from './merkle.js';

// --- An independent reference, transcribed from RFC 9162 §2.1 (recursive, over leaf lists) ------

const H = (...parts: Buffer[]): Buffer => createHash('sha256').update(Buffer.concat(parts)).digest();
const k = (n: number) => 2 ** Math.ceil(Math.log2(n)) / 2; // largest power of two < n, n > 1

// D is a list of leaf data; a sublist D[a:b] is written (d, a, b). MTH is memoized per sublist so
// that checking every proof up to a few hundred leaves stays quick; the recursion is the RFC's.
const memo = new Map<string, Buffer>();

/** §2.1.1 MTH(D[a:b]). */
function mth(d: Buffer[], a = 0, b = d.length): Buffer {
  const key = `${a}:${b}`;
  const hit = d === data ? memo.get(key) : undefined;
  if (hit) return hit;
  let out: Buffer;
  if (b - a === 0) out = H();
  else if (b - a === 1) out = H(Buffer.from([0]), d[a]!);
  else {
    const s = k(b - a);
    out = H(Buffer.from([1]), mth(d, a, a + s), mth(d, a + s, b));
  }
  if (d === data) memo.set(key, out);
  return out;
}

/** §2.1.3.1 PATH(m, D[a:b]). */
function path(m: number, d: Buffer[], a = 0, b = d.length): Buffer[] {
  if (b - a === 1) return [];
  const s = k(b - a);
  return m < s ? [...path(m, d, a, a + s), mth(d, a + s, b)] : [...path(m - s, d, a + s, b), mth(d, a, a + s)];
}

/** §2.1.4.1 SUBPROOF(m, D[a:b], b). */
function subproof(m: number, d: Buffer[], a: number, b: number, complete: boolean): Buffer[] {
  if (m === b - a) return complete ? [] : [mth(d, a, b)];
  const s = k(b - a);
  return m <= s ? [...subproof(m, d, a, a + s, complete), mth(d, a + s, b)] : [...subproof(m - s, d, a + s, b, false), mth(d, a, a + s)];
}

/** §2.1.3.2, as written: verify an inclusion proof. */
function rfcVerifyInclusion(leafIndex: number, treeSize: number, hash: Buffer, inclusionPath: Buffer[], root: Buffer): boolean {
  if (leafIndex >= treeSize) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = hash;
  for (const p of inclusionPath) {
    if (sn === 0) return false;
    if ((fn & 1) === 1 || fn === sn) {
      r = H(Buffer.from([1]), p, r);
      while ((fn & 1) === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else r = H(Buffer.from([1]), r, p);
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && r.equals(root);
}

/** §2.1.4.2, as written: verify a consistency proof (first < second). */
function rfcVerifyConsistency(first: number, second: number, firstHash: Buffer, secondHash: Buffer, proof: Buffer[]): boolean {
  if (proof.length === 0) return false;
  const p = (first & (first - 1)) === 0 ? [firstHash, ...proof] : [...proof];
  let fn = first - 1;
  let sn = second - 1;
  while ((fn & 1) === 1) {
    fn >>= 1;
    sn >>= 1;
  }
  let fr = p[0]!;
  let sr = p[0]!;
  for (const c of p.slice(1)) {
    if (sn === 0) return false;
    if ((fn & 1) === 1 || fn === sn) {
      fr = H(Buffer.from([1]), c, fr);
      sr = H(Buffer.from([1]), c, sr);
      while ((fn & 1) === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else sr = H(Buffer.from([1]), sr, c);
    fn >>= 1;
    sn >>= 1;
  }
  return fr.equals(firstHash) && sr.equals(secondHash) && sn === 0;
}

// --- The tree under test: built leaf by leaf, as the sealer does, into a node map ---------------

function grow(data: Buffer[]): { get: NodeSource; sizes: Map<number, Hash> } {
  const nodes = new Map<string, Hash>();
  const get: NodeSource = (id) => {
    const h = nodes.get(nodeKey(id));
    if (!h) throw new Error(`missing node ${nodeKey(id)}`);
    return h;
  };
  const sizes = new Map<number, Hash>();
  data.forEach((d, i) => {
    // Only the frontier of the current tree may be read while appending.
    const frontier = new Set(decompose(0, i).map(nodeKey));
    const guarded: NodeSource = (id) => {
      if (!frontier.has(nodeKey(id))) throw new Error(`append read ${nodeKey(id)}, not on the frontier of ${i}`);
      return get(id);
    };
    for (const n of appendLeaves(i, guarded, [leafHash(d)])) nodes.set(nodeKey(n), n.hash);
    sizes.set(i + 1, rangeHash(0, i + 1, get));
  });
  return { get, sizes };
}

const MAX = 260; // past 256, so that sizes on both sides of a power of two are covered
const data = Array.from({ length: MAX }, (_, i) => createHash('sha256').update(`leaf ${i}`).digest());
const tree = grow(data);
const hashes = (ranges: [number, number][]) => ranges.map(([a, b]) => rangeHash(a, b, tree.get));

function referenceFile(): string {
  const file = fileURLToPath(new URL('../../test/fixtures/rfc6962-roots.json', import.meta.url));
  if (!existsSync(file)) throw new Error(`reference roots not found at ${file}`);
  return file;
}

describe('merkle › when given the RFC 6962 reference leaves › reproduces every reference root', () => {
  const ref = JSON.parse(readFileSync(referenceFile(), 'utf8')) as { leavesHex: string[]; emptyRoot: string; roots: string[] };

  it('the empty root and the root over each prefix', () => {
    expect(EMPTY_ROOT.toString('hex')).toBe(ref.emptyRoot);
    expect(ref.roots.length).toBe(ref.leavesHex.length);
    const t = grow(ref.leavesHex.map((h) => Buffer.from(h, 'hex')));
    ref.roots.forEach((root, i) => expect(t.sizes.get(i + 1)!.toString('hex'), `root of ${i + 1}`).toBe(root));
  });
});

describe(`merkle › when the tree grows to ${MAX} leaves › matches RFC 9162 at every size`, () => {
  it('roots equal MTH over the leaves', () => {
    const wrong = [...tree.sizes].filter(([n, root]) => !root.equals(mth(data, 0, n))).map(([n]) => n);
    expect(tree.sizes.size).toBe(MAX);
    expect(wrong).toEqual([]);
  });

  // Mismatches are collected and compared once: an expect per element would dominate the run time.
  const same = (a: Buffer[], b: Buffer[]) => a.length === b.length && a.every((x, i) => x.equals(b[i]!));

  it('every inclusion path equals PATH(m, D[n]) and the RFC verifier accepts it', () => {
    const failures: string[] = [];
    for (let n = 1; n <= MAX; n++) {
      const root = tree.sizes.get(n)!;
      for (let m = 0; m < n; m++) {
        const proof = hashes(inclusionRanges(m, n));
        if (!same(proof, path(m, data, 0, n))) failures.push(`PATH(${m}, ${n})`);
        if (!rfcVerifyInclusion(m, n, leafHash(data[m]!), proof, root)) failures.push(`RFC verify inclusion ${m} in ${n}`);
        if (!verifyInclusion(m, n, leafHash(data[m]!), proof, root)) failures.push(`verifyInclusion ${m} in ${n}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('every consistency proof equals PROOF(m, D[n]) and the RFC verifier accepts it', () => {
    const failures: string[] = [];
    for (let n = 2; n <= MAX; n++) {
      for (let m = 1; m < n; m++) {
        const proof = hashes(consistencyRanges(m, n));
        if (!same(proof, subproof(m, data, 0, n, true))) failures.push(`PROOF(${m}, ${n})`);
        if (!rfcVerifyConsistency(m, n, tree.sizes.get(m)!, tree.sizes.get(n)!, proof)) failures.push(`RFC verify consistency ${m} → ${n}`);
        if (!verifyConsistency(m, n, proof, tree.sizes.get(m)!, tree.sizes.get(n)!)) failures.push(`verifyConsistency ${m} → ${n}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('a proof needs O(log n) stored nodes', () => {
    for (const n of [7, 100, 255, 256, 300]) {
      for (const m of [0, 1, Math.floor(n / 2), n - 1])
        expect(nodesFor(inclusionRanges(m, n)).length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n + 1)));
      for (const m of [1, Math.floor(n / 3) || 1, n - 1])
        expect(nodesFor(consistencyRanges(m, n)).length).toBeLessThanOrEqual(2 * Math.ceil(Math.log2(n + 1)) + 1);
    }
  });
});

describe('merkle › when a proof is tampered with › the verifiers refuse it', () => {
  const n = 77;
  const root = tree.sizes.get(n)!;

  it('a changed leaf, path element or index, or a short path, fails inclusion', () => {
    for (const m of [0, 5, 63, 64, 76]) {
      const proof = hashes(inclusionRanges(m, n));
      const leaf = leafHash(data[m]!);
      expect(verifyInclusion(m, n, leafHash(data[m + 1]!), proof, root)).toBe(false);
      expect(
        verifyInclusion(
          m,
          n,
          leaf,
          proof.map((p, i) => (i === 0 ? H(p) : p)),
          root,
        ),
      ).toBe(false);
      expect(verifyInclusion((m + 1) % n, n, leaf, proof, root)).toBe(false);
      expect(verifyInclusion(m, n, leaf, proof.slice(1), root)).toBe(false);
    }
  });

  it('a changed element or a wrong root fails consistency', () => {
    for (const m of [1, 8, 33, 64, 76]) {
      const proof = hashes(consistencyRanges(m, n));
      expect(
        verifyConsistency(
          m,
          n,
          proof.map((p, i) => (i === proof.length - 1 ? H(p) : p)),
          tree.sizes.get(m)!,
          root,
        ),
      ).toBe(false);
      expect(verifyConsistency(m, n, proof, tree.sizes.get(m + 1)!, root)).toBe(false);
      expect(verifyConsistency(m, n, proof, tree.sizes.get(m)!, tree.sizes.get(n - 1)!)).toBe(false);
      expect(verifyConsistency(m, n, [], tree.sizes.get(m)!, root)).toBe(false);
    }
  });
});
