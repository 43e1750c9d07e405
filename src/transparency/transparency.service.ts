import { consentStream } from '../domain/consent/consent.events.js';
import { DomainError } from '../domain/errors.js';
import type { EventEnvelope } from '../ledger/event-hash.js';
import { comparePositions, type Ledger, type LedgerPosition, type RecordedEvent } from '../ledger/ledger.port.js';
import { receiptStream } from '../domain/receipt/receipt.events.js';
import { isUuid } from '../common/ids.js';
import { consistencyRanges, EMPTY_ROOT, eventLeafHash, inclusionRanges, verifyInclusion, type Range } from './merkle.js';
import { signCheckpoint, type NoteSigner } from './note.js';
import type { KeyHistoryEntry } from './signing-key.js';
import type { Sealer } from './sealer.js';
import type { LogEntry, StoredCheckpoint, TransparencyStore } from './transparency.store.js';

export interface CheckpointView {
  /** The signed note: `<origin>\n<size>\n<base64 root>\n\n— <key name> <signature>\n`. */
  checkpoint: string;
  treeSize: number;
  rootHash: string;
  timestamp: string;
}

/** A stored checkpoint as the API answers it (null stays null). */
const viewOf = (cp: StoredCheckpoint | null): CheckpointView | null =>
  cp && { checkpoint: cp.note, treeSize: cp.treeSize, rootHash: cp.rootHash, timestamp: cp.signedAt };

/** An event's inclusion proof in a signed checkpoint. */
export interface EventProof {
  event: EventEnvelope;
  eventHash: string;
  leafIndex: number;
  treeSize: number;
  inclusionPath: string[];
  checkpoint: string;
  rootHash: string;
}

/** A consent record's proof: its ConsentRecorded event's (GET /consent/:id/proof, receipts). */
export type ConsentProof = EventProof & { consentId: string };

export interface ConsistencyView {
  from: number;
  to: number;
  consistencyPath: string[];
}

/** Raised when the tree does not hold an event yet (the sealer lags more than it should). */
export class NotSealedError extends Error {
  override readonly name = 'NotSealedError';
}

/** How long a proof request waits for the sealer to reach its event. */
const SEAL_WAIT_MS = 2_000;

/**
 * The tenant-facing side of the transparency log: checkpoints, inclusion and consistency proofs,
 * the gap-free event feed, and the public key.
 *
 * @example
 * const proof = await transparency.proofForConsent(tenantId, consentId);
 * // { leafIndex, treeSize, inclusionPath, checkpoint, ... }: enough for `audit prove`
 */
