import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDb } from '../../src/ledger/postgres/ledger.table.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 19: the acting key's id (never its secret) is in every event's metadata, so the ledger
 * says who recorded, withdrew or erased what; the record view and its receipt show it.
 */

let t: TestService;
let tenantId: string;
let admin: Client;
let adminKey: { apiKey: string; apiSecret: string };
let writer: Client;
let writerKey: { apiKey: string; apiSecret: string };
let reader: Client;
const dir = mkdtempSync(join(tmpdir(), 'actors-'));

beforeAll(async () => {
  t = await startTestService();
  adminKey = await t.tenant('pro');
  tenantId = (adminKey as { tenantId: string } & typeof adminKey).tenantId;
  admin = client(t.app, adminKey);
  writerKey = await t.service.tenants.createKey(tenantId, { scope: 'write', name: 'signup backend' });
  writer = client(t.app, writerKey);
  reader = client(t.app, await t.service.tenants.createKey(tenantId, { scope: 'read' }));
}, 60_000);
afterAll(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function events(stream: string) {
  return ledgerDb(t.service.store.db)
    .selectFrom('ledger.events')
    .select(['event_type', 'metadata', 'data'])
    .where('tenant_id', '=', tenantId)
    .where('stream_id', 'like', stream)
    .orderBy('global_position')
    .execute();
}

describe('actors › who did what', () => {
  it('names the key that recorded and the key that withdrew, in the ledger and in the record and its receipt', async () => {
    const policyVersionId = await publishPolicy(admin);
    const res = await writer.post('/api/v1/consent', { policyVersionId, userReference: 'acted-on', consentGiven: true });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as string;
    expect((await admin.post(`/api/v1/consent/${id}/withdraw`, { reason: 'asked' })).statusCode).toBe(200);

    const stored = await events(`consent-${tenantId}-${id}`);
    expect(stored.map((e) => [e.event_type, e.metadata.actor])).toEqual([
      ['ConsentRecorded', { type: 'key', id: writerKey.apiKey }],
      ['ConsentWithdrawn', { type: 'key', id: adminKey.apiKey }],
    ]);
    expect(JSON.stringify(stored)).not.toContain(writerKey.apiSecret);
    expect(JSON.stringify(stored)).not.toContain(adminKey.apiSecret);

    const view = (await reader.get(`/api/v1/consent/${id}`)).json().data;
    expect(view).toMatchObject({ recordedBy: { type: 'key', id: writerKey.apiKey }, withdrawnBy: { type: 'key', id: adminKey.apiKey } });
    // The events still verify as the service's own, with their hash chain.
    expect((await reader.get(`/api/v1/consent/${id}/verify`)).json().data.valid).toBe(true);

    const pdf = await reader.inject({ method: 'POST', url: `/api/v1/consent/${id}/pdf` });
    expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
    const file = join(dir, 'receipt.pdf');
    writeFileSync(file, pdf.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    expect(text).toContain(`Recorded by API key ${writerKey.apiKey}`);
  });

  it('names the key that erased a subject, and the operator for the admin API', async () => {
    const policyVersionId = await publishPolicy(admin);
    expect((await writer.post('/api/v1/consent', { policyVersionId, userReference: 'to-erase', consentGiven: true })).statusCode).toBe(201);
    expect((await admin.post('/api/v1/subjects/erase', { userReference: 'to-erase' })).statusCode).toBe(200);
    const erased = (await events('subject-%')).filter((e) => e.event_type === 'SubjectErased');
    expect(erased.length).toBeGreaterThan(0);
    expect(erased.every((e) => (e.metadata.actor as { id?: string })?.id === adminKey.apiKey)).toBe(true);
    // Policies published through the API name their key too.
    const published = (await events('policy-%')).filter((e) => e.event_type === 'PolicyVersionPublished');
    expect(published.every((e) => (e.metadata.actor as { id?: string })?.id === adminKey.apiKey)).toBe(true);
  });
});
