import { eventHash, type EventEnvelope } from '../ledger/event-hash.js';
import { authenticatorKeys, authenticatorProblem } from './append-authenticator.js';
import { createHash } from 'node:crypto';
import { TIME_TOLERANCE_MS } from './event-authenticity.js';
import { embeddedFiles } from './pdf-attachments.js';
import { EMPTY_ROOT, eventLeafHash, nodeHash, verifyConsistency, verifyInclusion, type Hash } from './merkle.js';
import {
  cosignersOf,
  openNote,
  parseCheckpoint,
  parseVerifierKey,
  signedTime,
  verifierKey,
  type Checkpoint,
  type Verifier,
} from './note.js';
import { handedOver } from './key-succession.js';
import type { TransparencyStore } from './transparency.store.js';
import { isObject } from '../common/objects.js';

/** The fields an event's eventHash covers: its envelope (docs/hashing.md). */
const ENVELOPE_KEYS = new Set(['id', 'tenantId', 'stream', 'revision', 'type', 'data', 'metadata', 'recordedAt', 'prevHash']);

/**
 * Why an event as given does not hash to `eventHash`, or null when it does. A field beside the
 * envelope's is refused by name: the hash does not cover it, so what it says is not proven.
 */
function hashProblem(event: EventEnvelope, expected: string): string | null {
  const extra = Object.keys(event).filter((k) => !ENVELOPE_KEYS.has(k));
  if (extra.length > 0) return `the event holds ${extra.map((k) => JSON.stringify(k)).join(', ')}, which its eventHash does not cover`;
  let recomputed: string;
  try {
    recomputed = eventHash(event);
  } catch {
    return 'the event has no canonical JSON form';
  }
  return recomputed === expected ? null : 'eventHash does not match the event';
}

/**
 * The auditor's export and its offline check. An export is JSON Lines: first a header holding
 * the signed checkpoint, then one `{leafIndex, event, eventHash}` per leaf of that checkpoint, in
 * order. Verifying needs the file and the verifier key only (docs/verifying.md).
 */

export const EXPORT_FORMAT = 'consent-ledger-audit/1';

export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  tenantId: string;
  checkpoint: string;
  treeSize: number;
  rootHash: string;
}

/** Writes a tenant's log up to its newest checkpoint; answers the header. */
export async function exportLog(
  store: TransparencyStore,
  tenantId: string,
  checkpoint: { checkpoint: string; treeSize: number; rootHash: string },
  write: (line: string) => Promise<void>,
  onProgress?: (written: number, total: number) => void,
): Promise<ExportHeader> {
  const header: ExportHeader = { format: EXPORT_FORMAT, tenantId, ...checkpoint };
  await write(`${JSON.stringify(header)}\n`);
  let after = -1;
  let written = 0;
  while (written < checkpoint.treeSize) {
    const page = await store.entries(tenantId, after, 1000, checkpoint.treeSize);
    if (page.length === 0)
      throw new Error(`the log of ${tenantId} holds fewer leaves than its checkpoint (${written} < ${checkpoint.treeSize})`);
    for (const e of page) {
      if (e.leafIndex !== written) throw new Error(`leaf ${written} is missing from the log of ${tenantId}`);
      await write(`${JSON.stringify(e)}\n`);
      written++;
    }
    after = page[page.length - 1]!.leafIndex;
    onProgress?.(written, checkpoint.treeSize);
  }
  return header;
}

/**
 * A checkpoint checked against the log's key: its signature, and its signed time when the note
 * carries one (null for checkpoints signed before signed time existed). Throws AuditError.
 */
export function openCheckpoint(note: string, verifier: Verifier): Checkpoint & { signedAt: string | null } {
  try {
    const checkpoint = parseCheckpoint(openNote(note, verifier));
    const at = signedTime(note, verifier);
    return { ...checkpoint, signedAt: at === null ? null : at.toISOString() };
  } catch (error) {
    throw new AuditError(`the checkpoint is refused: ${(error as Error).message}`);
  }
}

