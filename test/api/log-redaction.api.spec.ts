import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSettings } from '../../src/config.js';
import { createService, type Service } from '../../src/service.js';
import { freshDatabase, serverUrl } from '../support/stores.js';

/**
 * docs/erasure.md: user references never reach the logs; and no credential does either. The
 * production service listens on a real port, its logger writes JSON lines into memory, and the
 * requests go over real HTTP with their paths sent byte for byte as written here (percent-encoded
 * names and segments included, which the router decodes).
 */

const ADMIN_TOKEN = 'log-redaction-admin-token-0123456789';
/** Distinctive: any trace of these in the log is a leak. */
const REF = 'alice.q7zx9@example.org';
const ERASED = 'bob.k3vw8';
const LEAK_MARKERS = ['alice', 'q7zx9', 'bob.k3', 'k3vw8'];

/** REF with its characters from `from` on percent-encoded, the way a client may send them. */
const encodedFrom = (s: string, from: number): string =>
  s.slice(0, from) + [...Buffer.from(s.slice(from))].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

describe('logs › when a request carries a user reference or a credential in its URL', () => {
  let service: Service;
  let drop: (() => Promise<void>) | undefined;
  let base: URL;
  const logs: string[] = [];
  let creds: { tenantId: string; apiKey: string; apiSecret: string };
  let spareKey: string;

  /** A request over real HTTP, the path sent as it is written. */
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<number> =>
    new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: base.hostname,
          port: base.port,
          method,
          path,
          headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode!));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  const asTenant = (method: string, path: string) => send(method, path, { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret });

  beforeAll(async () => {
    const fresh = serverUrl ? await freshDatabase() : undefined;
    drop = fresh?.drop;
    service = await createService(
      loadSettings({
        ...(fresh ? fresh.env : { DATA_DIR: 'memory://' }),
        MASTER_KEY: randomBytes(32).toString('base64'),
        ADMIN_TOKEN,
        LOG_LEVEL: 'info',
        TRUST_PROXY: 'true',
      }),
      { pollMs: 50, logger: { level: 'info', stream: { write: (line: string) => void logs.push(line) } } },
    );
    await service.app.listen({ port: 0, host: '127.0.0.1' });
    base = new URL(`http://127.0.0.1:${(service.app.server.address() as AddressInfo).port}`);
    creds = await service.tenants.create('logs', 'enterprise');
    spareKey = (await service.tenants.createKey(creds.tenantId)).apiKey;
    const auth = { 'x-api-key': creds.apiKey, 'x-api-secret': creds.apiSecret };
    const policy = await service.app.inject({
      method: 'POST',
      url: '/api/v1/policies',
      headers: auth,
      payload: { policyType: 'privacy_policy', version: '1.0.0', title: 'P', content: 'c' },
    });
    for (const userReference of [REF, ERASED]) {
      const res = await service.app.inject({
        method: 'POST',
        url: '/api/v1/consent',
        headers: auth,
        payload: { policyVersionId: policy.json().data.id, userReference, consentGiven: true },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  }, 60_000);
  afterAll(async () => {
    await service?.close();
    await drop?.();
  });

  /** The requests of the red-team pass, and the statuses they get. */
  const requests = (): [string, string, number, Record<string, string>?][] => [
    ['GET', `/api/v1/consent/search?%75serReference=${encodeURIComponent(REF)}`, 200],
    ['GET', `/api/v1/consent/search?userReference=${encodeURIComponent(REF)}&page=1&limit=5`, 200],
    ['GET', `/v1/consent/search?userReference=${encodeURIComponent(REF)}&userReference=${encodeURIComponent(REF)}`, 400],
    ['GET', `/api/v1/consent/export?u%73erReference=${encodedFrom(REF, 0)}`, 200],
    ['GET', `/api/v1/consent/user/${encodedFrom(REF, 2)}/status`, 200],
    ['GET', `/api/v1/%63onsent/user/${encodeURIComponent(REF)}`, 200],
    ['GET', `/api/v1/consent/stats?userReference=${encodeURIComponent(REF)}`, 200],
    ['POST', `/api/v1/%73ubjects/${encodedFrom(ERASED, 1)}/erase`, 200],
    // Refused: a bad value next to the reference, a path no route matches.
    ['GET', `/api/v1/consent/search?userReference=${encodeURIComponent(REF)}&page=0`, 400],
    ['GET', `/api/v1/consent/user/${encodeURIComponent(REF)}/statuz`, 404],
    ['GET', `/api/v1/${encodeURIComponent(REF)}`, 404],
    ['GET', `/api/v1/consent/user/${encodeURIComponent(REF)}%ZZ/status`, 400],
    ['GET', `/api/v1/consent/search?userReference=${encodeURIComponent(REF)}%ZZ`, 200],
  ];

  it('logs every request with the user reference redacted, however its name or path segment was encoded', async () => {
    for (const [method, path, status] of requests()) expect(await asTenant(method, path), `${method} ${path}`).toBe(status);
    const lines = logs.map((l) => JSON.parse(l) as { msg: string; req?: { url: string } });
    const urls = lines.filter((l) => l.msg === 'incoming request').map((l) => l.req!.url);
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/v1/consent/search?userReference=[redacted]',
        '/api/v1/consent/search?userReference=[redacted]&page=1&limit=5',
        '/v1/consent/search?userReference=[redacted]&userReference=[redacted]',
        '/api/v1/consent/export?userReference=[redacted]',
        '/api/v1/consent/user/[redacted]/status',
        '/api/v1/consent/user/[redacted]',
        '/api/v1/consent/stats?userReference=[redacted]',
        '/api/v1/subjects/[redacted]/erase',
        '/api/v1/consent/search?userReference=[redacted]&page=0',
        '/api/v1/[redacted]',
      ]),
    );
    // Refusals are logged too (the "request refused" line), and hold no reference either.
    expect(lines.filter((l) => l.msg === 'request refused').length).toBeGreaterThanOrEqual(2);
    const log = logs.join('');
    for (const marker of LEAK_MARKERS) expect(log, marker).not.toContain(marker);
  });

  it("logs a client's network, never its address, the proxy's or the connection's", async () => {
    const from = logs.length;
    for (const address of ['203.0.113.211', '2001:db8:1234:5678::9'])
      expect(
        await send('GET', '/api/v1/consent/search', {
          'x-api-key': creds.apiKey,
          'x-api-secret': creds.apiSecret,
          'x-forwarded-for': address,
        }),
      ).toBe(200);
    expect(await asTenant('GET', '/api/v1/consent/search')).toBe(200);
    const lines = logs.slice(from).map((l) => JSON.parse(l) as { msg: string; req?: { remoteAddress: string } });
    expect(lines.filter((l) => l.msg === 'incoming request').map((l) => l.req!.remoteAddress)).toEqual([
      '203.0.113.0/24',
      '2001:db8:1234::/48',
      '127.0.0.0/24',
    ]);
    const log = logs.slice(from).join('');
    for (const address of ['203.0.113.211', '5678::9']) expect(log, address).not.toContain(address);
  });

  it('never logs a credential sent in the query string or in a path, with or without valid headers', async () => {
    const secretish = [creds.apiSecret, creds.apiKey, spareKey, ADMIN_TOKEN];
    const q = `apiSecret=${creds.apiSecret}&api_key=${creds.apiKey}&X-API-Secret=${creds.apiSecret}&token=${ADMIN_TOKEN}&${creds.apiSecret}`;
    // Refused (they are not parameters of the routes), and logged on the way in all the same.
    expect(await asTenant('GET', `/api/v1/consent/search?page=2&${q}`)).toBe(400);
    expect(await send('GET', `/api/v1/consent/search?${q}`)).toBe(401);
    expect(await send('GET', `/api/v1/nowhere?${q}`)).toBe(404);
    expect(await send('GET', `/docs/json?${q}`)).toBe(200);
    expect(
      await send('DELETE', `/admin/v1/tenants/${creds.tenantId}/keys/${spareKey}?${q}`, { authorization: `Bearer ${ADMIN_TOKEN}` }),
    ).toBe(400);
    const lines = logs.map((l) => JSON.parse(l) as { msg: string; req?: { url: string } });
    const urls = lines.filter((l) => l.msg === 'incoming request').map((l) => l.req!.url);
    expect(urls).toContain('/api/v1/consent/search?page=2&[redacted]&[redacted]&[redacted]&[redacted]&[redacted]');
    expect(urls).toContain(`/admin/v1/tenants/${creds.tenantId}/keys/[redacted]?[redacted]&[redacted]&[redacted]&[redacted]&[redacted]`);
    expect(urls).toContain('/api/v1/[redacted]');
    const log = logs.join('');
    for (const s of secretish) expect(log, s.slice(0, 6)).not.toContain(s);
    // The secret's base62 body, in case anything logged it cut or re-encoded.
    expect(log).not.toContain(creds.apiSecret.slice(3, 23));
  });
});
