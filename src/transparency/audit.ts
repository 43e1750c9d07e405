import { eventHash, type EventEnvelope } from '../ledger/event-hash.js';
import { authenticatorKeys, authenticatorProblem } from './append-authenticator.js';
import { eventLeafHash, nodeHash, verifyInclusion, type Hash } from './merkle.js';
import { openNote, parseCheckpoint, signedTime, type Checkpoint, type Verifier } from './note.js';
import type { TransparencyStore } from './transparency.store.js';

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

/** Verification failed; `leafIndex` names the first bad leaf when one can be named. */
export class AuditError extends Error {
  override readonly name = 'AuditError';
  constructor(
    message: string,
    readonly leafIndex?: number,
  ) {
    super(message);
  }
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
  private readonly stack: { level: number; hash: Hash }[] = [];
  size = 0;
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
    if (this.stack.length === 0) return Buffer.from('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855', 'hex');
    let acc = this.stack[this.stack.length - 1]!.hash;
    for (let i = this.stack.length - 2; i >= 0; i--) acc = nodeHash(this.stack[i]!.hash, acc);
    return acc;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks an export line by line: the signed checkpoint, every leafIndex in sequence, every
 * eventHash recomputed, every stream's chain (revision and prevHash), every event of the tenant
 * the checkpoint names, and the root over all leaves against the signed root. Throws AuditError
 * naming the first bad leaf; answers the figures a report quotes.
 *
 * @example
 * const report = await verifyExport(readLines('log.jsonl'), parseVerifierKey(vkey));
 */
export async function verifyExport(
  lines: AsyncIterable<string>,
  verifier: Verifier,
  onProgress?: (checked: number, total: number) => void,
  options: { moreKeys?: readonly Verifier[] } = {},
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
  const m = /\/ledger\/([0-9a-f-]{36})$/.exec(signed.origin);
  if (!m) throw new AuditError(`the checkpoint's origin does not name a tenant's log: ${signed.origin}`);
  const tenantId = m[1]!;

  const tree = new CompactTree();
  const keys = authenticatorKeys(
    [verifier, ...(options.moreKeys ?? [])].map((v) => ({ keyId: v.keyId.toString('hex'), publicKey: v.publicKeyRaw })),
  );
  const verified = new Set<string>();
  let authenticated = 0;
  const streams = new Map<string, { revision: number; hash: string }>();
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
    const i = tree.size;
    const bad = (why: string) => new AuditError(`leaf ${i}: ${why}`, i);
    if (i >= signed.treeSize) throw bad(`the checkpoint holds ${signed.treeSize} leaves; the export has more`);
    let entry: { leafIndex?: unknown; event?: unknown; eventHash?: unknown; authenticator?: unknown };
    try {
      entry = JSON.parse(next.value) as typeof entry;
    } catch {
      throw bad('the line is not JSON');
    }
    if (!isObject(entry)) throw bad('the line is not a JSON object');
    if (entry.leafIndex !== i)
      throw bad(`expected leafIndex ${i}, found ${JSON.stringify(entry.leafIndex)} (an event dropped, added or moved)`);
    if (!isObject(entry.event) || typeof entry.eventHash !== 'string' || !/^[0-9a-f]{64}$/.test(entry.eventHash)) {
      throw bad('the line needs an event object and a 64-hex-digit eventHash');
    }
    const event = entry.event as unknown as EventEnvelope;
    let recomputed: string;
    try {
      recomputed = eventHash(event);
    } catch {
      throw bad('the event has no canonical JSON form');
    }
    if (recomputed !== entry.eventHash) throw bad('eventHash does not match the event');
    if (event.tenantId !== tenantId) throw bad(`the event belongs to tenant ${String(event.tenantId)}, not ${tenantId}`);
    const prev = streams.get(event.stream);
    const expectedRevision = prev ? prev.revision + 1 : 0;
    if (event.revision !== expectedRevision) throw bad(`stream ${event.stream}: revision ${event.revision}, expected ${expectedRevision}`);
    if (event.prevHash !== (prev?.hash ?? null))
      throw bad(`stream ${event.stream}: prevHash does not match the previous event of the stream`);
    // Authenticators (docs/verifying.md, "Authenticated events"): leaves before the first one may
    // carry none (appended before they existed); from it on, every leaf carries one that verifies.
    if (entry.authenticator !== undefined && entry.authenticator !== null) {
      const problem = authenticatorProblem(entry.eventHash, String(entry.authenticator), keys, verified);
      if (problem) throw bad(`${problem}${problem.includes('never signed') ? ' (give that key with --key too)' : ''}`);
      authenticated++;
    } else if (authenticated > 0) throw bad('the event carries no authenticator, after leaves that do: it was not appended by the service');
    streams.set(event.stream, { revision: event.revision, hash: entry.eventHash });
    tree.push(eventLeafHash(entry.eventHash));

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
    if (tree.size % 1000 === 0) onProgress?.(tree.size, signed.treeSize);
  }
  onProgress?.(tree.size, signed.treeSize);
  if (tree.size < signed.treeSize) {
    throw new AuditError(`leaf ${tree.size}: missing; the checkpoint holds ${signed.treeSize} leaves, the export ${tree.size}`, tree.size);
  }
  if (!tree.root().equals(signed.rootHash)) {
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
    events: tree.size,
    authenticated,
    streams: streams.size,
    eventTypes,
    consents,
    policies: [...policies.values()],
  };
}

export interface ProofReport {
  valid: true;
  consentId: string | null;
  consentHash: string | null;
  origin: string;
  leafIndex: number;
  treeSize: number;
  rootHash: string;
  /** When the log signed the checkpoint (its signed time), or null for a checkpoint without one. */
  signedAt: string | null;
  eventHash: string;
}

/**
 * Checks one record's proof (the `data` of GET /consent/:id/proof, or the whole answer): the
 * eventHash of the event, the signed checkpoint, and the inclusion path to its root.
 */
export function verifyProof(input: unknown, verifier: Verifier): ProofReport {
  const proof = isObject(input) && isObject(input.data) ? input.data : input;
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
  if (eventHash(event) !== proof.eventHash) throw new AuditError('eventHash does not match the event');
  const signed = openCheckpoint(proof.checkpoint, verifier);
  if (signed.treeSize !== treeSize)
    throw new AuditError(`the proof is for a tree of ${String(treeSize)} leaves, the checkpoint has ${signed.treeSize}`);
  if (!signed.origin.endsWith(`/ledger/${event.tenantId}`))
    throw new AuditError(`the event's tenant does not own the log ${signed.origin}`);
  const path = (inclusionPath as string[]).map((h) => Buffer.from(h, 'hex'));
  if (!verifyInclusion(leafIndex as number, treeSize as number, eventLeafHash(proof.eventHash), path, signed.rootHash)) {
    throw new AuditError(`the inclusion path does not lead from leaf ${String(leafIndex)} to the signed root`);
  }
  const data = event.data as Record<string, unknown>;
  return {
    valid: true,
    consentId: typeof data.consentId === 'string' ? data.consentId : null,
    consentHash: typeof data.consentHash === 'string' ? data.consentHash : null,
    origin: signed.origin,
    leafIndex: leafIndex as number,
    treeSize: treeSize as number,
    rootHash: signed.rootHash.toString('hex'),
    signedAt: signed.signedAt,
    eventHash: proof.eventHash,
  };
}
