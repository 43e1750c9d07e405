import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purposeStream } from '../../src/domain/purpose/purpose.events.js';
import { client, startTestService, type Client, type TestService } from '../support/service.js';

/** Purposes (issue: two `custom` purposes collided): a tenant defines its own, each change a ledger event. */

let t: TestService;
let api: Client;
let tenantId: string;

const newsletter = {
  key: 'newsletter',
  name: 'Newsletter',
  description: 'A monthly email about our products',
  legalBasis: 'consent',
  consentValidFor: 'P24M',
  dpv: 'dpv:Marketing',
};

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('starter');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
}, 60_000);
afterAll(() => t?.close());

describe('purposes', () => {
  it('defines a purpose, answers it, and refuses the same key again with 409 PURPOSE_EXISTS', async () => {
    const res = await api.post('/api/v1/purposes', newsletter);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ ...newsletter, createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect((await api.get('/api/v1/purposes/newsletter')).json().data).toMatchObject(newsletter);
    const again = await api.post('/api/v1/purposes', { ...newsletter, name: 'Other' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('PURPOSE_EXISTS');
  });

  it('keeps two purposes apart and lists them by key, optional fields null', async () => {
    const sms = await api.post('/api/v1/purposes', { key: 'sms-offers', name: 'SMS offers', legalBasis: 'consent' });
    expect(sms.statusCode, sms.body).toBe(201);
    expect(sms.json().data).toMatchObject({ description: '', consentValidFor: null, dpv: null });
    const list = await api.get('/api/v1/purposes');
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((p: { key: string }) => p.key)).toEqual(['newsletter', 'sms-offers']);
    expect(list.json().pagination).toMatchObject({ total: 2 });
  });

  it('changes only what differs, each change a ledger event; the list follows', async () => {
    const res = await api.patch('/api/v1/purposes/newsletter', { consentValidFor: 'P13M', name: 'Newsletter' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ key: 'newsletter', name: 'Newsletter', consentValidFor: 'P13M' });
    const unchanged = await api.patch('/api/v1/purposes/newsletter', { consentValidFor: 'P13M' });
    expect(unchanged.statusCode).toBe(200);
    const events = await t.service.ledger.readStream(purposeStream(tenantId, 'newsletter'));
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['PurposeDefined', expect.objectContaining({ key: 'newsletter', consentValidFor: 'P24M' })],
      ['PurposeChanged', { key: 'newsletter', consentValidFor: 'P13M', at: expect.any(String) }],
    ]);
    const listed = (await api.get('/api/v1/purposes')).json().data.find((p: { key: string }) => p.key === 'newsletter');
    expect(listed).toMatchObject({ consentValidFor: 'P13M' });
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const bad = [
      { ...newsletter, key: 'Newsletter' },
      { ...newsletter, key: '' },
      { ...newsletter, key: 'x'.repeat(65) },
      { ...newsletter, key: 'other', legalBasis: 'because' },
      { ...newsletter, key: 'other', consentValidFor: '13 months' },
      { ...newsletter, key: 'other', consentValidFor: 'P0D' },
      { ...newsletter, key: 'other', consentValidFor: 'PT' },
      { ...newsletter, key: 'other', dpv: 'marketing' },
      { ...newsletter, key: 'other', extra: true },
      { ...newsletter, key: 'other', name: '' },
    ];
    for (const body of bad) {
      const res = await api.post('/api/v1/purposes', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    expect((await api.patch('/api/v1/purposes/newsletter', {})).statusCode).toBe(400);
    expect((await api.patch('/api/v1/purposes/newsletter', { consentValidFor: 'P0M' })).statusCode).toBe(400);
    expect((await t.service.ledger.readStream(purposeStream(tenantId, 'other'))).length).toBe(0);
  });

  it('answers 404 for a key never defined, and another tenant sees none of them', async () => {
    expect((await api.get('/api/v1/purposes/nothing')).statusCode).toBe(404);
    expect((await api.patch('/api/v1/purposes/nothing', { name: 'x' })).statusCode).toBe(404);
    const other = client(t.app, await t.tenant('starter'));
    expect((await other.get('/api/v1/purposes/newsletter')).statusCode).toBe(404);
    expect((await other.get('/api/v1/purposes')).json().data).toEqual([]);
  });
});
