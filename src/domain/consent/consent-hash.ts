/**
 * The exact object whose canonical JSON (RFC 8785) is hashed into `consentHash`
 * (docs/contract.md, Consent records; docs/hashing.md). Absent values are null; metadata defaults to {}.
 * `collectedAt` (an imported decision's original time) is a key only when the record has one, so
 * the hash of every record without it keeps its nine keys.
 */
export interface ConsentHashInput {
  id: string;
  policyVersionId: string;
  policyContentHash: string;
  userReference: string;
  consentGiven: boolean;
  ipAddress: string | null;
  userAgent: string | null;
  metadata: Record<string, unknown>;
  timestamp: string;
  collectedAt?: string;
}

export const consentHashInput = (r: {
  consentId: string;
  policyVersionId: string;
  policyContentHash: string;
  userReference: string;
  consentGiven: boolean;
  ipAddress?: string | null;
  userAgent?: string | null;
  metadata?: Record<string, unknown> | null;
  timestamp: string;
  collectedAt?: string | null | undefined;
}): ConsentHashInput => ({
  id: r.consentId,
  policyVersionId: r.policyVersionId,
  policyContentHash: r.policyContentHash,
  userReference: r.userReference,
  consentGiven: r.consentGiven,
  ipAddress: r.ipAddress ?? null,
  userAgent: r.userAgent ?? null,
  metadata: r.metadata ?? {},
  timestamp: r.timestamp,
  ...(r.collectedAt ? { collectedAt: r.collectedAt } : {}),
});