/**
 * A checkpoint kept before (a monitor's state, `--since`, `--old`), opened by whichever of the
 * keys signed it: the log's current key, or one it retired since (`keys rotate-signing`).
 */
export function openKeptCheckpoint(note: string, verifiers: readonly Verifier[]): Checkpoint & { signedAt: string | null } {
  let first: unknown;
  for (const verifier of verifiers) {
    try {
      return openCheckpoint(note, verifier);
    } catch (error) {
      first ??= error;
    }
  }
  if (verifiers.length <= 1) throw first;
  throw new AuditError(
    `the checkpoint kept is refused: it carries no signature by any of ${verifiers.map((v) => `${v.name}+${v.keyId.toString('hex')}`).join(', ')}; give the key that signed it with --key (a retired one too)`,
  );
}

/** A key as the keys document publishes it (GET /.well-known/consent-ledger/keys), read as untrusted input. */
export interface PublishedKey {
  vkey?: unknown;
  publicKey?: unknown;
  successor?: { publicKey?: unknown; handover?: unknown; position?: unknown } | null;
}

/** A key trusted because the key before it signed the handover to it. */
export interface Handover {
  /** The retired key's vkey, and its successor's. */
  from: string;
  to: string;
}

const vkeyOf = (v: Verifier): string => verifierKey(v.name, v.publicKeyRaw, v.type);

/**
 * The handovers in a keys document that lead on from `trusted`: each retired key trusted whose
 * own signature names its successor (the succession statement, docs/verifying.md, Keys) makes
 * that successor trusted, however many rotations on. The document is only read: a successor
 * counts by the retired key's signature alone, never by what the service says of it.
 */
export function followHandovers(
  published: readonly PublishedKey[],
  trusted: readonly Verifier[],
): { handovers: Handover[]; keys: Verifier[] } {
  const known = new Map(trusted.map((v) => [v.publicKeyRaw.toString('base64'), v]));
  const handovers: Handover[] = [];
  const keys: Verifier[] = [];
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of published) {
      const from = typeof entry.publicKey === 'string' ? known.get(entry.publicKey) : undefined;
      const next = entry.successor;
      if (!from || !next || typeof next.publicKey !== 'string' || typeof next.handover !== 'string') continue;
      const until = typeof next.position === 'string' ? next.position : null;
      if (known.has(next.publicKey) || !handedOver(entry.publicKey as string, next.publicKey, until, next.handover)) continue;
      // The successor's vkey (its name and id) from its own entry: its key must be the one handed over.
      const successor = published
        .map((e) => {
          try {
            return typeof e.vkey === 'string' ? parseVerifierKey(e.vkey) : undefined;
          } catch {
            return undefined;
          }
        })
        .find((v) => v?.type === from.type && v.publicKeyRaw.toString('base64') === next.publicKey);
      if (!successor) continue;
      known.set(next.publicKey, successor);
      handovers.push({ from: vkeyOf(from), to: vkeyOf(successor) });
      keys.push(successor);
      grew = true;
    }
  }
  return { handovers, keys };
}

/** The key that signs after `first`: the end of the handovers leading on from it (itself when none). */
export function signerAfter(first: Verifier, handovers: readonly Handover[]): Verifier {
  const successors = new Map(handovers.map((h) => [h.from, h.to]));
  let current = first;
  for (let to = successors.get(vkeyOf(current)); to !== undefined; to = successors.get(vkeyOf(current))) {
    successors.delete(vkeyOf(current));
    current = parseVerifierKey(to);
  }
  return current;
}

/**
 * What a failed check found: AUDIT_FAILED (a bad leaf, signature or proof), ROLLBACK (the log now
 * shows fewer leaves than a checkpoint kept before), INCONSISTENT (a checkpoint that is not an
 * extension of one kept before: a fork or a rewritten history), QUORUM_NOT_REACHED (too few
 * witnesses cosigned), UNREACHABLE (the log could not be read: no answer, a rate limit, a server
 * error; nothing was checked, so nothing was found wrong).
 */
