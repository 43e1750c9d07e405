import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sha256Hex } from '../common/hashing.js';
import { DomainError } from '../domain/errors.js';
import type { Database } from '../store/schema.js';
import { controlDb, type ControlDb } from './tenants.table.js';
import type { TenantContext, TenantService } from './tenants.service.js';

/** How long a console sign-in lasts (then the officer signs in again). */
export const SESSION_HOURS = 8;

export interface OpenedSession {
  /** The cookie's value, `random.mac`: shown to the browser once; only the SHA-256 of its random part is stored. */
  sessionId: string;
  csrfToken: string;
  expiresAt: string;
  tenant: TenantContext;
}

export interface SessionContext {
  tenant: TenantContext;
  csrfToken: string;
  expiresAt: string;
}

const token = (): string => randomBytes(32).toString('base64url');

/** The key console cookies are sealed with, derived from the master key: the database never holds it. */
export const sessionKeyOf = (masterKey: Buffer): Buffer =>
  Buffer.from(hkdfSync('sha256', masterKey, Buffer.alloc(0), 'consent-ledger console sessions', 32));

/**
 * Console sessions (docs/console.md): an API key and secret of scope read or admin exchanged for
 * a server-side session, held by an HttpOnly cookie. The session acts as its key: it ends when the
 * key is revoked or expires, and its scope is the key's. Calls that change anything must send the
 * session's CSRF token. The cookie carries a MAC, under a key derived from the master key, of its
 * row's key, expiry and CSRF token: a row a database writer adds or changes opens nothing.
 *
 * @example
 * const opened = await sessions.open(apiKey, apiSecret); // cookie: opened.sessionId
 * const context = await sessions.resume(cookieValue);    // null when unknown or over
 */
export class ConsoleSessions {
  private readonly db: ControlDb;

  constructor(
    db: Kysely<Database>,
    private readonly tenants: TenantService,
    /** `sessionKeyOf(master key)`. */
    private readonly sessionKey: Buffer,
    private readonly clock: () => Date = () => new Date(),
  ) {
    this.db = controlDb(db);
  }

  /** Signs in: UNAUTHORIZED for a wrong key or secret, FORBIDDEN for a key that may not use the console. */
  async open(apiKey: string | undefined, apiSecret: string | undefined): Promise<OpenedSession> {
    // A live publishable key (public by design, in web pages) is named as such: it has no secret to
    // check, and a refused sign-in is no use of it.
    const named = apiKey?.startsWith('pk_') ? await this.tenants.liveKey(apiKey) : null;
    const tenant = (await this.tenants.authenticate(apiKey, apiSecret)) ?? (named?.scope === 'publishable' ? named : null);
    if (!tenant) throw new DomainError('UNAUTHORIZED', 'send a valid API key and secret');
    if (tenant.scope !== 'read' && tenant.scope !== 'admin') {
      throw new DomainError('FORBIDDEN', `the console takes a key of scope read or admin; this key's scope is ${tenant.scope}`, {
        requiredScopes: ['admin', 'read'],
        keyScope: tenant.scope,
      });
    }
    const random = token();
    const csrfToken = token();
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + SESSION_HOURS * 3_600_000).toISOString();
    const sessionId = `${random}.${this.mac(random, tenant.apiKey, expiresAt, csrfToken)}`;
    // Sessions over are dropped as new ones open: the table holds only live ones (and a few hours' worth).
    await this.db.deleteFrom('control.console_sessions').where('expires_at', '<', now).execute();
    await this.db
      .insertInto('control.console_sessions')
      .values({ id_hash: sha256Hex(random), api_key: tenant.apiKey, csrf_token: csrfToken, expires_at: expiresAt })
      .execute();
    return { sessionId, csrfToken, expiresAt, tenant };
  }

  /** The session's key and CSRF token, or null when it is unknown, over, or its key no longer works. */
  async resume(sessionId: string | undefined): Promise<SessionContext | null> {
    const [random, mac] = sessionId && sessionId.length <= 200 ? sessionId.split('.') : [];
    if (!random || !mac) return null;
    const row = await this.db
      .selectFrom('control.console_sessions')
      .select(['api_key', 'csrf_token', 'expires_at'])
      .where('id_hash', '=', sha256Hex(random))
      .executeTakeFirst();
    if (!row || row.expires_at.getTime() <= this.clock().getTime()) return null;
    // The row as it was opened: not one written, or changed, behind the service's back.
    const expected = Buffer.from(this.mac(random, row.api_key, row.expires_at.toISOString(), row.csrf_token));
    const presented = Buffer.from(mac);
    if (expected.length !== presented.length || !timingSafeEqual(expected, presented)) return null;
    const tenant = await this.tenants.keyContext(row.api_key);
    if (!tenant) return null;
    return { tenant, csrfToken: row.csrf_token, expiresAt: row.expires_at.toISOString() };
  }

  /** Whether a presented CSRF token is the session's (constant time). */
  static csrfMatches(session: SessionContext, presented: string | undefined): boolean {
    const a = Buffer.from(session.csrfToken);
    const b = Buffer.from(presented ?? '');
    return a.length === b.length && timingSafeEqual(a, b);
  }

  /** Signs out: the session ends at once. */
  async close(sessionId: string | undefined): Promise<void> {
    const random = sessionId?.split('.')[0];
    if (!random) return;
    await this.db.deleteFrom('control.console_sessions').where('id_hash', '=', sha256Hex(random)).execute();
  }

  private mac(random: string, apiKey: string, expiresAt: string, csrfToken: string): string {
    return createHmac('sha256', this.sessionKey).update(`${random}\n${apiKey}\n${expiresAt}\n${csrfToken}`).digest('base64url');
  }
}
