import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receiptStream } from '../../src/domain/receipt/receipt.events.js';
import { sql } from 'kysely';
import { freePort, repoRoot, runCommand } from '../support/process.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * The tools these tests drive come from Debian (`.ci/run` installs them). A missing one fails
 * the suite with how to install it: a receipt test must never pass without looking.
 */
const TOOLS: Record<string, string> = {
  pdftotext: 'poppler-utils',
  pdftoppm: 'poppler-utils',
  pdffonts: 'poppler-utils',
  zbarimg: 'zbar-tools',
};
const CHROMIUM = '/usr/bin/chromium';
function requireTools(): void {
  const missing = Object.entries(TOOLS).filter(([tool]) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
  if (spawnSync(CHROMIUM, ['--version']).status !== 0) missing.push([CHROMIUM, 'chromium']);
  if (missing.length > 0) {
    const packages = [...new Set(missing.map(([, p]) => p))].join(' ');
    throw new Error(
      `receipt tests need ${missing.map(([t]) => t).join(', ')}: install them with "apt-get update && apt-get install -y ${packages}" (.ci/run does)`,
    );
  }
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const squash = (s: string) => s.replace(/\s+/g, '');

const dir = mkdtempSync(join(tmpdir(), 'receipts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function pdfFile(pdf: Buffer): string {
  const file = join(dir, `r${++n}.pdf`);
  writeFileSync(file, pdf);
  return file;
}
const pdfText = (pdf: Buffer): string => execFileSync('pdftotext', ['-enc', 'UTF-8', pdfFile(pdf), '-'], { encoding: 'utf8' });
/** Page 1 as a PNG, then the QR code's content as zbarimg reads it from the pixels. */
function decodeQr(pdf: Buffer): string[] {
  const file = pdfFile(pdf);
  const prefix = join(dir, `page${n}`);
  execFileSync('pdftoppm', ['-r', '150', '-png', '-f', '1', '-l', '1', '-singlefile', file, prefix]);
  const out = spawnSync('zbarimg', ['--raw', '-q', '-Sdisable', '-Sqrcode.enable', `${prefix}.png`], { encoding: 'utf8' });
  return out.stdout.split('\n').filter(Boolean);
}

const UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36 Тестовый-браузер/1.0 Ελληνικά/2.0 浏览器/3.0';
const USER = 'Анна Иванова · Γιώργος Παπαδόπουλος · 王小明 · 김민준';
const METADATA = {
  source: 'signup-form',
  note: 'Согласие получено · Συναίνεση δόθηκε · 同意しました · 동의했습니다',
  nested: { campaign: 'spring-2025' },
};

describe('receipts › when a consent is rendered to a PDF', () => {
  let t: TestService;
  let api: Client;
  let tenantId: string;
  let browser: Browser;
  let base: string;
  let consent: { id: string; consentHash: string; timestamp: string };
  let policy: { id: string; contentHash: string };
  let pdf: Buffer;
  let text: string;

  beforeAll(async () => {
    requireTools();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestService({ PUBLIC_BASE_URL: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    const creds = await t.tenant();
    tenantId = creds.tenantId;
    api = client(t.app, creds);
    const policyId = await publishPolicy(api, { title: 'Privacy policy — Политика конфиденциальности — 隐私政策', version: '2.1.0' });
    policy = { id: policyId, contentHash: (await api.get(`/api/v1/policies/${policyId}`)).json().data.contentHash };
    const created = await api.post('/api/v1/consent', {
      policyVersionId: policyId,
      userReference: USER,
      consentGiven: true,
      ipAddress: '203.0.113.7',
      userAgent: UA,
      metadata: METADATA,
    });
    expect(created.statusCode).toBe(201);
    consent = created.json().data;
    const res = await api.post(`/api/v1/consent/${consent.id}/pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    pdf = res.rawPayload;
    text = pdfText(pdf);
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
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('answers a PDF whose X-Receipt-SHA256 is the hash of its bytes, and records the issue in the ledger', async () => {
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const res = await api.get(`/api/v1/consent/${consent.id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.rawPayload.equals(pdf)).toBe(true);
    expect(res.headers['x-receipt-sha256']).toBe(sha256(pdf));
    const issued = await t.service.ledger.readStream(receiptStream(tenantId, consent.id));
    expect(issued.map((e) => e.type)).toEqual(['ReceiptIssued']);
    expect(issued[0]!.data).toMatchObject({
      consentId: consent.id,
      sha256: sha256(pdf),
      consentHash: consent.consentHash,
      consentStatus: 'active',
    });
  });

  it('holds every field docs/contract.md lists, in words, with Cyrillic, Greek and CJK text extracted', () => {
    for (const field of [
      'CONSENT RECEIPT',
      consent.id,
      USER,
      'Consent given',
      'In force (not withdrawn)',
      consent.timestamp,
      '203.0.113.7',
      'Тестовый-браузер/1.0',
      'Ελληνικά/2.0',
      '浏览器/3.0',
      'signup-form',
      'Согласие получено · Συναίνεση δόθηκε · 同意しました · 동의했습니다',
      'spring-2025',
      'Privacy policy — Политика конфиденциальности — 隐私政策',
      'privacy_policy',
      '2.1.0',
      'Generated at',
      'HOW TO VERIFY THIS RECEIPT',
    ]) {
      expect(text, field).toContain(field);
    }
    // Hashes and long values may wrap across lines.
    for (const value of [
      consent.consentHash,
      policy.contentHash,
      policy.id,
      UA,
      `${base}/verify/${consent.id}?hash=${consent.consentHash}`,
    ]) {
      expect(squash(text), value).toContain(squash(value));
    }
  });

  it('writes what no font sets as written (right-to-left, shaped scripts, emoji) as JSON escapes, from which the hash recomputes', async () => {
    const policyVersionId = await publishPolicy(api);
    // A backslash of its own too: read as JSON, it must not start an escape.
    const userReference = 'user🍪-Ω-ا-ש-ไทย-नमस्ते-陈-\\u0041';
    const metadata = { ar: 'مرحبا', he: 'שלום' };
    const recorded = (await api.post('/api/v1/consent', { policyVersionId, userReference, consentGiven: true, metadata })).json().data;
    const text = squash(pdfText((await api.post(`/api/v1/consent/${recorded.id}/pdf`)).rawPayload));
    const escaped = JSON.stringify(userReference)
      .slice(1, -1)
      .replace(/[^\x20-\x7eΩ陈]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
    expect(escaped).toBe(
      'user\\ud83c\\udf6a-Ω-\\u0627-\\u05e9-\\u0e44\\u0e17\\u0e22-\\u0928\\u092e\\u0938\\u094d\\u0924\\u0947-陈-\\\\u0041',
    );
    expect(text).toContain(squash(escaped));
    expect(text).toContain(squash('"ar": "\\u0645\\u0631\\u062d\\u0628\\u0627"'));
    expect(text).toContain(squash('JSON \\u escapes'));
    // Read as JSON reads them, the printed reference is the one the hash covers.
    expect(JSON.parse(`"${escaped}"`)).toBe(userReference);
  });

  it('writes invisible characters (controls, zero-width, soft hyphen, separators) as escapes too: no two references print alike', async () => {
    const policyVersionId = await publishPolicy(api);
    const userReference = 'bob\u200b\u0001\u00ad|tab\tx|ff\u000cy|nl\nDecision Rejected|ls\u2028';
    const metadata = { k: 'zero\u200bwidth\ufeff' };
    const recorded = (await api.post('/api/v1/consent', { policyVersionId, userReference, consentGiven: true, metadata })).json().data;
    const text = squash(pdfText((await api.post(`/api/v1/consent/${recorded.id}/pdf`)).rawPayload));
    const escaped = 'bob\\u200b\\u0001\\u00ad|tab\\u0009x|ff\\u000cy|nl\\u000aDecision Rejected|ls\\u2028';
    expect(text).toContain(squash(escaped));
    expect(JSON.parse(`"${escaped}"`)).toBe(userReference);
    expect(text).toContain(squash('"k": "zero\\u200bwidth\\ufeff"'));
  });

  it('embeds the fonts each script needs (subsets), so no script comes out blank', () => {
    const fonts = execFileSync('pdffonts', [pdfFile(pdf)], { encoding: 'utf8' });
    expect(fonts).toMatch(/\+NotoSans-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(fonts).toMatch(/\+NotoSansSC-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(fonts).toMatch(/\+NotoSansKR-Regular\s+CID TrueType\s+Identity-H\s+yes\s+yes/);
    expect(pdf.length).toBeLessThan(300_000);
  });

  it('carries a QR code that decodes to exactly {PUBLIC_BASE_URL}/verify/{consentId}?hash={consentHash}', () => {
    expect(decodeQr(pdf)).toEqual([`${base}/verify/${consent.id}?hash=${consent.consentHash}`]);
  });

  it('opens the QR code in a browser: "valid" with the policy, and none of the personal data', async () => {
    const [url] = decodeQr(pdf);
    const page = await browser.newPage();
    try {
      const res = await page.goto(url!);
      expect(res?.status()).toBe(200);
      await expect(page.getByTestId('verdict').textContent()).resolves.toBe('Valid consent record');
      const body = (await page.locator('body').textContent())!;
      expect(body).toContain('Privacy policy — Политика конфиденциальности — 隐私政策');
      expect(body).toContain('2.1.0');
      expect(body).toContain('Consent given');
      for (const secret of ['Анна', '203.0.113.7', 'Mozilla', 'signup-form', 'spring-2025']) expect(body).not.toContain(secret);
      const html = await page.content();
      expect(html).not.toMatch(/<script|<link|src=|url\(/i);
    } finally {
      await page.close();
    }
  });

  it('shows "not verified" in a browser when the hash in the URL is changed', async () => {
    const [url] = decodeQr(pdf);
    const changed = url!.replace(/hash=(.)/, (_m, c: string) => `hash=${c === '0' ? '1' : '0'}`);
    expect(changed).not.toBe(url);
    const page = await browser.newPage();
    try {
      await page.goto(changed);
      await expect(page.getByTestId('verdict').textContent()).resolves.toBe('Not verified');
      expect(await page.locator('body').textContent()).not.toContain('Privacy policy');
    } finally {
      await page.close();
    }
  });

  it('answers a QR link that an app added parameters to as the link itself: unknown ones ignored, a repeat read once', async () => {
    const ask = (query: string) =>
      t.app.inject({ method: 'GET', url: `/verify/${consent.id}?${query}`, headers: { accept: 'application/json' } });
    for (const query of [
      `hash=${consent.consentHash}&fbclid=IwAR0abc`,
      `utm_source=qr&hash=${consent.consentHash}&utm_medium=print`,
      `hash=${consent.consentHash}&hash=${'0'.repeat(64)}`,
    ]) {
      const res = await ask(query);
      expect(res.statusCode, query).toBe(200);
      expect(res.json().data, query).toMatchObject({ valid: true, consentId: consent.id });
    }
    const html = await t.app.inject({ method: 'GET', url: `/verify/${consent.id}?hash=${consent.consentHash}&fbclid=x` });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('answers the same "not verified" shape and status for a wrong hash, an unknown id and a malformed id, without a key', async () => {
    const ask = (path: string) => t.app.inject({ method: 'GET', url: path, headers: { accept: 'application/json' } });
    const good = await ask(`/verify/${consent.id}?hash=${consent.consentHash}`);
    expect(good.statusCode).toBe(200);
    expect(good.json().data).toMatchObject({
      valid: true,
      consentId: consent.id,
      policy: { version: '2.1.0', type: 'privacy_policy' },
      consentGiven: true,
      status: 'active',
      timestamp: consent.timestamp,
    });
    expect(JSON.stringify(good.json())).not.toMatch(/Анна|203\.0\.113\.7|Mozilla|signup-form/);

    const answers = await Promise.all([
      ask(`/verify/${consent.id}?hash=${'0'.repeat(64)}`),
      ask(`/verify/${consent.id}`),
      ask(`/verify/3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f?hash=${consent.consentHash}`),
      ask(`/verify/not-an-id?hash=${consent.consentHash}`),
      ask(`/verify/${consent.id.toUpperCase()}?hash=${consent.consentHash.slice(0, 63)}`),
    ]);
    const shapes = answers.map((r) => {
      const { consentId: _id, verifiedAt: _at, ...rest } = r.json().data;
      return { status: r.statusCode, type: r.headers['content-type'], rest };
    });
    for (const s of shapes) {
      expect(s).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
        rest: {
          valid: false,
          erased: false,
          tampered: false,
          policy: null,
          consentGiven: null,
          status: null,
          timestamp: null,
          withdrawnAt: null,
          log: null,
        },
      });
    }
    const html = await t.app.inject({ method: 'GET', url: `/verify/not-an-id?hash=x` });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(html.body).toContain('Not verified');
  });

  it("shows an imported record's original time beside the time it was recorded here, on the page and in JSON", async () => {
    const batch = await api.post('/api/v1/consent/batch', {
      consents: [{ policyVersionId: policy.id, userReference: 'moved-in', consentGiven: true, collectedAt: '2021-05-05T10:00:00Z' }],
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const imported = (await api.get(`/api/v1/consent/${batch.json().data.consents[0].id}`)).json().data;
    expect((await api.post(`/api/v1/consent/${imported.id}/pdf`)).statusCode).toBe(200);
    const ask = (id: string, hash: string, accept = 'application/json') =>
      t.app.inject({ method: 'GET', url: `/verify/${id}?hash=${hash}`, headers: { accept } });
    const answer = (await ask(imported.id, imported.consentHash)).json().data;
    expect(answer).toMatchObject({ valid: true, collectedAt: '2021-05-05T10:00:00.000Z', timestamp: imported.timestamp });
    const page = (await ask(imported.id, imported.consentHash, 'text/html')).body;
    expect(page).toContain('<dt>Decided at</dt><dd>2021-05-05 10:00:00.000 UTC');
    // A record made here has no such field.
    expect((await ask(consent.id, consent.consentHash)).json().data).not.toHaveProperty('collectedAt');
    expect((await ask(consent.id, consent.consentHash, 'text/html')).body).not.toContain('Decided at');
  });

  it('answers under /v1 too, and another tenant gets 404 RECEIPT_NOT_FOUND for the same consent', async () => {
    const v1 = await api.get(`/v1/consent/${consent.id}/pdf`);
    expect(v1.statusCode).toBe(200);
    expect(v1.headers['x-receipt-sha256']).toBe(sha256(v1.rawPayload));
    const other = client(t.app, await t.tenant());
    const res = await other.get(`/api/v1/consent/${consent.id}/pdf`);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('RECEIPT_NOT_FOUND');
    expect((await other.post(`/api/v1/consent/${consent.id}/pdf`)).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/consent/${consent.id}/pdf` })).statusCode).toBe(401);
  });

  it('carries its proof as an embedded file that `audit receipt` checks offline, and online against its ReceiptIssued event', async () => {
    expect(execFileSync('pdfdetach', ['-list', pdfFile(pdf)], { encoding: 'utf8' })).toContain('consent-ledger-proof.json');
    const vkey = (await t.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys[0].vkey as string;
    const cli = (args: string[]) =>
      runCommand(process.execPath, [join(repoRoot, 'bin', 'consent-ledger.js'), 'audit', 'receipt', ...args], {});
    const offline = await cli([pdfFile(pdf), '--key', vkey]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.json).toMatchObject({ valid: true, consentId: consent.id, consentHash: consent.consentHash, sha256: sha256(pdf) });
    const online = await cli([pdfFile(pdf), '--key', vkey, '--url', base]);
    expect(online.code, online.stderr).toBe(0);
    expect(online.json.issued.sha256).toBe(sha256(pdf));

    // A stored PDF changed in the database: served with the hash of the bytes sent, which its
    // ReceiptIssued event contradicts, and `audit receipt --url` names the change.
    await sql`UPDATE receipts.receipts SET pdf = pdf || '\x0a25'::bytea WHERE consent_id = ${consent.id}`.execute(t.service.store.db);
    const served = await api.get(`/api/v1/consent/${consent.id}/pdf`);
    expect(served.headers['x-receipt-sha256']).toBe(sha256(served.rawPayload));
    expect(served.headers['x-receipt-sha256']).not.toBe(sha256(pdf));
    expect((await cli([pdfFile(served.rawPayload), '--key', vkey])).code).toBe(0);
    const changed = await cli([pdfFile(served.rawPayload), '--key', vkey, '--url', base]);
    expect(changed.code).toBe(1);
    expect(changed.json.error.message).toContain('the PDF was changed after it was issued');
  });

  it('answers 404 RECEIPT_NOT_FOUND (with meta.timestamp) for a consent whose receipt was never generated', async () => {
    const policyVersionId = await publishPolicy(api);
    const fresh = (await api.post('/api/v1/consent', { policyVersionId, userReference: 'no-receipt', consentGiven: false })).json().data;
    const res = await api.get(`/api/v1/consent/${fresh.id}/pdf`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'RECEIPT_NOT_FOUND' } });
    expect(res.json().meta.timestamp).toEqual(expect.any(String));
    // No receipt, so the public page does not know it either.
    const page = await t.app.inject({
      method: 'GET',
      url: `/verify/${fresh.id}?hash=${fresh.consentHash}`,
      headers: { accept: 'application/json' },
    });
    expect(page.json().data.valid).toBe(false);
  });
});

describe('receipts › when the consent was withdrawn', () => {
  let t: TestService;
  let api: Client;
  let tenantId: string;
  beforeAll(async () => {
    requireTools();
    t = await startTestService({ PUBLIC_BASE_URL: 'https://consent.example.org/base' });
    const creds = await t.tenant();
    tenantId = creds.tenantId;
    api = client(t.app, creds);
  });
  afterAll(() => t?.close());

  it('says "not recorded" for every field a record lacks, so that the hash is recomputed with null for each', async () => {
    // Imported: made elsewhere, so neither the address nor the agent of the importing request.
    const policyVersionId = await publishPolicy(api, { effectiveDate: '2015-01-01T00:00:00Z' });
    const batch = await api.post('/api/v1/consent/batch', {
      consents: [{ policyVersionId, userReference: 'no-request-fields', consentGiven: true, collectedAt: '2020-01-01T00:00:00Z' }],
    });
    expect(batch.statusCode, batch.body).toBe(201);
    const id = batch.json().data.consents[0].id as string;
    expect((await api.get(`/api/v1/consent/${id}`)).json().data).toMatchObject({ ipAddress: null, userAgent: null });
    expect((await api.post(`/api/v1/consent/${id}/withdraw`, {})).statusCode).toBe(200);
    const text = pdfText((await api.post(`/api/v1/consent/${id}/pdf`)).rawPayload);
    // Withdrawal reason, IP address and user agent: each its own "not recorded", none blank.
    expect(text.match(/not recorded/g)).toHaveLength(3);
  });

  it('says so on the receipt, and the verification page shows it while the hash stays valid', async () => {
    const policyVersionId = await publishPolicy(api);
    const consent = (await api.post('/api/v1/consent', { policyVersionId, userReference: 'user-w', consentGiven: true })).json().data;
    const before = (await api.post(`/api/v1/consent/${consent.id}/pdf`)).rawPayload;
    expect(pdfText(before)).not.toMatch(/withdrawn on/i);

    const withdrawn = (await api.post(`/api/v1/consent/${consent.id}/withdraw`, { reason: 'Передумал — changed my mind' })).json().data;
    const res = await api.post(`/v1/consent/${consent.id}/pdf`);
    expect(res.statusCode).toBe(200);
    const text = pdfText(res.rawPayload);
    expect(text).toContain('CONSENT GIVEN');
    expect(text).toContain('WITHDRAWN on');
    expect(text).toContain('Withdrawn: this consent no longer stands');
    expect(text).toContain('Передумал — changed my mind');
    expect(text).toContain(withdrawn.withdrawnAt.replace('T', ' ').replace('Z', ''));
    expect(decodeQr(res.rawPayload)).toEqual([`https://consent.example.org/base/verify/${consent.id}?hash=${consent.consentHash}`]);

    // GET answers the latest receipt; the ledger records both issues.
    const latest = await api.get(`/api/v1/consent/${consent.id}/pdf`);
    expect(latest.rawPayload.equals(res.rawPayload)).toBe(true);
    expect(latest.headers['x-receipt-sha256']).toBe(res.headers['x-receipt-sha256']);
    const issued = await t.service.ledger.readStream(receiptStream(tenantId, consent.id));
    expect(issued.map((e) => [e.type, e.data.consentStatus, e.data.sha256])).toEqual([
      ['ReceiptIssued', 'active', sha256(before)],
      ['ReceiptIssued', 'withdrawn', res.headers['x-receipt-sha256']],
    ]);

    const page = await t.app.inject({
      method: 'GET',
      url: `/verify/${consent.id}?hash=${consent.consentHash}`,
      headers: { accept: 'application/json' },
    });
    expect(page.json().data).toMatchObject({ valid: true, status: 'withdrawn', withdrawnAt: withdrawn.withdrawnAt });
    const html = await t.app.inject({ method: 'GET', url: `/verify/${consent.id}?hash=${consent.consentHash}` });
    expect(html.body).toContain('Valid consent record');
    expect(html.body).toContain('Withdrawn on');
  });
});