export type AuditFailure = 'AUDIT_FAILED' | 'ROLLBACK' | 'INCONSISTENT' | 'QUORUM_NOT_REACHED' | 'UNREACHABLE';

/** Verification failed; `leafIndex` names the first bad leaf when one can be named. */
export class AuditError extends Error {
  override readonly name = 'AuditError';
  constructor(
    message: string,
    readonly leafIndex?: number,
    readonly code: AuditFailure = 'AUDIT_FAILED',
  ) {
    super(message);
  }
}

/**
 * Checks that at least `quorum` of `witnesses` cosigned the checkpoint note (c2sp.org/tlog-cosignature);
 * answers who did and when. Throws AuditError QUORUM_NOT_REACHED naming the count.
 */
export function requireQuorum(note: string, witnesses: readonly Verifier[], quorum: number): { vkey: string; at: string }[] {
  const found = cosignersOf(note, witnesses).map((c) => ({ vkey: c.vkey, at: c.at.toISOString() }));
  if (found.length < quorum) {
    throw new AuditError(
      `the checkpoint is cosigned by ${found.length} of the ${witnesses.length} witnesses given; ${quorum} must cosign it`,
      undefined,
      'QUORUM_NOT_REACHED',
    );
  }
  return found;
}

/**
 * Checks that the checkpoint `next` extends `old` (both opened): same log, no fewer leaves, and the
 * RFC 9162 consistency proof between them (`proof`, empty when the sizes are equal). Throws
 * AuditError ROLLBACK or INCONSISTENT saying which.
 */
export function checkConsistency(old: Checkpoint, next: Checkpoint, proof: readonly Hash[]): void {
  if (!checkOrder(old, next)) return;
  if (!verifyConsistency(old.treeSize, next.treeSize, proof, old.rootHash, next.rootHash)) {
    throw new AuditError(
      `the checkpoint of ${next.treeSize} leaves does not extend the one of ${old.treeSize} (the consistency proof between them does not verify): the log's history was rewritten`,
      undefined,
      'INCONSISTENT',
    );
  }
}

/**
 * What can be told of two checkpoints without a proof: same log, no fewer leaves, the same root at
 * the same size. Answers whether a consistency proof is still needed (the sizes differ, `old` is
 * not empty). Throws AuditError ROLLBACK or INCONSISTENT.
 */
export function checkOrder(old: Checkpoint, next: Checkpoint): boolean {
  if (old.origin !== next.origin)
    throw new AuditError(`the checkpoints are of two logs: ${old.origin} and ${next.origin}`, undefined, 'INCONSISTENT');
  if (next.treeSize < old.treeSize) {
    throw new AuditError(
      `the log now shows ${next.treeSize} leaves, fewer than the ${old.treeSize} of the checkpoint kept before: it was rolled back`,
      undefined,
      'ROLLBACK',
    );
  }
  if (old.treeSize === 0) return false;
  if (next.treeSize === old.treeSize) {
    if (!next.rootHash.equals(old.rootHash)) {
      throw new AuditError(
        `two checkpoints of ${old.treeSize} leaves with different roots: the log forked or rewrote its history`,
        undefined,
        'INCONSISTENT',
      );
    }
    return false;
  }
  return true;
}

export interface PolicyFigures {
  policyVersionId: string;
  policyType: string | null;
  policyVersion: string | null;
  given: number;
  rejected: number;
  withdrawn: number;
}

export interface AuditReport {
  valid: true;
  tenantId: string;
  origin: string;
  treeSize: number;
  rootHash: string;
  /** When the log signed the checkpoint (its signed time), or null for a checkpoint without one. */
  signedAt: string | null;
  /** With --witness: the witnesses whose cosignature verified, and when each cosigned. */
  cosignedBy?: { vkey: string; at: string }[];
  /** With --since: the checkpoint kept before that this one extends. */
  consistentWith?: { treeSize: number; rootHash: string };
  events: number;
  /** Leaves whose authenticator verified; the others came before authenticators existed. */
  authenticated: number;
  streams: number;
  eventTypes: Record<string, number>;
  consents: { given: number; rejected: number; withdrawn: number };
  policies: PolicyFigures[];
}

