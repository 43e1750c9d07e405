import { hash } from 'node:crypto';

/**
 * Merkle trees as RFC 9162 §2.1 defines them: leaf = SHA-256(0x00 ‖ data), interior node =
 * SHA-256(0x01 ‖ left ‖ right), the left subtree of n leaves holding the largest power of two
 * smaller than n. A tree is kept as its perfect subtrees: node (level, index) covers the leaves
 * [index·2^level, (index+1)·2^level). Every range the RFC's algorithms hash splits into such
 * aligned perfect subtrees, so roots and proofs for any size need O(log n) stored nodes.
 */

export type Hash = Buffer;

/** One-shot SHA-256 of the parts joined: a Hash object per node costs about a third more (a tree hashes about two per event). */
const sha256 = (...parts: Uint8Array[]): Hash => hash('sha256', parts.length === 1 ? parts[0]! : Buffer.concat(parts), 'buffer');

const LEAF = Buffer.from([0x00]);
const NODE = Buffer.from([0x01]);

/** SHA-256(0x00 ‖ data). For a ledger event, data is the 32 bytes of its eventHash. */
export const leafHash = (data: Uint8Array): Hash => sha256(LEAF, data);

/** SHA-256(0x01 ‖ left ‖ right). */
export const nodeHash = (left: Uint8Array, right: Uint8Array): Hash => sha256(NODE, left, right);

/** The root of the empty tree: SHA-256 of no bytes. */
export const EMPTY_ROOT: Hash = sha256();

/** Leaf hash of a ledger event from its hex eventHash. */
export const eventLeafHash = (eventHashHex: string): Hash => {
  if (!/^[0-9a-f]{64}$/.test(eventHashHex)) throw new TypeError('eventHash must be 64 lowercase hex digits');
  return leafHash(Buffer.from(eventHashHex, 'hex'));
};

/** A perfect subtree: level 0 is a leaf. */
export interface NodeId {
  level: number;
  index: number;
}

export const nodeKey = (n: NodeId): string => `${n.level}/${n.index}`;

/** Largest power of two strictly smaller than n (n ≥ 2). */
export const splitPoint = (n: number): number => {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
};

/**
 * The aligned perfect subtrees that make up the leaves [a, b), largest first. The RFC's ranges
 * always start at a multiple of their left part's size, so the greedy split is the RFC's split.
 */
export function decompose(a: number, b: number): NodeId[] {
  const out: NodeId[] = [];
  while (a < b) {
    let level = 0;
    while (a % 2 ** (level + 1) === 0 && a + 2 ** (level + 1) <= b) level++;
    out.push({ level, index: a / 2 ** level });
    a += 2 ** level;
  }
  return out;
}

/** Looks a stored node up; throws when it is missing (a store that lost nodes is corrupt). */
export type NodeSource = (node: NodeId) => Hash;

/** MTH(D[a:b]) from the perfect subtrees of the range: H(n1, H(n2, … H(nk-1, nk))). */
export function rangeHash(a: number, b: number, get: NodeSource): Hash {
  if (a === b) return EMPTY_ROOT;
  const parts = decompose(a, b).map(get);
  let acc = parts[parts.length - 1]!;
  for (let i = parts.length - 2; i >= 0; i--) acc = nodeHash(parts[i]!, acc);
  return acc;
}

/** A range of leaves [start, end) whose hash is one element of a proof. */
export type Range = [start: number, end: number];

/** RFC 9162 §2.1.3.1 PATH(m, D[0:n]): the ranges whose hashes form the inclusion path, leaf first. */
export function inclusionRanges(m: number, n: number): Range[] {
  if (!(Number.isSafeInteger(m) && Number.isSafeInteger(n) && m >= 0 && m < n)) throw new RangeError(`no leaf ${m} in a tree of ${n}`);
  const path: Range[] = [];
  const walk = (m: number, a: number, n: number): void => {
    if (n <= 1) return;
    const k = splitPoint(n);
    if (m < k) {
      walk(m, a, k);
      path.push([a + k, a + n]);
    } else {
      walk(m - k, a + k, n - k);
      path.push([a, a + k]);
    }
  };
  walk(m, 0, n);
  return path;
}

