import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerDb } from '../../src/ledger/postgres/ledger.table.js';
import type { AppendRequest, AppendResult, Ledger } from '../../src/ledger/ledger.port.js';
import { ObservedLedger } from '../../src/ledger/observed-ledger.js';
import { client, publishPolicy, startTestService, type Client, type TestService } from '../support/service.js';

/**
 * One rule for conflicts: a write whose streams keep changing under every attempt answers 409
 * CONCURRENCY_CONFLICT with Retry-After, on every command (record, batch, withdraw, erase), never
 * a 500, and records nothing of its own.
 */

/**
 * The real ledger, with another writer that moves a stream the append is conditioned on right
 * before each append: a real conflict every time, as a busy second process would cause.
 */
class InterferingLedger extends ObservedLedger {
  interfered = 0;
  constructor(private readonly real: Ledger) {
    super(real, () => undefined);
  }
  override async append(requests: AppendRequest[], recordedAt: Date): Promise<AppendResult> {
    // A stream the write expects at a revision (a policy it was decided on, the record it
    // withdraws, the subject's erasure stream), else one it expects not to exist.
    const target =
      requests.find((r) => typeof r.expectedRevision === 'number') ??
      requests.find((r) => r.expectedRevision === 'no_stream') ??
      requests[0]!;
    const existing = await this.real.readStream(target.stream);
    // An event no reader knows (every consumer ignores those): the stream moves, its meaning does not.
    await this.real.append(
      [
        {
          tenantId: target.tenantId,
          stream: target.stream,
          expectedRevision: 'any',
          events: [{ type: 'TestInterference', data: { n: existing.length } }],
        },
      ],
      recordedAt,
    );
    this.interfered += 1;
    return super.append(requests, recordedAt);
  }
}

let t: TestService;
let api: Client;
let tenantId: string;
let policyId: string;
let consentId: string;
let interfering: InterferingLedger;

/** The ledger of the one command handler every command runs through, swapped for the interfering one while `fn` runs. */
async function underInterference<T>(fn: () => Promise<T>): Promise<T> {
  const handler = t.service.commands as unknown as { ledger: Ledger };
  const real = handler.ledger;
  interfering = new InterferingLedger(real);
  handler.ledger = interfering;
  try {
    return await fn();
  } finally {
    handler.ledger = real;
  }
}

async function ledgerCount(): Promise<number> {
  const row = await ledgerDb(t.service.store.db)
    .selectFrom('ledger.events')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('tenant_id', '=', tenantId)
    .where('event_type', '!=', 'TestInterference')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

beforeAll(async () => {
  t = await startTestService();
  const creds = await t.tenant('enterprise');
  tenantId = creds.tenantId;
  api = client(t.app, creds);
  policyId = await publishPolicy(api);
  const res = await api.post('/api/v1/consent', { policyVersionId: policyId, userReference: 'conflicted', consentGiven: true });
  expect(res.statusCode, res.body).toBe(201);
  consentId = res.json().data.id;
});
afterAll(() => t?.close());

const item = (userReference: string) => ({ policyVersionId: policyId, userReference, consentGiven: true });

describe('conflicts › when the streams a write depends on change under every attempt › 409 CONCURRENCY_CONFLICT', () => {
  it.each([
    ['record', () => api.post('/api/v1/consent', item('c-1'))],
    ['record with an Idempotency-Key', () => api.post('/api/v1/consent', item('c-2'), { 'idempotency-key': 'conflict-record' })],
    ['batch', () => api.post('/api/v1/consent/batch', { consents: [item('c-3'), item('c-4')] })],
    [
      'batch with an Idempotency-Key',
      () => api.post('/api/v1/consent/batch', { consents: [item('c-5')] }, { 'idempotency-key': 'conflict-batch' }),
    ],
    ['withdraw', () => api.post(`/api/v1/consent/${consentId}/withdraw`, { reason: 'changed my mind' })],
    [
      'withdraw with an Idempotency-Key',
      () => api.post(`/api/v1/consent/${consentId}/withdraw`, {}, { 'idempotency-key': 'conflict-withdraw' }),
    ],
    ['erase', () => api.post('/api/v1/subjects/erase', { userReference: 'conflicted' })],
  ])('%s: 409 with Retry-After, after retrying, and nothing of its own recorded', async (_name, send) => {
    const before = await ledgerCount();
    const res = await underInterference(send);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('CONCURRENCY_CONFLICT');
    expect(res.headers['retry-after']).toBe('1');
    expect(interfering.interfered).toBe(5);
    expect(await ledgerCount()).toBe(before);
  });

  it('once the interference stops, the same writes go through', async () => {
    expect((await api.post('/api/v1/consent', item('c-1'))).statusCode).toBe(201);
    expect((await api.post(`/api/v1/consent/${consentId}/withdraw`, { reason: 'changed my mind' })).statusCode).toBe(200);
    expect((await api.post('/api/v1/subjects/erase', { userReference: 'conflicted' })).statusCode).toBe(200);
  });
});
