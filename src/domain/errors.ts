/** A rule of the domain was broken. `code` is stable; the HTTP layer maps it to a status. */
export class DomainError extends Error {
  override readonly name = 'DomainError';
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type DomainErrorCode =
  | 'NOT_FOUND'
  | 'NO_ACTIVE_POLICY'
  | 'POLICY_VERSION_EXISTS'
  | 'POLICY_VERSION_INACTIVE'
  | 'CONSENT_NOT_WITHDRAWABLE'
  | 'CONSENT_TAMPERED'
  | 'POLICY_TAMPERED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'ROLLBACK'
  | 'SEALING_HALTED'
  | 'LOG_INCOMPLETE'
  | 'WEBHOOK_INACTIVE'
  | 'DELIVERY_PENDING'
  | 'PURPOSE_EXISTS'
  | 'RECEIPT_TOO_LARGE'
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN';