/** Root of a tree fed leaf by leaf, keeping only its perfect subtrees on the right edge. */
class CompactTree {
  constructor(
    private readonly stack: { level: number; hash: Hash }[] = [],
    public size = 0,
  ) {}
  push(leaf: Hash): void {
    let node = { level: 0, hash: leaf };
    while (this.stack.length > 0 && this.stack[this.stack.length - 1]!.level === node.level) {
      const left = this.stack.pop()!;
      node = { level: node.level + 1, hash: nodeHash(left.hash, node.hash) };
    }
    this.stack.push(node);
    this.size++;
  }
  root(): Hash {
    if (this.stack.length === 0) return EMPTY_ROOT;
    let acc = this.stack[this.stack.length - 1]!.hash;
    for (let i = this.stack.length - 2; i >= 0; i--) acc = nodeHash(this.stack[i]!.hash, acc);
    return acc;
  }
  /** The right edge, to resume from later (a monitor's saved state). */
  save(): { level: number; hash: string }[] {
    return this.stack.map((n) => ({ level: n.level, hash: n.hash.toString('hex') }));
  }
  static load(saved: readonly { level: number; hash: string }[], size: number): CompactTree {
    return new CompactTree(
      saved.map((n) => ({ level: n.level, hash: Buffer.from(n.hash, 'hex') })),
      size,
    );
  }
}

/** What a LeafChecker carries from one leaf to the next; JSON, so that a monitor resumes from it. */
export interface LeafCheckerState {
  size: number;
  frontier: { level: number; hash: string }[];
  /** Each stream's last revision and eventHash. */
  streams: Record<string, [revision: number, hash: string]>;
  authenticated: number;
  /** The latest event time seen (ms since the epoch), or null before the first leaf. */
  latestAt: number | null;
}

/**
 * The per-leaf checks of a tenant's log, leaf after leaf: leafIndex in sequence, eventHash
 * recomputed, the event is the tenant's, each stream's chain (revision and prevHash), the
 * authenticator (from the first authenticated leaf on, every leaf carries one that verifies), and
 * time order (no event more than the sealer's tolerance before an earlier leaf). It folds the
 * leaves into the tree whose root the checkpoint signs. Used by `audit verify` and `audit monitor`.
 */
export class LeafChecker {
  private readonly tree: CompactTree;
  private readonly streams: Map<string, [number, string]>;
  private readonly keys: ReturnType<typeof authenticatorKeys>;
  private readonly verified = new Set<string>();
  private authenticatedCount: number;
  private latestAt: number | null;

  constructor(
    private readonly tenantId: string,
    keys: readonly Verifier[],
    state?: LeafCheckerState,
  ) {
    this.keys = authenticatorKeys(keys.map((v) => ({ keyId: v.keyId.toString('hex'), publicKey: v.publicKeyRaw })));
    this.tree = state ? CompactTree.load(state.frontier, state.size) : new CompactTree();
    this.streams = new Map(Object.entries(state?.streams ?? {}));
    this.authenticatedCount = state?.authenticated ?? 0;
    this.latestAt = state?.latestAt ?? null;
  }

  get size(): number {
    return this.tree.size;
  }

  get authenticated(): number {
    return this.authenticatedCount;
  }

  get streamCount(): number {
    return this.streams.size;
  }

  root(): Hash {
    return this.tree.root();
  }

  save(): LeafCheckerState {
    return {
      size: this.tree.size,
      frontier: this.tree.save(),
      streams: Object.fromEntries(this.streams),
      authenticated: this.authenticatedCount,
      latestAt: this.latestAt,
    };
  }

