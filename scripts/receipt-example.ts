/**
 * Renders the example receipt pictured in docs/receipts.md from a real service (in-memory store):
 * a consent given, then withdrawn, with its transparency-log anchor. Needs pdftoppm (poppler-utils).
 *
 *   npx tsx scripts/receipt-example.ts   → docs/receipt-example.png
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSettings } from '../src/config.js';
import { createService } from '../src/service.js';

const service = await createService(
  loadSettings({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent', PUBLIC_BASE_URL: 'https://consent.example.com' }),
);
const dir = mkdtempSync(join(tmpdir(), 'receipt-example-'));
try {
  const creds = await service.tenants.create('Example GmbH', 'business');
  const headers = {
    'x-api-key': creds.apiKey,
    'x-api-secret': creds.apiSecret,
    'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15',
  };
  const send = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await service.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const policy = (
    await send('POST', '/api/v1/policies', {
      policyType: 'privacy_policy',
      version: '3.2.0',
      title: 'Privacy Policy — Datenschutzerklärung',
      content: 'We process your data as described here.',
    })
  ).json().data;
  const consent = (
    await send('POST', '/api/v1/consent', {
      policyVersionId: policy.id,
      userReference: 'customer-48213 · Jürgen Müller',
      consentGiven: true,
      ipAddress: '203.0.113.42',
      metadata: { source: 'checkout', locale: 'de-DE', campaign: { name: 'spring', channel: 'email' } },
    })
  ).json().data;
  await send('POST', `/api/v1/consent/${consent.id}/withdraw`, { reason: 'Asked by e-mail to stop marketing' });
  const pdf = (await send('POST', `/api/v1/consent/${consent.id}/pdf`)).rawPayload;
  const file = join(dir, 'receipt.pdf');
  writeFileSync(file, pdf);
  execFileSync('pdftoppm', ['-r', '80', '-png', '-f', '1', '-l', '1', '-singlefile', file, join(process.cwd(), 'docs', 'receipt-example')]);
  console.log('wrote docs/receipt-example.png');
} finally {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
}
