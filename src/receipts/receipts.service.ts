import { timingSafeEqual } from 'node:crypto';
import type { CommandHandler } from '../application/command-handler.js';
import type { ConsentQueries } from '../application/consents/consent.queries.js';
import type { ConsentView } from '../application/consents/consent.views.js';
import { DomainError } from '../domain/errors.js';
import { sha256Hex } from '../common/hashing.js';
import { isUuid, newId } from '../common/ids.js';
import { receiptStream, type ReceiptIssued } from '../domain/receipt/receipt.events.js';
import { renderReceipt, verifyUrl, type ReceiptInput, type ReceiptLogProof } from './receipt.renderer.js';
import type { ReceiptStore, StoredReceipt } from './receipt.store.js';

/** What the public verification page states. The same keys whether verified or not. */
export interface PublicVerification {
  valid: boolean;
  /**
   * The ledger holds a record with this id and this consentHash, but its subject was erased: the
   * personal fields the hash covers are destroyed, so it can no longer be recomputed. Only a
   * caller holding the record's hash (its receipt) learns this; anyone else gets "not verified".
   */
  erased: boolean;
  /**
   * The ledger holds a record with this id and this consentHash (or a receipt of it was issued
   * with it), but its events fail their checks (an event the service did not append, one removed,
   * personal fields that no longer open): do not rely on it. Told only to a caller holding the
   * record's hash, as `erased` is; no detail is shown.
   */
  tampered: boolean;
  consentId: string;
  policy: { title: string; type: string; version: string } | null;
  consentGiven: boolean | null;
  status: 'active' | 'withdrawn' | 'expired' | null;
  timestamp: string | null;
  /** An imported record's original time, when the decision was made on the platform it came from (`timestamp`: recorded here). */
  collectedAt?: string;
  withdrawnAt: string | null;
  /** For a valid record: whether it is included in the tenant's newest signed checkpoint. */
  log: { included: boolean; leafIndex: number; treeSize: number; rootHash: string } | null;
  verifiedAt: string;
}

/** The transparency log's inclusion proofs (src/transparency), as receipts need them. */
export interface ProofSource {
  proofForConsent(tenantId: string, consentId: string): Promise<ReceiptLogProof & { eventHash: string; inclusionPath: string[] }>;
}

/** Checks an inclusion proof against its root (RFC 9162 §2.1.3.2). */
export type InclusionCheck = (proof: ReceiptLogProof & { eventHash: string; inclusionPath: string[] }) => boolean;

// Stand-ins for an id or tenant that is not there, so that a miss does the same reads and hashing.
const DECOY_TENANT = '00000000-0000-4000-8000-000000000000';
const DECOY_CONSENT = '00000000-0000-4000-8000-000000000001';
const HASH = /^[0-9a-f]{64}$/;

const sameHash = (a: string, b: string): boolean => timingSafeEqual(Buffer.from(sha256Hex(a), 'hex'), Buffer.from(sha256Hex(b), 'hex'));

/** Receipts: render from the ledger, store the bytes, record the issue in the ledger. */
export class ReceiptService {
  constructor(
    private readonly commands: CommandHandler,
    private readonly consents: Pick<ConsentQueries, 'get' | 'getVerified' | 'issuedHashes'>,
    private readonly store: ReceiptStore,
    private readonly publicBaseUrl: string,
    private readonly clock: () => Date = () => new Date(),
    private readonly proofs?: { source: ProofSource; verify: InclusionCheck },
    /** Lays out a receipt's PDF: the service's runs on a thread of its own (render-thread.ts). */
    private readonly render: (input: ReceiptInput) => Promise<Buffer> = renderReceipt,
  ) {}

  /** The record's place in the signed log, or undefined when it is not sealed yet. */
  private async logProof(tenantId: string, consentId: string) {
    if (!this.proofs) return undefined;
    try {
      return await this.proofs.source.proofForConsent(tenantId, consentId);
    } catch (error) {
      if ((error as Error).name === 'NotSealedError') return undefined;
      throw error;
    }
  }