  /** Checks the next leaf (an export line or a feed entry, parsed) and adds it; throws AuditError naming it. */
  add(entry: unknown): EventEnvelope {
    const i = this.tree.size;
    const bad = (why: string) => new AuditError(`leaf ${i}: ${why}`, i);
    if (!isObject(entry)) throw bad('the line is not a JSON object');
    if (entry.leafIndex !== i)
      throw bad(`expected leafIndex ${i}, found ${JSON.stringify(entry.leafIndex)} (an event dropped, added or moved)`);
    if (!isObject(entry.event) || typeof entry.eventHash !== 'string' || !/^[0-9a-f]{64}$/.test(entry.eventHash)) {
      throw bad('the line needs an event object and a 64-hex-digit eventHash');
    }
    const event = entry.event as unknown as EventEnvelope;
    const problem = hashProblem(event, entry.eventHash);
    if (problem) throw bad(problem);
    if (event.tenantId !== this.tenantId) throw bad(`the event belongs to tenant ${String(event.tenantId)}, not ${this.tenantId}`);
    const prev = this.streams.get(event.stream);
    const expectedRevision = prev ? prev[0] + 1 : 0;
    if (event.revision !== expectedRevision) throw bad(`stream ${event.stream}: revision ${event.revision}, expected ${expectedRevision}`);
    if (event.prevHash !== (prev?.[1] ?? null))
      throw bad(`stream ${event.stream}: prevHash does not match the previous event of the stream`);
    // Authenticators (docs/verifying.md, "Authenticated events"): leaves before the first one may
    // carry none (appended before they existed); from it on, every leaf carries one that verifies.
    if (entry.authenticator !== undefined && entry.authenticator !== null) {
      const problem = authenticatorProblem(entry.eventHash, String(entry.authenticator), this.keys, this.verified);
      if (problem) throw bad(`${problem}${problem.includes('never signed') ? ' (give that key with --key too)' : ''}`);
      this.authenticatedCount++;
    } else if (this.authenticatedCount > 0)
      throw bad('the event carries no authenticator, after leaves that do: it was not appended by the service');
    const at = Date.parse(event.recordedAt);
    if (!Number.isFinite(at)) throw bad('recordedAt is not a time');
    if (this.latestAt !== null && at < this.latestAt - TIME_TOLERANCE_MS) {
      throw bad(
        `its time ${event.recordedAt} is ${Math.round((this.latestAt - at) / 1000)} s before an earlier leaf's (tolerance ${TIME_TOLERANCE_MS / 1000} s): backdated`,
      );
    }
    this.latestAt = this.latestAt === null ? at : Math.max(this.latestAt, at);
    this.streams.set(event.stream, [event.revision, entry.eventHash]);
    this.tree.push(eventLeafHash(entry.eventHash));
    return event;
  }
}

/** The tenant a checkpoint's origin names (`<host>/ledger/<tenantId>`); throws AuditError otherwise. */
export function tenantOfOrigin(origin: string): string {
  const m = /\/ledger\/([0-9a-f-]{36})$/.exec(origin);
  if (!m) throw new AuditError(`the checkpoint's origin does not name a tenant's log: ${origin}`);
  return m[1]!;
}

/**
 * Checks an export line by line: the signed checkpoint, then every leaf (LeafChecker), and the
 * root over all leaves against the signed root. With `since` (a checkpoint kept before, opened),
 * the root over its first leaves must be its root: the log was only appended to since. Throws
 * AuditError naming the first bad leaf; answers the figures a report quotes.
 *
 * @example
 * const report = await verifyExport(readLines('log.jsonl'), parseVerifierKey(vkey));
 */
