import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * Issue 20, a record's page: `GET /api/v1/consent/:id/history` answers its events and its
 * receipts' issues in ledger order, each with time, actor and hashes, chained within its stream.
 */

let t: TestService;
let api: Client;
let apiKey: string;

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('pro');
  apiKey = creds.apiKey;
  api = client(t.app, creds);
}, 60_000);
afterAll(() => t?.close());

describe('a record’s history', () => {
  it('lists its events and receipts in ledger order, each chained to the one before in its stream', async () => {
    const policyVersionId = await publishPolicy(api);
    const id = (await api.post('/api/v1/consent', { policyVersionId, userReference: 'h-1', consentGiven: true })).json().data.id as string;
    expect((await api.post(`/api/v1/consent/${id}/pdf`)).statusCode).toBe(200);
    expect((await api.post(`/api/v1/consent/${id}/withdraw`, { reason: 'asked' })).statusCode).toBe(200);
    const res = await api.get(`/api/v1/consent/${id}/history`);
    expect(res.statusCode, res.body).toBe(200);
    const history = res.json().data as { type: string; actor: unknown; stream: string; eventHash: string; prevHash: string | null }[];
    expect(history.map((e) => e.type)).toEqual(['ConsentRecorded', 'ReceiptIssued', 'ConsentWithdrawn']);
    expect(history.every((e) => JSON.stringify(e.actor) === JSON.stringify({ type: 'key', id: apiKey }))).toBe(true);
    expect(history[0]!.prevHash).toBeNull();
    expect(history[2]!.prevHash).toBe(history[0]!.eventHash);
    expect(JSON.stringify(history)).not.toContain('h-1');
    expect((await api.get('/api/v1/consent/00000000-0000-4000-8000-000000000000/history')).statusCode).toBe(404);
  });
});