  /**
   * Renders a receipt of the consent as the ledger holds it now, records its issue (a
   * ReceiptIssued event carrying the PDF's SHA-256) and stores the bytes. The ledger event comes
   * first: no stored receipt exists whose issue the ledger does not record.
   */
  async issue(tenantId: string, consentId: string): Promise<StoredReceipt> {
    // A receipt is a proof: none is issued for a record that fails its checks (changed personal
    // fields, an event the service did not append, a broken chain), as GET /consent/:id/verify runs them.
    const { view: consent, check } = await this.consents.getVerified(tenantId, consentId);
    if (!check.valid && !check.erased)
      throw new DomainError(
        'CONSENT_TAMPERED',
        `the record fails its checks (${check.reason}: GET /api/v1/consent/${consent.id}/verify): the stored record was changed, so no receipt can prove it`,
      );
    const now = this.clock();
    const receiptId = newId();
    const issuedAt = now.toISOString();
    const proof = await this.logProof(tenantId, consent.id);
    const log = proof && {
      leafIndex: proof.leafIndex,
      treeSize: proof.treeSize,
      rootHash: proof.rootHash,
      checkpoint: proof.checkpoint,
      event: proof.event,
      eventHash: proof.eventHash,
      inclusionPath: proof.inclusionPath,
    };
    const pdf = await this.render({
      consent,
      receiptId,
      generatedAt: issuedAt,
      verifyUrl: verifyUrl(this.publicBaseUrl, consent.id, consent.consentHash),
      log,
    });
    const sha256 = sha256Hex(pdf);
    const event: ReceiptIssued = {
      type: 'ReceiptIssued',
      data: { receiptId, consentId: consent.id, sha256, consentHash: consent.consentHash, consentStatus: consent.status, issuedAt },
    };
    // Any number of receipts may be issued for a record: the receipt stream is appended to as it is.
    await this.commands.run(tenantId, async () => ({
      writes: [{ stream: receiptStream(tenantId, consent.id), expected: 'any', events: [event] }],
      answer: () => undefined,
    }));
    const receipt = { receiptId, sha256, pdf, issuedAt };
    await this.store.save(tenantId, consent.id, receipt);
    // An erasure that ran while this one rendered has purged the receipts before this one was
    // stored: purge again, so no stored PDF outlives the subject's key.
    if (!consent.erased && (await this.consents.get(tenantId, consent.id)).erased) await this.store.purge(tenantId, [consent.id]);
    return receipt;
  }

  /**
   * The public link of a record collected in a browser (docs/browser.md): the verification page
   * answers for it from now on, as it does for a record with a receipt.
   */
  async publicLink(tenantId: string, consentId: string, consentHash: string): Promise<string> {
    await this.store.makePublic(tenantId, consentId);
    return verifyUrl(this.publicBaseUrl, consentId, consentHash);
  }

  /** The latest receipt issued for the consent, if any. */
  latest(tenantId: string, consentId: string): Promise<StoredReceipt | undefined> {
    return this.store.latest(tenantId, consentId);
  }

  /**
   * The public check behind the QR code: is there a record with this id whose hash, recomputed
   * from the ledger, is this one? An unknown id, a malformed one and a wrong hash all answer
   * the same "not verified" after the same work (a lookup, the ledger reads, a hash), so the
   * answer and its timing tell nothing about which ids exist.
   */
  async verifyPublic(consentId: string, hash: string | undefined): Promise<PublicVerification> {
    const wellFormed = isUuid(consentId);
    const id = wellFormed ? consentId.toLowerCase() : DECOY_CONSENT;
    const tenantId = (await this.store.tenantOf(id)) ?? DECOY_TENANT;
    let view: ConsentView | undefined;
    let intact = false;
    let erased = false;
    let tampered = false;
    let stored = 'decoy';
    try {
      const { view: found, check } = await this.consents.getVerified(tenantId, id);
      intact = check.valid;
      erased = check.erased;
      tampered = check.tampered;
      stored = check.storedHash;
      view = found;
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'NOT_FOUND') throw error;
      // The reads a found record costs, and its hash, without a record.
      await this.consents.get(DECOY_TENANT, DECOY_CONSENT).catch(() => undefined);
      stored = sha256Hex(`${id}${tenantId}`);
    }
    const given = (hash ?? '').toLowerCase();
    const matches = sameHash(given, stored) && HASH.test(given);
    const valid = wellFormed && view !== undefined && intact && matches;
    const verifiedAt = this.clock().toISOString();
    // An erased record is told apart only for the hash it was issued with.
    const erasedMatch = wellFormed && view !== undefined && erased && matches;
    // A tampered record whose hash was made again over the change: the holder of a receipt issued
    // before it still learns that it is tampered, rather than that its hash is wrong.
    const issuedMatch =
      wellFormed && view !== undefined && tampered && !matches && HASH.test(given)
        ? (await this.consents.issuedHashes(tenantId, id)).some((h) => sameHash(given, h))
        : false;
    const tamperedMatch = wellFormed && view !== undefined && tampered && (matches || issuedMatch);
    if (!(valid || erasedMatch) || !view) {
      return {
        valid: false,
        erased: false,
        tampered: tamperedMatch,
        consentId,
        policy: null,
        consentGiven: null,
        status: null,
        timestamp: null,
        withdrawnAt: null,
        log: null,
        verifiedAt,
      };
    }
    return {
      valid,
      erased: erasedMatch,
      tampered: false,
      consentId: view.id,
      policy: { title: view.policyDetails.title, type: view.policyDetails.type, version: view.policyDetails.version },
      consentGiven: view.consentGiven,
      status: view.status,
      timestamp: view.timestamp,
      ...(view.collectedAt ? { collectedAt: view.collectedAt } : {}),
      withdrawnAt: view.withdrawnAt,
      log: await this.inclusion(tenantId, view.id),
      verifiedAt,
    };
  }

  /** Whether the newest signed checkpoint includes the record, checked here with the proof. */
  private async inclusion(tenantId: string, consentId: string): Promise<PublicVerification['log']> {
    const proof = await this.logProof(tenantId, consentId);
    if (!proof || !this.proofs) return null;
    return { included: this.proofs.verify(proof), leafIndex: proof.leafIndex, treeSize: proof.treeSize, rootHash: proof.rootHash };
  }
}
