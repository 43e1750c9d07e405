import type { LogEntry } from './transparency.store.js';
import { AuditError } from './audit.js';

/**
 * Reads a tenant's log through the service's public routes (GET /ledger/:tenantId/…, no key):
 * what `audit consistency --url`, `audit prove --url`, `audit monitor` and `audit receipt --url` use.
 */
export class LogClient {
  private readonly base: string;

  constructor(
    base: string,
    private readonly tenantId: string,
    private readonly fetchFn: typeof fetch = fetch,
  ) {
    this.base = `${base.replace(/\/+$/, '')}/ledger/${tenantId}`;
  }

  private async get<T>(path: string): Promise<T> {
    let res: Response;
    let body: { success?: boolean; data?: T; error?: { code?: string; message?: string } };
    try {
      res = await this.fetchFn(`${this.base}${path}`, { signal: AbortSignal.timeout(30_000) });
      body = (await res.json()) as typeof body;
    } catch (error) {
      throw new AuditError(`cannot read ${this.base}${path}: ${(error as Error).message}`);
    }
    if (res.ok && body.success) return body.data as T;
    const code = body.error?.code;
    // The service names a size beyond its log a rollback (409 ROLLBACK).
    throw new AuditError(
      `${this.base}${path} answered ${res.status}${code ? ` ${code}` : ''}: ${body.error?.message ?? 'no message'}`,
      undefined,
      code === 'ROLLBACK' ? 'ROLLBACK' : 'AUDIT_FAILED',
    );
  }

  /** The newest signed checkpoint note, with its witnesses' cosignatures. */
  async checkpoint(): Promise<string> {
    return (await this.get<{ checkpoint: string }>('/checkpoint')).checkpoint;
  }

  /** The RFC 9162 consistency proof from `from` to `to` leaves. */
  async consistency(from: number, to: number): Promise<Buffer[]> {
    const c = await this.get<{ consistencyPath: string[] }>(`/consistency?from=${from}&to=${to}`);
    return c.consistencyPath.map((h) => Buffer.from(h, 'hex'));
  }

  /** The inclusion proof of a receipt's ReceiptIssued event. */
  receiptIssue(consentId: string, receiptId: string): Promise<unknown> {
    return this.get(`/consents/${consentId}/receipts/${receiptId}`);
  }

  /** Sealed leaves after `after`, at most `limit`. */
  events(after: number, limit = 1000): Promise<LogEntry[]> {
    return this.get<LogEntry[]>(`/events?after=${after}&limit=${limit}`);
  }
}