export class TransparencyService {
  constructor(
    private readonly ledger: Ledger,
    private readonly store: TransparencyStore,
    private readonly sealer: Sealer,
    private readonly signer: NoteSigner,
    private readonly originOf: (tenantId: string) => string,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Every key that signed this log's checkpoints, the current one first, as far as this process's
   * key vouches for them (key-succession.ts); with a tenant, the tree sizes of that tenant's log each key signed.
   */
  keys(tenantId?: string): Promise<KeyHistoryEntry[]> {
    return this.store.keyHistory(this.signer.publicKey, tenantId);
  }

  /** Tenants whose sealing stopped, where and why (what /ready reports). */
  halts(): ReturnType<TransparencyStore['halts']> {
    return this.store.halts();
  }

  /** The newest signed checkpoint; a tenant with no events yet gets a freshly signed empty one. */
  async checkpoint(tenantId: string): Promise<CheckpointView> {
    const latest = await this.published(tenantId);
    if (latest) return latest;
    const at = new Date(Math.floor(this.clock().getTime() / 1000) * 1000);
    const note = signCheckpoint({ origin: this.originOf(tenantId), treeSize: 0, rootHash: EMPTY_ROOT }, this.signer, at);
    return { checkpoint: note, treeSize: 0, rootHash: EMPTY_ROOT.toString('hex'), timestamp: at.toISOString() };
  }

  /**
   * The inclusion proof of a consent record (its ConsentRecorded event) in the newest signed
   * checkpoint. Waits briefly for the sealer when the record was just written. Receipts call this.
   */
  async proofForConsent(tenantId: string, consentId: string): Promise<ConsentProof> {
    const notFound = () => new DomainError('NOT_FOUND', 'consent record not found');
    if (!isUuid(consentId)) throw notFound();
    const [recorded] = await this.ledger.readStream(consentStream(tenantId, consentId.toLowerCase()));
    if (!recorded || recorded.tenantId !== tenantId || recorded.type !== 'ConsentRecorded') throw notFound();
    return { consentId: consentId.toLowerCase(), ...(await this.proofOf(tenantId, recorded)) };
  }

  /**
   * The inclusion proof of a receipt's issue (its ReceiptIssued event, which records the PDF's
   * SHA-256) in the newest signed checkpoint: what `audit receipt --url` checks a PDF against.
   */
  async proofForReceipt(tenantId: string, consentId: string, receiptId: string): Promise<EventProof> {
    const notFound = () => new DomainError('NOT_FOUND', 'no such receipt was issued');
    if (!isUuid(consentId) || !isUuid(receiptId)) throw notFound();
    const events = await this.ledger.readStream(receiptStream(tenantId, consentId.toLowerCase()));
    const issued = events.find(
      (e) => e.tenantId === tenantId && e.type === 'ReceiptIssued' && e.data.receiptId === receiptId.toLowerCase(),
    );
    if (!issued) throw notFound();
    return this.proofOf(tenantId, issued);
  }

  /**
   * The inclusion proof of any event of the tenant's log, by its stream and id (an audit log
   * entry's): NOT_FOUND when the stream holds no such event.
   */
  async proofForEvent(tenantId: string, stream: string, eventId: string): Promise<EventProof> {
    const events = await this.ledger.readStream(stream);
    const recorded = events.find((e) => e.tenantId === tenantId && e.id === eventId);
    if (!recorded) throw new DomainError('NOT_FOUND', "no such event in the tenant's log");
    return this.proofOf(tenantId, recorded);
  }

  /** An event's leaf and inclusion path in the newest checkpoint; waits briefly for the sealer when it was just appended. */
  private async proofOf(tenantId: string, recorded: RecordedEvent): Promise<EventProof> {
    // This process's sealer knows how far it got: wait for it first rather than look for a leaf
    // that cannot be there yet (each query is a turn on the embedded store's one connection).
    const behind = comparePositions(this.sealer.position, recorded.position) < 0;
    if (behind) await this.sealer.waitFor(recorded.position, SEAL_WAIT_MS);
    let basis = await this.store.proofBasis(tenantId, recorded.id);
    if (!basis && !behind) {
      await this.sealer.waitFor(recorded.position, SEAL_WAIT_MS);
      basis = await this.store.proofBasis(tenantId, recorded.id);
    }
    if (!basis) {
      // Sealing stopped at a foreign event before this one: it will not be sealed until an operator acts.
      const halt = (await this.store.halts()).find((h) => h.tenantId === tenantId && comparePositions(h.position, recorded.position) <= 0);
      if (halt) {
        throw new DomainError(
          'SEALING_HALTED',
          `the tenant's log stopped sealing at event ${halt.eventId} (${halt.reason}), before this one: it is not proven until an operator resolves that (GET /ready names it)`,
          { eventId: halt.eventId, haltedAt: halt.haltedAt },
        );
      }
      // The sealer read past it, yet no leaf, halt or hold has it: left out of the log (a halt
      // and its held events deleted with the database's credentials). Looked at again after the
      // hold, as a release deletes the hold and writes the leaf in one transaction.
      if (comparePositions(this.sealer.position, recorded.position) >= 0 && !(await this.store.isHeld(tenantId, recorded.id))) {
        basis = await this.store.proofBasis(tenantId, recorded.id);
        if (!basis)
          throw new DomainError(
            'LOG_INCOMPLETE',
            `event ${recorded.id} is recorded in the ledger and the sealer read past it, but the tenant's log holds no leaf of it, and no halt holds it back: the transparency tables were changed (docs/verifying.md, Threat model)`,
            { eventId: recorded.id },
          );
      }
      if (!basis) throw new NotSealedError('the record is not sealed into the log yet; retry in a second');
    }
    const { leafIndex, checkpoint: cp } = basis;
    // The leaf was sealed, so a checkpoint covered it: a newest one that does not was rolled back to.
    if (leafIndex >= cp.treeSize) {
      throw new DomainError(
        'ROLLBACK',
        `the log's newest checkpoint holds ${cp.treeSize} leaves, and this event is leaf ${leafIndex}, which a checkpoint covered when it was sealed: the log was rolled back since`,
        { treeSize: cp.treeSize, leafIndex },
      );
    }
    const inclusionPath = await this.hashes(tenantId, inclusionRanges(leafIndex, cp.treeSize));
    const { position: _position, hash, authenticator: _authenticator, ...event } = recorded;
    return {
      event,
      eventHash: hash,
      leafIndex,
      treeSize: cp.treeSize,
      inclusionPath,
      checkpoint: cp.note,
      rootHash: cp.rootHash,
    };
  }

  /**
   * RFC 9162 consistency proof between two sizes, 1 ≤ from ≤ to ≤ the newest signed size
   * (`published`: that checkpoint, when the caller read it already).
   */
  async consistency(tenantId: string, from: number, to: number, published?: CheckpointView): Promise<ConsistencyView> {
    const cp = published ?? (await this.checkpoint(tenantId));
    if (to > cp.treeSize) {
      // A client asks about a size it saw signed: a log that now holds fewer leaves was rolled back.
      throw new DomainError(
        'ROLLBACK',
        `the log's newest checkpoint holds ${cp.treeSize} leaves, fewer than the ${to} asked about: if a checkpoint of ${to} leaves was signed by this log, the log was rolled back since`,
        { treeSize: cp.treeSize, to },
      );
    }
    if (!(from >= 1 && from <= to)) {
      throw new DomainError('VALIDATION_ERROR', `from and to must satisfy 1 ≤ from ≤ to ≤ ${cp.treeSize} (the newest checkpoint's size)`, {
        errors: [{ field: 'from', message: `must be between 1 and to (≤ ${cp.treeSize})` }],
      });
    }
    return { from, to, consistencyPath: await this.hashes(tenantId, consistencyRanges(from, to)) };
  }

  /** The newest signed checkpoint, or null before the log's first leaf (the public routes: nothing signed on demand). */
  async published(tenantId: string): Promise<CheckpointView | null> {
    return viewOf(await this.store.latestCheckpoint(tenantId));
  }

  /**
   * The newest signed checkpoint all of whose leaves are at or before `position` (read models
   * standing there reflect every event it covers), or null when none is.
   */
  async publishedWithin(tenantId: string, position: LedgerPosition): Promise<CheckpointView | null> {
    return viewOf(await this.store.latestCheckpointWithin(tenantId, position));
  }

  /** Sealed leaves after `after` (-1: from the first), in order. */
  events(tenantId: string, after: number, limit: number): Promise<LogEntry[]> {
    return this.store.entries(tenantId, after, limit);
  }

  private async hashes(tenantId: string, ranges: Range[]): Promise<string[]> {
    return (await this.store.rangeHashes(tenantId, ranges)).map((h) => h.toString('hex'));
  }
}

/**
 * Whether an inclusion proof leads from the record's event to the root it names (RFC 9162
 * §2.1.3.2): what a verifier does with `GET /consent/:id/proof`.
 */
export const proofIncludes = (p: {
  leafIndex: number;
  treeSize: number;
  eventHash: string;
  inclusionPath: string[];
  rootHash: string;
}): boolean =>
  verifyInclusion(
    p.leafIndex,
    p.treeSize,
    eventLeafHash(p.eventHash),
    p.inclusionPath.map((h) => Buffer.from(h, 'hex')),
    Buffer.from(p.rootHash, 'hex'),
  );
