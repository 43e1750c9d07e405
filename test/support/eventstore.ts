import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { connectEventStoreLedger } from '../../src/ledger/eventstoredb/index.js';
import type { EventStoreLedger } from '../../src/ledger/eventstoredb/eventstoredb.ledger.js';
import type { AuthenticateAppend } from '../../src/ledger/ledger.port.js';

declare module 'vitest' {
  interface ProvidedContext {
    /** The EventStoreDB server tests use: EVENTSTORE_URL, or the container global setup started; null when neither. */
    eventStoreUrl: string | null;
    /** Why EventStoreDB tests are skipped, when they are. */
    eventStoreMissing: string | null;
  }
}

/** The run's EventStoreDB URL, or null (then `eventStoreMissing` says why). */
export const eventStoreUrl: string | null = inject('eventStoreUrl') ?? null;
export const eventStoreMissing: string | null =
  inject('eventStoreMissing') ?? (eventStoreUrl ? null : 'no EventStoreDB was chosen for this run');

/** A stream prefix no other test (or run) on the same server uses. */
export const freshStreamPrefix = (): string => `t${Date.now().toString(36)}${randomBytes(4).toString('hex')}.`;

/**
 * An EventStoreDB ledger on the run's server, in streams of its own (a fresh prefix): to it the
 * server holds nothing else, as a fresh database would.
 */
export async function eventStoreLedger(
  options: { authenticate?: AuthenticateAppend } = {},
): Promise<{ ledger: EventStoreLedger; prefix: string; dispose(): Promise<void> }> {
  if (!eventStoreUrl) throw new Error(`EventStoreDB is not available: ${eventStoreMissing}`);
  const prefix = freshStreamPrefix();
  const { ledger, close } = await connectEventStoreLedger(eventStoreUrl, { streamPrefix: prefix, ...options });
  return { ledger, prefix, dispose: close };
}

/** Prints, once per file, the one line saying why EventStoreDB tests are skipped. */
export function reportEventStoreSkip(area: string): void {
  if (!eventStoreUrl) console.log(`[${area}] EventStoreDB tests skipped: ${eventStoreMissing}`);
}