/** RFC 9162 §2.1.4.1 PROOF(m, D[0:n]) for 0 < m ≤ n: the ranges whose hashes form the consistency path. */
export function consistencyRanges(m: number, n: number): Range[] {
  if (!(Number.isSafeInteger(m) && Number.isSafeInteger(n) && m >= 1 && m <= n))
    throw new RangeError(`no consistency proof from ${m} to ${n}`);
  const proof: Range[] = [];
  const sub = (m: number, a: number, n: number, b: boolean): void => {
    if (m === n) {
      if (!b) proof.push([a, a + n]);
      return;
    }
    const k = splitPoint(n);
    if (m <= k) {
      sub(m, a, k, b);
      proof.push([a + k, a + n]);
    } else {
      sub(m - k, a + k, n - k, false);
      proof.push([a, a + k]);
    }
  };
  sub(m, 0, n, true);
  return proof;
}

/** Every stored node the hashes of these ranges need. */
export const nodesFor = (ranges: readonly Range[]): NodeId[] => {
  const seen = new Map<string, NodeId>();
  for (const [a, b] of ranges) for (const node of decompose(a, b)) seen.set(nodeKey(node), node);
  return [...seen.values()];
};

/**
 * The nodes that appending `leaves` to a tree of `size` leaves creates. `get` must know the
 * perfect subtrees of the current tree (`decompose(0, size)`); new nodes are looked up among
 * themselves.
 *
 * @example
 * const created = appendLeaves(6, get, [leafHash(data)]); // leaf (0,6), nothing else
 */
export function appendLeaves(size: number, get: NodeSource, leaves: readonly Hash[]): (NodeId & { hash: Hash })[] {
  const created = new Map<string, NodeId & { hash: Hash }>();
  const lookup = (node: NodeId): Hash => created.get(nodeKey(node))?.hash ?? get(node);
  const put = (level: number, index: number, hash: Hash) => created.set(`${level}/${index}`, { level, index, hash });
  leaves.forEach((leaf, i) => {
    let index = size + i;
    let level = 0;
    put(0, index, leaf);
    while (index % 2 === 1) {
      const hash = nodeHash(lookup({ level, index: index - 1 }), lookup({ level, index }));
      index = (index - 1) / 2;
      level++;
      put(level, index, hash);
    }
  });
  return [...created.values()];
}

const equal = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(a, b) === 0;

/**
 * RFC 9162 §2.1.3.2's walk from leaf `index` of a tree of `size` leaves up its inclusion `path`:
 * the root the path leads to, or null when the path cannot be one for that leaf and size.
 */
export function rootFromInclusion(index: number, size: number, leaf: Hash, path: readonly Hash[]): Hash | null {
  if (!(Number.isSafeInteger(index) && Number.isSafeInteger(size) && index >= 0 && index < size)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : null;
}

/**
 * RFC 9162 §2.1.3.2: whether `path` proves that `leaf` is leaf `index` of the tree of `size`
 * leaves whose root is `root`.
 */
export function verifyInclusion(index: number, size: number, leaf: Hash, path: readonly Hash[], root: Hash): boolean {
  const r = rootFromInclusion(index, size, leaf, path);
  return r !== null && equal(r, root);
}

/**
 * RFC 9162 §2.1.4.2: whether `path` proves that the tree of `first` leaves (root `firstRoot`)
 * is a prefix of the tree of `second` leaves (root `secondRoot`). Equal sizes need an empty path
 * and equal roots.
 */
export function verifyConsistency(first: number, second: number, path: readonly Hash[], firstRoot: Hash, secondRoot: Hash): boolean {
  if (!(Number.isSafeInteger(first) && Number.isSafeInteger(second) && first >= 1 && first <= second)) return false;
  if (first === second) return path.length === 0 && equal(firstRoot, secondRoot);
  if (path.length === 0) return false;
  const proof = isPowerOfTwo(first) ? [firstRoot, ...path] : [...path];
  let fn = first - 1;
  let sn = second - 1;
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  let fr = proof[0]!;
  let sr = proof[0]!;
  for (const c of proof.slice(1)) {
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (fn % 2 === 0) {
        while (fn % 2 === 0 && fn !== 0) {
          fn = Math.floor(fn / 2);
          sn = Math.floor(sn / 2);
        }
      }
    } else {
      sr = nodeHash(sr, c);
    }
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return equal(fr, firstRoot) && equal(sr, secondRoot) && sn === 0;
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}
