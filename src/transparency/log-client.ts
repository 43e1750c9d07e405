import type { LogEntry } from './transparency.store.js';
import { AuditError, tenantOfOrigin, type PublishedKey } from './audit.js';

/**
 * Reads a tenant's log through the service's public routes (GET /ledger/:tenantId/…, no key):
 * what `audit consistency --url`, `audit prove --url`, `audit monitor` and `audit receipt --url` use.
 */
export class LogClient {
  /** The service's URLs to try, in order; the first that answers is kept. */
  private bases: string[];

  constructor(
    base: string | readonly string[],
    private readonly tenantId: string,
    private readonly fetchFn: typeof fetch = fetch,
  ) {
    this.bases = (typeof base === 'string' ? [base] : [...base]).map((b) => b.replace(/\/+$/, ''));
  }

  /**
   * The client for a checkpoint's origin (`<host>/ledger/<tenantId>`): at `url` when given, else
   * at the origin's own host, over https, then http (what is read is signed: the transport adds
   * no trust).
   */
  static forOrigin(origin: string, url: string | undefined, fetchFn: typeof fetch = fetch): LogClient {
    const tenantId = tenantOfOrigin(origin);
    const host = origin.slice(0, origin.lastIndexOf('/ledger/'));
    return new LogClient(url ?? [`https://${host}`, `http://${host}`], tenantId, fetchFn);
  }

  /** A route of the tenant's log (`/ledger/:tenantId…`), or with `bare` one of the service's answered without the envelope. */
  private async get<T>(path: string, bare = false): Promise<T> {
    let res: Response | undefined;
    let body: { success?: boolean; data?: T; error?: { code?: string; message?: string } } = {};
    const failures: string[] = [];
    const route = bare ? path : `/ledger/${this.tenantId}${path}`;
    for (const base of this.bases) {
      try {
        res = await this.fetchFn(`${base}${route}`, { signal: AbortSignal.timeout(30_000) });
        body = (await res.json()) as typeof body;
        this.bases = [base];
        break;
      } catch (error) {
        res = undefined;
        failures.push(`${base}${route}: ${(error as Error).message}`);
      }
    }
    if (!res)
      throw new AuditError(`cannot read ${failures.join('; nor ')} (give the service's address with --url)`, undefined, 'UNREACHABLE');
    const base = this.bases[0]!;
    if (res.ok && bare) return body as T;
    if (res.ok && body.success) return body.data as T;
    const code = body.error?.code;
    // The service names a size beyond its log a rollback (409 ROLLBACK); a rate limit or a server
    // error is an outage, in which nothing was checked, not a finding.
    const failure = code === 'ROLLBACK' ? 'ROLLBACK' : res.status === 429 || res.status >= 500 ? 'UNREACHABLE' : 'AUDIT_FAILED';
    const retry = res.headers.get('retry-after');
    throw new AuditError(
      `${base}${route} answered ${res.status}${code ? ` ${code}` : ''}: ${body.error?.message ?? 'no message'}${retry ? ` (retry after ${retry} s)` : ''}`,
      undefined,
      failure,
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

  /** The service's signing keys, current and retired, with each retired key's successor (GET /.well-known/consent-ledger/keys). */
  async keys(): Promise<PublishedKey[]> {
    const doc = await this.get<{ keys?: unknown }>('/.well-known/consent-ledger/keys', true);
    if (!Array.isArray(doc.keys)) throw new AuditError('the keys document holds no keys list', undefined, 'AUDIT_FAILED');
    return doc.keys as PublishedKey[];
  }

  /** Sealed leaves after `after`, at most `limit`. */
  events(after: number, limit = 1000): Promise<LogEntry[]> {
    return this.get<LogEntry[]>(`/events?after=${after}&limit=${limit}`);
  }
}
