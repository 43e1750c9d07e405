import { generateKeyPairSync } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/process.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';
import { signedUserToken } from '../support/user-token.js';

/**
 * Issue 19, consent collected in the browser, in a real one: Chromium loads docs/browser.md's
 * example page from one loopback origin, imports the SDK from the service (another origin),
 * submits the form and is answered the record's id and link; a page on an origin the key does not
 * list is refused by the browser itself (CORS), and nothing is recorded for it.
 */

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) throw new Error('these tests drive Chromium: apt-get install -y chromium (.ci/run does)');

/** The example page of docs/browser.md, as the docs show it. */
const examplePage = (): string => {
  const doc = readFileSync(join(repoRoot, 'docs', 'browser.md'), 'utf8');
  return /```html\n([\s\S]*?)```/.exec(doc)![1]!;
};

/** A static site on its own loopback port: its origin differs from the service's. */
async function site(pages: Record<string, { type: string; body: string }>): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const page = pages[req.url ?? '/'];
    if (!page) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': page.type }).end(page.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

let t: TestService;
let admin: Client;
let browser: Browser;
let service: string;
const sites: Server[] = [];
const html = (body: string) => ({ type: 'text/html; charset=utf-8', body });

beforeAll(async () => {
  t = await startTestService();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  service = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  admin = client(t.app, await t.tenant('pro'));
  const purpose = { key: 'newsletter', name: 'Newsletter', description: 'Monthly news', legalBasis: 'consent' };
  expect((await admin.post('/api/v1/purposes', purpose)).statusCode).toBe(201);
  await publishPolicy(admin, { purpose: 'newsletter', policyType: 'marketing_consent' });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  for (const s of sites) s.close();
  await t?.close();
});