export async function verifyExport(
  lines: AsyncIterable<string>,
  verifier: Verifier,
  onProgress?: (checked: number, total: number) => void,
  options: { moreKeys?: readonly Verifier[]; since?: Checkpoint; witnesses?: readonly Verifier[]; quorum?: number } = {},
): Promise<AuditReport> {
  const it = lines[Symbol.asyncIterator]();
  const first = await it.next();
  if (first.done) throw new AuditError('the export is empty: it starts with a header line holding the signed checkpoint');
  let header: ExportHeader;
  try {
    header = JSON.parse(first.value) as ExportHeader;
  } catch {
    throw new AuditError('the first line is not JSON: it is the header holding the signed checkpoint');
  }
  if (!isObject(header) || typeof header.checkpoint !== 'string') throw new AuditError('the header holds no checkpoint');
  const signed = openCheckpoint(header.checkpoint, verifier);
  const tenantId = tenantOfOrigin(signed.origin);
  const cosigners = options.witnesses
    ? requireQuorum(header.checkpoint, options.witnesses, options.quorum ?? options.witnesses.length)
    : undefined;
  const since = options.since;
  if (since) {
    // A kept checkpoint larger than this one, or of another log, fails here; an equal one must have
    // the same root; a smaller one's root is recomputed from the export's first leaves below.
    checkOrder(since, signed);
  }

  const checker = new LeafChecker(tenantId, [verifier, ...(options.moreKeys ?? [])]);
  const eventTypes: Record<string, number> = {};
  const policies = new Map<string, PolicyFigures>();
  const policyOfConsent = new Map<string, string>();
  const consents = { given: 0, rejected: 0, withdrawn: 0 };
  const policy = (id: string, type: string | null, version: string | null): PolicyFigures => {
    let p = policies.get(id);
    if (!p) policies.set(id, (p = { policyVersionId: id, policyType: type, policyVersion: version, given: 0, rejected: 0, withdrawn: 0 }));
    return p;
  };

  for (;;) {
    const next = await it.next();
    if (next.done) break;
    if (next.value.trim() === '') continue;
    const i = checker.size;
    if (i >= signed.treeSize) throw new AuditError(`leaf ${i}: the checkpoint holds ${signed.treeSize} leaves; the export has more`, i);
    let entry: unknown;
    try {
      entry = JSON.parse(next.value);
    } catch {
      throw new AuditError(`leaf ${i}: the line is not JSON`, i);
    }
    const event = checker.add(entry);
    if (since && checker.size === since.treeSize && !checker.root().equals(since.rootHash)) {
      throw new AuditError(
        `the first ${since.treeSize} leaves do not make the root of the checkpoint kept before: the log's history was rewritten`,
        undefined,
        'INCONSISTENT',
      );
    }

    eventTypes[event.type] = (eventTypes[event.type] ?? 0) + 1;
    const d = event.data as Record<string, unknown>;
    if (event.type === 'ConsentRecorded' && typeof d.consentId === 'string' && typeof d.policyVersionId === 'string') {
      const p = policy(
        d.policyVersionId,
        typeof d.policyType === 'string' ? d.policyType : null,
        typeof d.policyVersion === 'string' ? d.policyVersion : null,
      );
      policyOfConsent.set(d.consentId, d.policyVersionId);
      if (d.consentGiven === true) {
        p.given++;
        consents.given++;
      } else {
        p.rejected++;
        consents.rejected++;
      }
    } else if (event.type === 'ConsentWithdrawn' && typeof d.consentId === 'string') {
      const id = policyOfConsent.get(d.consentId);
      if (id) policies.get(id)!.withdrawn++;
      consents.withdrawn++;
    }
    if (checker.size % 1000 === 0) onProgress?.(checker.size, signed.treeSize);
  }
  onProgress?.(checker.size, signed.treeSize);
  if (checker.size < signed.treeSize) {
    throw new AuditError(
      `leaf ${checker.size}: missing; the checkpoint holds ${signed.treeSize} leaves, the export ${checker.size}`,
      checker.size,
    );
  }
  if (!checker.root().equals(signed.rootHash)) {
    throw new AuditError(
      'the root over the exported leaves does not match the signed checkpoint (every leaf checked out on its own: an event was replaced together with its hash)',
    );
  }
  return {
    valid: true,
    tenantId,
    origin: signed.origin,
    treeSize: signed.treeSize,
    rootHash: signed.rootHash.toString('hex'),
    signedAt: signed.signedAt,
    ...(cosigners ? { cosignedBy: cosigners } : {}),
    ...(since ? { consistentWith: { treeSize: since.treeSize, rootHash: since.rootHash.toString('hex') } } : {}),
    events: checker.size,
    authenticated: checker.authenticated,
    streams: checker.streamCount,
    eventTypes,
    consents,
    policies: [...policies.values()],
  };
}

