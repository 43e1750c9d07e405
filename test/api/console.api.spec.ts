import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, waitUntil } from '../support/process.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 20, the console (docs/console.md), in Chromium: an auditor signs in with a read key, sees
 * the overview chart, searches, opens a record and sees it verified, downloads its receipt and
 * proof, reads the audit log, cannot reach the keys, and signs out. The session cookie is
 * HttpOnly and SameSite=Strict (a cross-site page's request carries none), calls that change
 * anything need the CSRF token, and axe-core finds no serious or critical violation.
 * With CONSOLE_SCREENSHOTS=1 it saves the screenshots docs/console.md shows.
 */

const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) throw new Error('these tests drive Chromium: apt-get install -y chromium (.ci/run does)');
if (!existsSync(join(repoRoot, 'dist', 'console', 'app.js'))) throw new Error('the console is not built: run `npm run build`');
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS === '1';

let t: TestService;
let admin: Client;
let adminCreds: { apiKey: string; apiSecret: string };
let auditor: { apiKey: string; apiSecret: string };
let base: string;
let browser: Browser;
let consentId: string;
let receiver: Server;

beforeAll(async () => {
  t = await startTestService({ WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  // A receiver that always fails: the overview names the webhook, its page lists the attempts.
  receiver = createServer((_req, res) => res.writeHead(500).end());
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  adminCreds = await t.tenant('pro');
  admin = client(t.app, adminCreds);
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  expect((await admin.post('/api/v1/webhooks', { url: hookUrl, events: ['consent.created'] })).statusCode).toBe(201);
  // The README walk-through's data: a policy, decisions given, rejected and withdrawn.
  const policyVersionId = await publishPolicy(admin, { policyType: 'privacy_policy', title: 'Privacy Policy' });
  for (const [user, given] of [
    ['user-42', true],
    ['u-1', true],
    ['u-2', false],
    ['u-3', true],
  ] as const) {
    const res = await admin.post('/api/v1/consent', {
      policyVersionId,
      userReference: user,
      consentGiven: given,
      metadata: { source: 'signup' },
    });
    if (user === 'user-42') consentId = res.json().data.id;
  }
  const withdrawn = (await admin.get('/api/v1/consent/user/u-3')).json().data[0].id as string;
  await admin.post(`/api/v1/consent/${withdrawn}/withdraw`, { reason: 'user asked' });
  // A purpose whose second version asks again: a re-consent backlog, and two versions to compare.
  const purpose = { key: 'newsletter', name: 'Newsletter', description: 'Monthly news', legalBasis: 'consent', consentValidFor: 'P24M' };
  await admin.post('/api/v1/purposes', purpose);
  const news = (content: string, version: string) =>
    admin.post('/api/v1/policies', { policyType: 'custom', purpose: 'newsletter', version, title: 'Newsletter', content });
  const v1 = (await news('One email a month.\nUnsubscribe any time.', '1.0.0')).json().data.id as string;
  await admin.post('/api/v1/consent', { policyVersionId: v1, userReference: 'user-42', consentGiven: true });
  await news('One email a week.\nUnsubscribe any time.\nWe share nothing.', '2.0.0');
  auditor = (await admin.post('/api/v1/keys', { scope: 'read', name: 'auditor' })).json().data;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  receiver?.close();
});

async function signIn(page: Page, creds: { apiKey: string; apiSecret: string }): Promise<void> {
  await page.goto(`${base}/console`);
  await page.getByLabel('API key').fill(creds.apiKey);
  await page.getByLabel('API secret').fill(creds.apiSecret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Overview' }).waitFor();
}

const shot = async (page: Page, name: string) => {
  if (SCREENSHOTS) await page.screenshot({ path: join(repoRoot, 'docs', 'console', `${name}.png`), fullPage: true });
};

/** axe-core's serious and critical violations on a console view (in a context with CSP bypassed: axe is injected). */
async function violations(page: Page, hash: string): Promise<string[]> {
  await page.goto(`${base}/console${hash}`);
  await page.waitForLoadState('networkidle');
  await page.addScriptTag({ content: readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8') });
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
    violations: { id: string; impact: string; help: string }[];
  };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${hash}: ${v.id} (${v.help})`);
}

describe('console › an auditor with a read key', () => {
  it('signs in, sees the overview, searches, opens a verified record, downloads its receipt and proof, reads the audit log, signs out', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    const csp = (await page.goto(`${base}/console`))!.headers()['content-security-policy']!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    await shot(page, 'sign-in');
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await signIn(page, auditor);

    // The overview: figures and the chart.
    await page.locator('.chart canvas').first().waitFor();
    await expect.poll(() => page.locator('.figure strong').first().textContent()).toBe('5');
    // Acceptance per version (3 of the privacy policy's 4 decisions were consents), and the re-consent backlog.
    await page.getByRole('list', { name: 'Acceptance rate per policy version' }).getByText('75 % of 4').waitFor();
    await page.getByRole('list', { name: 'Subjects to ask again, per purpose' }).getByText('1 to ask again').waitFor();
    // No witness is configured: the checkpoint is the log's own signature (and its timestamp) only.
    await page.getByText('no witness cosignature').waitFor();
    // A read session is not made to ask for the webhooks (admin only): no 403 on every overview.
    await page.getByText('Webhooks are shown to admin sessions.').waitFor();
    expect(asked.filter((path) => path.startsWith('/api/v1/webhooks'))).toEqual([]);
    await shot(page, 'overview');

    // Search, then open the record.
    await page.getByRole('link', { name: 'Records', exact: true }).click();
    // The purpose filter suggests the tenant's purposes.
    await expect
      .poll(() => page.locator('#purpose-keys option').evaluateAll((os) => os.map((o) => o.getAttribute('value'))))
      .toEqual(['newsletter']);
    // A metadata filter, as key=value.
    await page.getByLabel('Metadata (key=value)').fill('source=signup');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('4 records').waitFor();
    await page.getByLabel('Metadata (key=value)').fill('');
    await page.getByLabel('User reference').fill('user-42');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: consentId }).click();
    await page.getByText('Verified: hash recomputed from the ledger').waitFor({ timeout: 15_000 });
    expect(await page.locator('dl.fields').textContent()).toContain('user-42');
    // Its history as the ledger holds it: the event, who recorded it, its hash.
    await page.getByRole('cell', { name: 'ConsentRecorded' }).waitFor();
    expect(await page.getByRole('region', { name: "The record's events, oldest first" }).textContent()).toContain(
      `key ${adminCreds.apiKey}`,
    );
    await shot(page, 'record');

    const [proof] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download proof (JSON)' }).click()]);
    const proofJson = JSON.parse(readFileSync((await proof.path())!, 'utf8'));
    expect(proofJson).toMatchObject({ consentId, leafIndex: expect.any(Number), inclusionPath: expect.any(Array) });
    const [receipt] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Issue and download receipt (PDF)' }).click(),
    ]);
    expect(
      readFileSync((await receipt.path())!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // The export of what the search matched.
    await page.getByRole('link', { name: 'Records', exact: true }).click();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export as CSV' }).click()]);
    expect(readFileSync((await csv.path())!, 'utf8').split('\r\n')[0]).toMatch(/^id,userReference,policyVersionId/);

    // Policies per purpose, and the change between two versions.
    await page.getByRole('link', { name: 'Policies' }).click();
    await page.getByRole('heading', { name: 'newsletter', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Read newsletter 2.0.0' }).click();
    await page.getByText('We share nothing.').first().waitFor();
    // The purpose as defined: its legal basis and how long a decision on it holds.
    const facts = page.getByRole('region', { name: 'newsletter' }).locator('dl.fields');
    expect(await facts.locator('dd').allTextContents()).toEqual([
      'Newsletter',
      'consent, GDPR Art. 6(1)(a)',
      '24 months (P24M)',
      '—',
      'Monthly news',
    ]);
    // Each version says when it took effect and whether it asked for consent again.
    const newest = page.getByRole('region', { name: 'newsletter' }).locator('tbody tr').first();
    expect(await newest.locator('td').allTextContents()).toEqual([
      '2.0.0',
      expect.any(String),
      'in force',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/),
      'yes',
      expect.any(String),
      expect.any(String),
      expect.stringContaining('Read'),
    ]);
    expect(await page.getByRole('region', { name: 'newsletter' }).locator('tbody tr').nth(1).locator('td').nth(2).textContent()).toBe(
      'superseded',
    );
    // By default the newest version is compared with the one before it.
    expect(await page.getByLabel('From version').locator('option:checked').textContent()).toBe('newsletter 1.0.0');
    expect(await page.getByLabel('To version').locator('option:checked').textContent()).toBe('newsletter 2.0.0');
    await page.getByRole('button', { name: 'Compare' }).click();
    await page.locator('pre.diff ins', { hasText: 'We share nothing.' }).waitFor();
    expect(await page.locator('pre.diff del').allTextContents()).toEqual(['- One email a month.']);
    // The line taken out comes before the line put in its place.
    expect(await page.locator('pre.diff > *').allTextContents()).toEqual([
      '- One email a month.',
      '+ One email a week.',
      ' Unsubscribe any time.',
      '+ We share nothing.',
    ]);
    await shot(page, 'policies');

    // The audit log, and the keys a read key may not manage.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('cell', { name: 'policy.published' }).first().waitFor();
    await shot(page, 'audit-log');
    await page.getByRole('link', { name: 'Keys' }).click();
    await page.getByText('Keys are managed with an admin key').waitFor();

    // The session cookie: HttpOnly, SameSite=Strict; unreadable by the page's scripts.
    const [cookie] = (await context.cookies()).filter((c) => c.name === 'cl_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate('document.cookie')).not.toContain('cl_session');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const after = await t.app.inject({ url: '/api/v1/consent/search', headers: { cookie: `cl_session=${cookie!.value}` } });
    expect(after.statusCode).toBe(401);
    await context.close();
  }, 120_000);

  it('is readable at 390 pixels wide, and axe-core finds no serious or critical violation', async () => {
    const narrow = await browser.newContext({ viewport: { width: 390, height: 844 }, bypassCSP: true });
    const page = await narrow.newPage();
    await signIn(page, auditor);
    await page.goto(`${base}/console#/records/${consentId}`);
    await page.getByText('Verified: hash recomputed from the ledger').waitFor({ timeout: 15_000 });
    // Nothing wider than the screen.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await shot(page, 'record-390');
    const found: string[] = [];
    for (const hash of [
      '#/overview',
      '#/records',
      `#/records/${consentId}`,
      '#/policies',
      '#/audit-log',
      '#/webhooks',
      '#/keys',
      '#/erasure',
    ]) {
      found.push(...(await violations(page, hash)));
    }
    expect(found).toEqual([]);
    await narrow.close();
  }, 120_000);

  it('says so while the read models are behind the ledger, and stops saying it once they caught up', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const notice = page.getByText('The read models are catching up with the ledger');
    await t.service.runner.stop();
    try {
      const policyVersionId = (await admin.get('/api/v1/policies/active/privacy_policy')).json().data.id as string;
      const late = await admin.post('/api/v1/consent', { policyVersionId, userReference: 'late-signup', consentGiven: true });
      expect(late.statusCode).toBe(201);
      await signIn(page, auditor);
      await page.goto(`${base}/console#/records`);
      // The search waits out the read fence (5 s), then answers without the late record.
      await notice.waitFor({ timeout: 20_000 });
      expect(await page.getByText('late-signup').count()).toBe(0);
    } finally {
      await t.service.runner.start();
    }
    await page.reload();
    await page.getByText('late-signup').first().waitFor({ timeout: 20_000 });
    expect(await notice.count()).toBe(0);
    await context.close();
  }, 60_000);
});

