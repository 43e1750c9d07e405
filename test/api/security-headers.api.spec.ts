import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 15, item 8: every answer carries the security headers of @fastify/helmet, and
 * `Cache-Control: no-store` unless its route chose its own; the two pages (Swagger UI at /docs,
 * the receipt check at /verify) still work under their Content-Security-Policy in a real browser.
 */

const CHROMIUM = '/usr/bin/chromium';
if (spawnSync(CHROMIUM, ['--version']).status !== 0)
  throw new Error('these tests drive Chromium: apt-get install -y chromium (.ci/run does)');

const ADMIN_TOKEN = 'security-headers-admin-token-0123456789';
const API_CSP = "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'";

type Headers = Record<string, string | string[] | number | undefined>;

/** The headers every answer carries, whatever its route or status. */
function expectSecurityHeaders(headers: Headers, what: string): void {
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
  expect(headers['strict-transport-security'], what).toMatch(/^max-age=\d+/);
  expect(headers['cross-origin-opener-policy'], what).toBe('same-origin');
  expect(headers['x-permitted-cross-domain-policies'], what).toBe('none');
  expect(headers['content-security-policy'], what).toMatch(/frame-ancestors 'none'/);
}

describe('security headers', () => {
  let t: TestService;
  let api: Client;
  let consent: { id: string; consentHash: string };
  let pdf: LightMyRequestResponse;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestService({ ADMIN_TOKEN });
    api = client(t.app, await t.tenant('starter'));
    const policyVersionId = await publishPolicy(api);
    const res = await api.post('/api/v1/consent', { policyVersionId, userReference: 'headers-user', consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
    consent = res.json().data;
    // The receipt check knows a record once its receipt is issued.
    pdf = await api.post(`/api/v1/consent/${consent.id}/pdf`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('authenticated JSON answers: no-store, nosniff and a policy that loads nothing', async () => {
    for (const res of [
      await api.get('/api/v1/policies'),
      await api.get('/v1/policies'),
      await api.get(`/api/v1/consent/${consent.id}`),
      await api.get('/api/v1/consent/user/headers-user/status'),
      await api.post('/api/v1/consent', {
        policyVersionId: (await api.get('/api/v1/policies')).json().data[0].id,
        userReference: 'headers-user-2',
        consentGiven: false,
      }),
      await t.app.inject({ method: 'GET', url: '/admin/v1/tenants', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
    ]) {
      const what = `${res.raw.req.method} ${res.raw.req.url} ${res.statusCode}`;
      expect(res.statusCode, what).toBeLessThan(300);
      expect(res.headers['content-type'], what).toMatch(/^application\/json/);
      expect(res.headers['cache-control'], what).toBe('no-store');
      expect(res.headers['content-security-policy'], what).toBe(API_CSP);
      expectSecurityHeaders(res.headers, what);
    }
  });

  it('error answers, refused before or after the route: the same headers', async () => {
    const free = client(t.app, await t.tenant('free', { planLimits: true }));
    let limited = await free.get('/api/v1/policies');
    while (limited.statusCode !== 429) limited = await free.get('/api/v1/policies');
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/api/v1/policies' }),
      await t.app.inject({ method: 'GET', url: '/api/v1/policies', headers: { 'x-api-key': 'ck_wrong', 'x-api-secret': 'cs_wrong' } }),
      await api.get('/api/v1/consent/search?page=0'),
      await api.get('/api/v1/consent/00000000-0000-4000-8000-000000000000'),
      await api.get('/api/v1/nowhere'),
      await free.get('/api/v1/consent/export'),
      limited,
    ]) {
      const what = `${res.raw.req.url} ${res.statusCode}`;
      expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
      expect(res.json(), what).toMatchObject({ success: false });
      expect(res.headers['cache-control'], what).toBe('no-store');
      expect(res.headers['content-security-policy'], what).toBe(API_CSP);
      expectSecurityHeaders(res.headers, what);
    }
  });

  it('the PDF receipt and the CSV export: no-store, nosniff', async () => {
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const csv = await api.get('/api/v1/consent/export');
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    for (const res of [pdf, csv]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toBe(API_CSP);
      expectSecurityHeaders(res.headers, String(res.headers['content-type']));
    }
    const health = await t.app.inject({ method: 'GET', url: '/health' });
    expect(health.headers['cache-control']).toBe('no-store');
    expectSecurityHeaders(health.headers, '/health');
  });

  /** Opens a URL in Chromium; answers the page and every message the console printed about a Content-Security-Policy or an error. */
  async function open(url: string, ready: (page: Page) => Promise<unknown>): Promise<{ problems: string[] }> {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    try {
      const res = await page.goto(url);
      expect(res?.status()).toBe(200);
      await ready(page);
      return { problems };
    } finally {
      await page.close();
    }
  }

  it('the receipt check page: its own strict policy, no-store, and it renders styled in a browser', async () => {
    const url = `${base}/verify/${consent.id}?hash=${consent.consentHash}`;
    const res = await fetch(url);
    await res.text();
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toBe(`${API_CSP};style-src 'unsafe-inline'`);
    expectSecurityHeaders(Object.fromEntries(res.headers), '/verify');
    const { problems } = await open(url, async (page) => {
      await expect(page.getByTestId('verdict').textContent()).resolves.toBe('Valid consent record');
      // The inline stylesheet applied: the page's background is its own (#f4f4f2), not the browser's.
      expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe('rgb(244, 244, 242)');
    });
    expect(problems).toEqual([]);
  });

  it('Swagger UI at /docs: a policy that lets it load its scripts and the OpenAPI document, and it lists the operations', async () => {
    const res = await fetch(`${base}/docs/`);
    await res.text();
    expect(res.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    expect(res.headers.get('content-security-policy')).not.toMatch(/upgrade-insecure-requests/);
    expectSecurityHeaders(Object.fromEntries(res.headers), '/docs');
    const { problems } = await open(`${base}/docs/`, async (page) => {
      await page.waitForSelector('.opblock-summary-path', { timeout: 30_000 });
      expect(await page.locator('.opblock-summary-path').count()).toBeGreaterThan(20);
      await expect(page.locator('.opblock-summary-path').first().textContent()).resolves.toMatch(/^\/api\/v1\//);
    });
    expect(problems).toEqual([]);
  }, 60_000);
});