/** Where a proven event sits: its log, leaf and the checkpoint's root, signed time and cosigners. */
interface ProvenLeaf {
  origin: string;
  leafIndex: number;
  treeSize: number;
  rootHash: string;
  /** When the log signed the checkpoint (its signed time), or null for a checkpoint without one. */
  signedAt: string | null;
  /** With --witness: the witnesses whose cosignature verified, and when each cosigned. */
  cosignedBy?: { vkey: string; at: string }[];
  eventHash: string;
}

export interface ProofReport extends ProvenLeaf {
  valid: true;
  consentId: string | null;
  consentHash: string | null;
}

/** What an event's inclusion proof establishes (verifyEventProof). */
export interface EventProofCheck extends ProvenLeaf {
  event: EventEnvelope;
  /** The checkpoint opened: what consistency is checked from. */
  signed: Checkpoint;
}

/**
 * Checks an event's inclusion proof ({event, eventHash, leafIndex, treeSize, inclusionPath,
 * checkpoint}): the eventHash of the event, the signed checkpoint (and the witnesses' quorum when
 * asked), that the event's tenant owns the log, and the inclusion path to the signed root. The
 * checkpoint may be signed by any of `verifiers` (a proof kept from before a key rotation).
 */
export function verifyEventProof(
  proof: unknown,
  verifiers: readonly Verifier[],
  witnessing?: { witnesses: readonly Verifier[]; quorum: number },
): EventProofCheck {
  if (!isObject(proof) || !isObject(proof.event) || typeof proof.eventHash !== 'string' || typeof proof.checkpoint !== 'string') {
    throw new AuditError('a proof holds event, eventHash, leafIndex, treeSize, inclusionPath and checkpoint');
  }
  const { leafIndex, treeSize, inclusionPath } = proof;
  if (!Number.isSafeInteger(leafIndex) || !Number.isSafeInteger(treeSize) || !Array.isArray(inclusionPath)) {
    throw new AuditError('leafIndex and treeSize are whole numbers, inclusionPath an array of hex hashes');
  }
  if (!inclusionPath.every((h) => typeof h === 'string' && /^[0-9a-f]{64}$/.test(h)))
    throw new AuditError('inclusionPath holds 64-hex-digit hashes');
  const event = proof.event as unknown as EventEnvelope;
  const problem = hashProblem(event, proof.eventHash);
  if (problem) throw new AuditError(problem);
  const signed = openKeptCheckpoint(proof.checkpoint, verifiers);
  const cosigners = witnessing ? requireQuorum(proof.checkpoint, witnessing.witnesses, witnessing.quorum) : undefined;
  if (signed.treeSize !== treeSize)
    throw new AuditError(`the proof is for a tree of ${String(treeSize)} leaves, the checkpoint has ${signed.treeSize}`);
  if (!signed.origin.endsWith(`/ledger/${event.tenantId}`))
    throw new AuditError(`the event's tenant does not own the log ${signed.origin}`);
  const path = (inclusionPath as string[]).map((h) => Buffer.from(h, 'hex'));
  if (!verifyInclusion(leafIndex as number, treeSize as number, eventLeafHash(proof.eventHash), path, signed.rootHash)) {
    throw new AuditError(`the inclusion path does not lead from leaf ${String(leafIndex)} to the signed root`);
  }
  return {
    event,
    eventHash: proof.eventHash,
    origin: signed.origin,
    leafIndex: leafIndex as number,
    treeSize: treeSize as number,
    rootHash: signed.rootHash.toString('hex'),
    signedAt: signed.signedAt,
    ...(cosigners ? { cosignedBy: cosigners } : {}),
    signed,
  };
}

