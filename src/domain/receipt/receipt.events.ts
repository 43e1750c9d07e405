import { asStored, eventDecoder } from '../events.js';

/**
 * A receipt was rendered and handed out. Recorded in the ledger so that the issue of every
 * receipt is itself evidence: which consent, which bytes (SHA-256 of the PDF), when. Consumers
 * that do not know this type ignore it.
 */
export interface ReceiptIssued {
  type: 'ReceiptIssued';
  data: {
    receiptId: string;
    consentId: string;
    /** Hex SHA-256 of the PDF bytes, as sent in X-Receipt-SHA256. */
    sha256: string;
    /** The consentHash the receipt (and its QR code) states. */
    consentHash: string;
    /** The consent's status when the receipt was rendered. */
    consentStatus: 'active' | 'withdrawn' | 'expired';
    issuedAt: string;
  };
}

/** The one place that names a consent's receipt stream. */
export const receiptStream = (tenantId: string, consentId: string): string => `receipt-${tenantId}-${consentId}`;

export type ReceiptEvent = ReceiptIssued;

/** Reads back a receipt stream's events (the place to upcast older shapes of them). */
export const decodeReceiptEvent = eventDecoder<ReceiptEvent>({ ReceiptIssued: asStored() });