describe('console › an officer with an admin key', () => {
  it('loads the overview asking each figure once, re-consent only of the purposes a version asks again', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.pathname.startsWith('/api/')) asked.push(`${r.method()} ${url.pathname}${url.search}`);
    });
    // Nothing the page loads is missing (a browser asks /favicon.ico of a page that names no icon).
    const missing: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 404) missing.push(r.url());
    });
    try {
      // The backlog is asked for after the purposes answer: waited for, not raced by networkidle.
      const backlogAsked = page.waitForRequest((r) => r.url().includes('/consent/reconsent'), { timeout: 30_000 });
      await signIn(page, adminCreds);
      await page.getByRole('heading', { name: 'Re-consent backlog per purpose' }).waitFor();
      await backlogAsked;
      await page.waitForLoadState('networkidle');
      // Each call once: a figure asked twice spends the tenant's budget for nothing.
      expect(asked.length, asked.join('\n')).toBe(new Set(asked).size);
      // Of the purposes (privacy_policy, newsletter), only newsletter has a version that asks again.
      const reconsent = asked.filter((a) => a.includes('/consent/reconsent'));
      expect(reconsent.map((a) => new URL(a.split(' ')[1]!, 'http://x').searchParams.get('purpose'))).toEqual(['newsletter']);
      expect(missing).toEqual([]);
      expect(await page.locator('link[rel="icon"]').count()).toBe(1);
    } finally {
      await context.close();
    }
  }, 60_000);

  it('issues and revokes a key, and erases a subject after a confirmation naming what goes', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('dialog', (dialog) => void dialog.accept());
    try {
      await waitUntil(async () => (await admin.get('/api/v1/webhooks')).json().data[0].deliveryStats.failed > 0, {
        what: 'a failed delivery',
      });
      await signIn(page, adminCreds);
      // The failing webhook, on the overview and on its page with its attempts.
      await page.getByRole('list', { name: 'Failed attempts per webhook' }).waitFor({ timeout: 20_000 });
      await page
        .getByText(/^\d+ of \d+ attempts failed$/)
        .first()
        .waitFor();
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('link', { name: /\/hooks$/ }).click();
      await page.getByRole('cell', { name: 'failed: 500' }).first().waitFor();
      await shot(page, 'webhooks');
      // Its deliveries failed for good (as five attempts leave them): one is sent again from its row.
      const hook = (await admin.get('/api/v1/webhooks')).json().data[0] as { id: string };
      await t.service.store.db
        .withTables<{ 'webhooks.deliveries': { webhook_id: string; status: string; next_attempt_at: string | null } }>()
        .updateTable('webhooks.deliveries')
        .set({ status: 'failed', next_attempt_at: null })
        .where('webhook_id', '=', hook.id)
        .execute();
      const tried = (await admin.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=100`)).json().pagination.total as number;
      await page.reload();
      await page.getByRole('button', { name: 'Send again' }).first().click();
      await page
        .getByRole('status')
        .filter({ hasText: /Sending the consent\.created delivery again now/ })
        .waitFor();
      await waitUntil(async () => (await admin.get(`/api/v1/webhooks/${hook.id}/deliveries?limit=100`)).json().pagination.total > tried, {
        what: 'the delivery sent again',
      });
      // A webhook page whose attempts cannot be read says why, rather than nothing.
      await page.goto(`${base}/console#/webhooks/00000000-0000-4000-8000-000000000000`);
      await page.getByRole('alert').filter({ hasText: 'webhook 00000000-0000-4000-8000-000000000000 not found' }).waitFor();
      // A record whose check or history cannot be read (here a rate limit) says so, not "Checking…" for ever.
      const limited = {
        status: 429,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, error: { code: 'RATE_LIMITED', message: 'rate limit exceeded' } }),
      };
      await page.route(/\/api\/v1\/consent\/[^/]+\/(verify|history)$/, (route) => route.fulfill(limited));
      await page.goto(`${base}/console#/records/${consentId}`);
      await page.getByText('Not checked: rate limit exceeded').waitFor();
      await page.getByRole('alert').filter({ hasText: 'rate limit exceeded' }).first().waitFor();
      await page.unroute(/\/api\/v1\/consent\/[^/]+\/(verify|history)$/);

      await page.getByRole('link', { name: 'Keys' }).click();
      await page.getByLabel('Name').fill('console auditor');
      await page.getByRole('button', { name: 'Issue key' }).click();
      const status = await page.getByRole('status').first().textContent();
      const [, issuedKey] = /Issued (ck_\w+); its secret, shown once: cs_\w+/.exec(status ?? '') ?? [];
      expect(issuedKey, status ?? '').toBeDefined();
      await page.getByRole('button', { name: `Revoke ${issuedKey}` }).click();
      await page.getByText(`Revoked ${issuedKey}.`).waitFor();
      const listed = (await admin.get('/api/v1/keys')).json().data.find((k: { apiKey: string }) => k.apiKey === issuedKey);
      expect(listed).toMatchObject({ name: 'console auditor', scope: 'read', revokedAt: expect.any(String) });

      await page.getByRole('link', { name: 'Erasure' }).click();
      // Nobody by that reference: nothing is offered for erasure.
      await page.getByLabel('User reference').fill('nobody-here');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByText('No records of nobody-here: nothing to erase.').waitFor();
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      // Spaces at its ends make another subject: " u-1 " is not u-1, whose records stay.
      await page.getByLabel('User reference').fill(' u-1 ');
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByText('No records of " u-1 ": nothing to erase.').waitFor();
      expect(await page.getByRole('alertdialog').count()).toBe(0);
      await page.getByLabel('User reference').fill('u-2');
      await page.getByRole('button', { name: 'Find' }).click();
      const dialog = page.getByRole('alertdialog');
      expect(await dialog.textContent()).toMatch(/Erase u-2\?.*of 1 record and their receipts/);
      await shot(page, 'erasure');
      await page.getByRole('button', { name: 'Erase u-2' }).click();
      await page.getByText('Erased u-2').waitFor();
      const record = (await admin.get('/api/v1/consent/search?consentGiven=false')).json().data[0];
      expect(record).toMatchObject({ userReference: null, erased: true });
      // Its page says it was erased, not that it failed verification.
      await page.goto(`${base}/console#/records/${record.id}`);
      const badge = page.locator('#proof-state + p .badge', { hasText: "the record's event is still included in the signed log" });
      await badge.waitFor();
      expect(await badge.textContent()).toMatch(/^Erased on request: the personal fields the hash covers were destroyed/);
      expect(await page.getByText('Not verified').count()).toBe(0);

      // A withdrawal's reason is among what an erasure takes: the page says so, not "none given".
      const given = await admin.post('/api/v1/consent', { purpose: 'newsletter', userReference: 'u-9', consentGiven: true });
      const id = given.json().data.id as string;
      expect((await admin.post(`/api/v1/consent/${id}/withdraw`, { reason: 'moved abroad' })).statusCode).toBe(200);
      expect((await admin.post('/api/v1/subjects/erase', { userReference: 'u-9' })).statusCode).toBe(200);
      await page.goto(`${base}/console#/records/${id}`);
      const reason = page.locator('dt:text-is("Withdrawal reason") + dd');
      await reason.waitFor();
      expect(await reason.textContent()).toBe('erased');
    } finally {
      await context.close();
    }
  }, 120_000);

  it('its pages have no serious or critical axe-core violation either', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    try {
      const page = await context.newPage();
      await signIn(page, adminCreds);
      const found: string[] = [];
      for (const hash of ['#/overview', '#/webhooks', '#/keys', '#/erasure']) found.push(...(await violations(page, hash)));
      expect(found).toEqual([]);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe('console › the session', () => {
  it('returns to sign-in, saying why, once its key is revoked; the skip link stays on the page', async () => {
    const key = (await admin.post('/api/v1/keys', { scope: 'read', name: 'short-lived' })).json().data;
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await signIn(page, key);
      await page.getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('cell', { name: 'policy.published' }).first().waitFor();
      await page.getByText(/^\d+ entries$/).waitFor();
      // The skip link moves focus to the content and leaves the route as it was.
      await page.locator('a.skip').focus();
      await page.keyboard.press('Enter');
      expect(await page.evaluate('location.hash')).toBe('#/audit-log');
      expect(await page.evaluate('document.activeElement.id')).toBe('main');

      expect((await admin.delete(`/api/v1/keys/${key.apiKey}`)).statusCode).toBe(200);
      await page.getByRole('link', { name: 'Records' }).click();
      await page.getByRole('button', { name: 'Sign in' }).waitFor();
      await page.getByText('Your session has ended').waitFor();
    } finally {
      await context.close();
    }
  }, 60_000);

  it('is served at /console and /console/ alike', async () => {
    for (const url of ['/console', '/console/']) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
  });

  it('refuses write and publishable keys, and a wrong secret', async () => {
    const writer = (await admin.post('/api/v1/keys', { scope: 'write' })).json().data;
    const signIn = (body: object) => t.app.inject({ method: 'POST', url: '/console/session', payload: body });
    expect((await signIn({ apiKey: writer.apiKey, apiSecret: writer.apiSecret })).statusCode).toBe(403);
    expect((await signIn({ apiKey: auditor.apiKey, apiSecret: 'cs_wrong' })).statusCode).toBe(401);
    // A publishable key has no secret: whatever is sent with it, the answer names its scope.
    const publishable = (await admin.post('/api/v1/keys', { scope: 'publishable', origins: ['https://shop.example'] })).json().data;
    const refused = await signIn({ apiKey: publishable.apiKey, apiSecret: 'anything' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toContain("this key's scope is publishable");
    // A refused sign-in is no use of the key.
    const listed = (await admin.get('/api/v1/keys')).json().data.find((k: { apiKey: string }) => k.apiKey === publishable.apiKey);
    expect(listed.lastUsedAt).toBeNull();
  });

  it('needs the CSRF token for every call that changes anything', async () => {
    const opened = await t.app.inject({
      method: 'POST',
      url: '/console/session',
      payload: { apiKey: adminCreds.apiKey, apiSecret: adminCreds.apiSecret },
    });
    expect(opened.statusCode).toBe(201);
    const cookie = String(opened.headers['set-cookie']).split(';')[0]!;
    expect(String(opened.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const csrfToken = opened.json().data.csrfToken as string;
    const purpose = { key: 'console-made', name: 'Made in the console', description: 'x', legalBasis: 'consent' };
    const without = await t.app.inject({ method: 'POST', url: '/api/v1/purposes', headers: { cookie }, payload: purpose });
    expect(without.statusCode).toBe(403);
    expect(without.json().error.message).toMatch(/CSRF/);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/v1/purposes',
      headers: { cookie, 'x-csrf-token': 'x'.repeat(43) },
      payload: purpose,
    });
    expect(wrong.statusCode).toBe(403);
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/v1/purposes',
      headers: { cookie, 'x-csrf-token': csrfToken },
      payload: purpose,
    });
    expect(right.statusCode, right.body).toBe(201);
    // The change names the key that signed in.
    const [entry] = (await admin.get('/api/v1/audit-log?action=purpose.defined')).json().data;
    expect(entry.actor).toEqual({ type: 'key', id: adminCreds.apiKey });
    expect((await t.app.inject({ method: 'DELETE', url: '/console/session', headers: { cookie } })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'DELETE', url: '/console/session', headers: { cookie, 'x-csrf-token': csrfToken } })).statusCode,
    ).toBe(200);
  });

  it('refuses a read whose CSRF token is another session’s: a tab whose session another sign-in replaced sees none of the new one’s data', async () => {
    const signIn = async (creds: { apiKey: string; apiSecret: string }) => {
      const opened = await t.app.inject({
        method: 'POST',
        url: '/console/session',
        payload: { apiKey: creds.apiKey, apiSecret: creds.apiSecret },
      });
      expect(opened.statusCode).toBe(201);
      return { cookie: String(opened.headers['set-cookie']).split(';')[0]!, csrf: opened.json().data.csrfToken as string };
    };
    const first = await signIn(adminCreds);
    const other = await t.tenant('free');
    // Another tab signs in: the browser's one cookie is now the new session's.
    const second = await signIn(other);
    const read = (csrf: string | undefined) =>
      t.app.inject({ url: '/api/v1/consent/search', headers: { cookie: second.cookie, ...(csrf ? { 'x-csrf-token': csrf } : {}) } });
    const stale = await read(first.csrf);
    expect(stale.statusCode).toBe(403);
    expect(stale.json().error.message).toMatch(/CSRF token/);
    expect((await read(second.csrf)).statusCode).toBe(200);
    // A download the page opens as a link carries no token, and is the cookie's session's.
    expect((await read(undefined)).statusCode).toBe(200);
  });

  it('is not sent by a page on another site', async () => {
    // localhost and 127.0.0.1 are different sites: a SameSite=Strict cookie stays home.
    let server: Server | undefined;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, auditor);
      server = createServer((_req, res) =>
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<!doctype html><script>fetch('${base}/api/v1/consent/search', { credentials: 'include' }).catch(() => {});</script>`),
      );
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const other = await context.newPage();
      const seen = other.waitForRequest(`${base}/api/v1/consent/search`);
      await other.goto(`http://localhost:${(server.address() as AddressInfo).port}/`);
      const headers = await (await seen).allHeaders();
      expect(headers.cookie ?? '').not.toContain('cl_session');
      // The console's own requests do carry it.
      const own = page.waitForRequest((r) => r.url().startsWith(`${base}/api/v1/`));
      await page.goto(`${base}/console#/records`);
      expect((await (await own).allHeaders()).cookie).toContain('cl_session');
    } finally {
      await context.close();
      server?.close();
    }
  }, 60_000);

  it('shows what was recorded with a decision: address, user agent, metadata, and why it was withdrawn', async () => {
    const record = (await admin.get('/api/v1/consent/user/u-3')).json().data[0] as { id: string };
    const stored = (await admin.get(`/api/v1/consent/${record.id}`)).json().data;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, auditor);
      await page.goto(`${base}/console#/records/${record.id}`);
      const field = (name: string) =>
        page.locator('dl.fields dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');
      await field('Withdrawal reason').waitFor();
      expect(await field('Withdrawal reason').textContent()).toBe('user asked');
      expect(await field('IP address').textContent()).toBe(stored.ipAddress);
      expect(await field('User agent').textContent()).toBe(stored.userAgent);
      expect(await field('Metadata').textContent()).toBe('source: signup');
    } finally {
      await context.close();
    }
  }, 60_000);

  it('checks the inclusion proof itself: leaves swapped in the database read as not verified, not as included', async () => {
    const creds = await t.tenant('pro');
    const owner = client(t.app, creds);
    const policyVersionId = await publishPolicy(owner);
    const ids: string[] = [];
    for (const userReference of ['swap-a', 'swap-b'])
      ids.push((await owner.post('/api/v1/consent', { policyVersionId, userReference, consentGiven: true })).json().data.id);
    await waitUntil(async () => (await owner.get(`/api/v1/consent/${ids[1]}/proof`)).statusCode === 200, { what: 'both sealed' });
    const reader = (await owner.post('/api/v1/keys', { scope: 'read' })).json().data;
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, reader);
      await page.goto(`${base}/console#/records/${ids[0]}`);
      await page.getByText('Verified: hash recomputed from the ledger, included in the signed log').waitFor({ timeout: 15_000 });
      // A database administrator swaps the two records' leaves, stream and all (event_id is unique: by way of a third value).
      const [a, b] = await Promise.all(
        ids.map(async (id) => (await owner.get(`/api/v1/consent/${id}/history`)).json().data[0] as { id: string }),
      );
      await t.service.store.db.transaction().execute(async (tx) => {
        const leaf = (id: string) => sql`SELECT leaf_index FROM transparency.leaves WHERE event_id = ${id}::uuid`;
        const [ia, ib] = [(await leaf(a!.id).execute(tx)).rows[0], (await leaf(b!.id).execute(tx)).rows[0]] as { leaf_index: string }[];
        const move = (from: string, to: string) =>
          sql`UPDATE transparency.leaves SET event_id = ${to}::uuid WHERE tenant_id = ${creds.tenantId}::uuid AND leaf_index = ${from}`.execute(
            tx,
          );
        await move(ia!.leaf_index, '00000000-0000-4000-8000-00000000abcd');
        await move(ib!.leaf_index, a!.id);
        await move(ia!.leaf_index, b!.id);
        await sql`UPDATE transparency.leaves l SET stream_id = e.stream_id FROM ledger.events e WHERE e.event_id = l.event_id AND l.tenant_id = ${creds.tenantId}::uuid`.execute(
          tx,
        );
      });
      expect((await owner.get(`/api/v1/consent/${ids[0]}/verify`)).json().data.valid).toBe(true);
      await page.reload();
      await page.getByText("Not verified: the log's inclusion proof does not lead to its signed root").waitFor({ timeout: 15_000 });
      expect(await page.getByText('included in the signed log').count()).toBe(0);
      // Erased, the record is still not called included while its proof does not hold.
      expect((await owner.post('/api/v1/subjects/erase', { userReference: 'swap-a' })).statusCode).toBe(200);
      await page.reload();
      await page.getByText("Not verified: the log's inclusion proof does not lead to its signed root").waitFor({ timeout: 15_000 });
      expect(await page.getByText('included in the signed log').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);

  it("shows an imported decision's original time, and an expiry that has passed as expired", async () => {
    // After the tests that count records: the data it adds is no other test's.
    await admin.post('/api/v1/purposes', { key: 'moved', name: 'Moved in', legalBasis: 'consent', consentValidFor: 'P24M' });
    await publishPolicy(admin, { policyType: 'custom', purpose: 'moved', effectiveDate: '2015-01-01T00:00:00Z' });
    const res = await admin.post('/api/v1/consent/batch', {
      consents: [
        {
          purpose: 'moved',
          userReference: 'carl@example.com',
          consentGiven: true,
          collectedAt: '2019-05-05T09:01:00Z',
          withdrawnAt: '2021-07-07T12:00:00Z',
        },
      ],
    });
    expect(res.statusCode, res.body).toBe(201);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await signIn(page, auditor);
      await page.goto(`${base}/console#/records/${res.json().data.consents[0].id}`);
      const field = (name: string) =>
        page.locator('dl.fields dt', { hasText: new RegExp(`^${name}$`) }).locator('xpath=following-sibling::dd[1]');
      await field('Decided').waitFor();
      expect(await field('Decided').textContent()).toBe('2019-05-05 09:01:00 UTC, on another platform (imported)');
      expect(await field('Expired').textContent()).toBe('2021-05-05 09:01:00 UTC');
      expect(await field('Withdrawn').textContent()).toBe('2021-07-07 12:00:00 UTC');
      expect(await page.locator('dl.fields dt', { hasText: /^Expires$/ }).count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('console › what the officer reads at a glance', () => {
  // After the file's other tests: the policies, webhooks and records it adds are no other test's.
  // One page each for the officer and the auditor, each signed in once: sign-ins from one address
  // are limited to 20 a minute, and the file's other tests sign in many times.
  let officer: Page;
  let reader: Page;
  beforeAll(async () => {
    officer = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(officer, adminCreds);
    reader = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await signIn(reader, auditor);
  }, 60_000);
  afterAll(async () => {
    await officer?.context().close();
    await reader?.context().close();
  });
  it('counts the re-consent backlog of a policy type with no purpose defined, as the API does', async () => {
    const v1 = await publishPolicy(admin, { policyType: 'cookie_policy', version: '1.0.0' });
    for (const user of ['c-1', 'c-2'])
      await admin.post('/api/v1/consent', { policyVersionId: v1, userReference: user, consentGiven: true });
    await publishPolicy(admin, { policyType: 'cookie_policy', version: '2.0.0' });
    const total = (await admin.get('/api/v1/consent/reconsent?purpose=cookie_policy&limit=1')).json().pagination.total as number;
    expect(total).toBe(2);
    await officer.goto(`${base}/console#/overview`);
    await officer.reload();
    const bars = officer.getByRole('list', { name: 'Subjects to ask again, per purpose' });
    await bars
      .getByRole('listitem')
      .filter({ hasText: 'cookie_policy' })
      .filter({ hasText: `${total} to ask again` })
      .waitFor();
    expect(await bars.getByRole('listitem').filter({ hasText: 'Newsletter' }).count()).toBe(1);
  }, 60_000);

  it('says which figures could not be loaded, rather than "…" for ever', async () => {
    const limited = {
      status: 429,
      contentType: 'application/json',
      body: JSON.stringify({ success: false, error: { code: 'RATE_LIMITED', message: 'rate limit exceeded' } }),
    };
    const figures = /\/api\/v1\/(consent\/stats(\/versions)?|ledger\/checkpoint)$/;
    await reader.setViewportSize({ width: 1280, height: 900 });
    await reader.route(figures, (route) => route.fulfill(limited));
    try {
      await reader.goto(`${base}/console#/overview`);
      await reader.reload();
      await reader.getByRole('heading', { name: 'Re-consent backlog per purpose' }).waitFor();
      // Two figures of the stats, the checkpoint, and both charts of the versions.
      await waitUntil(async () => (await reader.getByRole('alert').filter({ hasText: 'Not loaded: rate limit exceeded' }).count()) === 5, {
        what: 'five figures saying they were not loaded',
      });
      expect(await reader.locator('.figure strong').allTextContents()).toEqual(['—', '—', '—']);
    } finally {
      await reader.unroute(figures);
    }
  }, 60_000);

  it('labels the daily chart once a day at most, far enough apart to read, at any range and width', async () => {
    for (const width of [1280, 390]) {
      await reader.setViewportSize({ width, height: 900 });
      await reader.goto(`${base}/console#/overview`);
      await reader.reload();
      for (const range of ['7', '30', '90']) {
        await reader.getByLabel('Range').selectOption(range);
        const chart = reader.locator('.chart');
        await waitUntil(async () => ((await chart.getAttribute('data-days')) ?? '') !== '', { what: 'the chart drawn' });
        const labels = (await chart.getAttribute('data-days'))!.split(' ');
        const where = `${range} days at ${width} px: ${labels.join(' ')}`;
        for (const label of labels) expect(label, where).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        expect(new Set(labels).size, where).toBe(labels.length);
        // uPlot keeps ticks 75 px apart or more (a date is about 62 wide): what the plot's width can hold.
        const plotWidth = (await chart.boundingBox())!.width;
        expect(labels.length, where).toBeLessThanOrEqual(Math.floor(plotWidth / 75) + 1);
        expect(labels.length, where).toBeGreaterThanOrEqual(2);
      }
    }
  }, 60_000);

  it('keeps a long user reference inside the erasure confirmation, at any width', async () => {
    const reference = `üüü-Zoë-日本語-${'x'.repeat(200)}/?#&%`;
    const policyVersionId = (await admin.get('/api/v1/policies/active/privacy_policy')).json().data.id as string;
    expect((await admin.post('/api/v1/consent', { policyVersionId, userReference: reference, consentGiven: true })).statusCode).toBe(201);
    // The erasure page finds a subject by the search, which follows the ledger.
    await waitUntil(
      async () =>
        (await admin.get(`/api/v1/consent/search?${new URLSearchParams({ userReference: reference })}`)).json().pagination.total === 1,
      { what: 'the record searchable' },
    );
    for (const width of [1280, 390]) {
      await officer.setViewportSize({ width, height: 900 });
      await officer.goto(`${base}/console#/erasure`);
      await officer.getByLabel('User reference').fill(reference);
      await officer.getByRole('button', { name: 'Find' }).click();
      await officer.getByRole('alertdialog').waitFor();
      expect(await officer.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      // The whole reference is on the page to read, not cut at the screen's edge.
      expect(await officer.getByRole('heading', { name: `Erase ${reference}?` }).isVisible()).toBe(true);
    }
  }, 60_000);

  it("shows what was said about a delivery sent again on that webhook's page only", async () => {
    const hooks = (await admin.get('/api/v1/webhooks')).json().data as { id: string }[];
    const failing = hooks[0]!.id;
    const other = (
      await admin.post('/api/v1/webhooks', { url: 'https://127.0.0.1:9/other', events: ['consent.created'], isActive: false })
    ).json().data.id as string;
    await t.service.store.db
      .withTables<{ 'webhooks.deliveries': { webhook_id: string; status: string; next_attempt_at: string | null } }>()
      .updateTable('webhooks.deliveries')
      .set({ status: 'failed', next_attempt_at: null })
      .where('webhook_id', '=', failing)
      .execute();
    await officer.setViewportSize({ width: 1280, height: 900 });
    await officer.goto(`${base}/console#/webhooks/${failing}`);
    await officer.getByRole('button', { name: 'Send again' }).first().click();
    const said = officer.getByRole('status').filter({ hasText: /delivery again now/ });
    await said.waitFor();
    await officer.goto(`${base}/console#/webhooks/${other}`);
    await officer.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await said.waitFor({ state: 'detached' });
  }, 60_000);
});
