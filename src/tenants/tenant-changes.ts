import pg from 'pg';

/** The PostgreSQL channel on which a tenant's plan, limits or keys are announced as changed. */
export const TENANT_CHANGES_CHANNEL = 'consent_ledger_tenant_changes';

export interface TenantChangesLog {
  warn(obj: object, msg: string): void;
}

/**
 * Listens (LISTEN) on the tenant-changes channel of a PostgreSQL server, so that a plan, limit
 * or key change made by another process (another service instance, the CLI) reaches this
 * process's key cache within milliseconds. While the connection is down every change may be
 * missed, so the cache is cleared on every (re)connect and each cached key expires on its own
 * (TenantService's cacheMs bounds the staleness then).
 *
 * @example
 * const listener = listenForTenantChanges(settings.databaseUrl, () => tenants.invalidate(), app.log);
 * await listener.close();
 */
export function listenForTenantChanges(
  databaseUrl: string,
  onChange: (tenantId: string | undefined) => void,
  log: TenantChangesLog,
  { retryMs = 1_000 }: { retryMs?: number } = {},
): { ready: Promise<void>; close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let warned = false;
  let timer: NodeJS.Timeout | undefined;
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'consent-ledger tenant changes' });
    client = c;
    let retried = false;
    const retry = (error: unknown) => {
      if (retried) return;
      retried = true;
      onChange(undefined);
      if (!warned) {
        warned = true;
        log.warn(
          { err: { message: (error as Error)?.message ?? String(error) } },
          'tenant changes: lost the PostgreSQL listener; cached keys expire on their own until it is back',
        );
      }
      c.removeAllListeners();
      c.on('error', () => {});
      void c.end().catch(() => {});
      if (!closed) timer = setTimeout(() => void connect(), retryMs);
    };
    c.on('error', retry);
    c.on('notification', (message) => onChange(message.payload || undefined));
    try {
      await c.connect();
      await c.query(`LISTEN ${TENANT_CHANGES_CHANNEL}`);
      // Whatever changed while nobody listened is unknown: start from the database again.
      onChange(undefined);
      if (warned) log.warn({}, 'tenant changes: the PostgreSQL listener is back');
      warned = false;
      c.on('end', () => {
        if (!closed) retry(new Error('connection ended'));
      });
      markReady();
    } catch (error) {
      retry(error);
    }
  };
  void connect();

  return {
    ready,
    async close() {
      closed = true;
      clearTimeout(timer);
      const c = client;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
      markReady();
    },
  };
}
