import { afterEach, describe, expect, it } from 'vitest';
import type { ConsentView } from '../application/consents/consent.views.js';
import { DomainError } from '../domain/errors.js';
import type { ReceiptInput } from './receipt.renderer.js';
import { RenderThread } from './render-thread.js';

/** A receipt's input, its metadata `emoji` emoji long: each printed as a 12-character escape, laid out slowly. */
const input = (emoji: number): ReceiptInput => ({
  consent: {
    id: '00000000-0000-4000-8000-000000000001',
    policyVersionId: '00000000-0000-4000-8000-000000000002',
    userReference: 'user-42',
    consentGiven: true,
    status: 'active',
    ipAddress: '203.0.113.7',
    userAgent: 'Test/1.0',
    metadata: { k: '🙂'.repeat(emoji) },
    consentHash: 'a'.repeat(64),
    timestamp: '2026-11-30T12:00:00.000Z',
    createdAt: '2026-11-30T12:00:00.000Z',
    withdrawnAt: null,
    withdrawalReason: null,
    policyDetails: { type: 'privacy_policy', version: '1.0.0', title: 'Privacy', contentHash: 'b'.repeat(64) },
  } as unknown as ConsentView,
  receiptId: '00000000-0000-4000-8000-000000000003',
  generatedAt: '2026-11-30T12:00:01.000Z',
  verifyUrl: 'https://ledger.example.com/verify/00000000-0000-4000-8000-000000000001',
});

const threads: RenderThread[] = [];
const thread = (timeoutMs?: number) => {
  const t = new RenderThread(timeoutMs);
  threads.push(t);
  return t;
};
afterEach(async () => {
  for (const t of threads.splice(0)) await t.close();
});

describe('receipts › laid out on a thread of their own', () => {
  it('keeps the request thread free while a slow one is laid out', async () => {
    const renderer = thread();
    // Timers on this thread keep firing while the PDF is made: on this thread they could not.
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 5);
    const started = performance.now();
    try {
      const pdf = await renderer.render(input(1500));
      expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    } finally {
      clearInterval(ticking);
    }
    const elapsed = performance.now() - started;
    // At least a tick for every 50 ms the layout took (a free thread gets about ten).
    expect(ticks).toBeGreaterThan(elapsed / 50);
  }, 120_000);

  it('gives up one that takes past its time (RECEIPT_TOO_LARGE), and lays out the next on a new thread', async () => {
    // No layout (nor a thread's start) fits in a millisecond: given up, whatever the machine's load.
    const renderer = thread(1);
    const refused = await renderer.render(input(1)).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(DomainError);
    expect((refused as DomainError).code).toBe('RECEIPT_TOO_LARGE');
    // The next gets a thread of its own, and its time.
    renderer.timeoutMs = 60_000;
    const pdf = await renderer.render(input(1));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);
});