/**
 * Checks one record's proof (the `data` of GET /consent/:id/proof, or the whole answer): the
 * eventHash of the event, the signed checkpoint (by any of `verifiers`), and the inclusion path to its root.
 */
export function verifyProof(
  input: unknown,
  verifiers: readonly Verifier[],
  witnessing?: { witnesses: readonly Verifier[]; quorum: number },
): ProofReport {
  const proof = isObject(input) && isObject(input.data) ? input.data : input;
  const checked = verifyEventProof(proof, verifiers, witnessing);
  const data = checked.event.data as Record<string, unknown>;
  return {
    valid: true,
    consentId: typeof data.consentId === 'string' ? data.consentId : null,
    consentHash: typeof data.consentHash === 'string' ? data.consentHash : null,
    origin: checked.origin,
    leafIndex: checked.leafIndex,
    treeSize: checked.treeSize,
    rootHash: checked.rootHash,
    signedAt: checked.signedAt,
    ...(checked.cosignedBy ? { cosignedBy: checked.cosignedBy } : {}),
    eventHash: checked.eventHash,
  };
}

/** The JSON a receipt carries (src/receipts/receipt.renderer.ts). */
export const RECEIPT_FORMAT = 'consent-ledger-receipt/1';

export interface ReceiptCheck {
  receiptId: string;
  consentId: string;
  consentHash: string;
  tenantId: string;
  /** Hex SHA-256 of the PDF's bytes. */
  sha256: string;
  /** The record's inclusion proof the receipt carries, checked. */
  record: EventProofCheck;
}

/**
 * Reads a receipt PDF's embedded proof (`consent-ledger-proof.json`) and checks it: the record's
 * ConsentRecorded event, its consentHash and id as the receipt states them, and its inclusion in
 * the signed checkpoint printed on the receipt. Throws AuditError.
 */
export function checkReceipt(
  pdf: Buffer,
  verifiers: readonly Verifier[],
  witnessing?: { witnesses: readonly Verifier[]; quorum: number },
): ReceiptCheck {
  const attached = embeddedFiles(pdf)
    .map((b) => {
      try {
        return JSON.parse(b.toString('utf8')) as unknown;
      } catch {
        return undefined;
      }
    })
    .find((o) => isObject(o) && o.format === RECEIPT_FORMAT) as Record<string, unknown> | undefined;
  if (!attached)
    throw new AuditError(
      'the PDF carries no receipt proof (consent-ledger-proof.json): not a receipt of this service, or one issued before receipts carried their proof',
    );
  const { receiptId, consentId, consentHash } = attached;
  if (typeof receiptId !== 'string' || typeof consentId !== 'string' || typeof consentHash !== 'string') {
    throw new AuditError('the receipt proof names no receiptId, consentId and consentHash');
  }
  const sha256 = createHash('sha256').update(pdf).digest('hex');
  // Nothing in such a receipt can be checked: it is no proof, whatever else it prints.
  if (attached.proof === null || attached.proof === undefined)
    throw new AuditError(
      'the receipt carries no proof to check: its record was not sealed yet when it was issued. Its QR code leads to the page that checks its hash; ask for a new receipt (POST /api/v1/consent/:id/pdf) for one that carries its proof',
    );
  const record = verifyEventProof(attached.proof, verifiers, witnessing);
  const data = record.event.data as Record<string, unknown>;
  if (record.event.type !== 'ConsentRecorded' || data.consentId !== consentId || data.consentHash !== consentHash) {
    throw new AuditError("the proof the receipt carries is not its record's: its ConsentRecorded event names another consent or hash");
  }
  return { receiptId, consentId, consentHash, tenantId: record.event.tenantId, sha256, record };
}