describe('browser collection › in Chromium', () => {
  it('the example page, on an allowed origin, records the decision through the SDK', async () => {
    // The key must name the page's origin, and the page the key: the page is filled in once both exist.
    const pages: Record<string, { type: string; body: string }> = {};
    const shop = await site(pages);
    sites.push(shop.server);
    const key = (await admin.post('/api/v1/keys', { scope: 'publishable', origins: [shop.origin] })).json().data.apiKey as string;
    pages['/'] = html(
      examplePage().replaceAll('https://ledger.example.com', service).replaceAll('pk_REPLACE_WITH_YOUR_PUBLISHABLE_KEY', key),
    );

    const tab = await browser.newPage();
    try {
      await tab.goto(`${shop.origin}/`);
      await tab.fill('input[name=email]', 'visitor@example.com');
      await tab.click('button');
      // The page's own script text holds the sentence too: wait for it with a record's id in it.
      await tab.waitForFunction('/Your consent [0-9a-f-]{36} can be checked/.test(document.body.textContent)', undefined, {
        timeout: 15_000,
      });
      const text = (await tab.textContent('body'))!;
      const match = /Your consent ([0-9a-f-]{36}) can be checked at (\S+)/.exec(text);
      expect(match, text).not.toBeNull();
      const [, id, verifyUrl] = match!;
      const record = (await admin.get(`/api/v1/consent/${id}`)).json().data;
      expect(record).toMatchObject({
        userReference: 'visitor@example.com',
        consentGiven: true,
        purpose: 'newsletter',
        metadata: { form: 'footer' },
        recordedBy: { type: 'key', id: key },
        collectedVia: 'browser',
      });
      // The visitor's own browser, as the page ran in it.
      expect(record.userAgent).toMatch(/Chrome/);
      expect(verifyUrl).toContain(`/verify/${id}?hash=${record.consentHash}`);
    } finally {
      await tab.close();
    }
  }, 60_000);

  it('a page on an origin the key does not list is refused by the browser, and records nothing', async () => {
    const allowed = 'https://shop.example.com';
    const key = (await admin.post('/api/v1/keys', { scope: 'publishable', origins: [allowed] })).json().data.apiKey as string;
    const sdk = (await t.app.inject({ url: '/sdk/consent-ledger.js' })).body;
    const stranger = await site({
      // The SDK served from the stranger's own origin: the browser then asks the service, which refuses the origin.
      '/sdk.js': { type: 'text/javascript', body: sdk },
      '/': html(`<!doctype html><meta charset="utf-8"><script type="module">
        import { consentLedger } from '/sdk.js';
        window.outcome = consentLedger({ publishableKey: '${key}', baseUrl: '${service}' })
          .record({ purpose: 'newsletter', userReference: 'stranger-visitor', consentGiven: true })
          .then((r) => 'recorded ' + r.id, (e) => 'refused ' + e.name);
        window.direct = import('${service}/sdk/consent-ledger.js').then(() => 'loaded', () => 'blocked');
      </script>`),
    });
    sites.push(stranger.server);
    const before = (await admin.get('/api/v1/consent/search')).json().pagination.total as number;
    const tab = await browser.newPage();
    try {
      await tab.goto(`${stranger.origin}/`);
      // (Expressions run in the page: the test's own TypeScript has no DOM.)
      await tab.waitForFunction('window.outcome !== undefined');
      expect(await tab.evaluate('window.outcome')).toBe('refused TypeError');
      // Nor may it import the SDK from the service.
      expect(await tab.evaluate('window.direct')).toBe('blocked');
    } finally {
      await tab.close();
    }
    expect((await admin.get('/api/v1/consent/search')).json().pagination.total).toBe(before);

    // The docs' example page there: the SDK cannot load, and the form never submits itself, so the
    // visitor's address never lands in a URL.
    const copied = await site({
      '/': html(examplePage().replaceAll('https://ledger.example.com', service).replaceAll('pk_REPLACE_WITH_YOUR_PUBLISHABLE_KEY', key)),
    });
    sites.push(copied.server);
    const page = await browser.newPage();
    try {
      await page.goto(`${copied.origin}/`);
      await page.getByText('Subscribing is not available right now.').waitFor();
      await page.fill('input[name=email]', 'copied-visitor@example.com');
      // Listening after the page's own listeners: what they did to the submit is known when it runs.
      await page.evaluate(
        "document.querySelector('#signup').addEventListener('submit', (e) => { window.prevented = e.defaultPrevented; })",
      );
      await page.click('button');
      await page.waitForFunction('window.prevented !== undefined');
      expect(await page.evaluate('window.prevented')).toBe(true);
      expect(page.url()).toBe(`${copied.origin}/`);
    } finally {
      await page.close();
    }
  }, 60_000);
  it("records once when its answer is lost on the way, and only for the user a key's user token names", async () => {
    const backend = generateKeyPairSync('ed25519');
    const token = (sub: string) => signedUserToken(backend.privateKey, { sub, exp: Math.floor(Date.now() / 1000) + 600 }, { alg: 'EdDSA' });
    const pages: Record<string, { type: string; body: string }> = {};
    const shop = await site(pages);
    sites.push(shop.server);
    const issued = await admin.post('/api/v1/keys', {
      scope: 'publishable',
      origins: [shop.origin],
      userTokenKey: backend.publicKey.export({ format: 'pem', type: 'spki' }),
    });
    const key = issued.json().data.apiKey as string;
    // The page's backend signed a token for its visitor; the page asks for it at each decision.
    pages['/'] = html(`<!doctype html><meta charset="utf-8"><script type="module">
      import { consentLedger } from '${service}/sdk/consent-ledger.js';
      const ledger = consentLedger({ publishableKey: '${key}', userToken: async () => '${token('token-visitor')}' });
      const said = (p) => p.then((r) => 'recorded ' + r.id, (e) => 'refused ' + (e.status ?? e.name));
      window.outcome = said(ledger.record({ purpose: 'newsletter', userReference: 'token-visitor', consentGiven: true }))
        .then((first) => (window.first = first, said(ledger.record({ purpose: 'newsletter', userReference: 'someone-else', consentGiven: false }))));
    </script>`);
    const tab = await browser.newPage();
    let lost = 0;
    // The first decision reaches the service, and its answer is cut off on the way back.
    await tab.route(`${service}/api/v1/consent`, async (route) => {
      if (route.request().method() !== 'POST' || lost > 0) return route.continue();
      lost++;
      await route.fetch();
      await route.abort('connectionreset');
    });
    try {
      await tab.goto(`${shop.origin}/`);
      await tab.waitForFunction('window.outcome !== undefined && window.first !== undefined', undefined, { timeout: 15_000 });
      const first = (await tab.evaluate('window.first')) as string;
      expect(lost).toBe(1);
      expect(first).toMatch(/^recorded [0-9a-f-]{36}$/);
      expect(await tab.evaluate('window.outcome')).toBe('refused 403');
    } finally {
      await tab.close();
    }
    const found = (await admin.get('/api/v1/consent/search?userReference=token-visitor')).json();
    expect(found.pagination.total).toBe(1);
    expect((await admin.get('/api/v1/consent/search?userReference=someone-else')).json().data).toEqual([]);
  }, 60_000);
});
