import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { proofIncludes } from '../../src/transparency/index.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

const dir = mkdtempSync(join(tmpdir(), 'receipts-log-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const pdfText = (pdf: Buffer): string => {
  const file = join(dir, `r-${Date.now()}-${Math.random()}.pdf`);
  writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
};
const squash = (s: string) => s.replace(/\s+/g, '');

describe('receipts › when the record is sealed in the transparency log', () => {
  let t: TestService;
  let api: Client;
  let consent: { id: string; consentHash: string };

  beforeAll(async () => {
    t = await startTestService();
    api = client(t.app, await t.tenant());
    const policyVersionId = await publishPolicy(api);
    consent = (await api.post('/api/v1/consent', { policyVersionId, userReference: 'log-user', consentGiven: true })).json().data;
  });
  afterAll(() => t?.close());

  it('prints the leaf index, tree size, root hash and signed checkpoint of its inclusion proof', async () => {
    // The proof first: issuing the receipt appends a ReceiptIssued event, and once the sealer has
    // it the newest checkpoint (which the proof route answers) is a larger tree than the receipt's.
    const proof = (await api.get(`/api/v1/consent/${consent.id}/proof`)).json().data;
    expect(proofIncludes(proof)).toBe(true);
    const res = await api.post(`/api/v1/consent/${consent.id}/pdf`);
    expect(res.statusCode, res.body).toBe(200);
    const text = squash(pdfText(res.rawPayload));
    expect(text.toLowerCase()).toContain('transparencylog');
    expect(text).toContain(`Leafindex${proof.leafIndex}`);
    expect(text).toContain(squash(proof.rootHash));
    // The checkpoint's signature line ends the note: the receipt carries it whole.
    const signature = proof.checkpoint.trimEnd().split('\n').at(-1)!;
    expect(text).toContain(squash(signature));
  });

  it('makes the public page state that the newest signed checkpoint includes the record', async () => {
    const json = await t.app.inject({ url: `/verify/${consent.id}?hash=${consent.consentHash}`, headers: { accept: 'application/json' } });
    const body = json.json();
    const v = body.data ?? body;
    expect(v.valid).toBe(true);
    expect(v.log).toMatchObject({ included: true });
    expect(v.log.treeSize).toBeGreaterThan(v.log.leafIndex);
    const html = await t.app.inject({ url: `/verify/${consent.id}?hash=${consent.consentHash}` });
    expect(html.body).toContain('Included in the newest signed checkpoint');

    const wrong = await t.app.inject({ url: `/verify/${consent.id}?hash=${'0'.repeat(64)}`, headers: { accept: 'application/json' } });
    const w = wrong.json().data ?? wrong.json();
    expect(w.valid).toBe(false);
    expect(w.log).toBeNull();
  });

  it('refuses a proof whose path was altered', async () => {
    const proof = (await api.get(`/api/v1/consent/${consent.id}/proof`)).json().data;
    const path = [...proof.inclusionPath];
    if (path.length > 0) path[0] = path[0].replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    const tampered = path.length > 0 ? { ...proof, inclusionPath: path } : { ...proof, rootHash: '0'.repeat(64) };
    expect(proofIncludes(tampered)).toBe(false);
  });
});
